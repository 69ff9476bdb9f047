"""The checks an action passes before it changes anything: each refuses with a `RulesError` that
quotes the refused action, and leaves the game as it was."""

from __future__ import annotations

from narrator.rules.errors import IllegalActionError, InvalidTargetError, WrongPhaseError
from narrator.rules.roles import Role
from narrator.rules.state import Awaiting, Phase, _AWAITING_NOTHING, _PHASE_NIGHT, _PHASE_OVER
from narrator.rules.view import GameView


def target(game: GameView, seat: int, who: str) -> None:
    """A living seat, chosen by `who`."""
    s = game.state
    if type(seat) is not int or not 1 <= seat <= s.players:  # the common case checked inline
        game.check_seat(seat)
    if not s.alive[seat - 1]:
        raise InvalidTargetError("seat {seat} is dead; {who} can only choose a living player", seat=seat, who=who)


def phase(game: GameView, phase: Phase, why: str) -> None:
    """The game is in `phase` and waits for no answer."""
    s = game.state
    if s.phase is not phase:
        raise WrongPhaseError("{why} (the game is in phase {value})", why=why, value=s.phase.value)
    if s.awaiting is not _AWAITING_NOTHING:
        raise WrongPhaseError("{why}; first the game waits for {value}", why=why, value=s.awaiting.value)


def awaiting(game: GameView, what: Awaiting, name: str) -> None:
    """The game waits for this answer."""
    s = game.state
    if s.phase is _PHASE_OVER:
        raise WrongPhaseError("{name}: the game is over", name=name)
    if s.awaiting is not what:
        raise WrongPhaseError("{name} is not awaited now (awaiting: {value})", name=name, value=s.awaiting.value)


def night_step(game: GameView, step: int, who: str, said: str, first_night_only: bool = False) -> None:
    """The night has not moved past `step`; `said` quotes the refused action in the message."""
    s = game.state
    if s.phase is not _PHASE_NIGHT or s.awaiting is not _AWAITING_NOTHING:  # the message built only if refused
        phase(game, _PHASE_NIGHT, f"{said}: {who} acts only at night")
    if first_night_only and s.night != 1:
        raise WrongPhaseError("{said}: {who} acts only on the first night (this is night {night})",
                              said=said, who=who, night=s.night)
    if s.step >= step:
        raise WrongPhaseError("{said}: {who} cannot act now: the night has moved past that call", said=said, who=who)


def living_actor(game: GameView, role: Role, who: str, said: str) -> int:
    """The living seat that acts as `role` now."""
    seat = game.living_holder(role)
    if seat is not None:
        return seat
    seats = game.holders(role)
    if not seats:
        raise IllegalActionError("{said}: nobody holds the {value} card, so {who} cannot act",
                                 said=said, value=role.value, who=who)
    raise IllegalActionError("{said}: {who} (seat {seats}) is dead and cannot act", said=said, who=who, seats=seats[0])
