"""The night: its fixed steps (Thief, Cupid, Seer, the pack, the Witch) and the catalogue's powers (`use_power`).

Each function is a method of `Game` (bound in narrator/rules/game.py), written with `self: Game`.
"""

from __future__ import annotations

from typing import Sequence, TYPE_CHECKING

from narrator.rules import hooks
from narrator.rules.errors import IllegalActionError, InvalidTargetError, RulesError, WrongPhaseError
from narrator.rules.events import (
    CardTaken,
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

if TYPE_CHECKING:
    from narrator.rules.game import Game


def begin_night(self: Game) -> None:
    s = self.state
    if s.phase is _PHASE_SETUP:
        if self.day_zero_due():
            raise WrongPhaseError("the game opens with a Day 0 before the first night (the Angel is possible)")
        self._emit(NightBegan(1))
        return
    self._require_phase(_PHASE_DUSK, "night falls only after the day's vote")
    self._emit(NightBegan(s.night + 1))
    for dusk in self.hooks.DUSK_DEATHS:  # the Knight's diseased wolf: dead before anyone wakes
        for seat in dusk(self):
            if s.alive[seat - 1]:
                self._emit(PlayerDied(seat, _CAUSE_DISEASE, s.roles[seat - 1]))


def open_day_zero(self: Game) -> None:
    """The game opens with a day (the Angel is possible): Captain election, debate, vote."""
    if not self.day_zero_due():
        raise WrongPhaseError("the game opens with a Day 0 only when a role asks for it (the Angel)")
    self._emit(DayBegan(0))


def thief_choose(self: Game, card: int) -> None:
    """The Thief keeps his card (0) or takes extra card 1 or 2; two Werewolves force a take."""
    s = self.state
    said = f"Thief card {card!r}"
    self._night_step(_STEP_THIEF, "the Thief", said, first_night_only=True)
    seat = self._living_actor(_ROLE_THIEF, "the Thief", said)
    if card not in (0, 1, 2):
        raise InvalidTargetError("card {card!r}: the Thief chooses 1 or 2, or 0 to keep his card", card=card)
    if card == 0 and all(r in hooks.PACK for r in s.extra):
        raise IllegalActionError("card 0: both extra cards are Werewolves, so the Thief must take one (1 or 2)")
    self._emit(ThiefChose(seat, card, s.extra[card - 1] if card else None))


def cupid_choose(self: Game, first: int, second: int) -> None:
    said = f"Lovers {first!r} and {second!r}"
    self._night_step(_STEP_CUPID, "Cupid", said, first_night_only=True)
    cupid = self._living_actor(_ROLE_CUPID, "Cupid", said)
    for seat in (first, second):
        self._check_target(seat, "Cupid")
    if first == second:
        raise InvalidTargetError("Cupid named seat {first} twice; the Lovers are two different players", first=first)
    self._emit(LoversChosen(cupid, first, second))


def seer_inspect(self: Game, target: int) -> Role | Team | None:
    """What the Seer is shown of `target`; None when her power is lost (she sees nothing)."""
    said = f"the Seer on seat {target!r}"
    self._night_step(_STEP_SEER, "the Seer", said)
    seer = self._living_actor(_ROLE_SEER, "the Seer", said)
    self._check_target(target, "the Seer")
    if target == seer:
        raise InvalidTargetError("seat {target} is the Seer herself; she looks at another player's card", target=target)
    if seer in self.state.powerless:
        self._emit(PowerIgnored("seer", seer, _STEP_SEER))
        return None
    self._emit(SeerSaw(seer, target, self.state.roles[target - 1]))
    return self.seen(target)


def wolves_choose(self: Game, target: int | None) -> None:
    """The Werewolves' victim by consensus; None means no consensus (no victim)."""
    s = self.state
    said = f"the Werewolves on seat {target!r}" if target is not None else "the Werewolves without a victim"
    self._night_step(_STEP_WOLVES, "the Werewolves", said)
    if not self.pack_alive():
        raise IllegalActionError("{said}: no Werewolf is alive to choose a victim", said=said)
    if target is not None:
        if s.night == 1 and not s.options.first_night_kill:
            raise IllegalActionError(
                "seat {target}: on the first night the Werewolves only recognise each other (first_night_kill=false)",
                target=target
            )
        self._check_target(target, "the Werewolves")
        if self.is_pack(target):
            raise InvalidTargetError("seat {target} is a Werewolf; the Werewolves cannot choose one of their own", target=target)
    self._emit(WolvesChose(target))


def witch_act(self: Game, heal: bool, poison: int | None, saved: int | None = None) -> None:
    """`saved`: whom she heals among the devoured (`witch_healable`); without it, the pack's
    victim if he can be healed, else the first of them in seat order."""
    s = self.state
    said = f"the Witch (heal={heal!r}, poison={poison!r})"
    self._night_step(_STEP_WITCH, "the Witch", said)
    witch = self._living_actor(_ROLE_WITCH, "the Witch", said)
    if heal:
        if not s.heal_left:
            raise IllegalActionError("heal: the Witch has already used her healing potion")
        healable = self.witch_healable()
        if not healable:
            raise IllegalActionError("heal: there is no victim tonight, so the healing potion cannot be used")
        if saved is None:
            victim = self.pack_victim()
            saved = victim if victim in healable else healable[0]
        elif saved not in healable:
            raise InvalidTargetError("heal seat {saved!r}: not devoured tonight (devoured: {healable}); she heals one "
                                     "of them", saved=saved, healable=' '.join(map(str, healable)))
    else:
        saved = None
    if poison is not None:
        if not s.poison_left:
            raise IllegalActionError("poison seat {poison}: the Witch has already used her poison", poison=poison)
        self._check_target(poison, "the Witch")
    if witch in s.powerless:
        self._emit(PowerIgnored("witch", witch, _STEP_WITCH))
        return
    # `saved` is written only when it is not the pack's victim (journals stay as they were).
    self._emit(WitchActed(witch, heal, poison, None if saved == s.victim else saved))


def use_power(self: Game, call: str, targets: Sequence[int], reset: bool = False) -> None:
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
        s = self.state
        self._night_step(step_of(RESET_ORDER), who, said)
        if s.took_day == 0 or s.night != s.took_day + 1:
            raise WrongPhaseError("{said}: a taken card is reset only the night after the takeover", said=said)
        seat = self._living_actor(power.role, who, said)
        if not power.first_night_only or seat != self.taker():
            raise IllegalActionError("{said}: only the Devoted Servant's new card's first-night power is reset", said=said)
    else:
        self._night_step(step_of(power.order), who, said, first_night_only=power.first_night_only)
        if not power.called(self.state.options, self.state.night):
            raise WrongPhaseError("{said}: {who} is not called on night {night}", said=said, who=who, night=self.state.night)
        seat = self._living_actor(power.role, who, said)
    if power.seats:
        for target in chosen:
            self._check_target(target, who)
    elif not all(isinstance(t, int) and not isinstance(t, bool) for t in chosen):
        raise InvalidTargetError("{said}: give whole numbers", said=said)
    problem = power.check(self, seat, chosen)
    if problem is not None:
        raise IllegalActionError("{said}: {problem}", said=said, problem=problem)
    if seat in self.state.powerless:
        self._emit(PowerIgnored(call, seat, step_of(RESET_ORDER if reset else power.order)))
        return
    self._emit(PowerUsed(call, seat, chosen, reset))
    if power.notifies and chosen:
        self._emit(Notified(chosen, call))
    if power.effect is not None:
        for event in power.effect(self, seat, chosen):
            self._emit(event)


def taker(self: Game) -> int | None:
    """The seat that took a card at the last takeover (the Devoted Servant)."""
    for event in reversed(self.events):
        if isinstance(event, CardTaken):
            return event.servant
    return None
