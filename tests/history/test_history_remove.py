"""Stopped games in the history: a rematch stopped during its deal is recorded
(abandoned, before its first night); `history delete N ...` and `history prune --abandoned` remove
games, asking first (`--yes` for scripts)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.cli import main
from narrator.history import db
from narrator.history.record import from_events
from narrator.rules import Game, Options, Role
from narrator.rules.composition import Deal
from tests.text_game import KEYS, SETUP

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.xdist_group("clock")  # waits on the real clock: docs/testing.md, in parallel
def test_a_rematch_stopped_during_its_deal_is_in_the_history(tmp_path: Path) -> None:
    (tmp_path / "setup.toml").write_text(SETUP)
    env = {**os.environ, "NARRATOR_DATA": str(tmp_path / "data"), "PYTHONPATH": str(REPO)}
    # The whole game, `*` for a rematch, one seat of its deal, then the input ends (the table left).
    done = subprocess.run([sys.executable, "-m", "narrator", "play", "--text", "--setup", str(tmp_path / "setup.toml"),
                           "--seed", "1"], input="\n".join([*KEYS, "*", "1", ""]) + "\n", capture_output=True,
                          text=True, timeout=300, env=env)
    assert "the deal stopped" in done.stderr, done.stderr
    listed = subprocess.run([sys.executable, "-m", "narrator", "history", "--json"], capture_output=True, text=True,
                            env=env, timeout=600)
    games = json.loads(listed.stdout)
    assert [(g["status"], g["winner"], g["nights"]) for g in games] == [("finished", "village", 1), ("abandoned", None, 0)]
    assert games[1]["journal"] and games[1]["journal"] != games[0]["journal"]
    assert games[1]["composition"] == games[0]["composition"]


@pytest.fixture
def history(tmp_path: Path) -> Path:
    """Four games: 1 and 3 finished, 2 and 4 abandoned."""
    from tests.history.test_history import village_wins_five, wolves_win_five

    path = tmp_path / "history.sqlite3"
    conn = db.connect(path)
    stopped = Game.start(Deal((Role.WEREWOLF, Role.SEER, Role.VILLAGER, Role.VILLAGER, Role.VILLAGER)), Options())
    for n, events in enumerate([village_wins_five().events, stopped.events, wolves_win_five().events, stopped.events]):
        db.save(conn, from_events({"language": "en", "n": n}, events, started_at=f"2026-11-24T10:0{n}"))
    conn.close()
    return path


def ids(path: Path) -> list[tuple[int, str]]:
    conn = db.connect(path)
    try:
        return [(r.id, r.status) for r in db.games(conn)]
    finally:
        conn.close()


def run(path: Path, *args: str, typed: str = "", monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    return main(["history", *args, "--db", str(path)])


def test_delete_asks_first_and_keeps_the_games_unless_told_yes(history: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert run(history, "delete", "3", typed="n\n", monkeypatch=monkeypatch) == 1
    out = capsys.readouterr().out
    assert "Games to remove: 1" in out and "Remove them from the history?" in out and "Nothing removed" in out
    assert run(history, "delete", "3", typed="", monkeypatch=monkeypatch) == 1, "no answer (end of input) keeps them"
    assert [i for i, _ in ids(history)] == [1, 2, 3, 4]
    assert run(history, "delete", "3", "1", typed="y\n", monkeypatch=monkeypatch) == 0
    assert "Games removed from the history: 2" in capsys.readouterr().out
    assert ids(history) == [(2, "abandoned"), (4, "abandoned")]
    assert run(history, "delete", "2", "--yes", monkeypatch=monkeypatch) == 0
    assert ids(history) == [(4, "abandoned")]
    conn = db.connect(history)
    assert conn.execute("SELECT COUNT(*) FROM seats WHERE game_id IN (1, 2, 3)").fetchone()[0] == 0
    conn.close()


def test_prune_removes_the_abandoned_games_only(history: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert run(history, "prune", "--abandoned", typed="y\n", monkeypatch=monkeypatch) == 0
    assert "Games to remove: 2" in capsys.readouterr().out
    assert ids(history) == [(1, "finished"), (3, "finished")]
    assert run(history, "prune", "--abandoned", "--yes", monkeypatch=monkeypatch) == 0
    assert "No abandoned game in the history" in capsys.readouterr().out
    assert run(history, monkeypatch=monkeypatch) == 0
    assert "prune --abandoned" not in capsys.readouterr().out, "the hint shows only while stopped games are listed"


@pytest.mark.parametrize(("args", "message"), [
    (["delete"], "history delete: give the numbers of the games to remove, e.g. narrator history delete 3 4"),
    (["delete", "x"], "history delete 'x': give game numbers (see 'narrator history')"),
    (["delete", "9"], "history delete: no game number 9 in the history; 'narrator history' lists them"),
    (["prune"], "history prune: say what to remove: narrator history prune --abandoned"),
    (["--abandoned"], "--abandoned goes with prune: narrator history prune --abandoned"),
])
def test_a_wrong_removal_says_how_to_fix_it_and_removes_nothing(history: Path, args: list[str], message: str,
                                                                 monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert run(history, *args, "--yes", monkeypatch=monkeypatch) == 1
    assert capsys.readouterr().err == f"narrator: {message}\n"
    assert len(ids(history)) == 4


def test_the_list_says_how_to_remove_stopped_games(history: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert run(history, monkeypatch=monkeypatch) == 0
    out = capsys.readouterr().out
    assert "winner: (abandoned)" in out and "narrator history prune --abandoned removes them" in out
