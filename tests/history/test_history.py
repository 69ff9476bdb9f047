"""The game history: a game played on the command line lands in the database with every field; a crash
while writing never corrupts it; old journals import; statistics match hand-counted games."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.history import db
from narrator.history.record import from_events, from_journal
from narrator.history.stats import compute, story
from narrator.packs import load_pack
from narrator.rules import Game, Options, Role
from narrator.rules.composition import Deal

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "flow" / "data"
W, S, V = Role.WEREWOLF, Role.SEER, Role.VILLAGER


def narrator(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "narrator", *args], capture_output=True, text=True, cwd=REPO,
                          env={**os.environ, **(env or {})})


@pytest.mark.slow
def test_a_game_played_on_the_command_line_lands_in_the_history_with_every_field(tmp_path: Path) -> None:
    journal = tmp_path / "game.jsonl"
    done = narrator("play", "--headless", "--setup", str(DATA / "crash_setup.toml"), "--script",
                    str(DATA / "crash_script.toml"), "--journal", str(journal))
    assert done.returncode == 0, done.stderr
    conn = db.connect()
    (row,) = db.games(conn)
    assert row.status == "finished" and row.winner == "werewolves"
    assert row.players == 8 and row.language == "en"
    assert row.composition == "cupid=1,hunter=1,seer=1,villager=2,werewolf=2,witch=1"
    assert row.options == Options().to_dict()
    assert row.timing["seer"] == 0.02
    assert (row.nights, row.days) == (3, 2)
    assert row.journal == str(journal.resolve())
    assert row.started_at and row.ended_at and row.duration_s is not None and row.duration_s >= 0
    seats = list(conn.execute("SELECT seat, dealt, role, team, won FROM seats WHERE game_id = ? ORDER BY seat", (row.id,)))
    assert [s[2] for s in seats] == ["seer", "werewolf", "werewolf", "witch", "hunter", "cupid", "villager", "villager"]
    assert [s[0] for s in seats if s[4]] == [2, 3]
    deaths = list(conn.execute("SELECT seat, role, cause, phase, number FROM deaths WHERE game_id = ? ORDER BY ord", (row.id,)))
    assert deaths == [
        (5, "hunter", "wolves", "night", 1), (7, "villager", "grief", "night", 1), (8, "villager", "hunter", "night", 1),
        (2, "werewolf", "vote", "day", 1), (1, "seer", "wolves", "night", 2), (4, "witch", "vote", "day", 2),
        (6, "cupid", "wolves", "night", 3),
    ]
    ballots = {b for (b,) in conn.execute("SELECT DISTINCT ballot FROM votes WHERE game_id = ?", (row.id,))}
    assert {"captain", "vote"} <= ballots
    votes_day1 = list(conn.execute("SELECT voter, target FROM votes WHERE game_id = ? AND ballot = 'vote' AND number = 1",
                                   (row.id,)))
    assert votes_day1 and all(t == 2 for _, t in votes_day1)
    assert [c for (c,) in conn.execute("SELECT seat FROM captains WHERE game_id = ? ORDER BY ord", (row.id,))] == [1, 4]
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == db.VERSION

    listed = narrator("history", "--json")
    assert json.loads(listed.stdout)[0]["winner"] == "werewolves"
    detail = narrator("history", str(row.id), "--lang", "fr")
    assert detail.returncode == 0 and "Nuit 1" in detail.stdout and "Victoire pour" in detail.stdout


WRITER = """
import sys
from pathlib import Path
from narrator.history import db
from narrator.history.record import from_events
from narrator.rules import Options
from narrator.sim.runner import SimConfig, play_one
from narrator.rules import complete, suggest
conn = db.connect(Path(sys.argv[1]))
opts = Options()
config = SimConfig(12, complete(12, suggest(12), opts), opts, "random-votes", int(sys.argv[2]))
print("ready", flush=True)
i = 0
while sys.stdin.readline():  # one line from the test for each game it lets the writer play and save
    game = play_one(config, i)
    print("saving", i, flush=True)
    db.save(conn, from_events({"language": "en", "n": i}, game.events))
    print("saved", i, flush=True)
    i += 1
"""


@pytest.mark.slow
def test_sigkill_while_writing_leaves_a_valid_database_with_whole_games_only(tmp_path: Path) -> None:
    """The writer says when it starts each save; it is killed the moment it starts one, after 1, 2, ... 6
    games it has reported saved. No timing: the writer plays a game only when the test hands it a line, and
    it is handed exactly one more game than it may finish, so the kill lands inside that last transaction or
    just after it, never in a later one (a loaded machine once let the writer save two more games before the
    kill landed, when it played on freely)."""
    path = tmp_path / "history.sqlite3"
    saved_before = 0
    for attempt in range(6):
        child = subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(attempt)], cwd=REPO,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write("play\n" * (attempt + 2))  # games 0..attempt saved whole, game attempt+1 killed
        child.stdin.flush()
        assert child.stdout.readline().strip() == "ready"
        saved = 0
        for line in child.stdout:
            if line.split() == ["saving", str(attempt + 1)]:
                break
            saved += line.startswith("saved ")
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        assert saved == attempt + 1
        conn = sqlite3.connect(str(path))
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        games = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        # Every game reported saved is there, and at most the one being written when it was killed.
        assert saved_before + saved <= games <= saved_before + saved + 1
        saved_before = games
        # Every game is whole: all its seats, and a death row for every dead seat.
        broken = conn.execute("SELECT g.id FROM games g WHERE g.players != (SELECT COUNT(*) FROM seats s WHERE s.game_id = g.id)"
                              " OR (SELECT COUNT(*) FROM deaths d WHERE d.game_id = g.id) = 0").fetchall()
        assert broken == []
        conn.close()
    conn = db.connect(path)
    assert len(db.games(conn)) == saved_before >= 21


@pytest.mark.slow
def test_old_journals_import_whatever_record_kinds_they_hold(tmp_path: Path) -> None:
    journal = tmp_path / "old.jsonl"
    done = narrator("play", "--headless", "--setup", str(DATA / "crash_setup.toml"), "--script",
                    str(DATA / "crash_script.toml"), "--journal", str(journal), env={"NARRATOR_DATA": str(tmp_path / "elsewhere")})
    assert done.returncode == 0, done.stderr
    lines = journal.read_text().splitlines()
    # A record kind this version does not know (another version's turn timing), and a game stopped half-way.
    with_unknown = tmp_path / "with_unknown.jsonl"
    with_unknown.write_text("\n".join([lines[0], json.dumps({"kind": "turn_end", "n": 1, "t": 3.5}), *lines[1:]]) + "\n")
    stopped = tmp_path / "stopped.jsonl"
    stopped.write_text("\n".join(lines[:12]) + "\n")
    broken = tmp_path / "broken.jsonl"
    broken.write_text("not json\n")
    done = narrator("history", "import", str(with_unknown), str(stopped), str(broken))
    assert done.returncode == 0, done.stderr
    assert "games imported: 2, skipped: 1" in done.stdout and "broken.jsonl" in done.stderr
    conn = db.connect()
    rows = {Path(r.journal or "").name: r for r in db.games(conn)}
    assert rows["with_unknown.jsonl"].status == "finished" and rows["with_unknown.jsonl"].winner == "werewolves"
    assert rows["stopped.jsonl"].status == "abandoned" and rows["stopped.jsonl"].winner is None
    again = narrator("history", "import", str(with_unknown))
    assert again.returncode == 0 and len(db.games(db.connect())) == 2, "importing twice keeps one row a game"


def village_wins_five() -> Game:
    game = Game.start(Deal((W, S, V, V, V)), Options(captain_election="never"))
    game.begin_night()
    game.seer_inspect(1)
    game.wolves_choose(3)
    game.dawn()
    game.open_vote()
    game.cast_votes({p: 1 for p in game.living()})
    return game


def wolves_win_five() -> Game:
    game = Game.start(Deal((W, S, V, V, V)), Options(captain_election="never", wolves_win_at_parity=True))
    game.begin_night()
    game.seer_inspect(3)
    game.wolves_choose(2)
    game.dawn()
    game.open_vote()
    game.cast_votes({p: 3 for p in game.living()})
    game.begin_night()
    game.wolves_choose(4)
    game.dawn()
    return game


def village_wins_six() -> Game:
    game = Game.start(Deal((W, V, V, V, V, V)), Options(captain_election="never"))
    game.begin_night()
    game.wolves_choose(2)
    game.dawn()
    game.open_vote()
    game.cast_votes({p: 1 for p in game.living()})
    return game


def test_statistics_match_hand_counted_games(tmp_path: Path) -> None:
    conn = db.connect(tmp_path / "h.sqlite3")
    names = {1: "Ann", 2: "Bo"}
    for i, game in enumerate((village_wins_five(), wolves_win_five(), village_wins_six())):
        assert game.outcome is not None
        db.save(conn, from_events({"language": "en", "i": i}, game.events, names=names if i < 2 else None,
                                  duration_s=600.0 * (i + 1)))
    stats = compute(conn)
    table = {(r.section, r.key): (r.wins, r.games) for r in stats.rows}
    assert stats.games == 3
    assert table[("side", "village")] == (2, 3) and table[("side", "werewolves")] == (1, 3)
    assert table[("composition", "seer=1,villager=3,werewolf=1")] == (1, 2)
    assert table[("composition", "villager=5,werewolf=1")] == (1, 1)
    assert table[("players", "5")] == (1, 2) and table[("players", "6")] == (1, 1)
    assert table[("role", "werewolf")] == (1, 3)
    assert table[("role", "seer")] == (1, 2)
    assert table[("role", "villager")] == (8, 11)
    assert table[("person", "Ann")] == (1, 2) and table[("person", "Bo")] == (1, 2)
    assert abs(stats.mean_nights - 4 / 3) < 1e-9 and stats.mean_days == 1.0
    assert stats.mean_minutes == 20.0
    deaths = list(conn.execute("SELECT seat, cause, phase, number FROM deaths d JOIN games g ON g.id = d.game_id "
                               "WHERE g.id = 2 ORDER BY ord"))
    assert deaths == [(2, "wolves", "night", 1), (3, "vote", "day", 1), (4, "wolves", "night", 2)]


def test_the_story_is_told_in_every_packs_language() -> None:
    events = from_events({"language": "en"}, wolves_win_five().events).events
    for lang in ("en", "fr", "es", "it", "ko"):
        lines = story(events, load_pack(lang))
        assert len(lines) == 8, (lang, lines)
    assert story(events, load_pack("en"))[-1] == "Victory for the Werewolves."


def test_a_journal_record_is_the_same_game_as_its_events() -> None:
    game = village_wins_five()
    from narrator.rules.codec import event_to_dict

    setup = {"players": 5, "language": "it", "roles": ["werewolf", "seer", "villager", "villager", "villager"], "extra": [],
             "possible": None, "options": Options(captain_election="never").to_dict(), "timing": {}}
    records = [{"kind": "setup", "mode": "text", "seed": 4, "setup": setup, "names": {"2": "Bo"}},
               {"kind": "step", "n": 1, "state": "x", "events": [event_to_dict(e) for e in game.events[1:]]}]
    record = from_journal(records)
    assert record.winner == "village" and record.language == "it" and record.seed == 4
    assert [s.name for s in record.seats] == [None, "Bo", None, None, None]
