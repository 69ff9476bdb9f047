"""The Savior (le Salvateur, Nouvelle Lune): every night, before the Seer, protects one living
player, himself allowed, from being devoured that night (docs/rules-spec.md#role-savior).

- Not the same player two nights running (`savior_same_target_twice`); an unanswered night
  protects nobody and frees last night's player.
- The protection stops devouring only (dawn step 2): not poison, grief, the Hunter or the vote.
  On the Little Girl it does nothing (`savior_protects_little_girl`). `savior_blocks` says which
  devourings it stops: every devouring (the pack's victim, the White Werewolf's, the Big Bad
  Wolf's), or the pack's only.
- Secrecy: called every night when possible, dealt or not, alive or not; last night's player is
  shown on his panel only.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Literal

from narrator.ports import Heard
from narrator.roles.base import (Ask, Call, CallTurn, Card, NightTurn, Option, PanelLine, RoleModule, Schedule,
                                  closed_turn)
from narrator.rules.events import DEVOURING, Cause
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView, Hooks, Power

if TYPE_CHECKING:
    from narrator.rules.game import Game

ORDER = 11  # docs/rules-spec.md#night-order: before the Seer


def last_protected(game: GameView) -> int | None:
    """Whom he protected last night, if he may not choose them again tonight."""
    if game.options.savior_same_target_twice:
        return None
    last = game.state.chosen_last_night.get("savior", ())
    return last[0] if last else None


def targets(game: GameView, savior: int) -> tuple[int, ...]:
    last = last_protected(game)
    return tuple(p for p in game.living() if p != last)


def check(game: GameView, savior: int, targets: tuple[int, ...]) -> str | None:
    if len(targets) != 1:
        return "the Savior protects exactly one player"
    if targets[0] == last_protected(game):
        return f"seat {targets[0]} was protected last night (savior_same_target_twice=false)"
    return None


def saves(game: GameView, seat: int, cause: Cause) -> bool:
    """Dawn step 2: a devoured player the Savior protected tonight lives (not the Little Girl)."""
    if cause not in DEVOURING or seat not in game.state.chosen_tonight.get("savior", ()):
        return False
    if cause is not Cause.WOLVES and game.options.savior_blocks == "pack_only":
        return False
    return not game.acts_as(seat, Role.LITTLE_GIRL) or game.options.savior_protects_little_girl


def run(game: Game, rng: random.Random) -> CallTurn:
    if game.living_holder(Role.SAVIOR) is None:
        return CallTurn("savior.wake", closed_turn("savior"))
    last = last_protected(game)
    choices = targets(game, 0)
    head: list[PanelLine] = [("savior.prompt", {})]
    if last is not None:
        head.append(("savior.last", {"seat": last}))

    def question(answers: list[Heard]) -> Ask | None:
        return None if answers else Ask("night.savior", choices)

    def panel(answers: list[Heard]) -> list[PanelLine]:
        if not answers:
            return head
        return [*head, ("echo.protect", {"seat": answers[-1].choice}), ("echo.change", {})]

    def finish(answers: list[Heard]) -> None:
        if answers:
            game.use_power("savior", (int(answers[-1].choice),))

    return CallTurn("savior.wake", NightTurn("savior", question, panel), finish)


Blocks = Literal["all_devouring", "pack_only"]
OPTIONS = (
    Option("savior_same_target_twice", bool, False),
    Option("savior_protects_little_girl", bool, False),
    Option("savior_blocks", Blocks, "all_devouring"),
)


MODULE = RoleModule(
    Card(Role.SAVIOR, Team.VILLAGE, moons=1, box="new_moon"),
    (Call("savior", ORDER, Schedule.EVERY_NIGHT, Role.SAVIOR, run, turn=20.0, lines=("savior.prompt", "savior.last", "echo.protect")),),
    powers=(Power("savior", Role.SAVIOR, ORDER, check, targets),),
    hooks=Hooks(
        saves=(saves,),
    ),
    options=OPTIONS,
)
