"""The Hunter: no night call. When he dies he shoots at once (`Game.hunter_shoot`, the day's
chain step; which deaths let him shoot: option `hunter_shoots_on`)."""

from __future__ import annotations

from narrator.roles.base import Card, RoleModule
from narrator.rules.roles import Role, Team

MODULE = RoleModule(Card(Role.HUNTER, Team.VILLAGE))
