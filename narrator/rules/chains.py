"""Chain reactions of deaths (the roles' table, `Hooks.chain`), the answers they wait for (the
Hunter's shot, the Captain's successor, the Scapegoat's voters), and the end of a resolution
(outcome, dusk or day).

Each step reads the game (`GameView`) and hands its events to `emit`, which folds them in.
"""

from __future__ import annotations

from typing import Sequence

from narrator.rules import checks
from narrator.rules.events import (
    CaptainSucceeded,
    Cause,
    DayBegan,
    DuskFell,
    GameEnded,
    HunterShot,
    PlayerDied,
    SecondVoteDue,
    SuccessorCalled,
    VotersDesignated,
)
from narrator.rules.state import Awaiting, _AWAITING_HUNTER, _AWAITING_SUCCESSOR, _CAUSE_HUNTER
from narrator.rules.view import Emit, GameView


def hunter_shoot(game: GameView, emit: Emit, target: int | None) -> None:
    """The dead Hunter's last shot; None when he let it pass (no answer in time)."""
    s = game.state
    checks.awaiting(game, _AWAITING_HUNTER, f"the Hunter's shot at seat {target!r}")
    hunter = s.awaiting_seat
    assert hunter is not None
    if target is not None:
        checks.target(game, target, "the Hunter")
    queue = list(s.queue)
    emit(HunterShot(hunter, target))
    if target is not None:
        emit(PlayerDied(target, _CAUSE_HUNTER, s.roles[target - 1]))
        queue.append((target, _CAUSE_HUNTER))
    resolve(game, emit, queue)


def name_successor(game: GameView, emit: Emit, successor: int | None) -> None:
    """The dead Captain names a living successor; None leaves the office vacant."""
    s = game.state
    checks.awaiting(game, _AWAITING_SUCCESSOR, f"the Captain's successor seat {successor!r}")
    previous = s.awaiting_seat
    assert previous is not None
    if successor is not None:
        checks.target(game, successor, "the Captain")
    emit(CaptainSucceeded(previous, successor))
    finish_resolution(game, emit)


def designate_voters(game: GameView, emit: Emit, seats: Sequence[int] | None) -> None:
    """The dead Scapegoat names who may vote the next day (any living players, none, all);
    None (no answer in time) sets no restriction."""
    s = game.state
    said = "nobody" if seats is not None and not seats else " ".join(map(repr, seats or ())) or "no answer"
    checks.awaiting(game, Awaiting.VOTERS, f"the Scapegoat's voters ({said})")
    seat = s.awaiting_seat
    assert seat is not None
    chosen: tuple[int, ...] | None = None
    if seats is not None:
        for voter in seats:
            checks.target(game, voter, "the Scapegoat")
        chosen = tuple(sorted(set(seats)))
    queue = list(s.queue)
    emit(VotersDesignated(seat, chosen, s.day + 1))
    resolve(game, emit, queue)


def resolve(game: GameView, emit: Emit, queue: list[tuple[int, Cause]]) -> None:
    """Process deaths in order (docs/rules-spec.md#dawn step 6): each death's chain reactions, the
    roles' table in rank order (`Hooks.chain`: grief, the Wild Child, the Elder, the Hunter's
    shot, the Scapegoat's voters); a reaction that waits for an answer stops here until it comes;
    then the Captain; then the end."""
    s = game.state
    table = game.hooks.chain
    acting = bool(game.hooks.acting)
    while queue:
        seat, cause = queue.pop(0)
        for row in table:
            card = row.card
            if card is not None and (seat in s.taken or (
                    s.roles[seat - 1] is not card and not (acting and game.acts_as(seat, card)))):
                continue  # not this card's death, or the card left with the Devoted Servant
            reaction = row.react(game, seat, cause)
            if reaction is None:
                continue
            for event in reaction.events:
                emit(event)
            for dead, why in reaction.deaths:
                if s.alive[dead - 1]:
                    emit(PlayerDied(dead, why, s.roles[dead - 1]))
                    queue.append((dead, why))
            if reaction.waits is not None:
                emit(reaction.waits(seat, tuple(queue)))
                return
    finish_resolution(game, emit)


def finish_resolution(game: GameView, emit: Emit) -> None:
    s = game.state
    hooks = game.hooks
    if not s.resolving_day and hooks.dawn_settled:
        # Dawn step 7 (the Knight's diseased wolf). Reached again after a successor is named:
        # each hook emits only what it has not emitted this dawn.
        for event in [e for settle in hooks.dawn_settled for e in settle(game)]:
            emit(event)
    if hooks.at_once and any(w.check(game) is not None for w in hooks.at_once):
        outcome = game.check_outcome()  # the game stops at once (the Angel): no successor
        if outcome is not None:
            emit(GameEnded(outcome.winner, outcome.winners))
            return
    if s.captain is not None and (not s.alive[s.captain - 1] or s.resigned) and game.living():
        emit(SuccessorCalled(s.captain))
        return
    outcome = game.check_outcome()
    if outcome is not None:
        emit(GameEnded(outcome.winner, outcome.winners))
    elif s.resolving_day:
        end_vote(game, emit)
    else:
        emit(DayBegan(s.night))


def end_vote(game: GameView, emit: Emit) -> None:
    """After a vote's batch, if the game goes on: the second vote, if asked, else dusk."""
    s = game.state
    asked = s.second_vote_asked
    if asked is not None and all(stands(game, asked) for stands in game.hooks.second_vote_stands):
        emit(SecondVoteDue(s.day))
    else:
        emit(DuskFell(s.day))
