"""Chain reactions of deaths (the roles' table, `Hooks.chain`), the answers they wait for (the
roles' `Hooks.answers`: the Hunter's shot, the Scapegoat's voters; and the Captain's successor), and
the end of a resolution (outcome, dusk or day).

Each step reads the game (`GameView`) and hands its events to `emit`, which folds them in.
"""

from __future__ import annotations

from narrator.rules import checks, hooks
from narrator.rules.events import (
    CaptainSucceeded,
    Cause,
    DayBegan,
    DuskFell,
    GameEnded,
    PlayerDied,
    SecondVoteDue,
    SuccessorCalled,
)
from narrator.rules.state import Awaiting, _AWAITING_SUCCESSOR, _CAUSE_GRIEF
from narrator.rules.view import Emit, GameView


def answer(game: GameView, emit: Emit, awaiting: Awaiting, choice: tuple[int, ...] | None) -> None:
    """The answer a death's chain reaction waits for (`Hooks.answers`: the Hunter's shot, the
    Scapegoat's voters); None when none came in time. What it brings is resolved with the rest of
    the chain."""
    s = game.state
    found = hooks.answer(awaiting)
    checks.awaiting(game, awaiting, found.said(choice))
    seat = s.awaiting_seat
    assert seat is not None
    queue = list(s.queue)
    reaction = found.answer(game, seat, choice)
    for event in reaction.events:
        emit(event)
    for dead, why in reaction.deaths:
        if s.alive[dead - 1]:
            emit(PlayerDied(dead, why, s.roles[dead - 1]))
            queue.append((dead, why))
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


def resolve(game: GameView, emit: Emit, queue: list[tuple[int, Cause]]) -> None:
    """Process deaths in order (docs/rules-spec.md#dawn step 6): each death's chain reactions, the
    other Lover's grief first, then the roles' table in rank order (`Hooks.chain`: the Wild Child,
    the Elder, the Hunter's shot, the Scapegoat's voters); a reaction that waits for an answer
    stops here until it comes; then the Captain; then the end."""
    s = game.state
    table = game.hooks.chain
    acting = bool(game.hooks.acting)
    while queue:
        seat, cause = queue.pop(0)
        lovers = s.lovers
        if lovers is not None and seat in lovers:  # the Lovers (Cupid's) die together, of grief
            other = lovers[1] if lovers[0] == seat else lovers[0]
            if s.alive[other - 1]:
                emit(PlayerDied(other, _CAUSE_GRIEF, s.roles[other - 1]))
                queue.append((other, _CAUSE_GRIEF))
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
    outcome = game.check_outcome() if game.end_checked_now() else None
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
