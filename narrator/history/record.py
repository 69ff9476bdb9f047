"""A game as the history keeps it, derived from its setup and its events alone (through the engine's replay)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from narrator.errors import NarratorError
from narrator.rules import Game, Options, Role, RulesError
from narrator.rules.codec import event_from_dict, event_to_dict
from narrator.rules.composition import Deal, deck_of, describe
from narrator.rules.events import (
    CaptainElected,
    CaptainSucceeded,
    DayBegan,
    Event,
    GameStarted,
    NightBegan,
    PlayerDied,
    VotesCast,
)


class HistoryError(NarratorError):
    """A game that cannot be recorded or read back."""


@dataclass(frozen=True)
class Death:
    seat: int
    role: str
    cause: str
    phase: str  # "night" or "day"
    number: int  # which night or day


@dataclass(frozen=True)
class Vote:
    phase: str
    number: int
    ballot: str
    round: int  # the round's order within the game
    voter: int
    target: int | None


@dataclass(frozen=True)
class Seat:
    seat: int
    dealt: str  # the card dealt
    role: str  # the card held at the end (the Thief may change it)
    team: str
    won: bool
    name: str | None = None


@dataclass(frozen=True, kw_only=True)
class GameSummary:
    """What the history says of a game in one line: the fields a game's record and its database row share."""

    status: str  # "finished" or "abandoned"
    players: int
    language: str
    composition: str
    options: dict[str, Any]
    timing: dict[str, Any]
    nights: int
    days: int
    winner: str | None
    events: list[dict[str, Any]]
    started_at: str | None = None
    ended_at: str | None = None
    duration_s: float | None = None
    journal: str | None = None
    source: str = "table"  # "headless" for a scripted run (`play --headless`), "table" for a game played at a table


@dataclass(frozen=True, kw_only=True)
class GameRecord(GameSummary):
    """A game as it is written: its summary, and its seats, deaths, votes and Captains."""

    uid: str  # the same game imported twice keeps one row
    seats: list[Seat]
    deaths: list[Death]
    votes: list[Vote]
    seed: int | None = None
    mode: str | None = None
    captains: list[int] = field(default_factory=list)


def start_event(setup: Mapping[str, Any]) -> GameStarted:
    """The GameStarted of a journal's setup record (the journal does not write it)."""
    try:
        seats = tuple(Role(r) for r in setup["roles"])
        extra = tuple(Role(r) for r in setup.get("extra", []))
        options = Options().with_values(setup.get("options", {}))
        possible = frozenset(Role(r) for r in setup.get("possible") or ()) | frozenset(seats) | frozenset(extra)
        game = Game.start(Deal(seats, extra), options, possible)
    except (KeyError, TypeError, ValueError, RulesError) as exc:
        raise HistoryError("the setup record cannot start a game: {exc}", exc=exc) from None
    started = game.events[0]
    assert isinstance(started, GameStarted)
    return started


@dataclass
class _Walk:
    """What a game's events tell, in their order: its deaths, votes and Captains, how many nights and days."""

    deaths: list[Death] = field(default_factory=list)
    votes: list[Vote] = field(default_factory=list)
    captains: list[int] = field(default_factory=list)
    nights: int = 0
    days: int = 0


def _walk(events: Sequence[Event]) -> _Walk:
    walk = _Walk()
    phase, number, rounds = "night", 0, 0
    for event in events:
        if isinstance(event, NightBegan):
            phase, number, walk.nights = "night", event.night, event.night
        elif isinstance(event, DayBegan):
            phase, number, walk.days = "day", event.day, event.day
        elif isinstance(event, PlayerDied):
            walk.deaths.append(Death(event.seat, event.role.value, event.cause.value, phase, number))
        elif isinstance(event, VotesCast):
            rounds += 1
            walk.votes += [Vote(phase, number, event.ballot.value, rounds, v, t) for v, t in event.votes]
        elif isinstance(event, CaptainElected):
            walk.captains.append(event.seat)
        elif isinstance(event, CaptainSucceeded) and event.successor is not None:
            walk.captains.append(event.successor)
    return walk


def from_events(
    setup: Mapping[str, Any],
    events: Sequence[Event],
    *,
    names: Mapping[int, str] | None = None,
    journal: Path | None = None,
    started_at: str | None = None,
    ended_at: str | None = None,
    duration_s: float | None = None,
    seed: int | None = None,
    mode: str | None = None,
) -> GameRecord:
    """The history's record of a game: `events` begin with GameStarted (replayed to check them)."""
    try:
        game = Game.replay(list(events))
    except (RulesError, KeyError, IndexError, TypeError, ValueError) as exc:
        raise HistoryError("the game's events do not replay: {exc}", exc=exc) from None
    started = game.events[0]
    assert isinstance(started, GameStarted)
    walk = _walk(game.events)
    outcome = game.outcome
    winners = set(outcome.winners) if outcome else set()
    names = names or {}
    seats = [
        Seat(s, started.roles[s - 1].value, game.role(s).value, game.role(s).team.value, s in winners, names.get(s))
        for s in range(1, game.players + 1)
    ]
    deck = deck_of(started.roles, started.extra if started.options.thief_extra_cards == "from_deck" else ())
    plain = [event_to_dict(e) for e in game.events]
    # One row a game: a journal's game keeps its row when resumed or imported again.
    # Without a journal, a game is its setup, its events and when it started (the same script played twice is two games).
    identity: list[Any] = [dict(setup), str(journal.resolve())] if journal else [dict(setup), plain, started_at]
    digest = hashlib.sha256(json.dumps(identity, sort_keys=True, default=str).encode()).hexdigest()[:24]
    return GameRecord(
        uid=digest,
        status="finished" if outcome else "abandoned",
        players=game.players,
        language=str(setup.get("language", "en")),
        composition=describe(deck),
        options=started.options.to_dict(),
        timing=dict(setup.get("timing", {})),
        nights=walk.nights,
        days=walk.days,
        winner=outcome.winner.value if outcome else None,
        seats=seats,
        deaths=walk.deaths,
        votes=walk.votes,
        events=plain,
        started_at=started_at,
        ended_at=ended_at,
        duration_s=duration_s,
        journal=str(journal) if journal else None,
        seed=seed,
        mode=mode,
        source="headless" if mode == "headless" else "table",
        captains=walk.captains,
    )


def journal_start(head: Mapping[str, Any]) -> float | None:
    """When the game of a journal started (epoch seconds): its head's `started_at`, or the minute an
    older version wrote as `started` ("YYYY-mm-dd HH:MM", local time); None when it says neither."""
    import time

    at = head.get("started_at")
    if isinstance(at, (int, float)) and not isinstance(at, bool):
        return float(at)
    started = head.get("started")
    if isinstance(started, str):
        try:
            return time.mktime(time.strptime(started, "%Y-%m-%d %H:%M"))
        except ValueError:
            return None
    return None


def played_seconds(records: Sequence[Mapping[str, Any]], end: float) -> float | None:
    """How long the game of a journal was played, up to `end` (epoch seconds), from the journal's times.

    A game stopped and resumed is played in parts: the first from the head's start, each later one
    from its `resumed` record's `at`; a part ends where the next `resumed` record says the journal
    was last written before the stop (`stopped`), the last one at `end`. The time the game stood
    still between parts is not counted. None when the journal has no start time.
    """
    if not records:
        return None
    start = journal_start(records[0])
    if start is None:
        return None
    total = 0.0
    for record in records[1:]:
        if record.get("kind") != "resumed":
            continue
        stopped, at = record.get("stopped"), record.get("at")
        if isinstance(stopped, (int, float)) and isinstance(at, (int, float)):
            total += max(0.0, float(stopped) - start)
            start = float(at)
    return round(total + max(0.0, end - start), 3)


def from_journal(records: Sequence[Mapping[str, Any]], path: Path | None = None, **meta: Any) -> GameRecord:
    """A journal's game: the setup record, then the events of its step records (other kinds are skipped)."""
    if not records or records[0].get("kind") != "setup":
        raise HistoryError("the journal does not begin with a setup record")
    head = records[0]
    setup = head.get("setup")
    if not isinstance(setup, Mapping):
        raise HistoryError("the journal's setup record has no setup")
    events: list[Event] = [start_event(setup)]
    try:
        for record in records[1:]:
            if record.get("kind") == "step":
                events += [event_from_dict(dict(e)) for e in record.get("events", [])]
    except (RulesError, KeyError, TypeError, ValueError) as exc:
        raise HistoryError("the journal has an event that cannot be read: {exc}", exc=exc) from None
    from narrator.names import head_names

    names = head_names(head)
    seed = head.get("seed")
    return from_events(setup, events, names=names, journal=path, seed=int(seed) if isinstance(seed, int) else None,
                       mode=str(head.get("mode")) if head.get("mode") else None, **meta)

