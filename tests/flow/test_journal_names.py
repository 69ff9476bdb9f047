"""Journals of games started in the same second keep their order.

Journals are named `game-YYYYmmdd-HHMMSS.jsonl`; a second game in the same second gets `-2`, then
`-3`... Sorted as plain names, `-2` came before the first game (`-` sorts before `.`) and `-10`
before `-2`, so `narrator resume`, `narrator play --again` and `history import` took the wrong game
as the newest.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.flow.script import game_journals, new_journal_path, parse_setup
from narrator.table.rematch import last_game

REPO = Path(__file__).resolve().parents[2]
SAME_SECOND = 1_790_000_000.25


def _journal(path: Path, players: int) -> None:
    """A text game's journal stopped before its first night; `players` tells the games apart."""
    timing = {k: 0.05 for k in ("seer", "werewolves", "witch", "gap", "settle", "suspense", "debate", "vote", "chain",
                                "defence")}
    setup = parse_setup({"players": players, "language": "en", "speech_scale": 0.001, "timing": timing,
                         "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch"}}, "SETUP")
    head = {"kind": "setup", "mode": "text", "screen": "text", "seed": 1, "setup": setup.to_record()}
    path.write_text(json.dumps(head) + "\n")


def test_journals_named_in_the_same_second_sort_in_the_order_they_were_made(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    made = []
    for i in range(12):  # past 9: "-10" must come after "-9", not after the first game
        path = new_journal_path(folder, SAME_SECOND)
        _journal(path, 8 + i % 3)
        made.append(path)
    assert len(set(made)) == 12
    shuffled = list(made)
    random.Random(4).shuffle(shuffled)
    for path in shuffled:  # the order does not come from when the files were written
        os.utime(path, (SAME_SECOND, SAME_SECOND))
    assert game_journals(folder) == made
    # A game of the next second comes after all of them.
    later = new_journal_path(folder, SAME_SECOND + 1)
    _journal(later, 8)
    assert game_journals(folder) == made + [later]


@pytest.mark.slow
def test_rematch_and_resume_take_the_newest_of_the_same_second(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "games"
    folder.mkdir(parents=True)
    paths = [new_journal_path(folder, SAME_SECOND) for _ in range(1)]
    _journal(paths[0], 8)
    for players in (9, 10):
        path = new_journal_path(folder, SAME_SECOND)
        _journal(path, players)
        paths.append(path)
    empty = new_journal_path(folder, SAME_SECOND)  # a fourth game, stopped during its deal
    empty.write_bytes(b"")
    setup, _ = last_game(folder)
    assert setup.players == 10  # the third game, not the first (plain name order) or the second
    # `narrator resume` without a journal takes the newest: here the empty one, which it refuses,
    # naming the game before it.
    env = {**os.environ, "PYTHONPATH": str(REPO), "NARRATOR_DATA": str(tmp_path / "data")}
    proc = subprocess.run([sys.executable, "-m", "narrator", "resume"], input="", capture_output=True, text=True,
                          timeout=600, env=env)
    assert proc.returncode != 0
    assert f"the newest journal {empty} is empty" in proc.stderr, proc.stderr
    assert f"narrator resume {paths[-1]}" in proc.stderr, proc.stderr
