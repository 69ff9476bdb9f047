"""Issue 9, the command line: closed pipes, out-of-range values, help pages (points 15, 16, 20).

Through `main()` where the whole story is stdout/stderr and an exit code; through a subprocess
where the process itself matters (a pipe closed by the reader).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from narrator.cli import main


def run_main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse refuses by exiting
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def refused_in_one_line(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, out, err = run_main(capsys, *argv)
    assert code != 0, (argv, out, err)
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("narrator: ")
    return lines[0]


# ---- point 15: a reader that closes the pipe early ----------------------------------------------

@pytest.mark.parametrize("argv", [
    ["simulate", "--players", "8", "--games", "200", "--json"],
    ["graph"],
], ids=["simulate-json", "graph"])
def test_issue9_point15_closed_pipe_ends_quietly(argv: list[str]) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "narrator", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # as `| true` does: the reader is gone before anything is written
    err = proc.stderr.read().decode()
    code = proc.wait(timeout=120)
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert err == ""
    assert code == 141  # as a process killed by SIGPIPE: the shell's usual answer to a closed pipe


# ---- point 16: out-of-range values refused in one line --------------------------------------------

@pytest.mark.parametrize("argv, expected", [
    (["say", "--voice-volume", "5", "--to", "x.wav", "hello"], "--voice-volume: 5 is too high: give a value from 0 to 1"),
    (["say", "--ambience-volume", "-0.5", "hello"], "--ambience-volume: -0.5 is too low: give a value from 0 to 1"),
    (["say", "--duck-db", "100", "hello"], "--duck-db: 100 is too high: give a value from 0 to 40"),
    (["say", "--duck-db", "nan", "hello"], "--duck-db: 'nan' is not a number"),
    (["simulate", "--players", "8", "--jobs", "-1"], "--jobs: -1 is too low: give a value of at least 0"),
    (["simulate", "--players", "8", "--games", "0"], "--games: 0 is too low: give a value of at least 1"),
    (["simulate", "--players", "31"], "--players: 31 is too high: give a value from 4 to 30"),
    (["play", "--players", "2", "--text"], "--players: 2 is too low: give a value from 4 to 30"),
    (["demo", "--pace", "0"], "--pace: 0 is too low: give a value above 0, at most 10"),
    (["assist", "--pace", "11"], "--pace: 11 is too high: give a value above 0, at most 10"),
    (["play", "--pace", "-1"], "--pace: -1 is too low"),
    (["voices", "render", "--players", "0"], "--players: 0 is too low: give a value from 1 to 30"),
    (["play", "--voice-volume", "2"], "--voice-volume: 2 is too high"),
])
def test_issue9_point16_out_of_range_numbers_refused(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                     expected: str) -> None:
    line = refused_in_one_line(capsys, *argv)
    assert expected in line


def test_issue9_point16_slot_on_a_line_without_slots(capsys: pytest.CaptureFixture[str]) -> None:
    line = refused_in_one_line(capsys, "say", "--key", "seer.wake", "--slot", "seat=3", "--to", "x.wav")
    assert "line 'seer.wake' has no slot 'seat'" in line and "drop --slot" in line


def test_issue9_point16_unknown_and_missing_slots(capsys: pytest.CaptureFixture[str]) -> None:
    line = refused_in_one_line(capsys, "say", "--key", "day.death", "--slot", "sit=3", "--to", "x.wav")
    assert "has no slot 'sit'; its slots are: seat" in line
    line = refused_in_one_line(capsys, "say", "--key", "day.death", "--to", "x.wav")
    assert "needs a value for seat" in line and "--slot seat=" in line
