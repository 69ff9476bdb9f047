"""The real command line: `narrator resume` says what it resumes, and play / resume warn outside
8-18 players (on the table's screen in text mode, on stderr headless: stdout stays the result)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.text_game import AFTER_WEREWOLVES, DEAL, SCRIPT, SETUP, cut_at, headless_journal, narrator

pytestmark = pytest.mark.slow  # commands run as child processes


def test_headless_play_warns_on_stderr(tmp_path: Path) -> None:
    (tmp_path / "setup.toml").write_text(SETUP)
    (tmp_path / "script.toml").write_text(SCRIPT)
    proc = narrator("play", "--headless", "--setup", str(tmp_path / "setup.toml"), "--script", str(tmp_path / "script.toml"))
    assert proc.returncode == 0
    assert "warning: 5 players: the game is best with 8 to 18" in proc.stderr
    assert "8 to 18" not in proc.stdout  # stdout stays the game's result only


def test_text_play_warns_on_the_screen_before_the_game(tmp_path: Path) -> None:
    """No keys at all: the deal stops (exit 1, one line), but the warning was on the screen first."""
    proc = narrator("play", "--text", "--players", "5", "--seed", "1", "--journal", str(tmp_path / "g.jsonl"))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "the input ended while the game waited for an answer" in proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "narrator: warning: 5 players: the game is best with 8 to 18", lines[:3]
    assert lines[1].startswith("Journal: ")
    assert "8 to 18" not in proc.stderr  # on the table's screen, once


def test_resume_warns_outside_8_to_18_players(tmp_path: Path) -> None:
    path = headless_journal(tmp_path)
    cut_at(path, "night.seer")
    proc = narrator("resume", str(path))
    assert proc.returncode == 0, proc.stderr
    assert "warning: 5 players: the game is best with 8 to 18" in proc.stderr


def test_resume_says_which_journal_and_where_it_stopped(tmp_path: Path) -> None:
    path = headless_journal(tmp_path)
    cut_at(path, "day.vote.vote.1")
    proc = narrator("resume", str(path))
    assert proc.returncode == 0, proc.stderr
    # Headless: on stderr, stdout stays the result alone.
    first = proc.stderr.splitlines()[0]
    assert first.startswith(f"Resuming {path}: started ")
    assert first.endswith(", stopped in day 1.")
    assert proc.stdout.startswith("game over: ")
    night = headless_journal(tmp_path, "night.jsonl")
    cut_at(night, "night.werewolves")
    assert narrator("resume", str(night)).stderr.splitlines()[0].endswith(", stopped in night 1.")


def test_an_empty_newest_journal_does_not_resume_an_older_game(tmp_path: Path) -> None:
    games = tmp_path / "data" / "games"
    games.mkdir(parents=True)
    older = headless_journal(tmp_path)
    cut_at(older, "night.seer")
    kept = older.read_bytes()
    (games / "game-20260101-100000.jsonl").write_bytes(kept)
    (games / "game-20260102-100000.jsonl").write_bytes(b"")  # a game stopped during its deal
    proc = narrator("resume", data=tmp_path / "data")
    assert proc.returncode != 0
    assert "game-20260102-100000.jsonl is empty" in proc.stderr
    assert f"narrator resume {games / 'game-20260101-100000.jsonl'}" in proc.stderr
    assert (games / "game-20260101-100000.jsonl").read_bytes() == kept  # not resumed
    assert "Traceback" not in proc.stderr


@pytest.mark.xdist_group("clock")  # waits on the real clock: docs/testing.md, in parallel
def test_resume_keeps_the_screen_the_game_had(tmp_path: Path) -> None:
    """A full-screen game resumes on the full screen (here: refused without a terminal), unless --screen says."""
    path = headless_journal(tmp_path)
    cut_at(path, "night.werewolves")
    records = [json.loads(line) for line in path.read_text().splitlines()]
    records[0].update(mode="text", screen="full")  # as `narrator play` on the full screen writes it
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    proc = narrator("resume", str(path))
    assert proc.returncode != 0 and "the full screen needs a terminal" in proc.stderr
    # --screen text: the same game, on printed lines (the Witch, the Captain, then the votes).
    proc = narrator("resume", str(path), "--screen", "text", stdin="".join(k + "\n" for k in AFTER_WEREWOLVES))
    assert "It is night: everyone, close your eyes." in proc.stdout, proc.stdout + proc.stderr
    assert "Kept from before the stop: 4." in proc.stdout  # the Werewolves see the victim they had chosen
    assert proc.returncode == 0, proc.stderr


TEXT_SETUP = SETUP.replace("debate = 5", "debate = 200")
# deal (seat, Enter) x5; Seer 2; Werewolves 4; Witch: no heal, no poison; Captain votes; in the debate
# "*" (how long is left?), "/" "/" (pause, go on), "v" (vote now); everyone votes 2.
TEXT_KEYS = [*DEAL, "2", "4", "-", "0", "1", "1", "1", "1", "*", "/", "/", "v",
             "2", "2", "2", "2"]


def text_game(tmp_path: Path) -> list[str]:
    (tmp_path / "setup.toml").write_text(TEXT_SETUP)
    proc = narrator("play", "--text", "--setup", str(tmp_path / "setup.toml"), "--journal", str(tmp_path / "g.jsonl"),
                    "--seed", "1", stdin="\n".join(TEXT_KEYS) + "\n")
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


@pytest.mark.xdist_group("clock")  # waits on the real clock: docs/testing.md, in parallel
def test_text_mode_labels_and_hints(tmp_path: Path) -> None:
    out = text_game(tmp_path)
    boards = [line for line in out if line.startswith("[")]
    # only night/day in the status (no step name lagging behind), and no "day 0".
    assert not any("election" in b or "debate" in b or "day 0" in b.lower() for b in boards), boards
    debate = out.index("  » You have 3 minutes to debate.")
    status = [line for line in out[:debate] if line.startswith("[")][-1]
    assert status.startswith("[Day 1]"), status
    # The game-over line: the dead are the dead; the living's cards are listed apart.
    last = boards[-1]
    dead = last.split("dead: ")[1].split("  ")[0]
    assert [int(x.split(":")[0]) for x in dead.split(", ")] == [2, 4], last
    assert "cards: 1:Seer, 3:Witch, 5:Villager" in last, last
    # A card is shown as two lines, "Seat N." then "Their card: Cupid." (never "Seat N was the Cupid.")
    assert ("  » Seat 2.", "  » Their card: Werewolf.") in zip(out, out[1:]) and not any("was the" in line for line in out)
    # "*" tells the time actually left; the pause says how to go on; day prompts say what to type.
    star = out.index("  » You have 3 minutes to debate.", debate)
    assert "  » 3 minutes left." in out[star:], out[star:]
    paused = out.index("  » The game is paused.")
    assert out[paused + 1] == "  ┃ Press / (or say pause) to go on."
    first_vote = out.index("  » Seat 1, your vote?")
    assert out[first_vote + 1] == "  (Type a seat number, then Enter.)"
