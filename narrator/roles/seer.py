"""The Seer: every night looks at one other living player's card (or team: `seer_sees`).
Her answer is final: she has seen the card."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from narrator.ports import Heard
from narrator.roles.base import Ask, Call, CallTurn, Card, NightTurn, PanelLine, RoleModule, Schedule, closed_turn
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView

if TYPE_CHECKING:
    from narrator.rules.game import Game


def run(game: Game, rng: random.Random) -> CallTurn:
    if game.living_holder(Role.SEER) is None:
        return CallTurn("seer.wake", closed_turn("seer"))
    seen: list[PanelLine] = []

    def question(answers: list[Heard]) -> Ask | None:
        return None if answers else Ask("night.seer", game.seer_targets())

    def panel(answers: list[Heard]) -> list[PanelLine]:
        return seen if answers else [("seer.prompt", {})]

    def look(answers: list[Heard]) -> None:
        # She sees the card at once: her answer is final (a second look would show two cards).
        target = int(answers[-1].choice)
        result = game.seer_inspect(target)
        if result is None:  # her power is lost: she sees nothing (the turn's panel says so)
            return
        if isinstance(result, Team):
            seen.append(("seer.result_wolf" if result is Team.WOLVES else "seer.result_not_wolf", {"seat": target}))
        else:
            seen.append(("seer.result", {"seat": target, "role": result.value}))

    return CallTurn("seer.wake", NightTurn("seer", question, panel, final=True, on_answer=look))


MODULE = RoleModule(
    Card(Role.SEER, Team.VILLAGE),
    (Call("seer", 12, Schedule.EVERY_NIGHT, Role.SEER, run, turn=20.0,
          lines=("seer.prompt", "seer.result", "seer.result_wolf", "seer.result_not_wolf")),),
)
