"""A headless script that runs out of answers stops the game with one line, instead of looping.

Before: a script answering only the first night of a game nobody could end without answers
(no kill, no vote) played silent nights and days for ever, its journal growing without end.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from narrator.errors import UsageError
from narrator.flow.script import parse_script
from narrator.headless import SILENT_CYCLES, until_run_out
from narrator.ports import Prompt
from tests.text_game import narrator

DATA = Path(__file__).parent / "data"


@pytest.mark.slow
def test_the_command_line_stops_a_game_its_script_cannot_end(tmp_path: Path) -> None:
    script = tmp_path / "short.toml"
    script.write_text("answer_delay = 0.005\n[[nights]]\nwerewolves = 5\n")
    journal = tmp_path / "short.jsonl"
    done = narrator("play", "--headless", "--setup", str(DATA / "crash_setup.toml"), "--script", str(script),
                    "--journal", str(journal), data=tmp_path / "data")
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        f"narrator: the script ran out: it answers up to night and day 1, and the game reached night {1 + SILENT_CYCLES + 1} "
        "without ending (nobody answers any more, so it never would); add [[nights]] and [[days]] to SCRIPT.toml "
        "for the rest of the game"
    ]
    # What was played is kept: the journal holds the game so far, not finished.
    records = [json.loads(line) for line in journal.read_text().splitlines()]
    assert records[0]["mode"] == "headless"
    assert not any(r.get("state") == "game_over" for r in records)
    assert len(records) < 200  # (before: ~250,000 lines a minute until killed)


def test_the_script_answers_until_its_end_plus_the_silent_cycles() -> None:
    script = parse_script({"nights": [{"werewolves": 5}, {"werewolves": 6}], "days": [{"eliminate": 2}]}, 8, "SCRIPT")
    answer = until_run_out(script)
    heard = answer(Prompt("night.werewolves", (5, 6), night=True, number=2))
    assert heard is not None and heard.choice == 6
    # Past the script nobody answers, for SILENT_CYCLES nights and days...
    for number in range(3, 3 + SILENT_CYCLES):
        assert answer(Prompt("night.werewolves", (5, 6), night=True, number=number)) is None
        assert answer(Prompt("day.vote.voter.1", (5, 6), number=number)) is None
    # ...and then the game is stopped, by day as by night.
    with pytest.raises(UsageError, match="reached day 5 without ending"):
        answer(Prompt("day.vote.voter.1", (5, 6), number=3 + SILENT_CYCLES))
    with pytest.raises(UsageError, match="answers up to night and day 2, and the game reached night 5"):
        answer(Prompt("night.werewolves", (5, 6), night=True, number=3 + SILENT_CYCLES))
