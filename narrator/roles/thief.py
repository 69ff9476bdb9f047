"""The Thief: first night only, sees the two extra cards and may swap his card for one of them;
two Werewolf cards force a take (the card he gets without choosing is drawn before the turn)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from narrator.ports import Heard
from narrator.roles.base import Ask, Call, CallTurn, Card, NightTurn, PanelLine, RoleModule, Schedule, closed_turn
from narrator.rules import hooks
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView

if TYPE_CHECKING:
    from narrator.rules.game import Game


def run(game: Game, rng: random.Random) -> CallTurn:
    seat = game.living_holder(Role.THIEF)
    if seat is None:
        return CallTurn("thief.wake", closed_turn("thief"))
    extra = game.state.extra
    forced = all(r in hooks.PACK for r in extra)
    # Two Werewolf cards: he must take one. The card he gets without choosing is drawn now
    # and shown from the start, so that nothing is drawn or shown after the deadline.
    default = rng.choice((1, 2)) if forced else 0

    def card(answers: list[Heard]) -> int:
        if not answers:
            return default
        return 0 if answers[-1].choice == "nobody" else int(answers[-1].choice)

    def panel(answers: list[Heard]) -> list[PanelLine]:
        cards = {"role_a": extra[0].value, "role_b": extra[1].value}
        lines: list[PanelLine] = (
            [("thief.cards_forced", cards), ("thief.forced", {"seat": default})] if forced else [("thief.cards", cards)]
        )
        if answers:
            chosen = card(answers)
            took: PanelLine = ("thief.took", {"role": extra[chosen - 1].value}) if chosen else ("thief.kept", {})
            lines += [took, ("echo.change", {})]
        return lines

    words = () if forced else ("nobody",)
    turn = NightTurn("thief", lambda answers: None if answers else Ask("night.thief", (1, 2), words), panel)

    def finish(answers: list[Heard]) -> None:
        game.thief_choose(card(answers))

    return CallTurn("thief.wake", turn, finish)


MODULE = RoleModule(
    Card(Role.THIEF, Team.VILLAGE),
    (Call("thief", 1, Schedule.FIRST_NIGHT, Role.THIEF, run, turn=20.0,
          lines=("thief.cards", "thief.cards_forced", "thief.forced", "thief.took", "thief.kept")),),
)
