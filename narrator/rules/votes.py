"""The day's votes: the Captain election, the elimination vote, second votes, ties, the elimination,
and the window a card may be taken in before the eliminated player's card is shown.

Each step reads the game (`GameView`) and hands its events to `emit`, which folds them in.
"""

from __future__ import annotations

import random
from typing import Callable, Iterable, Mapping, Sequence

from narrator.rules import chains, checks, dawn
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
from narrator.rules.view import Emit, GameView, Tie


def open_captain_election(game: GameView, emit: Emit) -> None:
    if not game.captain_election_due():
        raise WrongPhaseError("no Captain election is due now")
    living = game.living()
    emit(VoteOpened(_BALLOT_CAPTAIN, living, living))


def open_vote(game: GameView, emit: Emit) -> None:
    if not game.vote_due():
        raise WrongPhaseError("no vote is due now (one vote a day, after the morning)")
    s = game.state
    first = s.last_vote_day < s.day
    living = game.living()
    # The two-player game (`last_two`) takes a single vote, whatever the procedure.
    ballot = _BALLOT_ACCUSATION if s.options.vote_procedure == "accusation" and not game.last_two() else _BALLOT_VOTE
    allowed = voters(game)
    if not allowed:  # nobody may vote today (the Scapegoat's list): no elimination
        _no_elimination(game, emit, "no_voters")
        return
    emit(VoteOpened(ballot, living, allowed))
    if first and s.second_vote_asked is None:
        for armed in game.hooks.armed:  # a second vote armed last night (judge_signal=night_arm)
            seat = armed(game)
            if seat is not None:
                emit(SecondVoteAsked(seat))
                break


def signal_second_vote(game: GameView, emit: Emit, voter: int) -> None:
    """A voter's secret sign during the day's first vote (the keypad key of the Stuttering
    Judge): it asks for a second vote if his card lets him (`Hooks.signals`), and does nothing
    for anyone else; either way nothing is said."""
    s = game.state
    if not game.sign_taken():
        raise WrongPhaseError("seat {voter!r}'s sign: a sign is taken only during the day's first vote", voter=voter)
    if voter not in s.ballot_voters:
        raise IllegalActionError("seat {voter!r} does not vote in this round, so gives no sign", voter=voter)
    if s.second_vote_asked is None and any(signal(game, voter) for signal in game.hooks.signals):
        emit(SecondVoteAsked(voter))


def voters(game: GameView) -> tuple[int, ...]:
    """Who votes for an elimination: the living, minus the players spared by their card,
    and only those the Scapegoat named for today (docs/rules-spec.md#day step 1)."""
    s = game.state
    seats = s.living
    if s.spared:
        seats = tuple([p for p in seats if p not in s.spared])
    if s.designated_voters is not None and s.designated_voters_day == s.day:
        allowed = s.designated_voters
        seats = tuple([p for p in seats if p in allowed])
    return seats


def cast_votes(game: GameView, emit: Emit, votes: Mapping[int, int | None], rng: random.Random | None = None) -> None:
    """One round of votes: voter → target (None abstains; a voter left out abstains).

    `rng` is needed only for the draw that ends a Captain election still tied after a revote.
    """
    s = game.state
    # Checked before building the message: a dict's repr on every round would slow the simulator.
    if s.awaiting is not _AWAITING_VOTE or s.phase is _PHASE_OVER:
        checks.awaiting(game, _AWAITING_VOTE, f"votes {dict(votes)!r}")
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
        _refuse_votes(game, votes)
    if s.chosen_tonight and game.hooks.vote_bonus and ballot in (_BALLOT_VOTE, _BALLOT_ACCUSATION) and s.second_vote_day < s.day:
        for bonus in game.hooks.vote_bonus:  # the first count of the day (the Raven's mark)
            for seat, extra in bonus(game).items():
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
    emit(VotesCast(ballot, tuple(sorted(votes.items())), tuple(counts.items())))
    _after_votes(game, emit, ballot, votes, counts, leaders, rng)


def _refuse_votes(game: GameView, votes: Mapping[int, int | None]) -> None:
    s = game.state
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
            checks.target(game, target, f"seat {voter}'s vote")
            allowed = ", ".join(map(str, s.candidates))
            raise InvalidTargetError("seat {voter} voted for seat {target}, who is not a candidate ({allowed})",
                                     voter=voter, target=target, allowed=allowed)
    raise AssertionError("votes refused without a reason")  # pragma: no cover


def _after_votes(
    game: GameView,
    emit: Emit,
    ballot: Ballot,
    votes: Mapping[int, int | None],
    counts: Mapping[int, int],
    leaders: tuple[int, ...],
    rng: random.Random | None,
) -> None:
    s = game.state
    top = counts[leaders[0]] if leaders else 0  # the leaders have the most votes (none: nobody got one)
    tied = leaders or s.candidates
    if ballot is _BALLOT_CAPTAIN:
        if len(leaders) == 1:
            emit(CaptainElected(leaders[0], False))
        else:
            emit(VoteOpened(_BALLOT_CAPTAIN_REVOTE, tied, game.living()))
    elif ballot is _BALLOT_CAPTAIN_REVOTE:
        if len(leaders) == 1:
            emit(CaptainElected(leaders[0], False))
        else:
            assert rng is not None
            emit(CaptainElected(rng.choice(tied), True))
    elif top == 0:
        _no_elimination(game, emit, "no_votes")
    elif ballot is _BALLOT_VOTE and game.last_two():
        # docs/rules-spec.md#last-two: the one with more votes is burned; a tie burns nobody.
        if len(leaders) == 1:
            _eliminate(game, emit, leaders[0], by_captain=False)
        else:
            _no_elimination(game, emit, "tie")
    elif ballot is _BALLOT_VOTE and s.options.vote_procedure == "runoff":
        # Round one never ends in a tie-break: the tied leaders (or the leader and everyone
        # tied second) go to round two; ties are settled there, as in plurality.
        runners = leaders if len(leaders) > 1 else _top_two(counts, s.candidates)
        if len(runners) == 1:
            _eliminate(game, emit, runners[0], by_captain=False)
        else:
            emit(VoteOpened(_BALLOT_RUNOFF, runners, voters(game)))
    elif ballot is _BALLOT_ACCUSATION:
        voted = {t for t in votes.values() if t is not None}
        if len(voted) == 1:
            _eliminate(game, emit, leaders[0], by_captain=False)
        else:
            accused = leaders if len(leaders) > 1 else _top_two(counts, s.candidates)
            judges = tuple(p for p in voters(game) if p not in accused)
            if judges:
                emit(VoteOpened(_BALLOT_BALLOT, accused, judges))
            elif not _tie_settled(game, emit, Tie(accused, False, False, None)):
                _no_elimination(game, emit, "tie")
    elif len(leaders) == 1:
        _eliminate(game, emit, leaders[0], by_captain=False)
    elif game.hooks.ties and _tie_settled(game, emit, Tie(
            leaders, ballot not in (_BALLOT_REVOTE, _BALLOT_BALLOT) and _captain_breaks_tie(game), True, rng)):
        pass
    elif ballot in (_BALLOT_REVOTE, _BALLOT_BALLOT):
        _no_elimination(game, emit, "tie")
    elif _captain_breaks_tie(game):
        emit(TieToBreak(leaders))
    else:
        emit(VoteOpened(_BALLOT_REVOTE, leaders, voters(game)))


def _tie_settled(game: GameView, emit: Emit, tie: Tie) -> bool:
    """Day step 4: a tie a role settles (`Hooks.ties`: the Scapegoat eliminated instead of the
    tied, the Angel's opening vote drawn by lot); False: the base rules go on."""
    for settle in game.hooks.ties:
        settled = settle(game, tie)
        if settled is not None:
            if settled.instead:
                emit(TieVictim(settled.seat, tie.tied))
            _eliminate(game, emit, settled.seat, by_captain=False)
            return True
    return False


def _captain_breaks_tie(game: GameView) -> bool:
    s = game.state
    return s.captain is not None and s.alive[s.captain - 1] and s.options.captain_breaks_ties


def break_tie(game: GameView, emit: Emit, seat: int | None) -> None:
    """The Captain chooses among the tied; None (no answer) sends the tied to a revote."""
    s = game.state
    checks.awaiting(game, _AWAITING_TIEBREAK, f"the Captain's tie-break seat {seat!r}")
    if seat is None:
        if not _tie_settled(game, emit, Tie(s.candidates, False, False, None)):
            emit(VoteOpened(_BALLOT_REVOTE, s.candidates, voters(game)))
        return
    if seat not in s.candidates:
        tied = ", ".join(map(str, s.candidates))
        raise InvalidTargetError("seat {seat!r} is not among the tied ({tied})", seat=seat, tied=tied)
    _eliminate(game, emit, seat, by_captain=True)


def _no_elimination(game: GameView, emit: Emit, reason: str) -> None:
    emit(NobodyEliminated(reason))
    chains.end_vote(game, emit)


def _eliminate(game: GameView, emit: Emit, seat: int, by_captain: bool) -> None:
    s = game.state
    if game.hooks.spares and seat not in s.powerless and _any_hook(game.hooks.spares, game, seat):
        captain = s.captain == seat
        names = captain and any(keeps(game) for keeps in game.hooks.spared_captain_names_successor)
        emit(PlayerSpared(seat, s.roles[seat - 1], office_lost=captain and not names))
        if names:
            emit(SuccessorCalled(seat))
            return
        chains.finish_resolution(game, emit)
        return
    emit(PlayerEliminated(seat, by_captain))
    if game.hooks.windows and any(window.opens(game, seat) for window in game.hooks.windows):
        emit(WindowOpened(seat))
        return
    emit(PlayerDied(seat, _CAUSE_VOTE, game.state.roles[seat - 1]))
    chains.resolve(game, emit, [(seat, _CAUSE_VOTE)])


def take_card(game: GameView, emit: Emit, taker: int | None) -> None:
    """Day step 5's window closes: `taker` takes the designated player's card before it is
    shown (the Devoted Servant), or None: nobody stepped forward. Then he dies as voted.
    At dawn (`servant_scope=any_death`) the night death is already dead: the next death's
    window opens, or after the last one the chain reactions go on."""
    s = game.state
    checks.awaiting(game, Awaiting.WINDOW, f"taking the card (seat {taker!r})")
    seat = s.awaiting_seat
    assert seat is not None
    if taker is not None:
        game.check_seat(taker)
        problems = [w.check(game, taker, seat) for w in game.hooks.windows]
        if all(p is not None for p in problems):
            raise IllegalActionError("seat {taker} cannot take seat {seat}'s card: {problems}",
                                     taker=taker, seat=seat, problems=problems[0])
        emit(CardTaken(taker, seat, s.roles[seat - 1]))
    if s.queue:  # a dawn window: the queue of the night's deaths waits for the last one
        queue = list(s.queue)
        emit(WindowClosed(seat))
        if not dawn.window(game, emit, queue, seat):
            chains.resolve(game, emit, queue)
        return
    emit(PlayerDied(seat, Cause.VOTE, s.roles[seat - 1]))
    chains.resolve(game, emit, [(seat, Cause.VOTE)])


def _any_hook(hooks: Iterable[Callable[[GameView, int], bool]], game: GameView, seat: int) -> bool:
    """`any(hook(game, seat) for hook in hooks)` without a generator (the vote's hot path)."""
    for check in hooks:
        if check(game, seat):
            return True
    return False


def _top_two(counts: Mapping[int, int], candidates: Sequence[int]) -> tuple[int, ...]:
    """The leader and everyone tied in second place (only players who got votes)."""
    values = sorted({counts[c] for c in candidates if counts[c] > 0}, reverse=True)[:2]
    return tuple(c for c in candidates if counts[c] in values and counts[c] > 0)
