"""Rematch: the same table, composition, options and timing with a fresh deal, in one key or with --again."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from narrator.flow.script import Setup
from narrator.flow.timing import Timing
from narrator.rules import Options, Role
from narrator.rules.composition import Deal
from narrator.table.rematch import rematch_setup
from tests.text_game import KEYS
from tests.text_game import SETUP as TEXT_SETUP

# The game of tests/text_game.py, with a runoff (everyone votes 2, so no second round).
SETUP = TEXT_SETUP.replace("[timing]", '[options]\nvote_procedure = "runoff"\n[timing]')


def test_a_rematch_keeps_everything_but_the_deal() -> None:
    deal = Deal((Role.SEER, Role.WEREWOLF, Role.WITCH, Role.VILLAGER, Role.VILLAGER, Role.WEREWOLF, Role.HUNTER))
    setup = Setup(7, "fr", deal, None, Options(vote_procedure="runoff"), Timing().with_values({"seer": 9.0}), 0.5)
    deals = set()
    for i in range(20):
        again = rematch_setup(setup, random.Random(i))
        assert (again.players, again.language, again.options, again.timing, again.speech_scale) == \
            (setup.players, setup.language, setup.options, setup.timing, setup.speech_scale)
        assert Counter(again.deal.seats) == Counter(deal.seats)
        deals.add(again.deal.seats)
    assert len(deals) > 10, "the deal is not shuffled again"


def play(args: list[str], keys: list[str], data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "narrator", "play", "--text", *args], input="\n".join(keys) + "\n",
                          capture_output=True, text=True, timeout=600, env={**os.environ, "NARRATOR_DATA": str(data)})


def play_until_second_game(args: list[str], keys: list[str], data: Path) -> str:
    """Play; once a second game has dealt and journalled its setup, stop it (its answers would only time out)."""
    out = data.parent / "out.txt"
    with open(out, "w") as sink:
        child = subprocess.Popen([sys.executable, "-m", "narrator", "play", "--text", *args], stdin=subprocess.PIPE,
                                 stdout=sink, stderr=subprocess.STDOUT, text=True,
                                 env={**os.environ, "NARRATOR_DATA": str(data)})
        assert child.stdin is not None
        child.stdin.write("\n".join(keys) + "\n")
        child.stdin.close()
        try:
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline and child.poll() is None:
                if len([p for p in (data / "games").glob("*.jsonl") if p.stat().st_size]) >= 2:
                    break
                time.sleep(0.1)
        finally:
            child.kill()
            child.wait()
    return out.read_text()


def heads(data: Path) -> list[dict[str, object]]:
    return [json.loads(p.read_text().splitlines()[0]) for p in sorted((data / "games").glob("*.jsonl"))]


@pytest.mark.slow
@pytest.mark.xdist_group("clock")  # waits on the real clock: docs/testing.md, in parallel
def test_star_at_game_over_plays_again_with_a_fresh_deal(tmp_path: Path) -> None:
    (tmp_path / "setup.toml").write_text(SETUP)
    deal = ["1", "", "2", "", "3", "", "4", "", "5", ""]
    out = play_until_second_game(["--setup", str(tmp_path / "setup.toml"), "--seed", "1"], [*KEYS, "*", *deal],
                                 tmp_path / "data")
    assert "Rematch, same table and roles, new deal: press *. Enter alone finishes." in out
    first, second = heads(tmp_path / "data")
    a, b = first["setup"], second["setup"]
    assert isinstance(a, dict) and isinstance(b, dict)
    for same in ("players", "language", "options", "timing", "speech_scale"):
        assert a[same] == b[same], same
    assert a["options"]["vote_procedure"] == "runoff"
    assert sorted(a["roles"]) == sorted(b["roles"]) and a["roles"] != b["roles"]
    assert out.count("Journal: ") == 2


@pytest.fixture(scope="module")
def one_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path]:
    """The text game played to its end, Enter typed at the rematch question: the run and its data folder.
    Played once for the two tests that need it (about five seconds of real-clock turns); each
    reads it or copies its folder, and never writes into it."""
    folder = tmp_path_factory.mktemp("one-game")
    (folder / "setup.toml").write_text(SETUP)
    return play(["--setup", str(folder / "setup.toml"), "--seed", "1"], [*KEYS, ""], folder / "data"), folder / "data"


@pytest.mark.slow
@pytest.mark.xdist_group("clock")  # waits on the real clock: docs/testing.md, in parallel
def test_enter_at_game_over_finishes(one_game: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    done, data = one_game
    assert done.returncode == 0, done.stderr
    assert len(heads(data)) == 1


@pytest.mark.slow
@pytest.mark.xdist_group("clock")  # waits on the real clock: docs/testing.md, in parallel
def test_play_again_deals_the_last_game_afresh(tmp_path: Path,
                                              one_game: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    played, played_data = one_game
    assert played.returncode == 0, played.stderr
    data = tmp_path / "data"
    shutil.copytree(played_data, data)
    play_until_second_game(["--again", "--seed", "1"], ["1", "", "2", "", "3", "", "4", "", "5", ""], data)
    first, second = heads(data)
    a, b = first["setup"], second["setup"]
    assert isinstance(a, dict) and isinstance(b, dict)
    assert (a["options"], a["timing"], a["players"]) == (b["options"], b["timing"], b["players"])
    assert sorted(a["roles"]) == sorted(b["roles"]) and a["roles"] != b["roles"]
