"""The Hunter: no night call. When he dies he shoots at once: the chain reactions wait for his
shot (`GameView.hunter_shoot`); which deaths let him shoot: option `hunter_shoots_on`."""

from __future__ import annotations

from narrator.roles.base import Card, RoleModule
from narrator.rules.events import DEVOURING, Cause, HunterCalled
from narrator.rules.roles import Role, Team
from narrator.rules.view import Chain, GameView, Hooks, Reaction


def fires(game: GameView, cause: Cause) -> bool:
    """Whether a death by `cause` lets him shoot (`hunter_shoots_on`)."""
    return game.options.hunter_shoots_on == "any_death" or cause in DEVOURING or cause is Cause.VOTE


def shot(game: GameView, seat: int, cause: Cause) -> Reaction | None:
    """Dawn step 6: the dead Hunter (his card, or the Actor holding it), if powered, shoots when
    anyone is left to shoot; the chain waits for his answer."""
    if seat not in game.state.powerless and fires(game, cause) and game.living():
        return Reaction(waits=HunterCalled)
    return None


MODULE = RoleModule(Card(Role.HUNTER, Team.VILLAGE), hooks=Hooks(chain=(Chain(4, shot, Role.HUNTER),)))
