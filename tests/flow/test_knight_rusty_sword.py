"""The Knight with the Rusty Sword at the table: his diseased wolf dies the next night, announced
the next morning with the other deaths, with no cause and nothing said before."""

from __future__ import annotations

from typing import Any

from narrator.rules import events as ev

from flow_helpers import keys, play, reveals, said

SETUP: dict[str, Any] = {"players": 8, "roles": {1: "werewolf", 3: "knight_rusty_sword", 4: "werewolf", 7: "seer"},
                         "options": {"captain_election": "never"}}
SCRIPT = {"nights": [{"werewolves": 3}, {"werewolves": 5}, {"werewolves": 6}],
          "days": [{"eliminate": 0}, {"eliminate": 1}]}


def test_the_diseased_wolf_dies_the_next_night_and_is_announced_the_next_morning() -> None:
    r = play(SETUP, SCRIPT)
    dawns = [e for e in r.game.events if isinstance(e, ev.DawnBroke)]
    assert dawns[0].deaths == (3,) and dawns[1].deaths == (4, 5)
    lines = said(r)
    spoken = keys(r)
    day2 = [i for i, k in enumerate(spoken) if k == "day.dawn"][1]
    # Said on the morning of Day 2, among that dawn's deaths, like any night death.
    shown = reveals(r, "day.morning")
    assert shown.index("Seat 4. Their card: Werewolf.") < shown.index("Seat 5. Their card: Villager.")
    assert lines.index("Their card: Werewolf.") > day2
    # Nothing about the disease is said, before or then: no cause.
    assert not any("sword" in t.lower() or "disease" in t.lower() or "knight" in t.lower()
                   for t in lines[:day2 + 6] if not t.startswith("Their card:"))


def test_the_pack_call_is_the_same_with_the_diseased_wolf_dead() -> None:
    r = play(SETUP, SCRIPT)
    night = keys(r, "night.")
    second = night[night.index("night.falls", 1):]
    assert second[:5] == ["night.falls", "seer.wake", "seer.sleep", "werewolves.wake", "werewolves.sleep"]
    # The diseased wolf (seat 4) died before the pack woke: the victim was the other wolf's.
    died = [(e.seat, e.cause) for e in r.game.events if isinstance(e, ev.PlayerDied)]
    assert died.index((4, ev.Cause.DISEASE)) < died.index((5, ev.Cause.WOLVES))


def test_no_knight_no_disease() -> None:
    setup = {**SETUP, "roles": {1: "werewolf", 4: "werewolf", 7: "seer"}}
    r = play(setup, {"nights": [{"werewolves": 3}, {"werewolves": 5}, {"werewolves": 6}, {"werewolves": 8}],
                     "days": [{"eliminate": 0}, {"eliminate": 1}, {"eliminate": 4}]})
    assert not any(isinstance(e, ev.Marked) for e in r.game.events)
