"""Golden game scripts (tests/golden/*.game) replayed against the engine, event by event."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from golden_script import run
from narrator.rules import Game

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
SCRIPTS = sorted(GOLDEN.glob("*.game"))


def test_there_are_enough_golden_games() -> None:
    assert len(SCRIPTS) >= 12


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_golden_game(path: Path) -> None:
    expected, actual, game = run(path)
    if expected != actual:
        diff = "\n".join(difflib.unified_diff(expected, actual, "expected (hand-written)", "engine", lineterm=""))
        pytest.fail(f"{path.name}: the engine's events differ from the script\n{diff}")
    assert Game.replay(game.events).state == game.state
