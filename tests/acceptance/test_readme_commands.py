"""The README's commands exactly as written, from a fresh clone, in a real terminal, with the keys a
player types: `./play` (on a machine with no sound card, the table chooses the silent screen) and
`./play --text` to the first night; `./play demo` (with a speaker: ALSA's file device) through a
whole game; and `./test` (its install of the dev extras over `./play`'s, mypy on the clone, pytest)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.acceptance.table import ARTIFACTS, INSTALL_WAIT, SPEAKER, answer_every_question, command, fresh_clone, no_traceback
from tests.table.tmux import Tmux

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fresh_clone(tmp_path_factory.mktemp("clone"))


def readme_commands() -> str:
    """The README's words, each run of spaces and line ends one space."""
    return " ".join((Path(__file__).resolve().parents[2] / "README.md").read_text().split())


def keep(t: Tmux, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"{name}.txt").write_text(t.output())


def deal_on_the_screen(t: Tmux, players: int = 8) -> None:
    """Each seat in turn types its number, reads its card, presses Enter to hide it."""
    for seat in range(1, players + 1):
        t.wait(f"Seat {seat}: press your seat number")
        t.type(str(seat))
        t.wait(f"Seat {seat}: you are the")
        t.send("Enter")
        t.wait(lambda s, seat=seat: f"Seat {seat}: you are the" not in s)


def test_play_from_a_fresh_clone_with_no_sound_card_to_the_first_night(clone: Path, tmp_path: Path) -> None:
    assert "./play # installs everything needed, then starts a game" in readme_commands()
    t = command(clone, tmp_path, "./play")
    try:
        t.wait("Play without sound?", timeout=600)
        t.type("1")  # the full screen, silent
        answer_every_question(t, "Seat 1: press your seat number")
        assert "Play with phones" in t.output()  # offered: ./play installed what it needs
        deal_on_the_screen(t)
        t.wait("Night 1")  # the dark night screen: the night's board
        t.send("C-c")
        assert t.exit_code() == 130
        no_traceback(t)
    finally:
        keep(t, "play")
        t.close()


def test_play_text_from_a_fresh_clone_to_the_first_night(clone: Path, tmp_path: Path) -> None:
    assert "`./play --text` plays without sound in the terminal" in readme_commands()
    t = command(clone, tmp_path, "./play --text")
    try:
        answer_every_question(t, "Seat 1: press your seat number")
        deal_on_the_screen(t)
        t.wait_output("Night falls on the village. Everyone, close your eyes.")
        t.send("C-c")
        assert t.exit_code() == 130
        no_traceback(t)
    finally:
        keep(t, "play-text")
        t.close()


def test_play_demo_from_a_fresh_clone_plays_a_whole_game_aloud(clone: Path, tmp_path: Path) -> None:
    assert "`./play demo` lets automatic players show you a game" in readme_commands()
    t = command(clone, tmp_path, "./play demo", VOICE_OUTFILE=str(tmp_path / "speaker.wav"), **SPEAKER)
    try:
        assert t.exit_code(timeout=1800) == 0
        out = t.output()
        assert re.search(r"Demo over: victory for the (village|werewolves|lovers)", out), out[-2000:]
        assert "Night falls on the village" in out
        no_traceback(t)
        assert (tmp_path / "speaker.wav").stat().st_size > 100_000  # it spoke
    finally:
        keep(t, "play-demo")
        t.close()


def test_test_from_a_fresh_clone_installs_type_checks_and_runs_pytest(clone: Path) -> None:
    """`./test` with one test file (the whole suite would run the acceptance tier's parent again): the
    dev extras installed over what `./play` installed, `mypy --strict` on the clone, then pytest."""
    assert "./test # installs everything needed, then type-checks and runs the tests" in readme_commands()
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "NARRATOR_ACCEPTANCE")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if ".venv" not in p)
    test = subprocess.run(["./test", "tests/test_ports.py", "-q", "-p", "no:cacheprovider"], cwd=clone, env=env,
                          capture_output=True, text=True, timeout=INSTALL_WAIT)
    assert test.returncode == 0, (test.stdout + test.stderr)[-3000:]
    assert "Success: no issues found" in test.stdout  # mypy --strict ran on the clone
    assert re.search(r"^\.+ +\[100%\]$", test.stdout, re.M), test.stdout[-2000:]  # every test ran and passed
