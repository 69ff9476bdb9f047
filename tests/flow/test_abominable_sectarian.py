"""The Abominable Sectarian at the table: his two groups said before the first call and shown on
the public board, whether he is dealt or only possible; his win; the groups option refused clearly."""

from __future__ import annotations

import io

import pytest

from narrator.table.text import TextDisplay
from narrator.packs import load_pack
from narrator.roles import BOARD

from narrator.rules import Deal, Game, Options, Role, Side
from narrator.rules.errors import RulesError

from flow_helpers import keys, play, said

SETUP = {"players": 8, "roles": {3: "seer", 5: "werewolf", 6: "werewolf", 2: "abominable_sectarian"},
         "options": {"captain_election": "never", "sectarian_groups": "AAAABBBB"}}
SCRIPT = {"nights": [{"werewolves": 7}, {"werewolves": 1}, {"werewolves": 3}],
          "days": [{"eliminate": 8}, {"eliminate": 5}, {"eliminate": 6}]}


def test_groups_are_said_before_the_first_night_and_stay_on_the_board() -> None:
    r = play(SETUP, SCRIPT)
    k = keys(r)
    first = k.index("abominable_sectarian.groups")
    assert first < k.index("night.falls")
    assert k[first + 1: first + 9] == ["abominable_sectarian.group_a"] * 4 + ["abominable_sectarian.group_b"] * 4
    assert "Seat 5: group B." in said(r)
    public = [line for board in BOARD for line in board(r.game)]
    assert public[:2] == [("abominable_sectarian.group_a", {"seat": 1}), ("abominable_sectarian.group_a", {"seat": 2})]
    assert len(public) == 8
    out = io.StringIO()
    TextDisplay(load_pack("en"), out).board({"phase": "debate", "alive": [1, 2], "public": [[k, v] for k, v in public]})
    assert "Seat 1: group A.  Seat 2: group A." in out.getvalue() and "Seat 8: group B." in out.getvalue()


def test_the_sectarian_wins_alone() -> None:
    r = play(SETUP, SCRIPT)
    assert r.game.outcome is not None and r.game.outcome.winner is Side.ABOMINABLE_SECTARIAN
    assert r.game.outcome.winners == (2,)
    assert "The game is over. Victory for the Abominable Sectarian." in said(r)


def test_the_same_opening_lines_when_only_possible() -> None:
    dealt = play(SETUP, SCRIPT)
    setup = {**SETUP, "roles": {3: "seer", 5: "werewolf", 6: "werewolf"}, "possible": ["abominable_sectarian"]}
    possible = play(setup, SCRIPT)
    opening = lambda r: [e["text"] for e in r.timeline if e["kind"] == "say"][: keys(r).index("night.falls")]  # noqa: E731
    assert opening(dealt) == opening(possible)


def test_groups_default_to_the_two_halves_of_the_table() -> None:
    setup = {**SETUP, "options": {"captain_election": "never"}}
    r = play(setup, SCRIPT)
    k = keys(r)
    first = k.index("abominable_sectarian.groups")
    assert k[first + 1: first + 9] == ["abominable_sectarian.group_a"] * 4 + ["abominable_sectarian.group_b"] * 4


@pytest.mark.parametrize("groups, message", [("AABB", "4 letters for 8 players"), ("AAAAAAAA", "both groups"),
                                             ("AAAXBBBB", "one letter A or B")])
def test_bad_groups_are_refused_with_one_clear_line(groups: str, message: str) -> None:
    seats = (Role.WEREWOLF, Role.ABOMINABLE_SECTARIAN, *([Role.VILLAGER] * 6))
    with pytest.raises(RulesError, match=message):
        Game.start(Deal(seats), Options().with_values({"sectarian_groups": groups}))
