"""The night: its fixed steps (Thief, Cupid, Seer, the pack, the Witch) and the catalogue's powers (`use_power`).

Each step reads the game (`GameView`) and hands its events to `emit`, which folds them in.
"""

from __future__ import annotations

from typing import Sequence

from narrator.rules import checks, hooks
from narrator.rules.errors import IllegalActionError, InvalidTargetError, RulesError, WrongPhaseError
from narrator.rules.events import (
    DayBegan,
    LoversChosen,
    NightBegan,
    Notified,
    PlayerDied,
    PowerIgnored,
    PowerUsed,
    SeerSaw,
    ThiefChose,
    WitchActed,
    WolvesChose,
)
from narrator.rules.roles import Role, Team
from narrator.rules.state import (
    RESET_ORDER,
    _CAUSE_DISEASE,
    _PHASE_DUSK,
    _PHASE_SETUP,
    _ROLE_CUPID,
    _ROLE_SEER,
    _ROLE_THIEF,
    _ROLE_WITCH,
    _STEP_CUPID,
    _STEP_SEER,
    _STEP_THIEF,
    _STEP_WITCH,
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


def thief_choose(game: GameView, emit: Emit, card: int) -> None:
    """The Thief keeps his card (0) or takes extra card 1 or 2; two Werewolves force a take."""
    s = game.state
    said = f"Thief card {card!r}"
    checks.night_step(game, _STEP_THIEF, "the Thief", said, first_night_only=True)
    seat = checks.living_actor(game, _ROLE_THIEF, "the Thief", said)
    if card not in (0, 1, 2):
        raise InvalidTargetError("card {card!r}: the Thief chooses 1 or 2, or 0 to keep his card", card=card)
    if card == 0 and all(r in game.pack for r in s.extra):
        raise IllegalActionError("card 0: both extra cards are Werewolves, so the Thief must take one (1 or 2)")
    emit(ThiefChose(seat, card, s.extra[card - 1] if card else None))


def cupid_choose(game: GameView, emit: Emit, first: int, second: int) -> None:
    said = f"Lovers {first!r} and {second!r}"
    checks.night_step(game, _STEP_CUPID, "Cupid", said, first_night_only=True)
    cupid = checks.living_actor(game, _ROLE_CUPID, "Cupid", said)
    for seat in (first, second):
        checks.target(game, seat, "Cupid")
    if first == second:
        raise InvalidTargetError("Cupid named seat {first} twice; the Lovers are two different players", first=first)
    emit(LoversChosen(cupid, first, second))


def seer_inspect(game: GameView, emit: Emit, target: int) -> Role | Team | None:
    """What the Seer is shown of `target`; None when her power is lost (she sees nothing)."""
    said = f"the Seer on seat {target!r}"
    checks.night_step(game, _STEP_SEER, "the Seer", said)
    seer = checks.living_actor(game, _ROLE_SEER, "the Seer", said)
    checks.target(game, target, "the Seer")
    if target == seer:
        raise InvalidTargetError("seat {target} is the Seer herself; she looks at another player's card", target=target)
    if seer in game.state.powerless:
        emit(PowerIgnored("seer", seer, _STEP_SEER))
        return None
    emit(SeerSaw(seer, target, game.state.roles[target - 1]))
    return game.seen(target)


def wolves_choose(game: GameView, emit: Emit, target: int | None) -> None:
    """The Werewolves' victim by consensus; None means no consensus (no victim)."""
    s = game.state
    said = f"the Werewolves on seat {target!r}" if target is not None else "the Werewolves without a victim"
    checks.night_step(game, _STEP_WOLVES, "the Werewolves", said)
    if not game.pack_alive():
        raise IllegalActionError("{said}: no Werewolf is alive to choose a victim", said=said)
    if target is not None:
        if s.night == 1 and not s.options.first_night_kill:
            raise IllegalActionError(
                "seat {target}: on the first night the Werewolves only recognise each other (first_night_kill=false)",
                target=target
            )
        checks.target(game, target, "the Werewolves")
        if game.is_pack(target):
            raise InvalidTargetError("seat {target} is a Werewolf; the Werewolves cannot choose one of their own", target=target)
    emit(WolvesChose(target))


def witch_act(game: GameView, emit: Emit, heal: bool, poison: int | None, saved: int | None = None) -> None:
    """`saved`: whom she heals among the devoured (`witch_healable`); without it, the pack's
    victim if he can be healed, else the first of them in seat order."""
    s = game.state
    said = f"the Witch (heal={heal!r}, poison={poison!r})"
    checks.night_step(game, _STEP_WITCH, "the Witch", said)
    witch = checks.living_actor(game, _ROLE_WITCH, "the Witch", said)
    if heal:
        if not s.heal_left:
            raise IllegalActionError("heal: the Witch has already used her healing potion")
        healable = game.witch_healable()
        if not healable:
            raise IllegalActionError("heal: there is no victim tonight, so the healing potion cannot be used")
        if saved is None:
            victim = game.pack_victim()
            saved = victim if victim in healable else healable[0]
        elif saved not in healable:
            raise InvalidTargetError("heal seat {saved!r}: not devoured tonight (devoured: {healable}); she heals one "
                                     "of them", saved=saved, healable=' '.join(map(str, healable)))
    else:
        saved = None
    if poison is not None:
        if not s.poison_left:
            raise IllegalActionError("poison seat {poison}: the Witch has already used her poison", poison=poison)
        checks.target(game, poison, "the Witch")
    if witch in s.powerless:
        emit(PowerIgnored("witch", witch, _STEP_WITCH))
        return
    # `saved` is written only when it is not the pack's victim (journals stay as they were).
    emit(WitchActed(witch, heal, poison, None if saved == s.victim else saved))


def use_power(game: GameView, emit: Emit, call: str, targets: Sequence[int], reset: bool = False) -> None:
    """A catalogue role's night call answered (narrator/roles/<role>.py): its choice of seats.

    `reset`: answered in the `devoted_servant_reset` call, the night after a takeover, by the
    Devoted Servant for the first-night power of the card she took (docs/rules-spec.md)."""
    power = hooks.POWERS.get(call)
    if power is None:
        raise RulesError("unknown night call {call!r}", call=call)
    chosen = tuple(targets)
    who = f"the {power.role.value.replace('_', ' ')}"
    said = f"{who} on {' '.join(map(str, chosen)) or 'nobody'}"
    if reset:
        s = game.state
        checks.night_step(game, step_of(RESET_ORDER), who, said)
        if s.took_day == 0 or s.night != s.took_day + 1:
            raise WrongPhaseError("{said}: a taken card is reset only the night after the takeover", said=said)
        seat = checks.living_actor(game, power.role, who, said)
        if not power.first_night_only or seat != game.taker():
            raise IllegalActionError("{said}: only the Devoted Servant's new card's first-night power is reset", said=said)
    else:
        checks.night_step(game, step_of(power.order), who, said, first_night_only=power.first_night_only)
        if not power.called(game.state.options, game.state.night):
            raise WrongPhaseError("{said}: {who} is not called on night {night}", said=said, who=who, night=game.state.night)
        seat = checks.living_actor(game, power.role, who, said)
    if power.seats:
        for target in chosen:
            checks.target(game, target, who)
    elif not all(isinstance(t, int) and not isinstance(t, bool) for t in chosen):
        raise InvalidTargetError("{said}: give whole numbers", said=said)
    problem = power.check(game, seat, chosen)
    if problem is not None:
        raise IllegalActionError("{said}: {problem}", said=said, problem=problem)
    if seat in game.state.powerless:
        emit(PowerIgnored(call, seat, step_of(RESET_ORDER if reset else power.order)))
        return
    emit(PowerUsed(call, seat, chosen, reset))
    if power.notifies and chosen:
        emit(Notified(chosen, call))
    if power.effect is not None:
        for event in power.effect(game, seat, chosen):
            emit(event)

