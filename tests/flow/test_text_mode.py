"""`narrator play --text`: a real game in a terminal, typed on the keypad, lines printed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.text_game import KEYS, SETUP


def test_text_mode_plays_a_whole_game(tmp_path: Path) -> None:
    (tmp_path / "setup.toml").write_text(SETUP)
    journal = tmp_path / "game.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "narrator", "play", "--text", "--setup", str(tmp_path / "setup.toml"),
         "--journal", str(journal), "--seed", "1"],
        input="\n".join(KEYS) + "\n", capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    seer_wake = out.index("  » Seer, wake up. Choose a player whose card you want to see.")
    seer_sleep = out.index("  » Seer, go back to sleep.")
    assert "  ┃ Seat 2 is the Werewolf." in out[seer_wake:seer_sleep]
    assert "  ┃ Seat 2 is the Werewolf." not in out[seer_sleep:]
    assert "  ┃ Tonight's victim: seat 4." in out
    assert "  » Seat 4. They were the Villager." in out
    assert "  » Seat 1 is the Sheriff. Their vote counts double." in out
    assert "  » Seat 2 is eliminated." in out
    assert "  » The game is over. Victory for the village." in out
    assert journal.read_text().count('"kind":"input"') == len([k for k in KEYS[10:] if k])
