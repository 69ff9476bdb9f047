"""Every role of the catalogue in play, since a full game with every role is what shows that every
role works: the 18-player compositions cover the whole catalogue, and a full game on each runs to
its end through the real command line (`narrator play --headless`, in a subprocess).

The compositions and checks are in tests/all_roles.py, derived from the catalogue at run time.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from narrator.roles import CARDS
from narrator.rules import Deal, Game, Options, Role, complete
from tests.all_roles import (PLAYERS, compositions, label, missing_calls, read_jsonl, script_toml, seats,
                             setup_toml)

REPO = Path(__file__).resolve().parents[1]
DECKS = compositions()


def uncovered(decks: list[dict[Role, int]]) -> list[str]:
    """The catalogue's roles no deck holds."""
    held = {role for deck in decks for role, n in deck.items() if n}
    return [r.value for r in CARDS if r not in held]


def test_the_compositions_put_every_role_of_the_catalogue_in_play() -> None:
    assert uncovered(DECKS) == []
    # The check sees a role left out (whichever it is).
    for role in CARDS:
        without = [{r: n for r, n in deck.items() if r is not role} for deck in DECKS]
        assert uncovered(without) == [role.value]


def test_each_composition_is_a_legal_table_of_18() -> None:
    options = Options()
    for deck in DECKS:
        assert sum(deck.values()) == PLAYERS, label(deck)
        assert complete(PLAYERS, deck, options) == {r: n for r, n in deck.items() if n}
        dealt = seats(deck)
        assert Counter(dealt) == Counter(deck)
        extra = (Role.VILLAGER, Role.VILLAGER) if Role.THIEF in dealt else ()
        Game.start(Deal(dealt, extra), options)  # the roles' own setup checks too
    # As few tables as the catalogue needs: one fewer could not seat every card.
    cards = sum(sum(d.values()) - d.get(Role.VILLAGER, 0) for d in DECKS)
    assert cards > (len(DECKS) - 1) * PLAYERS


@pytest.mark.slow
@pytest.mark.parametrize("deck", DECKS, ids=[f"table{i + 1}" for i in range(len(DECKS))])
def test_a_full_game_with_every_role_through_the_headless_command_line(tmp_path: Path, deck: dict[Role, int]) -> None:
    dealt = seats(deck)
    (tmp_path / "setup.toml").write_text(setup_toml(dealt))
    (tmp_path / "script.toml").write_text(script_toml(dealt))
    command = [sys.executable, "-m", "narrator", "play", "--headless", "--setup", "setup.toml", "--script",
               "script.toml", "--timeline", "timeline.jsonl", "--journal", "journal.jsonl", "--seed", "3"]
    env = {**os.environ, "NARRATOR_DATA": str(tmp_path / "data"), "PYTHONPATH": str(REPO)}
    try:
        done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the game did not end in 600 s: {label(deck)}; in {tmp_path}: {' '.join(command)}")
    where = f"{label(deck)}; in {tmp_path}: {' '.join(command)}"
    assert done.returncode == 0, f"{where}\n{done.stdout}\n{done.stderr}"
    assert done.stdout.startswith("game over: the winner is "), done.stdout

    timeline = read_jsonl(tmp_path / "timeline.jsonl")
    journal = read_jsonl(tmp_path / "journal.jsonl")
    # Exactly one outcome: one end of the game in the journal, one game-over line, one result.
    ended = [e for r in journal for e in r.get("events", []) if e.get("type") == "GameEnded"]
    assert len(ended) == 1, where
    over = [e for e in timeline if e.get("kind") == "say" and str(e["key"]).startswith("game.over")]
    assert len(over) == 1, where
    assert [e["kind"] for e in timeline].count("game_over") == 1 and timeline[-1]["kind"] == "game_over"
    assert done.stdout.split()[5].rstrip(";") == timeline[-1]["winner"]
    # The journal holds every card of the deal.
    head = journal[0]
    assert head["kind"] == "setup"
    assert Counter(Role(r) for r in head["setup"]["roles"]) == Counter(deck), where
    # Every call the rules make was made, on each night the game had, and no other.
    options = Options().with_values(head["setup"]["options"])
    # The possible roles: the cards dealt and the cards laid face up (the Actor's), as the table set.
    table = Deal(tuple(Role(r) for r in head["setup"]["roles"]), tuple(Role(r) for r in head["setup"]["extra"]))
    possible = Game.start(table, options).state.possible
    assert missing_calls(timeline, options, possible) == [], where
    nights = sum(1 for e in timeline if e.get("key") == "night.falls")
    assert nights >= 2, f"a game of one night checks little: {where}"


def test_every_card_comes_in_a_known_box() -> None:
    """One name a box (the Characters expansion was "personnages" on some cards, "characters" on others)."""
    from narrator.roles import CARDS
    from narrator.roles.base import BOXES

    assert {c.box for c in CARDS.values()} == set(BOXES)
