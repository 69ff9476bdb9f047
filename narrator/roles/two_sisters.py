"""The Two Sisters (les Deux Sœurs, Personnages): two cards, dealt together; they wake together
to know each other, then consult in silence (docs/rules-spec.md#role-siblings).

- Called on Night 1 (row 8), then as `siblings_wake` says: `every_other_night` (Nights 1, 3, 5...,
  the default), `first_night_only` or `every_night`. The schedule reads only the options and the
  night number: the call is made on its nights whether the Sisters are dealt, alive or dead.
- No input: the turn lasts its fixed length. The panel shows the Sisters' seats, only while they
  are awake; the engine records that they woke (`use_power("two_sisters", ())`, refused on the
  other nights). Nothing is said by day.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Literal

from narrator.ports import Heard
from narrator.roles.base import Call, CallTurn, Card, NightTurn, Option, PanelLine, RoleModule, Schedule, closed_turn
from narrator.rules.options import Options
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView, Power

if TYPE_CHECKING:
    from narrator.rules.game import Game

ORDER = 8  # docs/rules-spec.md#night-order: after the Stuttering Judge's first night


def siblings_night(options: Options, night: int) -> bool:
    """Whether the Sisters and the Brothers wake on night `night` (`siblings_wake`)."""
    if options.siblings_wake == "every_night":
        return True
    if options.siblings_wake == "first_night_only":
        return night == 1
    return night % 2 == 1


def siblings_turn(game: Game, role: Role, call: str) -> CallTurn:
    """The siblings' call: every living sibling sees the seats of all of them; no input. The
    engine records that they woke (`use_power` with no seat), on their nights only."""
    seats = game.holders(role)
    if not any(game.is_alive(seat) for seat in seats):
        return CallTurn(f"{call}.wake", closed_turn(call))
    shown: list[PanelLine] = [(f"{call}.show", {"seat": seat}) for seat in seats]

    def finish(answers: list[Heard]) -> None:
        game.use_power(call, ())

    return CallTurn(f"{call}.wake", NightTurn(call, lambda answers: None, lambda answers: shown, final=True), finish)


def nobody(game: GameView, sibling: int) -> tuple[int, ...]:
    return ()


def check(game: GameView, sibling: int, chosen: tuple[int, ...]) -> str | None:
    return None if not chosen else "the siblings only wake and recognise each other: they choose nobody"


def siblings_power(call: str, role: Role, order: float) -> Power:
    return Power(call, role, order, check, nobody, count=0, nights=siblings_night)


def run(game: Game, rng: random.Random) -> CallTurn:
    return siblings_turn(game, Role.TWO_SISTERS, "two_sisters")


SiblingsWake = Literal["every_other_night", "first_night_only", "every_night"]
OPTIONS = (
    Option("siblings_wake", SiblingsWake, "every_other_night"),
)


MODULE = RoleModule(
    Card(Role.TWO_SISTERS, Team.VILLAGE, moons=1, unique=False, box="characters", copies=2),
    (Call("two_sisters", ORDER, Schedule.SOME_NIGHTS, Role.TWO_SISTERS, run, turn=15.0,
          lines=("two_sisters.show",), nights=siblings_night),),
    powers=(siblings_power("two_sisters", Role.TWO_SISTERS, ORDER),),
    options=OPTIONS,
)
