"""The Big Bad Wolf at the table: his call after the pack, his panel, his lost power."""

from __future__ import annotations

from narrator.rules import events as ev

from flow_helpers import during, keys, panel_lines, play, private

SETUP = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "big_bad_wolf"},
         "options": {"captain_election": "never"}}
DAYS = [{"eliminate": 2}, {"eliminate": 3}]


def deaths(r: object) -> list[tuple[int, ...]]:
    return [e.deaths for e in r.game.events if isinstance(e, ev.DawnBroke)]  # type: ignore[attr-defined]


def test_called_every_night_after_the_pack() -> None:
    r = play(SETUP, {"nights": [{"werewolves": 6, "big_bad_wolf": 7}, {"werewolves": 8}], "days": DAYS})
    night = keys(r, "night.")
    first = night[: night.index("night.falls", 1)]
    assert first == ["night.falls", "seer.wake", "seer.sleep", "werewolves.wake_first", "werewolves.sleep",
                     "big_bad_wolf.wake", "big_bad_wolf.sleep"]
    assert night.count("big_bad_wolf.wake") == night.count("night.falls")
    assert deaths(r)[0] == (6, 7)
    panel = panel_lines(during(r, "big_bad_wolf.wake", "big_bad_wolf.sleep"))
    assert panel[0] == "Enter your second victim's seat." and "Second victim: seat 7." in panel


def test_pack_victim_and_pack_members_are_not_offered() -> None:
    r = play(SETUP, {"nights": [{"werewolves": 6, "big_bad_wolf": [6, 2, 5]}], "days": DAYS})
    assert deaths(r)[0] == (5, 6)


def test_after_a_wolf_dies_the_call_is_the_same_and_changes_nothing() -> None:
    r = play(SETUP, {"nights": [{"werewolves": 6}, {"werewolves": 7, "big_bad_wolf": 8}], "days": DAYS})
    assert deaths(r)[1] == (7,)  # seat 2 (Werewolf) voted out on day 1: no extra victim
    assert any("Your power is lost or spent" in (e.get("text") or "") for e in private(r))
    night = keys(r, "night.")
    assert night.count("big_bad_wolf.wake") == night.count("night.falls")
