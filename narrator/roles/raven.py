"""The Raven (le Corbeau, Le Village): every night, last, marks one living player (himself
allowed) or nobody (docs/rules-spec.md#role-raven).

- In the morning, if the game goes on and the marked player lives, the mark is said aloud
  (dawn step 9). The marked player has `raven_mark_votes` extra votes against him in the first
  count of that day (plurality's count, runoff's round 1, the accusation round), even with no real
  vote for him; then the mark is gone. It lapses if he dies first. If the Raven dies after
  marking the mark stays, unless `raven_mark_needs_living_raven`.
- Secrecy: called every night when possible, dealt or not, alive or not; his choice is echoed on
  his panel only, and public only in the morning, by design.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Mapping

from narrator.ports import Heard
from narrator.roles.base import (Ask, Call, CallTurn, Card, NightTurn, Option, PanelLine, RoleModule, Schedule,
                                  closed_turn)
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView, Hooks, Power

if TYPE_CHECKING:
    from narrator.rules.game import Game

ORDER = 22  # docs/rules-spec.md#night-order: the last call of the night


def targets(game: GameView, raven: int) -> tuple[int, ...]:
    return game.living()


def check(game: GameView, raven: int, chosen: tuple[int, ...]) -> str | None:
    return None if len(chosen) <= 1 else "the Raven marks one player, or nobody"


def marked(game: GameView) -> int | None:
    """The seat whose mark holds today: marked last night, alive, and the Raven alive if needed."""
    mark = game.state.chosen_tonight.get("raven", ())
    if not mark or not game.state.alive[mark[0] - 1]:
        return None
    if game.options.raven_mark_needs_living_raven and game.living_holder(Role.RAVEN) is None:
        return None
    return mark[0]


def vote_bonus(game: GameView) -> Mapping[int, int]:
    seat = marked(game)
    return {} if seat is None else {seat: game.options.raven_mark_votes}


def morning(game: GameView) -> list[PanelLine]:
    seat = marked(game)
    if seat is None:
        return []
    count = game.options.raven_mark_votes
    votes: PanelLine = ("raven.votes_one", {}) if count == 1 else ("raven.votes", {"count": count})
    return [("raven.mark", {"seat": seat}), votes]


def run(game: Game, rng: random.Random) -> CallTurn:
    if game.living_holder(Role.RAVEN) is None:
        return CallTurn("raven.wake", closed_turn("raven"))
    choices = game.living()

    def question(answers: list[Heard]) -> Ask | None:
        return None if answers else Ask("night.raven", choices, ("nobody",))

    def panel(answers: list[Heard]) -> list[PanelLine]:
        if not answers:
            return [("raven.prompt", {})]
        choice = answers[-1].choice
        echo: PanelLine = ("echo.mark_nobody", {}) if choice == "nobody" else ("echo.mark", {"seat": choice})
        return [("raven.prompt", {}), echo, ("echo.change", {})]

    def finish(answers: list[Heard]) -> None:
        if answers:
            choice = answers[-1].choice
            game.use_power("raven", () if choice == "nobody" else (int(choice),))

    return CallTurn("raven.wake", NightTurn("raven", question, panel), finish)


VOTES = range(1, 6)  # the extra votes a mark may bring (`raven_mark_votes`), said in the morning
OPTIONS = (
    Option("raven_mark_votes", int, 2, span=VOTES),
    Option("raven_mark_needs_living_raven", bool, False),
)


MODULE = RoleModule(
    Card(Role.RAVEN, Team.VILLAGE, moons=2, box="village"),
    (Call("raven", ORDER, Schedule.EVERY_NIGHT, Role.RAVEN, run, turn=20.0,
          lines=("raven.prompt", "echo.mark", "echo.mark_nobody", "raven.mark", "raven.votes", "raven.votes_one")),),
    powers=(Power("raven", Role.RAVEN, ORDER, check, targets),),
    morning=morning,
    morning_order=30,
    hooks=Hooks(
        vote_bonus=(vote_bonus,),
    ),
    options=OPTIONS,
    counts=tuple(VOTES),
)
