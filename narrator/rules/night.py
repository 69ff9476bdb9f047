"""The night: nightfall, the pack's victim, and every role's night power (`use_power`, checked and
recorded as each role's `Power` says: narrator/roles/<role>.py).

Each step reads the game (`GameView`) and hands its events to `emit`, which folds them in.
"""

from __future__ import annotations

from typing import Sequence

from narrator.rules import checks, hooks
from narrator.rules.errors import IllegalActionError, InvalidTargetError, RulesError, WrongPhaseError
from narrator.rules.events import DayBegan, NightBegan, Notified, PlayerDied, PowerIgnored, PowerUsed, WolvesChose
from narrator.rules.roles import Role, Team
from narrator.rules.state import (
    RESET_ORDER,
    _AWAITING_NOTHING,
    _CAUSE_DISEASE,
    _PHASE_DUSK,
    _PHASE_NIGHT,
    _PHASE_SETUP,
    _STEP_WOLVES,
    step_of,
)
from narrator.rules.view import Emit, GameView


def begin_night(game: GameView, emit: Emit) -> None:
    s = game.state
    if s.phase is _PHASE_SETUP:
        if game.day_zero_due():
            raise WrongPhaseError("the game opens with a Day 0 before the first night (the Angel is possible)")
        emit(NightBegan(1))
        return
    if s.phase is not _PHASE_DUSK or s.awaiting is not _AWAITING_NOTHING:  # checked inline: once a night
        checks.phase(game, _PHASE_DUSK, "night falls only after the day's vote")
    emit(NightBegan(s.night + 1))
    for dusk in game.hooks.dusk_deaths:  # the Knight's diseased wolf: dead before anyone wakes
        for seat in dusk(game):
            if s.alive[seat - 1]:
                emit(PlayerDied(seat, _CAUSE_DISEASE, s.roles[seat - 1]))


def open_day_zero(game: GameView, emit: Emit) -> None:
    """The game opens with a day (the Angel is possible): Captain election, debate, vote."""
    if not game.day_zero_due():
        raise WrongPhaseError("the game opens with a Day 0 only when a role asks for it (the Angel)")
    emit(DayBegan(0))


def wolves_choose(game: GameView, emit: Emit, target: int | None) -> None:
    """The Werewolves' victim by consensus; None means no consensus (no victim)."""
    s = game.state
    # The usual answer is checked inline, the messages built only for a refusal (once a night).
    if s.phase is not _PHASE_NIGHT or s.awaiting is not _AWAITING_NOTHING or s.step >= _STEP_WOLVES:
        checks.night_step(game, _STEP_WOLVES, "the Werewolves", _wolves_said(target))
    if not s.pack_living:
        raise IllegalActionError("{said}: no Werewolf is alive to choose a victim", said=_wolves_said(target))
    if target is not None:
        if s.night == 1 and not s.options.first_night_kill:
            raise IllegalActionError(
                "seat {target}: on the first night the Werewolves only recognise each other (first_night_kill=false)",
                target=target
            )
        if type(target) is not int or not 1 <= target <= s.players or not s.alive[target - 1]:
            checks.target(game, target, "the Werewolves")
        if s.roles[target - 1] in game.pack or target in s.joined:
            raise InvalidTargetError("seat {target} is a Werewolf; the Werewolves cannot choose one of their own", target=target)
    emit(WolvesChose(target))


_POWERS = hooks.POWERS  # filled in place by the catalogue as it loads


def _wolves_said(target: int | None) -> str:
    return f"the Werewolves on seat {target!r}" if target is not None else "the Werewolves without a victim"


def use_power(game: GameView, emit: Emit, call: str, targets: Sequence[int], reset: bool = False) -> Role | Team | None:
    """A role's night call answered (narrator/roles/<role>.py): its choice, checked by its power
    (`Power`), recorded by its events; returns what the chooser is shown at once (the Seer's
    look), if anything, else None.

    `reset`: answered in the `devoted_servant_reset` call, the night after a takeover, by the
    Devoted Servant for the first-night power of the card she took (docs/rules-spec.md)."""
    power = _POWERS.get(call)
    if power is None:
        raise RulesError("unknown night call {call!r}", call=call)
    chosen = tuple(targets)
    s = game.state
    if reset:
        who, said = power.name(), power.quote(chosen)
        checks.night_step(game, step_of(RESET_ORDER), who, said)
        if s.took_day == 0 or s.night != s.took_day + 1:
            raise WrongPhaseError("{said}: a taken card is reset only the night after the takeover", said=said)
        seat = checks.living_actor(game, power.role, who, said)
        if not (power.first_night_only and power.renewed) or seat != game.taker():
            raise IllegalActionError("{said}: only the Devoted Servant's new card's first-night power is reset", said=said)
    else:
        step = power.step
        # The messages are built only for a refusal: this is the simulator's hot path.
        if (s.phase is not _PHASE_NIGHT or s.awaiting is not _AWAITING_NOTHING or s.step >= step
                or (power.first_night_only and s.night != 1)):
            checks.night_step(game, step, power.name(), power.quote(chosen), first_night_only=power.first_night_only)
        nights = power.nights
        if nights is not None and not nights(s.options, s.night):
            raise WrongPhaseError("{said}: {who} is not called on night {night}",
                                  said=power.quote(chosen), who=power.name(), night=s.night)
        holder = game.living_holder(power.role)
        if holder is None:
            holder = checks.living_actor(game, power.role, power.name(), power.quote(chosen))  # refused
        seat = holder
    if power.seats:
        alive, players = s.alive, s.players
        for target in chosen:
            if type(target) is not int or not 1 <= target <= players or not alive[target - 1]:
                checks.target(game, target, power.name())
    else:
        for target in chosen:
            if type(target) is not int:
                raise InvalidTargetError("{said}: give whole numbers", said=power.quote(chosen))
    check = power.check
    if check is not None:
        problem = check(game, seat, chosen)
        if problem is not None:
            raise IllegalActionError("{said}: {problem}", said=power.quote(chosen), problem=problem)
    record = power.record
    recorded = record(game, seat, chosen) if record is not None else None
    if seat in s.powerless and power.lost_with_power:
        emit(PowerIgnored(call, seat, step_of(RESET_ORDER) if reset else power.step))
        return None
    if recorded is not None:
        for event in recorded:
            emit(event)
    else:
        emit(PowerUsed(call, seat, chosen, reset))
    if power.notifies and chosen:
        emit(Notified(chosen, call))
    if power.effect is not None:
        for event in power.effect(game, seat, chosen):
            emit(event)
    return power.shows(game, chosen) if power.shows is not None else None
