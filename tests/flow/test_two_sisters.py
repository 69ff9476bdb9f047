"""The Two Sisters at the table: woken together on their nights only (siblings_wake), dealt or not,
alive or dead, with the same lines; their seats on the panel only while they are awake."""

from __future__ import annotations

from typing import Any

import pytest

from narrator.rules import CompositionError, Options, Role, complete, parse_roles

from flow_helpers import during, keys, panel_lines, play, private

SETUP: dict[str, Any] = {"players": 9, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "two_sisters", 7: "two_sisters"},
                         "options": {"captain_election": "never"}}
# Four quiet days (the wolves eat villagers), then the village votes both wolves out.
QUIET = {"nights": [{"werewolves": 5}, {"werewolves": 6}, {"werewolves": 8}, {"werewolves": 9}, {"werewolves": 1}],
         "days": [{"eliminate": 0}] * 3 + [{"eliminate": 2}, {"eliminate": 3}]}


def calls_per_night(r: Any, call: str) -> list[int]:
    night = keys(r, "night.")
    out: list[int] = []
    for key in night:
        if key == "night.falls":
            out.append(0)
        elif key == f"{call}.wake":
            out[-1] += 1
    return out


def test_called_on_odd_nights_by_default() -> None:
    r = play(SETUP, QUIET)
    woke = calls_per_night(r, "two_sisters")
    assert len(woke) >= 4
    assert woke[:4] == [1, 0, 1, 0]
    first = keys(r, "night.")[: keys(r, "night.").index("night.falls", 1)]
    # Row 8: after the Lovers (none here), before the Seer.
    assert first.index("two_sisters.wake") < first.index("seer.wake")


@pytest.mark.parametrize("value, expected", [("first_night_only", [1, 0, 0, 0]), ("every_night", [1, 1, 1, 1])])
def test_siblings_wake_option(value: str, expected: list[int]) -> None:
    setup = {**SETUP, "options": {**SETUP["options"], "siblings_wake": value}}
    assert calls_per_night(play(setup, QUIET), "two_sisters")[:4] == expected


def test_panel_shows_both_seats_only_while_they_are_awake() -> None:
    r = play(SETUP, QUIET)
    lines = panel_lines(during(r, "two_sisters.wake", "two_sisters.sleep"))
    assert lines == ["Your sister: seat 4.", "Your sister: seat 7."]
    wakes = [i for i, e in enumerate(r.timeline) if e.get("key") == "two_sisters.wake"]
    sleeps = [i for i, e in enumerate(r.timeline) if e.get("key") == "two_sisters.sleep"]
    shown = [i for i, e in enumerate(r.timeline) if "Your sister" in (e.get("text") or "")]
    assert shown and all(any(w < i < z for w, z in zip(wakes, sleeps)) for i in shown)
    assert not any("Your sister" in (e.get("text") or "") for e in private(r) if e.get("action") == "feedback")


def test_called_when_not_dealt_and_when_both_are_dead() -> None:
    not_dealt = {**SETUP, "roles": {1: "seer", 2: "werewolf", 3: "werewolf"}, "possible": ["two_sisters"]}
    assert calls_per_night(play(not_dealt, QUIET), "two_sisters")[:4] == [1, 0, 1, 0]
    dead = play(SETUP, {"nights": [{"werewolves": 4}, {"werewolves": 7}, {"werewolves": 5}, {"werewolves": 6}],
                        "days": [{"eliminate": 0}] * 3 + [{"eliminate": 2}, {"eliminate": 3}]})
    assert calls_per_night(dead, "two_sisters")[:4] == [1, 0, 1, 0]
    # Night 3: both Sisters are dead; the call is the same, its panel the closed one.
    assert not dead.game.is_alive(4) and not dead.game.is_alive(7)
    wakes = [i for i, e in enumerate(dead.timeline) if e.get("key") == "two_sisters.wake"]
    third = [e for e in dead.timeline[wakes[1]:] if e["kind"] == "private" and e.get("action") == "show"]
    assert third and third[0]["key"] == "night.closed"


def test_dealt_as_two_cards() -> None:
    assert parse_roles("two_sisters") == {Role.TWO_SISTERS: 2}
    with pytest.raises(CompositionError, match="two_sisters=2"):
        complete(10, {Role.WEREWOLF: 2, Role.TWO_SISTERS: 1}, Options())
    assert complete(10, {Role.WEREWOLF: 2, Role.TWO_SISTERS: 2}, Options())[Role.TWO_SISTERS] == 2
