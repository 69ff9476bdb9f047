"""The Villager: no power; finds the Werewolves by talking and votes by day. No night call."""

from __future__ import annotations

from narrator.roles.base import Card, RoleModule
from narrator.rules.roles import Role, Team

MODULE = RoleModule(Card(Role.VILLAGER, Team.VILLAGE, moons=1, unique=False, wizard=False))
