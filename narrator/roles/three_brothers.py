"""The Three Brothers (les Trois Frères, Personnages): three cards, dealt together; they wake
together to know each other, then consult in silence (docs/rules-spec.md#role-siblings).

Called right after the Two Sisters (row 9), on the same nights (`siblings_wake`: Night 1, then
every other night by default), dealt or not, alive or dead; no input; the panel shows the
Brothers' seats while they are awake. Nothing is said by day.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from narrator.roles.base import Call, CallTurn, Card, RoleModule, Schedule
from narrator.roles.two_sisters import siblings_night, siblings_power, siblings_turn
from narrator.rules.roles import Role, Team

if TYPE_CHECKING:
    from narrator.rules.game import Game

ORDER = 9  # docs/rules-spec.md#night-order: right after the Two Sisters


def run(game: Game, rng: random.Random) -> CallTurn:
    return siblings_turn(game, Role.THREE_BROTHERS, "three_brothers")


MODULE = RoleModule(
    Card(Role.THREE_BROTHERS, Team.VILLAGE, moons=1, unique=False, box="characters", copies=3),
    (Call("three_brothers", ORDER, Schedule.SOME_NIGHTS, Role.THREE_BROTHERS, run, turn=15.0,
          lines=("three_brothers.show",), nights=siblings_night),),
    powers=(siblings_power("three_brothers", Role.THREE_BROTHERS, ORDER),),
)
