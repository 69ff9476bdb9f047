"""Resuming a bad journal on the full screen closes the speaker it opened, and
says what is wrong in one line (non-zero exit, no traceback)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Iterable

import pytest

import narrator.table.sound as sound
from narrator.journal import JournalError
from narrator.flow.script import Setup, parse_setup
from narrator.packs import VoicePack
from narrator.ports import Clock, Cue
from narrator.table.play import _full_screen

REPO = Path(__file__).resolve().parents[2]
SETUP = {"players": 8, "language": "en", "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch"}}


class ClosingSpeaker:
    """A silent speaker that remembers whether it was closed."""

    def __init__(self) -> None:
        self.closed = False

    def say(self, cue: Cue, at: float | None = None) -> float:
        return 0.0

    def prepare(self, cues: Iterable[Cue]) -> None:
        pass

    def close(self) -> None:
        self.closed = True


def bad_journal(path: Path) -> tuple[Setup, Path]:
    """A journal whose head is fine and whose second record is an input without its step number."""
    setup = parse_setup(SETUP, "SETUP")
    head = {"kind": "setup", "mode": "text", "screen": "full", "seed": 3, "setup": setup.to_record()}
    broken = {"kind": "input", "prompt": "night.seer", "choice": 2, "source": "keypad"}
    path.write_text(json.dumps(head) + "\n" + json.dumps(broken) + "\n")
    return setup, path


def test_full_screen_resume_of_a_bad_journal_closes_the_speaker(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[ClosingSpeaker] = []

    def open_speaker(pack: VoicePack, clock: Clock, args: argparse.Namespace, pace: float) -> ClosingSpeaker:
        opened.append(ClosingSpeaker())
        return opened[-1]

    monkeypatch.setattr(sound, "open_table_speaker", open_speaker)
    setup, path = bad_journal(tmp_path / "bad.jsonl")
    kept = path.read_bytes()
    with pytest.raises(JournalError, match="line 2"):
        _full_screen(argparse.Namespace(no_audio=False), setup, 3, path, None, resuming=True)
    assert len(opened) == 1 and opened[0].closed, "the speaker was left open"
    assert path.read_bytes() == kept


@pytest.mark.slow
def test_resume_of_a_bad_journal_is_one_line_without_a_traceback(tmp_path: Path) -> None:
    _, path = bad_journal(tmp_path / "bad.jsonl")
    proc = subprocess.run([sys.executable, "-m", "narrator", "resume", str(path), "--screen", "text"], input="",
                          capture_output=True, text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr, proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith("narrator:")]
    assert len(errors) == 1 and f"journal {path}" in errors[0] and "line 2" in errors[0], proc.stderr
