"""Applying events: the only code that changes a `State` (one fold per event type, registered once)."""

from __future__ import annotations

from typing import Any, Callable, Mapping, TypeVar

from narrator.rules import hooks
from narrator.rules.events import (
    CaptainElected,
    CaptainSucceeded,
    CardTaken,
    DawnBroke,
    DayBegan,
    DuskFell,
    Event,
    GameEnded,
    GameStarted,
    HunterCalled,
    HunterShot,
    JoinedPack,
    LifeLost,
    LoversChosen,
    Marked,
    NightBegan,
    NobodyEliminated,
    Notified,
    PlayerDied,
    PlayerEliminated,
    PlayerSpared,
    PowerIgnored,
    PowerLost,
    PowerUsed,
    PowersLost,
    SecondVoteAsked,
    SecondVoteDue,
    SeerSaw,
    SuccessorCalled,
    ThiefChose,
    TieToBreak,
    TieVictim,
    VoteOpened,
    VotersCalled,
    VotersDesignated,
    VotesCast,
    WindowClosed,
    WindowOpened,
    WitchActed,
    WolvesChose,
)
from narrator.rules.roles import Role
from narrator.rules.state import (
    Awaiting,
    Outcome,
    Phase,
    RESET_ORDER,
    State,
    _AWAITING_HUNTER,
    _AWAITING_NOTHING,
    _AWAITING_SUCCESSOR,
    _AWAITING_TIEBREAK,
    _AWAITING_VOTE,
    _AWAITING_WINDOW,
    _CAUSE_POISON,
    _BALLOT_ACCUSATION,
    _BALLOT_CAPTAIN,
    _BALLOT_VOTE,
    _PHASE_DAY,
    _PHASE_DUSK,
    _PHASE_NIGHT,
    _PHASE_OVER,
    _PHASE_RESOLVING,
    _PHASE_SETUP,
    _ROLE_THIEF,
    _STEP_CUPID,
    _STEP_ELECTION,
    _STEP_SEER,
    _STEP_THIEF,
    _STEP_WITCH,
    _STEP_WOLVES,
    step_of,
)


# ---- applying events: the only code that changes a State --------------------------------

_PACK = hooks.PACK  # the pack's cards (filled in place by the catalogue as it loads)


def _started(s: State, e: GameStarted) -> None:
    s.phase = _PHASE_SETUP
    s.pack_living = sum(1 for r in s.roles if r in _PACK)
    seats: dict[Role, tuple[int, ...]] = {}
    for seat, role in enumerate(s.roles, start=1):
        seats[role] = (*seats.get(role, ()), seat)
    s.seats_of = seats


def _in_pack(s: State, seat: int) -> bool:
    """Whether `seat` wakes with the pack (`GameView.is_pack`), alive or not."""
    return s.roles[seat - 1] in _PACK or seat in s.joined


def _recast(s: State, seat: int, role: Role) -> None:
    """A seat's card changes (the Thief's, the Devoted Servant's): the seats of each card and the
    living pack's count follow."""
    was = s.roles[seat - 1]
    alive = s.alive[seat - 1]
    if alive:
        s.pack_living -= _in_pack(s, seat)
    s.roles[seat - 1] = role
    if alive:
        s.pack_living += _in_pack(s, seat)
    seats = {**s.seats_of, was: tuple(p for p in s.seats_of.get(was, ()) if p != seat),
             role: tuple(sorted((*s.seats_of.get(role, ()), seat)))}
    s.seats_of = {r: held for r, held in seats.items() if held}


def _night(s: State, e: NightBegan) -> None:
    s.phase, s.night, s.step = _PHASE_NIGHT, e.night, -1
    s.chosen_last_night, s.chosen_tonight = s.chosen_tonight, _NONE_USED
    s.victim, s.saved_tonight, s.doomed = None, (), ()
    s.tie_victim = None
    s.awaiting, s.queue, s.resolving_day = _AWAITING_NOTHING, (), False
    s.night_dead, s.second_vote_asked = (), None


def _thief(s: State, e: ThiefChose) -> None:
    s.step = _STEP_THIEF
    if e.took is not None:
        _recast(s, e.seat, e.took)
        s.extra[e.card - 1] = _ROLE_THIEF


def _lovers(s: State, e: LoversChosen) -> None:
    s.step = _STEP_CUPID
    s.lovers = (e.first, e.second)


def _seer(s: State, e: SeerSaw) -> None:
    s.step = _STEP_SEER


def _wolves(s: State, e: WolvesChose) -> None:
    s.step = _STEP_WOLVES
    s.victim = e.target


def _witch(s: State, e: WitchActed) -> None:
    s.step = _STEP_WITCH
    if e.healed:
        s.heal_left = False
        saved = e.saved if e.saved is not None else s.victim
        if saved is not None:
            s.saved_tonight = (*s.saved_tonight, saved)
    if e.poisoned is not None:
        s.poison_left = False
        s.doomed = (*s.doomed, (e.poisoned, _CAUSE_POISON))


def _dawn(s: State, e: DawnBroke) -> None:
    s.phase = _PHASE_RESOLVING
    s.resolving_day = False


def _died(s: State, e: PlayerDied) -> None:
    seat = e.seat
    alive = s.alive
    if alive[seat - 1]:
        alive[seat - 1] = False
        if s.roles[seat - 1] in _PACK or seat in s.joined:
            s.pack_living -= 1
        living = s.living
        i = living.index(seat)
        s.living = living[:i] + living[i + 1:]
    if s.awaiting is _AWAITING_WINDOW:  # the window closed: the designated player dies
        s.awaiting, s.awaiting_seat = _AWAITING_NOTHING, None
    if s.phase is _PHASE_NIGHT:
        s.night_dead = (*s.night_dead, (e.seat, e.cause))


def _hunter_called(s: State, e: HunterCalled) -> None:
    s.awaiting, s.awaiting_seat, s.queue = _AWAITING_HUNTER, e.hunter, e.queue


def _hunter_shot(s: State, e: HunterShot) -> None:
    s.awaiting, s.awaiting_seat, s.queue = _AWAITING_NOTHING, None, ()

def _successor_called(s: State, e: SuccessorCalled) -> None:
    s.awaiting, s.awaiting_seat = _AWAITING_SUCCESSOR, e.captain
    s.resigned = False


def _succeeded(s: State, e: CaptainSucceeded) -> None:
    s.awaiting, s.awaiting_seat = _AWAITING_NOTHING, None
    s.captain = e.successor
    s.captain_vacant = e.successor is None


def _vote_opened(s: State, e: VoteOpened) -> None:
    s.awaiting, s.ballot, s.candidates, s.ballot_voters = _AWAITING_VOTE, e.ballot, e.candidates, e.voters
    if e.ballot is _BALLOT_CAPTAIN:
        s.elections += 1
        if s.phase is _PHASE_NIGHT:
            s.step = _STEP_ELECTION
    elif e.ballot in (_BALLOT_VOTE, _BALLOT_ACCUSATION):
        _vote_held(s)


def _vote_held(s: State) -> None:
    """The day's vote is held: its first, or its second (the Stuttering Judge's), which is then spent."""
    if s.last_vote_day == s.day:
        s.second_vote_day, s.second_vote_asked = s.day, None
    s.last_vote_day = s.day


def _votes_cast(s: State, e: VotesCast) -> None:
    s.awaiting = _AWAITING_NOTHING


def _tie(s: State, e: TieToBreak) -> None:
    s.awaiting, s.candidates, s.ballot_voters = _AWAITING_TIEBREAK, e.tied, ()


def _elected(s: State, e: CaptainElected) -> None:
    s.awaiting, s.ballot, s.candidates, s.ballot_voters = _AWAITING_NOTHING, None, (), ()
    s.captain, s.captain_vacant = e.seat, False


def _eliminated(s: State, e: PlayerEliminated) -> None:
    s.awaiting, s.ballot, s.candidates, s.ballot_voters = _AWAITING_NOTHING, None, (), ()
    s.phase, s.resolving_day = _PHASE_RESOLVING, True


def _nobody(s: State, e: NobodyEliminated) -> None:
    s.awaiting, s.ballot, s.candidates, s.ballot_voters = _AWAITING_NOTHING, None, (), ()
    if e.reason == "no_voters":
        # No vote could open (nobody allowed to vote): it counts as held. A second vote held so is
        # spent too: else it was due again at once, for ever (the Judge voted out by the only voter
        # the Scapegoat had named, his request standing after his death).
        _vote_held(s)


def _dusk(s: State, e: DuskFell) -> None:
    s.phase, s.resolving_day = _PHASE_DUSK, False
    s.second_vote_asked = None


def _second_vote_asked(s: State, e: SecondVoteAsked) -> None:
    s.second_vote_asked = e.seat


def _second_vote_due(s: State, e: SecondVoteDue) -> None:
    s.phase, s.resolving_day = Phase.DAY, False


def _power_lost(s: State, e: PowerLost) -> None:
    s.powerless = s.powerless | {e.seat}


def _marked(s: State, e: Marked) -> None:
    s.marks = {**s.marks, e.mark: (*s.marks.get(e.mark, ()), e.seat)}


def _day(s: State, e: DayBegan) -> None:
    s.phase, s.day, s.resolving_day = _PHASE_DAY, e.day, False


_NONE_USED: Mapping[str, tuple[int, ...]] = {}  # shared, never changed: `chosen_tonight` is replaced, not updated


def _power_used(s: State, e: PowerUsed) -> None:
    power = hooks.POWERS[e.call]
    s.step = step_of(RESET_ORDER) if e.reset else power.step
    s.chosen_tonight = {**s.chosen_tonight, e.call: e.targets}
    if power.lasting:
        s.lasting_choices = {**s.lasting_choices, e.call: (*s.lasting_choices.get(e.call, ()), *e.targets)}
    if e.targets:
        s.chosen_in_game = {**s.chosen_in_game, e.call: (*s.chosen_in_game.get(e.call, ()), *e.targets)}


def _joined(s: State, e: JoinedPack) -> None:
    if s.alive[e.seat - 1] and not _in_pack(s, e.seat):
        s.pack_living += 1
    s.joined = {**s.joined, e.seat: e.reason}


def _window(s: State, e: WindowOpened) -> None:
    s.awaiting, s.awaiting_seat, s.queue = Awaiting.WINDOW, e.seat, e.queue


def _window_closed(s: State, e: WindowClosed) -> None:
    s.awaiting, s.awaiting_seat, s.queue = Awaiting.NOTHING, None, ()


def _card_taken(s: State, e: CardTaken) -> None:
    """The Servant plays the taken card from now on, fresh: its one-use powers renewed."""
    _recast(s, e.servant, e.role)
    s.taken = (*s.taken, e.seat)
    s.took_day = max(s.day, s.night)  # at dawn (servant_scope=any_death) the coming day's number
    # The taken card starts fresh (its model, its infection renewed), but statuses stay (`Power.status`:
    # the charmed stay charmed) and her own status is removed.
    powers = hooks.POWERS
    s.lasting_choices = {call: tuple(p for p in seats if p != e.servant) if powers[call].status else seats
                 for call, seats in s.lasting_choices.items() if powers[call].status or powers[call].role is not e.role}
    if e.role is Role.WITCH:
        s.heal_left = s.poison_left = True
    s.chosen_in_game = {call: seats for call, seats in s.chosen_in_game.items() if hooks.POWERS[call].role is not e.role}
    if e.servant in s.lives_lost:  # a taken Elder card comes with its spare lives
        s.lives_lost = {seat: n for seat, n in s.lives_lost.items() if seat != e.servant}
    if s.captain == e.servant:
        s.resigned = True
def _notified(s: State, e: Notified) -> None:
    pass  # a record for the journal: the designated players were told (narrator/roles/designation.py)


def _spared(s: State, e: PlayerSpared) -> None:
    s.awaiting, s.ballot, s.candidates, s.ballot_voters = Awaiting.NOTHING, None, (), ()
    s.phase, s.resolving_day = Phase.RESOLVING, True
    s.spared = (*s.spared, e.seat)
    if e.office_lost:
        s.captain, s.captain_vacant = None, False


def _power_ignored(s: State, e: PowerIgnored) -> None:
    s.step = e.step


def _powers_lost(s: State, e: PowersLost) -> None:
    s.powerless = s.powerless | frozenset(e.seats)


def _life_lost(s: State, e: LifeLost) -> None:
    s.lives_lost = {**s.lives_lost, e.seat: s.lives_lost.get(e.seat, 0) + 1}


def _tie_victim(s: State, e: TieVictim) -> None:
    s.tie_victim = e.seat


def _voters_called(s: State, e: VotersCalled) -> None:
    s.awaiting, s.awaiting_seat, s.queue = Awaiting.VOTERS, e.seat, e.queue


def _voters_designated(s: State, e: VotersDesignated) -> None:
    s.awaiting, s.awaiting_seat, s.queue = Awaiting.NOTHING, None, ()
    s.designated_voters, s.designated_voters_day = e.voters, e.day


def _ended(s: State, e: GameEnded) -> None:
    s.phase, s.awaiting = _PHASE_OVER, _AWAITING_NOTHING
    s.outcome = Outcome(e.winner, e.winners)


E = TypeVar("E", bound=Event)
APPLY: dict[type, Callable[[State, Any], None]] = {}


def _on(kind: type[E], apply: Callable[[State, E], None]) -> None:
    """Register the fold of one event type (once); the types of `kind` and `apply` must agree."""
    if kind in APPLY:
        raise ValueError(f"the fold of {kind.__name__} is registered twice")
    APPLY[kind] = apply


_on(GameStarted, _started)
_on(NightBegan, _night)
_on(ThiefChose, _thief)
_on(LoversChosen, _lovers)
_on(SeerSaw, _seer)
_on(WolvesChose, _wolves)
_on(WitchActed, _witch)
_on(DawnBroke, _dawn)
_on(PlayerDied, _died)
_on(HunterCalled, _hunter_called)
_on(HunterShot, _hunter_shot)
_on(SuccessorCalled, _successor_called)
_on(CaptainSucceeded, _succeeded)
_on(VoteOpened, _vote_opened)
_on(VotesCast, _votes_cast)
_on(TieToBreak, _tie)
_on(CaptainElected, _elected)
_on(PlayerEliminated, _eliminated)
_on(NobodyEliminated, _nobody)
_on(DayBegan, _day)
_on(DuskFell, _dusk)
_on(GameEnded, _ended)
_on(PowerUsed, _power_used)
_on(PlayerSpared, _spared)
_on(PowerLost, _power_lost)
_on(Marked, _marked)
_on(SecondVoteAsked, _second_vote_asked)
_on(SecondVoteDue, _second_vote_due)
_on(JoinedPack, _joined)
_on(WindowOpened, _window)
_on(CardTaken, _card_taken)
_on(WindowClosed, _window_closed)
_on(Notified, _notified)
_on(PowerIgnored, _power_ignored)
_on(PowersLost, _powers_lost)
_on(LifeLost, _life_lost)
_on(TieVictim, _tie_victim)
_on(VotersCalled, _voters_called)
_on(VotersDesignated, _voters_designated)
