"""The history: a resumed game's duration is the whole game's, and
headless runs are marked and left out of the statistics by default."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path

import pytest

from narrator.history import db
from narrator.history.record import from_events, played_seconds
from narrator.rules import Game, Options, Role
from narrator.rules.composition import Deal
from tests.text_game import AFTER_WEREWOLVES, cut_at, headless_journal, narrator

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "flow" / "data"

@pytest.mark.slow
@pytest.mark.xdist_group("clock")  # waits on the real clock: docs/testing.md, in parallel
def test_a_resumed_game_is_recorded_with_the_whole_games_duration(tmp_path: Path) -> None:
    """A text game played for 10 minutes, stopped, resumed 40 minutes later and finished: the history
    counts the 10 minutes before the stop and the minutes after the resume, not only the resumed part,
    and not the time the game stood still."""
    path = headless_journal(tmp_path)
    cut_at(path, "night.werewolves")
    records = [json.loads(line) for line in path.read_text().splitlines()]
    now = time.time()
    # As `narrator play --text` writes it: started an hour ago (the journal's own start time).
    records[0].update(mode="text", screen="text", started_at=round(now - 3600, 3))
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    os.utime(path, (now - 3000, now - 3000))  # its last record was written 50 minutes ago: 10 minutes played
    db_path = Path(os.environ["NARRATOR_DATA"]) / "history.sqlite3"
    db_path.unlink()  # the headless run that made the journal is not this game
    proc = narrator("resume", str(path), "--screen", "text", stdin="".join(k + "\n" for k in AFTER_WEREWOLVES))
    assert proc.returncode == 0, proc.stderr
    conn = db.connect()
    (row,) = db.games(conn)
    assert row.status == "finished"
    assert row.duration_s is not None
    # 600 s before the stop, plus the resumed part (seconds); never the 3000 s the game stood still.
    assert 600 <= row.duration_s < 3000, row.duration_s
    assert row.started_at is not None and row.started_at.startswith(time.strftime("%Y-%m-%dT%H", time.localtime(now - 3600)))


def test_played_seconds_adds_every_part_of_the_game() -> None:
    records = [{"kind": "setup", "started_at": 1000.0},
               {"kind": "step"},
               {"kind": "resumed", "at": 5000.0, "stopped": 1100.0},  # 100 s, then a stop until 5000
               {"kind": "step"},
               {"kind": "resumed", "at": 9000.0, "stopped": 5030.0}]  # 30 s, then a stop until 9000
    assert played_seconds(records, 9012.5) == 142.5
    # A journal of an older version: the minute it started (its head's "started"), no resume.
    started = time.mktime(time.strptime("2026-11-23 10:00", "%Y-%m-%d %H:%M"))
    assert played_seconds([{"kind": "setup", "started": "2026-11-23 10:00"}], started + 1500) == 1500
    assert played_seconds([{"kind": "setup"}], 1.0) is None  # no start time: unknown


def _game() -> list[object]:
    deal = Deal((Role.SEER, Role.WEREWOLF, Role.VILLAGER, Role.VILLAGER, Role.VILLAGER), ())
    game = Game.start(deal, Options(), frozenset(deal.seats))
    game.begin_night()
    return list(game.events)


@pytest.mark.slow
def test_headless_runs_are_marked_and_left_out_of_the_stats(tmp_path: Path) -> None:
    done = narrator("play", "--headless", "--setup", str(DATA / "crash_setup.toml"), "--script",
                    str(DATA / "crash_script.toml"))
    assert done.returncode == 0, done.stderr
    # A game played at the table (text or full screen), recorded from its journal.
    headless = tmp_path / "headless.jsonl"
    made = narrator("play", "--headless", "--setup", str(DATA / "crash_setup.toml"), "--script",
                    str(DATA / "crash_script.toml"), "--journal", str(headless))
    assert made.returncode == 0, made.stderr
    table = tmp_path / "table.jsonl"
    records = [json.loads(line) for line in headless.read_text().splitlines()]
    records[0]["mode"] = "text"
    table.write_text("".join(json.dumps(r) + "\n" for r in records))
    imported = narrator("history", "import", str(table))
    assert imported.returncode == 0, imported.stderr
    conn = db.connect()
    sources = sorted(s for (s,) in conn.execute("SELECT source FROM games"))
    assert sources == ["headless", "headless", "table"]
    stats = json.loads(narrator("history", "--stats", "--json").stdout)
    assert stats["games"] == 1  # the table's game only
    everything = json.loads(narrator("history", "--stats", "--json", "--include-headless").stdout)
    assert everything["games"] == 3
    text = narrator("history", "--stats").stdout
    assert text.splitlines()[0].startswith("Finished games: 1;")
    assert "headless" in text  # says that headless runs were left out, and how to count them
    listed = narrator("history").stdout
    assert listed.count("(headless)") == 2  # the list shows every game, the headless ones marked


def test_the_schema_migration_marks_the_headless_games_already_recorded(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    # A database of version 1 (no source column) holding a headless game, a table game, and one of no mode.
    old = sqlite3.connect(str(path), isolation_level=None)
    for statement in db._statements(db.MIGRATIONS[0]):
        old.execute(statement)
    old.execute("PRAGMA user_version = 1")
    for n, mode in enumerate(("headless", "text", None)):
        old.execute("INSERT INTO games (uid, status, players, language, composition, options, timing, nights, days, mode,"
                    " events) VALUES (?, 'finished', 8, 'en', 'x', '{}', '{}', 1, 1, ?, '[]')", (f"g{n}", mode))
    old.close()
    conn = db.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == db.VERSION >= 2
    got = dict(conn.execute("SELECT uid, source FROM games"))
    assert got == {"g0": "headless", "g1": "table", "g2": "table"}
    # A record saved now carries its source from its mode.
    db.save(conn, from_events({"language": "en"}, _game(), mode="headless"))
    assert conn.execute("SELECT COUNT(*) FROM games WHERE source = 'headless'").fetchone()[0] == 2
