"""The day's votes: the Captain election, the elimination vote, second votes, ties, the elimination,
and the window a card may be taken in before the eliminated player's card is shown.

Each function is a method of `Game` (bound in narrator/rules/game.py), written with `self: Game`.
"""

from __future__ import annotations

import random
from typing import Callable, Iterable, Mapping, Sequence, TYPE_CHECKING

from narrator.rules.errors import IllegalActionError, InvalidTargetError, RulesError, WrongPhaseError
from narrator.rules.events import (
    Ballot,
    CaptainElected,
    CardTaken,
    Cause,
    NobodyEliminated,
    PlayerDied,
    PlayerEliminated,
    PlayerSpared,
    SecondVoteAsked,
    SuccessorCalled,
    TieToBreak,
    TieVictim,
    VoteOpened,
    VotesCast,
    WindowClosed,
    WindowOpened,
)
from narrator.rules.state import (
    Awaiting,
    _AWAITING_TIEBREAK,
    _AWAITING_VOTE,
    _BALLOT_ACCUSATION,
    _BALLOT_BALLOT,
    _BALLOT_CAPTAIN,
    _BALLOT_CAPTAIN_REVOTE,
    _BALLOT_REVOTE,
    _BALLOT_RUNOFF,
    _BALLOT_VOTE,
    _CAUSE_VOTE,
    _PHASE_OVER,
)

if TYPE_CHECKING:
    from narrator.rules.game import Game


def open_captain_election(self: Game) -> None:
    if not self.captain_election_due():
        raise WrongPhaseError("no Captain election is due now")
    living = self.living()
    self._emit(VoteOpened(_BALLOT_CAPTAIN, living, living))


def open_vote(self: Game) -> None:
    if not self.vote_due():
        raise WrongPhaseError("no vote is due now (one vote a day, after the morning)")
    s = self.state
    first = s.last_vote_day < s.day
    living = self.living()
    ballot = _BALLOT_ACCUSATION if s.options.vote_procedure == "accusation" else _BALLOT_VOTE
    voters = self._voters()
    if not voters:  # nobody may vote today (the Scapegoat's list): no elimination
        self._no_elimination("no_voters")
        return
    self._emit(VoteOpened(ballot, living, voters))
    if first and s.second_vote_asked is None:
        for armed in self.hooks.ARMED:  # a second vote armed last night (judge_signal=night_arm)
            seat = armed(self)
            if seat is not None:
                self._emit(SecondVoteAsked(seat))
                break


def sign_taken(self: Game) -> bool:
    """Whether voters may give a secret sign now: a round of the day's first vote, and a role
    that signs this way is possible (`hooks.SIGN_OPEN`; public facts only)."""
    return self.first_vote_open() and any(open_(self) for open_ in self.hooks.SIGN_OPEN)


def signal_second_vote(self: Game, voter: int) -> None:
    """A voter's secret sign during the day's first vote (the keypad key of the Stuttering
    Judge): it asks for a second vote if his card lets him (`hooks.SIGNALS`), and does nothing
    for anyone else; either way nothing is said."""
    s = self.state
    if not self.sign_taken():
        raise WrongPhaseError("seat {voter!r}'s sign: a sign is taken only during the day's first vote", voter=voter)
    if voter not in s.ballot_voters:
        raise IllegalActionError("seat {voter!r} does not vote in this round, so gives no sign", voter=voter)
    if s.second_vote_asked is None and any(signal(self, voter) for signal in self.hooks.SIGNALS):
        self._emit(SecondVoteAsked(voter))


def _voters(self: Game) -> tuple[int, ...]:
    """Who votes for an elimination: the living, minus the players spared by their card,
    and only those the Scapegoat named for today (docs/rules-spec.md#day step 1)."""
    s = self.state
    voters = s.living
    if s.spared:
        voters = tuple([p for p in voters if p not in s.spared])
    if s.designated_voters is not None and s.designated_voters_day == s.day:
        allowed = s.designated_voters
        voters = tuple([p for p in voters if p in allowed])
    return voters


def cast_votes(self: Game, votes: Mapping[int, int | None], rng: random.Random | None = None) -> None:
    """One round of votes: voter → target (None abstains; a voter left out abstains).

    `rng` is needed only for the draw that ends a Captain election still tied after a revote.
    """
    s = self.state
    # Checked before building the message: a dict's repr on every round would slow the simulator.
    if s.awaiting is not _AWAITING_VOTE or s.phase is _PHASE_OVER:
        self._require_awaiting(_AWAITING_VOTE, f"votes {dict(votes)!r}")
    ballot = s.ballot
    assert ballot is not None
    candidates = s.candidates
    # Counting checks the targets: a seat that is not a candidate has no count (KeyError).
    counts = dict.fromkeys(candidates, 0)
    try:
        for target in votes.values():
            if target is not None:
                counts[target] += 1
        valid = set(s.ballot_voters).issuperset(votes)
    except (KeyError, TypeError):  # not a candidate, or an unhashable seat: refused below with its own message
        valid = False
    if not valid:
        self._refuse_votes(votes)
    if s.chosen_tonight and self.hooks.VOTE_BONUS and ballot in (_BALLOT_VOTE, _BALLOT_ACCUSATION) and s.second_vote_day < s.day:
        for bonus in self.hooks.VOTE_BONUS:  # the first count of the day (the Raven's mark)
            for seat, extra in bonus(self).items():
                if seat in counts:
                    counts[seat] += extra
    captain = s.captain
    if captain is not None:
        captain_target = votes.get(captain)
        if (captain_target is not None and ballot is not _BALLOT_CAPTAIN and ballot is not _BALLOT_CAPTAIN_REVOTE
                and s.options.captain_double_vote):
            counts[captain_target] += 1  # his vote counts twice (`captain_powers`)
    top = max(counts.values(), default=0)
    leaders = tuple([c for c, n in counts.items() if n == top]) if top > 0 else ()  # counts: in candidates' order
    if ballot is _BALLOT_CAPTAIN_REVOTE and len(leaders) != 1 and rng is None:
        raise RulesError("a Captain election still tied after the revote needs a random draw (rng)")
    self._emit(VotesCast(ballot, tuple(sorted(votes.items())), tuple(counts.items())))
    self._after_votes(ballot, votes, counts, leaders, rng)


def _refuse_votes(self: Game, votes: Mapping[int, int | None]) -> None:
    s = self.state
    ballot = s.ballot
    assert ballot is not None
    for voter, target in votes.items():
        if voter not in s.ballot_voters:
            if not (isinstance(voter, int) and 1 <= voter <= s.players):
                raise InvalidTargetError("voter {voter!r} is not a seat; seats are 1 to {players}",
                                         voter=voter, players=s.players)
            if not s.alive[voter - 1]:
                raise IllegalActionError("seat {voter} is dead; the dead do not vote", voter=voter)
            raise IllegalActionError("seat {voter} does not vote in this round ({value})", voter=voter, value=ballot.value)
        if target is not None and target not in s.candidates:
            self._check_target(target, f"seat {voter}'s vote")
            allowed = ", ".join(map(str, s.candidates))
            raise InvalidTargetError("seat {voter} voted for seat {target}, who is not a candidate ({allowed})",
                                     voter=voter, target=target, allowed=allowed)
    raise AssertionError("votes refused without a reason")  # pragma: no cover


def _after_votes(
    self: Game,
    ballot: Ballot,
    votes: Mapping[int, int | None],
    counts: Mapping[int, int],
    leaders: tuple[int, ...],
    rng: random.Random | None,
) -> None:
    s = self.state
    top = counts[leaders[0]] if leaders else 0  # the leaders have the most votes (none: nobody got one)
    tied = leaders or s.candidates
    if ballot is _BALLOT_CAPTAIN:
        if len(leaders) == 1:
            self._emit(CaptainElected(leaders[0], False))
        else:
            self._emit(VoteOpened(_BALLOT_CAPTAIN_REVOTE, tied, self.living()))
    elif ballot is _BALLOT_CAPTAIN_REVOTE:
        if len(leaders) == 1:
            self._emit(CaptainElected(leaders[0], False))
        else:
            assert rng is not None
            self._emit(CaptainElected(rng.choice(tied), True))
    elif top == 0:
        self._no_elimination("no_votes")
    elif ballot is _BALLOT_VOTE and s.options.vote_procedure == "runoff":
        # Round one never ends in a tie-break: the tied leaders (or the leader and everyone
        # tied second) go to round two; ties are settled there, as in plurality.
        runners = leaders if len(leaders) > 1 else _top_two(counts, s.candidates)
        if len(runners) == 1:
            self._eliminate(runners[0], by_captain=False)
        else:
            self._emit(VoteOpened(_BALLOT_RUNOFF, runners, self._voters()))
    elif ballot is _BALLOT_ACCUSATION:
        voted = {t for t in votes.values() if t is not None}
        if len(voted) == 1:
            self._eliminate(leaders[0], by_captain=False)
        else:
            accused = leaders if len(leaders) > 1 else _top_two(counts, s.candidates)
            voters = tuple(p for p in self._voters() if p not in accused)
            if voters:
                self._emit(VoteOpened(_BALLOT_BALLOT, accused, voters))
            elif not self._tie_settled(accused, captain_can_break=False):
                self._no_elimination("tie")
    elif len(leaders) == 1:
        self._eliminate(leaders[0], by_captain=False)
    elif self._tie_settled(leaders, ballot not in (_BALLOT_REVOTE, _BALLOT_BALLOT) and self._captain_breaks_tie()):
        pass
    elif self.hooks.TIE and (settled := self._settle_tie(leaders, rng)) is not None:
        self._eliminate(settled, by_captain=False)
    elif ballot in (_BALLOT_REVOTE, _BALLOT_BALLOT):
        self._no_elimination("tie")
    elif self._captain_breaks_tie():
        self._emit(TieToBreak(leaders))
    else:
        self._emit(VoteOpened(_BALLOT_REVOTE, leaders, self._voters()))


def _tie_settled(self: Game, tied: tuple[int, ...], captain_can_break: bool) -> bool:
    """Day step 4: a card eliminated instead of the tied (the Scapegoat, `hooks.TIE_VICTIM`)."""
    for victim_of in self.hooks.TIE_VICTIM:
        victim = victim_of(self, captain_can_break)
        if victim is not None:
            self._emit(TieVictim(victim, tied))
            self._eliminate(victim, by_captain=False)
            return True
    return False


def _settle_tie(self: Game, tied: tuple[int, ...], rng: random.Random | None) -> int | None:
    """Day step 4: a tie a role settles (the Angel's opening vote drawn by lot)."""
    for settle in self.hooks.TIE:
        seat = settle(self, tied, rng)
        if seat is not None:
            return seat
    return None


def _captain_breaks_tie(self: Game) -> bool:
    s = self.state
    return s.captain is not None and s.alive[s.captain - 1] and s.options.captain_breaks_ties


def break_tie(self: Game, seat: int | None) -> None:
    """The Captain chooses among the tied; None (no answer) sends the tied to a revote."""
    s = self.state
    self._require_awaiting(_AWAITING_TIEBREAK, f"the Captain's tie-break seat {seat!r}")
    if seat is None:
        if not self._tie_settled(s.candidates, captain_can_break=False):
            self._emit(VoteOpened(_BALLOT_REVOTE, s.candidates, self._voters()))
        return
    if seat not in s.candidates:
        tied = ", ".join(map(str, s.candidates))
        raise InvalidTargetError("seat {seat!r} is not among the tied ({tied})", seat=seat, tied=tied)
    self._eliminate(seat, by_captain=True)


def _no_elimination(self: Game, reason: str) -> None:
    self._emit(NobodyEliminated(reason))
    self._end_vote()


def _eliminate(self: Game, seat: int, by_captain: bool) -> None:
    s = self.state
    if self.hooks.SPARES and seat not in s.powerless and _any_hook(self.hooks.SPARES, self, seat):
        captain = s.captain == seat
        names = captain and any(keeps(self) for keeps in self.hooks.SPARED_CAPTAIN_NAMES_SUCCESSOR)
        self._emit(PlayerSpared(seat, s.roles[seat - 1], office_lost=captain and not names))
        if names:
            self._emit(SuccessorCalled(seat))
            return
        self._finish_resolution()
        return
    self._emit(PlayerEliminated(seat, by_captain))
    if self.hooks.WINDOW and any(window.opens(self, seat) for window in self.hooks.WINDOW):
        self._emit(WindowOpened(seat))
        return
    self._emit(PlayerDied(seat, _CAUSE_VOTE, self.state.roles[seat - 1]))
    self._resolve([(seat, _CAUSE_VOTE)])


def window_taker(self: Game) -> int | None:
    """The seat who may take the designated player's card in the open window, if any."""
    s = self.state
    if s.awaiting is not Awaiting.WINDOW or s.awaiting_seat is None:
        return None
    for window in self.hooks.WINDOW:
        taker = window.taker(self, s.awaiting_seat)
        if taker is not None:
            return taker
    return None


def take_card(self: Game, taker: int | None) -> None:
    """Day step 5's window closes: `taker` takes the designated player's card before it is
    shown (the Devoted Servant), or None: nobody stepped forward. Then he dies as voted.
    At dawn (`servant_scope=any_death`) the night death is already dead: the next death's
    window opens, or after the last one the chain reactions go on."""
    s = self.state
    self._require_awaiting(Awaiting.WINDOW, f"taking the card (seat {taker!r})")
    seat = s.awaiting_seat
    assert seat is not None
    if taker is not None:
        self._check_seat(taker)
        problems = [w.check(self, taker, seat) for w in self.hooks.WINDOW]
        if all(p is not None for p in problems):
            raise IllegalActionError("seat {taker} cannot take seat {seat}'s card: {problems}",
                                     taker=taker, seat=seat, problems=problems[0])
        self._emit(CardTaken(taker, seat, s.roles[seat - 1]))
    if s.queue:  # a dawn window: the queue of the night's deaths waits for the last one
        queue = list(s.queue)
        self._emit(WindowClosed(seat))
        if not self._dawn_window(queue, seat):
            self._resolve(queue)
        return
    self._emit(PlayerDied(seat, Cause.VOTE, s.roles[seat - 1]))
    self._resolve([(seat, Cause.VOTE)])


def _any_hook(checks: Iterable[Callable[[Game, int], bool]], game: Game, seat: int) -> bool:
    """`any(check(game, seat) for check in checks)` without a generator (the vote's hot path)."""
    for check in checks:
        if check(game, seat):
            return True
    return False


def _top_two(counts: Mapping[int, int], candidates: Sequence[int]) -> tuple[int, ...]:
    """The leader and everyone tied in second place (only players who got votes)."""
    values = sorted({counts[c] for c in candidates if counts[c] > 0}, reverse=True)[:2]
    return tuple(c for c in candidates if counts[c] in values and counts[c] > 0)
