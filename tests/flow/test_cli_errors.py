"""Bad SETUP, SCRIPT and journal files: one clear line naming the file and the problem, exit 1, nothing overwritten."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from narrator.cli import main

pytestmark = pytest.mark.slow  # commands run as child processes, and whole games are played

GOOD_SETUP = 'players = 8\nroles = { 1 = "seer", 2 = "werewolf" }\n'
GOOD_SCRIPT = "[[nights]]\nseer = 2\n[[days]]\neliminate = 2\n"


def run(tmp_path: Path, setup: str, script: str, *extra: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "setup.toml").write_text(setup)
    (tmp_path / "script.toml").write_text(script)
    return subprocess.run(
        [sys.executable, "-m", "narrator", "play", "--headless", "--setup", str(tmp_path / "setup.toml"),
         "--script", str(tmp_path / "script.toml"), *extra],
        capture_output=True, text=True, timeout=600,
    )


def run_here(tmp_path: Path, capsys: pytest.CaptureFixture[str], setup: str, script: str) -> tuple[int, str]:
    """`run` in this process: the exit code `python -m narrator` would give (narrator/__main__.py exits
    with what `main` returns) and what it printed on stderr. A warning is an error here: a child would
    have printed it on stderr, where one line only is wanted."""
    (tmp_path / "setup.toml").write_text(setup)
    (tmp_path / "script.toml").write_text(script)
    argv = ["play", "--headless", "--setup", str(tmp_path / "setup.toml"), "--script", str(tmp_path / "script.toml")]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            code = main(argv)
        except SystemExit as stop:  # as the interpreter turns it into an exit status
            code = 0 if stop.code is None else stop.code if isinstance(stop.code, int) else 1
    return code, capsys.readouterr().err


BAD = [
    ('players = 8\nroles = { 1 = "seeer" }\n', GOOD_SCRIPT, "unknown role 'seeer'"),
    ('players = 8\nroles = { 9 = "seer", 2 = "werewolf" }\n', GOOD_SCRIPT, "seat 9 is out of range"),
    ("players = 2\n", GOOD_SCRIPT, "players = 2; give a number from 4 to 30"),
    ('players = 8\nroles = { 1 = "seer" }\n', GOOD_SCRIPT, "has no Werewolf"),
    ("players = [8\n", GOOD_SCRIPT, "is not valid TOML"),
    (GOOD_SETUP + "colour = 3\n", GOOD_SCRIPT, "unknown key 'colour'"),
    (GOOD_SETUP + "[options]\nvote_procedure = \"dice\"\n", GOOD_SCRIPT, "vote_procedure cannot be 'dice'"),
    (GOOD_SETUP + "[options]\nwolf_speed = 3\n", GOOD_SCRIPT, "unknown option 'wolf_speed'"),
    (GOOD_SETUP + "[timing]\nseer = -1\n", GOOD_SCRIPT, "seer = -1 must be a number of seconds"),
    (GOOD_SETUP, "[[nights]]\nseer = 12\n", "seat 12 is out of range"),
    (GOOD_SETUP, "[[nights]]\nvampire = 2\n", "unknown key 'vampire'"),
    (GOOD_SETUP, "[[nights]]\ncupid = [3]\n", "cupid = [3]; give two seats"),
    (GOOD_SETUP, "[[days]]\nvotes = { 1 = 40 }\n", "seat 40 is out of range"),
    (GOOD_SETUP, "[[nights]]\nlate = [\"baker\"]\n", "late = ['baker']"),
    (GOOD_SETUP, "nights = 3\n", "must be an array of tables"),
]


def assert_one_line_naming_the_file(code: int, stderr: str, expected: str) -> None:
    assert code == 1, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("narrator: ") and expected in lines[0]
    assert "setup.toml" in lines[0] or "script.toml" in lines[0] or "SETUP" in lines[0]


@pytest.mark.parametrize("setup, script, expected", BAD)
def test_bad_setup_or_script_one_line_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str], setup: str, script: str,
                                             expected: str) -> None:
    # In this process: a child's start-up (most of each case's time) is the same for every bad file,
    # and the child below checks it once.
    assert_one_line_naming_the_file(*run_here(tmp_path, capsys, setup, script), expected)


def test_a_bad_setup_in_a_child_is_one_line_exit_1(tmp_path: Path) -> None:
    """The whole program, as a child: its exit status, and nothing but the one line on stderr."""
    setup, script, expected = BAD[0]
    proc = run(tmp_path, setup, script)
    assert proc.stdout == ""
    assert_one_line_naming_the_file(proc.returncode, proc.stderr, expected)


def test_missing_file_is_named(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "narrator", "play", "--headless", "--setup", str(tmp_path / "nope.toml"), "--script", "x.toml"],
        capture_output=True, text=True,
    )
    assert proc.returncode == 1 and proc.stderr.strip() == f"narrator: setup file '{tmp_path / 'nope.toml'}' does not exist"


def test_existing_journal_is_not_overwritten(tmp_path: Path) -> None:
    journal = tmp_path / "game.jsonl"
    journal.write_text('{"kind": "setup"}\n')
    proc = run(tmp_path, GOOD_SETUP, GOOD_SCRIPT, "--journal", str(journal))
    assert proc.returncode == 1 and "already exists" in proc.stderr
    assert journal.read_text() == '{"kind": "setup"}\n'


def test_timeline_written_only_for_a_good_game(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("previous\n")
    proc = run(tmp_path, 'players = 8\nroles = { 1 = "wizard" }\n', GOOD_SCRIPT, "--timeline", str(out))
    assert proc.returncode == 1
    assert out.read_text() == "previous\n"
    proc = run(tmp_path, GOOD_SETUP, GOOD_SCRIPT, "--timeline", str(out))
    assert proc.returncode == 0, proc.stderr
    assert out.read_text().splitlines()[-1].startswith('{"kind": "game_over"')
