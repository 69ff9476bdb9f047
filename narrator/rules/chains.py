"""Chain reactions of deaths: the Hunter's shot, the Captain's successor, the roles' reactions, and
the end of a resolution (outcome, dusk or day).

Each function is a method of `Game` (bound in narrator/rules/game.py), written with `self: Game`.
"""

from __future__ import annotations

from typing import Sequence, TYPE_CHECKING

from narrator.rules.events import (
    DEVOURING,
    CaptainSucceeded,
    Cause,
    DayBegan,
    DuskFell,
    GameEnded,
    HunterCalled,
    HunterShot,
    PlayerDied,
    SecondVoteDue,
    SuccessorCalled,
    VotersCalled,
    VotersDesignated,
)
from narrator.rules.state import (
    Awaiting,
    _AWAITING_HUNTER,
    _AWAITING_SUCCESSOR,
    _CAUSE_GRIEF,
    _CAUSE_HUNTER,
    _CAUSE_VOTE,
    _ROLE_HUNTER,
)

if TYPE_CHECKING:
    from narrator.rules.game import Game


def hunter_targets(self: Game) -> tuple[int, ...]:
    return self.living()


def hunter_shoot(self: Game, target: int | None) -> None:
    """The dead Hunter's last shot; None when he let it pass (no answer in time)."""
    s = self.state
    self._require_awaiting(_AWAITING_HUNTER, f"the Hunter's shot at seat {target!r}")
    hunter = s.awaiting_seat
    assert hunter is not None
    if target is not None:
        self._check_target(target, "the Hunter")
    queue = list(s.queue)
    self._emit(HunterShot(hunter, target))
    if target is not None:
        self._emit(PlayerDied(target, _CAUSE_HUNTER, s.roles[target - 1]))
        queue.append((target, _CAUSE_HUNTER))
    self._resolve(queue)


def name_successor(self: Game, successor: int | None) -> None:
    """The dead Captain names a living successor; None leaves the office vacant."""
    s = self.state
    self._require_awaiting(_AWAITING_SUCCESSOR, f"the Captain's successor seat {successor!r}")
    previous = s.awaiting_seat
    assert previous is not None
    if successor is not None:
        self._check_target(successor, "the Captain")
    self._emit(CaptainSucceeded(previous, successor))
    self._finish_resolution()


def _resolve(self: Game, queue: list[tuple[int, Cause]]) -> None:
    """Process deaths in order (docs/rules-spec.md#dawn step 6): grief; the roles' chain
    reactions (`hooks.REACTIONS`: the Elder's revenge, the Idiot dying with him); the Hunter's
    shot; the Scapegoat's list; then the Captain; then the end. (The roles' reactions come
    before the Hunter's shot of the same death: no card has both, so the order is the rules'.)"""
    s = self.state
    while queue:
        seat, cause = queue.pop(0)
        if s.lovers and seat in s.lovers:
            other = s.lovers[1] if s.lovers[0] == seat else s.lovers[0]
            if s.alive[other - 1]:
                self._emit(PlayerDied(other, _CAUSE_GRIEF, s.roles[other - 1]))
                queue.append((other, _CAUSE_GRIEF))
        if self.hooks.CHAIN:
            for reaction in self.hooks.CHAIN:  # the Wild Child turns...
                for event in reaction(self, seat, cause):
                    self._emit(event)
        if self.hooks.REACTIONS and seat not in s.taken:
            self._react(seat, cause, queue)
        if seat in s.taken:
            continue  # his card left with the Devoted Servant: its effects do not apply
        hunter = s.roles[seat - 1] is _ROLE_HUNTER or (bool(self.hooks.ACTING) and self.acts_as(seat, _ROLE_HUNTER))
        if hunter and seat not in s.powerless and self._hunter_fires(cause) and self.living():
            self._emit(HunterCalled(seat, tuple(queue)))
            return
        if self.hooks.DESIGNATES_VOTERS and any(d(self, seat, cause) for d in self.hooks.DESIGNATES_VOTERS):
            self._emit(VotersCalled(seat, tuple(queue)))
            return
    self._finish_resolution()


def _react(self: Game, seat: int, cause: Cause, queue: list[tuple[int, Cause]]) -> None:
    s = self.state
    for react in self.hooks.REACTIONS:
        reaction = react(self, seat, cause)
        if reaction is None:
            continue
        for event in reaction.events:
            self._emit(event)
        for dead, why in reaction.deaths:
            if s.alive[dead - 1]:
                self._emit(PlayerDied(dead, why, s.roles[dead - 1]))
                queue.append((dead, why))


def designate_voters(self: Game, seats: Sequence[int] | None) -> None:
    """The dead Scapegoat names who may vote the next day (any living players, none, all);
    None (no answer in time) sets no restriction."""
    s = self.state
    said = "nobody" if seats is not None and not seats else " ".join(map(repr, seats or ())) or "no answer"
    self._require_awaiting(Awaiting.VOTERS, f"the Scapegoat's voters ({said})")
    seat = s.awaiting_seat
    assert seat is not None
    chosen: tuple[int, ...] | None = None
    if seats is not None:
        for voter in seats:
            self._check_target(voter, "the Scapegoat")
        chosen = tuple(sorted(set(seats)))
    queue = list(s.queue)
    self._emit(VotersDesignated(seat, chosen, s.day + 1))
    self._resolve(queue)


def _hunter_fires(self: Game, cause: Cause) -> bool:
    return self.state.options.hunter_shoots_on == "any_death" or cause in DEVOURING or cause is _CAUSE_VOTE


def _finish_resolution(self: Game) -> None:
    s = self.state
    if not s.resolving_day and self.hooks.DAWN_SETTLED:
        # Dawn step 7 (the Knight's diseased wolf). Reached again after a successor is named:
        # each hook emits only what it has not emitted this dawn.
        for event in [e for settle in self.hooks.DAWN_SETTLED for e in settle(self)]:
            self._emit(event)
    if self.at_once and any(w.check(self) is not None for w in self.at_once):
        outcome = self.check_outcome()  # the game stops at once (the Angel): no successor
        if outcome is not None:
            self._emit(GameEnded(outcome.winner, outcome.winners))
            return
    if s.captain is not None and (not s.alive[s.captain - 1] or s.resigned) and self.living():
        self._emit(SuccessorCalled(s.captain))
        return
    outcome = self.check_outcome()
    if outcome is not None:
        self._emit(GameEnded(outcome.winner, outcome.winners))
    elif s.resolving_day:
        self._end_vote()
    else:
        self._emit(DayBegan(s.night))


def _end_vote(self: Game) -> None:
    """After a vote's batch, if the game goes on: the second vote, if asked, else dusk."""
    s = self.state
    asked = s.second_vote_asked
    if asked is not None and all(stands(self, asked) for stands in self.hooks.SECOND_VOTE_STANDS):
        self._emit(SecondVoteDue(s.day))
    else:
        self._emit(DuskFell(s.day))
