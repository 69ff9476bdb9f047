"""Issue 9 in a real terminal (tmux): what a table sees when it stops a game, starts one, resumes one."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

from tests.table.tmux import Tmux

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (scripts/setup.sh installs it)"),
]

REPO = Path(__file__).resolve().parents[2]

# The Seer's turn is ten minutes long: a Ctrl-C that waits for the turn's end never shows in time.
CONFIG = """
players = 5
language = "en"
inputs = "keypad"
deal = "program"
speech_scale = 0.02
[roles]
werewolf = 1
seer = 1
witch = 1
[timing]
seer = 600
werewolves = 4
witch = 5
gap = 0.1
suspense = 0.1
debate = 30
vote = 10
chain = 4
"""


def start(tmp_path: Path, *args: str, config: str = CONFIG) -> Tmux:
    (tmp_path / "config.toml").write_text(config)
    cmd = [sys.executable, "-m", "narrator", "play", "--config", str(tmp_path / "config.toml"), "--seed", "7", *args]
    return Tmux(cmd, tmp_path, {"NARRATOR_DATA": str(tmp_path / "data"), "PYTHONPATH": str(REPO)})


def deal(t: Tmux, players: int = 5) -> dict[int, str]:
    t.wait("Enter = play with it")
    t.send("Enter")
    roles: dict[int, str] = {}
    for seat in range(1, players + 1):
        t.wait(f"Seat {seat}: press your seat number")
        t.type(str(seat))
        screen = t.wait(f"Seat {seat}: you are the")
        roles[seat] = re.search(rf"Seat {seat}: you are the ([A-Za-z ]+)\.", screen).group(1)  # type: ignore[union-attr]
        t.type("")
        t.wait(lambda s, seat=seat: f"Seat {seat}: you are the" not in s)
    return roles


@pytest.mark.parametrize("screen", ["text", "full"])
def test_issue9_point5_ctrl_c_acts_at_once_and_wipes_the_seers_answer(tmp_path: Path, screen: str) -> None:
    t = start(tmp_path, "--screen", screen, "--no-audio")
    try:
        roles = deal(t)
        wolf = next(s for s, r in roles.items() if r == "Werewolf")
        t.wait("Seer, wake up")
        t.wait("Enter a seat number.")
        t.type(str(wolf))
        t.wait(f"Seat {wolf} is the Werewolf.")
        t.send("C-c")
        # The turn has ten minutes left: only a Ctrl-C that acts at once ends the program in time.
        assert t.exit_code(timeout=30) == 130
        final = t.scrollback()
        assert "interrupted" in final
        assert f"Seat {wolf} is the Werewolf." not in final, final
    finally:
        t.close()
