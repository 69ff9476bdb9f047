"""`narrator resume` plays on with the sound choice the game was played with (a `--no-audio` game
stopped with Ctrl-C must not resume looking for a sound device and exit "no audio output device
found"). In a real terminal (tmux), the full screen, the real clock."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from tests.table.tmux import REPO, Tmux, deal, start, table_config

pytestmark = [
    pytest.mark.slow,
    pytest.mark.xdist_group("terminal"),  # real time: one at a time (docs/testing.md)
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (scripts/setup.sh installs it)"),
]


NO_DEVICE = "no audio output device found"
DEVICE = Path("/dev/snd").exists() and any(Path("/dev/snd").glob("pcmC*p"))  # a sound card to play on


def test_a_no_audio_game_resumes_silent(tmp_path: Path) -> None:
    t = start(tmp_path, table_config(seer=30, werewolves=30, witch=30), "--screen", "full", "--no-audio")
    try:
        deal(t)
        t.wait("Seer, wake up")
        t.send("C-c")
        t.exit_code()  # stopped; the journal stays to resume
    finally:
        t.close()
    journals = sorted((tmp_path / "data").rglob("*.jsonl"))
    assert journals, "the stopped game left its journal"
    env = {"NARRATOR_DATA": str(tmp_path / "data"), "PYTHONPATH": str(REPO)}
    r = Tmux([sys.executable, "-m", "narrator", "resume"], tmp_path, env)
    try:
        screen = r.wait(lambda s: "wake up" in s or NO_DEVICE in s)
        assert NO_DEVICE not in screen and "wake up" in screen, screen
        r.send("C-c")
        r.exit_code()
    finally:
        r.close()
    if not DEVICE:
        # --audio speaks aloud whatever the game was played with: here, with no sound device, it says so.
        r = Tmux([sys.executable, "-m", "narrator", "resume", "--audio"], tmp_path, env)
        try:
            r.wait(NO_DEVICE)
        finally:
            r.close()
