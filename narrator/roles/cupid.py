"""Cupid: first night only, names two Lovers (himself allowed); then the Lovers wake and see
each other. If one Lover dies the other dies of grief: the Lovers are the engine's (the first of a
death's chain reactions, narrator/rules/chains.py; their row of the end check, narrator/rules/ends.py)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from narrator.ports import Heard
from narrator.roles.base import Ask, Call, CallTurn, Card, NightTurn, PanelLine, RoleModule, Schedule, closed_turn
from narrator.rules.errors import IllegalActionError, InvalidTargetError
from narrator.rules.events import Event, LoversChosen
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView, Power

if TYPE_CHECKING:
    from narrator.rules.game import Game

ORDER = 5  # docs/rules-spec.md#night-order: the first night, after the Thief and the Actor


def targets(game: GameView, cupid: int) -> tuple[int, ...]:
    """Any two living players, himself allowed."""
    return game.living()


def chose(game: GameView, cupid: int, chosen: tuple[int, ...]) -> tuple[Event, ...]:
    """His Lovers, checked: two different living players."""
    if len(chosen) != 2:
        raise IllegalActionError("{said}: {problem}", said=said(chosen), problem="Cupid names exactly two Lovers")
    if chosen[0] == chosen[1]:
        raise InvalidTargetError("Cupid named seat {first} twice; the Lovers are two different players", first=chosen[0])
    return (LoversChosen(cupid, chosen[0], chosen[1]),)


def said(chosen: tuple[int, ...]) -> str:
    return f"Lovers {chosen[0]!r} and {chosen[1]!r}" if len(chosen) == 2 else f"Lovers {chosen!r}"


def run_cupid(game: Game, rng: random.Random) -> CallTurn:
    alive = game.living_holder(Role.CUPID) is not None

    def question(answers: list[Heard]) -> Ask | None:
        if not alive:
            return Ask("night.cupid") if not answers else None
        if len(answers) >= 2:
            return None
        return Ask("night.cupid", tuple(p for p in game.living() if all(p != a.choice for a in answers)))

    def panel(answers: list[Heard]) -> list[PanelLine]:
        if not alive:
            return [("night.closed", {})]
        lines: list[PanelLine] = [("cupid.prompt", {})]
        if len(answers) == 1:
            lines += [("echo.lover", {"seat": answers[0].choice}), ("echo.change", {})]
        elif len(answers) == 2:
            lines += [("echo.lovers", {"seat": answers[0].choice, "other": answers[1].choice}), ("echo.change", {})]
        return lines

    def finish(answers: list[Heard]) -> None:
        if alive and len(answers) == 2:
            game.use_power("cupid", (int(answers[0].choice), int(answers[1].choice)))

    return CallTurn("cupid.wake", NightTurn("cupid", question, panel), finish)


def run_lovers(game: GameView, rng: random.Random) -> CallTurn:
    lovers = game.state.lovers
    if lovers is None:
        return CallTurn("lovers.wake", closed_turn("lovers"))
    shown: list[PanelLine] = [("lovers.show", {"seat": lovers[0], "other": lovers[1]})]
    return CallTurn("lovers.wake", NightTurn("lovers", lambda answers: None, lambda answers: shown, final=True))


MODULE = RoleModule(
    Card(Role.CUPID, Team.VILLAGE, moons=2),
    (
        Call("cupid", ORDER, Schedule.FIRST_NIGHT, Role.CUPID, run_cupid, turn=25.0, lines=("cupid.prompt", "echo.lover", "echo.lovers")),
        Call("lovers", 6, Schedule.AFTER, Role.CUPID, run_lovers, turn=10.0, after="cupid", lines=("lovers.show",)),
    ),
    powers=(Power("cupid", Role.CUPID, ORDER, None, targets, count=2, first_night_only=True, record=chose, renewed=False,
                  lost_with_power=False, who="Cupid", said=said),),
)
