"""The history database: SQLite (standard library) in WAL mode, schema versioned by `PRAGMA user_version`.

A game is written in one transaction: after a crash the database holds the whole game or none of it.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from narrator.history.record import GameRecord, GameSummary, HistoryError

# Each migration takes the schema from version i to i+1; never edit one that has shipped: add another.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        uid TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL,
        started_at TEXT,
        ended_at TEXT,
        duration_s REAL,
        players INTEGER NOT NULL,
        language TEXT NOT NULL,
        composition TEXT NOT NULL,
        options TEXT NOT NULL,
        timing TEXT NOT NULL,
        nights INTEGER NOT NULL,
        days INTEGER NOT NULL,
        winner TEXT,
        journal TEXT,
        seed INTEGER,
        mode TEXT,
        events TEXT NOT NULL
    );
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        name TEXT,
        dealt TEXT NOT NULL,
        role TEXT NOT NULL,
        team TEXT NOT NULL,
        won INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE deaths (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        ord INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        role TEXT NOT NULL,
        cause TEXT NOT NULL,
        phase TEXT NOT NULL,
        number INTEGER NOT NULL,
        PRIMARY KEY (game_id, ord)
    );
    CREATE TABLE votes (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        phase TEXT NOT NULL,
        number INTEGER NOT NULL,
        ballot TEXT NOT NULL,
        voter INTEGER NOT NULL,
        target INTEGER,
        PRIMARY KEY (game_id, round, voter)
    );
    CREATE TABLE captains (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        ord INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        PRIMARY KEY (game_id, ord)
    );
    CREATE INDEX seats_name ON seats(name);
    """,
    # 2: where a game comes from: "table" (played at a table: text or full screen) or "headless"
    # (`play --headless`, a scripted run); the statistics count the table's games by default.
    """
    ALTER TABLE games ADD COLUMN source TEXT NOT NULL DEFAULT 'table';
    UPDATE games SET source = 'headless' WHERE mode = 'headless';
    """,
)
VERSION = len(MIGRATIONS)


def history_path() -> Path:
    from platformdirs import user_data_dir

    base = os.environ.get("NARRATOR_DATA") or user_data_dir("narrator")
    return Path(base) / "history.sqlite3"


def connect(path: Path | None = None) -> sqlite3.Connection:
    """Open (creating or migrating) the history database."""
    path = path or history_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(path), timeout=10, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA synchronous=FULL")
        migrate(conn)
    except sqlite3.DatabaseError as exc:
        raise HistoryError("the history database {path} cannot be opened: {exc}", path=path, exc=exc) from None
    except OSError as exc:
        raise HistoryError("the history database {path} cannot be created: {reason}",
                           path=path, reason=exc.strerror or exc) from None
    return conn


def migrate(conn: sqlite3.Connection) -> None:
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version > VERSION:
        raise HistoryError("the history database has schema version {version}; this narrator knows up to {newest} (a "
                           "newer narrator wrote it)", version=version, newest=VERSION)
    for number in range(version, VERSION):
        conn.execute("BEGIN IMMEDIATE")
        for statement in _statements(MIGRATIONS[number]):
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {number + 1}")
        conn.execute("COMMIT")


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def save(conn: sqlite3.Connection, game: GameRecord) -> int:
    """Write one game, all of it in one transaction; a game already there (same uid) is replaced."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("DELETE FROM games WHERE uid = ?", (game.uid,))
        cur = conn.execute(
            "INSERT INTO games (uid, status, started_at, ended_at, duration_s, players, language, composition, options,"
            " timing, nights, days, winner, journal, seed, mode, events, source)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (game.uid, game.status, game.started_at, game.ended_at, game.duration_s, game.players, game.language,
             game.composition, json.dumps(game.options, sort_keys=True), json.dumps(game.timing, sort_keys=True),
             game.nights, game.days, game.winner, game.journal, game.seed, game.mode, json.dumps(game.events),
             game.source),
        )
        gid = int(cur.lastrowid or 0)
        conn.executemany("INSERT INTO seats VALUES (?,?,?,?,?,?,?)",
                         [(gid, s.seat, s.name, s.dealt, s.role, s.team, int(s.won)) for s in game.seats])
        conn.executemany("INSERT INTO deaths VALUES (?,?,?,?,?,?,?)",
                         [(gid, i, d.seat, d.role, d.cause, d.phase, d.number) for i, d in enumerate(game.deaths, 1)])
        conn.executemany("INSERT OR REPLACE INTO votes VALUES (?,?,?,?,?,?,?)",
                         [(gid, v.round, v.phase, v.number, v.ballot, v.voter, v.target) for v in game.votes])
        conn.executemany("INSERT INTO captains VALUES (?,?,?)", [(gid, i, s) for i, s in enumerate(game.captains, 1)])
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return gid


@dataclass(frozen=True, kw_only=True)
class GameRow(GameSummary):
    """A game as the database gives it back: its summary and its number."""

    id: int

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _COLUMNS if name != "events"}


# The columns a GameRow is read from, in the order `history --json` prints them.
_COLUMNS = ("id", "status", "started_at", "ended_at", "duration_s", "players", "language", "composition", "options",
            "timing", "nights", "days", "winner", "journal", "events", "source")
_SELECT = f"SELECT {', '.join(_COLUMNS)} FROM games"
_JSON_COLUMNS = frozenset({"options", "timing", "events"})


def _row(r: tuple[Any, ...]) -> GameRow:
    return GameRow(**{name: json.loads(value) if name in _JSON_COLUMNS else value for name, value in zip(_COLUMNS, r)})


# The summary columns without the events: the list of games shows none, and decoding every game's
# events was most of what listing a long history cost.
_SELECT_SUMMARY = "SELECT " + ", ".join("'[]'" if name == "events" else name for name in _COLUMNS) + " FROM games"


def games(conn: sqlite3.Connection, events: bool = True) -> list[GameRow]:
    """Every game, oldest first; with `events` False, each with an empty list of events (the summaries only)."""
    select = _SELECT if events else _SELECT_SUMMARY
    return [_row(r) for r in conn.execute(f"{select} ORDER BY COALESCE(ended_at, started_at), id")]


def game(conn: sqlite3.Connection, gid: int) -> GameRow | None:
    r = conn.execute(f"{_SELECT} WHERE id = ?", (gid,)).fetchone()
    return _row(r) if r else None


def rows(conn: sqlite3.Connection, sql: str, args: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield from conn.execute(sql, args)


def delete(conn: sqlite3.Connection, ids: list[int]) -> int:
    """Remove these games (their seats, deaths, votes and Captains go with them); returns how many were removed."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        removed = sum(conn.execute("DELETE FROM games WHERE id = ?", (gid,)).rowcount for gid in ids)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return removed
