"""The Little Girl: no call of her own; she may peek while the Werewolves are awake (at the table,
not through the narrator)."""

from __future__ import annotations

from narrator.roles.base import Card, RoleModule
from narrator.rules.roles import Role, Team

MODULE = RoleModule(Card(Role.LITTLE_GIRL, Team.VILLAGE, moons=1))
