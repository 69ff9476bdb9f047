"""The Hunter: no night call. When he dies he shoots at once: the chain reactions wait for his
shot (`GameView.hunter_shoot`); which deaths let him shoot: option `hunter_shoots_on`."""

from __future__ import annotations

from typing import Literal

from narrator.roles.base import Card, Option, RoleModule
from narrator.rules import checks
from narrator.rules.events import DEVOURING, Cause, HunterCalled, HunterShot
from narrator.rules.roles import Role, Team
from narrator.rules.state import Awaiting
from narrator.rules.view import Answer, Chain, GameView, Hooks, Reaction


def fires(game: GameView, cause: Cause) -> bool:
    """Whether a death by `cause` lets him shoot (`hunter_shoots_on`)."""
    return game.state.options.hunter_shoots_on == "any_death" or cause in DEVOURING or cause is Cause.VOTE


def shot(game: GameView, seat: int, cause: Cause) -> Reaction | None:
    """Dawn step 6: the dead Hunter (his card, or the Actor holding it), if powered, shoots when
    anyone is left to shoot; the chain waits for his answer."""
    if seat not in game.state.powerless and fires(game, cause) and game.living():
        return Reaction(waits=HunterCalled)
    return None


def shoots(game: GameView, hunter: int, choice: tuple[int, ...] | None) -> Reaction:
    """His shot: a living player dies (None: he let the moment pass)."""
    target = None if choice is None else choice[0]
    if target is not None:
        checks.target(game, target, "the Hunter")
    return Reaction(events=(HunterShot(hunter, target),), deaths=() if target is None else ((target, Cause.HUNTER),))


def said(choice: tuple[int, ...] | None) -> str:
    return f"the Hunter's shot at seat {None if choice is None else choice[0]!r}"


ShootsOn = Literal["any_death", "wolves_or_vote"]
OPTIONS = (
    Option("hunter_shoots_on", ShootsOn, "any_death"),
)


MODULE = RoleModule(
    Card(Role.HUNTER, Team.VILLAGE, moons=1),
    hooks=Hooks(chain=(Chain(4, shot, Role.HUNTER),), answers=(Answer(Awaiting.HUNTER, said, shoots),)),
    options=OPTIONS,
)
