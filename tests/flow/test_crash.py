"""Crash test: a real-clock headless game killed with SIGKILL at 50 random moments, resumed each time."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
KILLS = 50


def _cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "narrator", *args]


def _play(journal: Path) -> list[str]:
    return _cmd("play", "--headless", "--real-clock", "--setup", str(DATA / "crash_setup.toml"),
                "--script", str(DATA / "crash_script.toml"), "--journal", str(journal), "--seed", "3")


def _has_setup(journal: Path) -> bool:
    return journal.exists() and b"\n" in journal.read_bytes()


def _finished(journal: Path) -> bool:
    return any(json.loads(line).get("state") == "game_over" for line in journal.read_bytes().splitlines())


@pytest.mark.slow
def test_sigkill_at_random_moments_then_resume_equals_uninterrupted(tmp_path: Path) -> None:
    ref = tmp_path / "reference.jsonl"
    done = subprocess.run(_play(ref), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    reference = ref.read_bytes()
    rng = random.Random(50)
    kills = games = 0
    while kills < KILLS:
        games += 1
        journal = tmp_path / f"game{games}.jsonl"
        while True:
            cmd = _cmd("resume", str(journal)) if _has_setup(journal) else _play(journal)
            if not _has_setup(journal):
                journal.unlink(missing_ok=True)  # killed before the setup was written: start again
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            try:
                out, err = proc.communicate(timeout=rng.uniform(0.05, 1.2))
            except subprocess.TimeoutExpired:
                proc.kill()  # SIGKILL: no cleanup, no flush
                proc.communicate()
                kills += 1
                continue
            if proc.returncode == 0:
                assert out.startswith("game over: the winner is werewolves"), out
                break
            assert "finished game" in err and _finished(journal), err  # killed just after the last step
            break
        assert journal.read_bytes() == reference, f"game {games}: the resumed journal differs"
    assert kills >= KILLS
