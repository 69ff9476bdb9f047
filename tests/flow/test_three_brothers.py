"""The Three Brothers at the table: woken together on the Sisters' nights, right after them."""

from __future__ import annotations

from typing import Any

import pytest

from narrator.rules import CompositionError, Options, Role, complete, parse_roles

from flow_helpers import during, keys, panel_lines, play
from test_two_sisters import calls_per_night

SETUP: dict[str, Any] = {
    "players": 12,
    "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "three_brothers", 6: "three_brothers", 8: "three_brothers",
              10: "two_sisters", 11: "two_sisters"},
    "options": {"captain_election": "never"}}
SCRIPT = {"nights": [{"werewolves": 5}, {"werewolves": 7}, {"werewolves": 9}, {"werewolves": 12}, {"werewolves": 1}],
          "days": [{"eliminate": 0}] * 3 + [{"eliminate": 2}, {"eliminate": 3}]}


def test_called_right_after_the_sisters_on_odd_nights() -> None:
    r = play(SETUP, SCRIPT)
    assert calls_per_night(r, "three_brothers")[:4] == [1, 0, 1, 0]
    night = keys(r, "night.")
    first = night[: night.index("night.falls", 1)]
    assert first.index("two_sisters.sleep") + 1 == first.index("three_brothers.wake")


def test_panel_shows_the_three_seats() -> None:
    r = play(SETUP, SCRIPT)
    assert panel_lines(during(r, "three_brothers.wake", "three_brothers.sleep")) == [
        "Your brother: seat 4.", "Your brother: seat 6.", "Your brother: seat 8."]


def test_every_night_option_and_not_dealt() -> None:
    setup = {**SETUP, "roles": {1: "seer", 2: "werewolf", 3: "werewolf"}, "possible": ["three_brothers"],
             "options": {"captain_election": "never", "siblings_wake": "every_night"}}
    assert calls_per_night(play(setup, SCRIPT), "three_brothers")[:4] == [1, 1, 1, 1]


def test_dealt_as_three_cards() -> None:
    assert parse_roles("three_brothers") == {Role.THREE_BROTHERS: 3}
    with pytest.raises(CompositionError, match="three_brothers=3"):
        complete(15, {Role.WEREWOLF: 3, Role.THREE_BROTHERS: 2}, Options())
