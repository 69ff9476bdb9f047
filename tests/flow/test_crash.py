"""Crash tests: a game stopped dead at any moment and resumed ends with the journal of an
uninterrupted game, byte for byte.

These tests used to play on the real clock with 20 ms turns and 5 ms answers,
so a busy machine turned an answer into a timeout and the game into another game (3 failures in
7 runs). Now nothing here depends on the machine's speed:

- the in-process tests crash the game at journal append N, N drawn over the reference journal's
  actual length (not a fixed number of records per turn), with the record written whole or torn;
- the subprocess test keeps real SIGKILLs of `narrator play` / `narrator resume`, on the virtual
  clock, so where a kill lands is random but what the game does is not.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Mapping

import pytest

from narrator.clock import VirtualClock
from narrator.flow.run import resume_from
from narrator.headless import play_headless, read_head, resume_headless
from narrator.journal import FileJournal, JournalError
from narrator.flow.script import Script, load_script, load_setup

DATA = Path(__file__).parent / "data"
SEED = 3
KILLS = 8  # real SIGKILLs in the subprocess test


class Crash(BaseException):
    """The process dies here. A BaseException, so no `except Exception` in the game catches it."""


class CrashingJournal:
    """A file journal whose process dies while writing its record number `at` (1 = the setup).

    `torn` bytes are cut from the end of that record's line (0: it reached the disk whole, and the
    crash came before the game went on), as a SIGKILL or a power cut can leave it.
    """

    def __init__(self, inner: FileJournal, at: int, torn: int = 0) -> None:
        self.inner = inner
        self.at = at
        self.torn = torn

    def append(self, record: Mapping[str, Any]) -> None:
        self.inner.append(record)
        if len(self.inner.records()) == self.at:
            self.inner.close()
            if self.torn:
                size = self.inner.path.stat().st_size
                line = len(self.inner.path.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[-1]) + 1
                os.truncate(self.inner.path, size - min(self.torn, line))
            raise Crash(self.at)

    def records(self) -> list[dict[str, Any]]:
        return self.inner.records()


def _setup_and_script() -> tuple[Any, Script]:
    setup = load_setup(DATA / "crash_setup.toml")
    return setup, load_script(DATA / "crash_script.toml", setup.players)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The journal of the uninterrupted game."""
    path = tmp_path_factory.mktemp("reference") / "reference.jsonl"
    setup, script = _setup_and_script()
    journal = FileJournal.create(path)
    try:
        play_headless(setup, script, SEED, VirtualClock(), journal)
    finally:
        journal.close()
    data = path.read_bytes()
    assert data.count(b"\n") > 10 and b'"game_over"' in data
    return data


@pytest.fixture
def unsynced(monkeypatch: pytest.MonkeyPatch) -> None:
    """Appends not synced to the disk (`FileJournal._sync`): an fsync only matters if the machine
    loses its page cache (a power cut), and an in-process crash never does; the journal reads back
    the same bytes either way, and the syncs were most of these tests' time. The SIGKILL test's
    processes sync as always."""
    monkeypatch.setattr(FileJournal, "_sync", lambda self, fd: None)


def _run_until_crash(path: Path, at: int, torn: int) -> bool:
    """Play (or resume) the game at `path`, dying at append `at`; False if it ended first."""
    if not path.exists():
        setup, script = _setup_and_script()
        journal = FileJournal.create(path)
        resume = None
        seed = SEED
    else:
        # What `narrator resume` does (resume_headless), with the crashing journal in between.
        head, setup, seed = read_head(path)
        script = Script.from_record(head["script"])
        journal = FileJournal.reopen(path)
        resume = resume_from(journal.records())
    try:
        play_headless(setup, script, seed, VirtualClock(), CrashingJournal(journal, at, torn), resume)
    except Crash:
        return True
    finally:
        journal.close()
    return False


def _finish(path: Path) -> None:
    """Resume to the end through the real resume path; a finished game is refused."""
    try:
        resume_headless(path)
    except JournalError as exc:
        assert "finished game" in str(exc), exc


@pytest.mark.slow
def test_a_crash_at_every_journal_append_then_resume_equals_uninterrupted(reference: bytes, tmp_path: Path,
                                                                          unsynced: None) -> None:
    """A crash right after each append, or tearing it, at every N of the journal."""
    length = reference.count(b"\n")
    for at in range(2, length + 1):
        for torn in (0, 7):
            path = tmp_path / f"crash{at}-{torn}.jsonl"
            assert _run_until_crash(path, at, torn), f"the game ended before append {at}"
            kept = path.read_bytes()
            assert reference.startswith(kept), f"append {at}: what reached the disk is not the reference's start"
            _finish(path)
            assert path.read_bytes() == reference, f"crash at append {at} (torn {torn}): the resumed journal differs"


def test_crashes_again_and_again_while_resuming(reference: bytes, tmp_path: Path, unsynced: None) -> None:
    """Several crashes in one game, each in the resume of the one before."""
    length = reference.count(b"\n")
    rng = random.Random(22)
    for game in range(12):
        path = tmp_path / f"game{game}.jsonl"
        points = sorted(rng.sample(range(2, length + 1), k=min(5, length - 1)))
        for at in points:
            if path.exists() and path.read_bytes().count(b"\n") >= at:
                continue  # a torn record is written again by the resume: crash at a later one
            assert _run_until_crash(path, at, rng.choice((0, 1, 30))), f"game {game}: ended before append {at}"
        _finish(path)
        assert path.read_bytes() == reference, f"game {game}: crashes at {points}: the resumed journal differs"


# --- real SIGKILLs of the command line ------------------------------------------------------------

def _cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "narrator", *args]


def _play(journal: Path) -> list[str]:
    return _cmd("play", "--headless", "--setup", str(DATA / "crash_setup.toml"),
                "--script", str(DATA / "crash_script.toml"), "--journal", str(journal), "--seed", str(SEED))


def _lines(journal: Path) -> int:
    try:
        return journal.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def _finished(journal: Path) -> bool:
    """Whether a whole record says game over: the last line may be torn by the kill (no newline
    yet), and is left out as the resume leaves it out."""
    complete = journal.read_bytes().split(b"\n")[:-1]
    return any(json.loads(line).get("state") == "game_over" for line in complete)


@pytest.mark.slow
def test_sigkill_of_the_command_line_then_resume_equals_uninterrupted(reference: bytes, tmp_path: Path) -> None:
    """Real SIGKILLs (no cleanup, no flush) of `narrator play` and `resume`.

    The games run on the virtual clock, so load cannot change what they do; each kill comes when
    the journal has reached a random number of records (or later: where it lands is up to the
    machine, and any landing must resume to the reference).
    """
    length = reference.count(b"\n")
    rng = random.Random(50)
    kills = games = 0
    while kills < KILLS:
        games += 1
        assert games <= 20, f"only {kills} kills landed before 20 games ended"
        game = games
        journal = tmp_path / f"game{game}.jsonl"
        for _attempt in range(40):
            lines = _lines(journal)
            if lines >= 1 and _finished(journal):
                # Killed after the last record: there is nothing left to play.
                done = subprocess.run(_cmd("resume", str(journal)), capture_output=True, text=True, timeout=600)
                assert done.returncode != 0 and "finished game" in done.stderr, done.stderr
                break
            if lines == 0:
                journal.unlink(missing_ok=True)  # killed before the setup was written: start again
            proc = subprocess.Popen(_cmd("resume", str(journal)) if lines else _play(journal),
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            target = rng.randint(max(2, lines + 1), length)
            while proc.poll() is None and _lines(journal) < target:
                time.sleep(0.001)
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
            out, err = proc.communicate(timeout=600)
            if proc.returncode == -signal.SIGKILL:
                kills += 1
                continue
            assert proc.returncode == 0, err
            assert out.startswith("game over: the winner is werewolves"), out
            break
        else:
            pytest.fail(f"game {game}: 40 runs were not enough to finish it")
        assert journal.read_bytes() == reference, f"game {game}: the resumed journal differs"
    assert kills >= KILLS
