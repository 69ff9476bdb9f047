"""The Wolf-Hound at the table: his first-night call, his panel, his side (public with the option)."""

from __future__ import annotations

from narrator.rules import events as ev

from flow_helpers import during, keys, panel_lines, play

SETUP = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "wolf_hound"},
         "options": {"captain_election": "never"}}
DAYS = [{"eliminate": 2}, {"eliminate": 3}, {"eliminate": 4}]  # the pack, the Wolf-Hound last: the game ends


def joined(r: object) -> list[int]:
    return [e.seat for e in r.game.events if isinstance(e, ev.JoinedPack)]  # type: ignore[attr-defined]


def test_called_first_on_the_first_night_only() -> None:
    r = play(SETUP, {"nights": [{"wolf_hound": 1, "werewolves": 7}], "days": DAYS})
    night = keys(r, "night.")
    assert night[:3] == ["night.falls", "wolf_hound.wake", "wolf_hound.sleep"]
    assert night.count("wolf_hound.wake") == 1
    assert joined(r) == []


def test_choosing_the_werewolves_joins_the_pack_that_night() -> None:
    r = play(SETUP, {"nights": [{"wolf_hound": 2, "werewolves": 7}], "days": DAYS})
    panel = panel_lines(during(r, "wolf_hound.wake", "wolf_hound.sleep"))
    assert panel[0] == "1 for the village, 2 for the Werewolves."
    assert "Your side: the Werewolves. You wake with them from tonight." in panel
    assert joined(r) == [4]
    assert "wolf_hound.chose_wolves" not in keys(r)  # wolf_hound_choice_public=false


def test_no_answer_is_the_village_and_the_option_says_it_in_the_morning() -> None:
    setup = {**SETUP, "options": {"captain_election": "never", "wolf_hound_choice_public": True}}
    r = play(setup, {"nights": [{"werewolves": 7}], "days": DAYS})
    assert joined(r) == []
    said = keys(r)
    assert said.count("wolf_hound.chose_village") == 1
    assert said.index("wolf_hound.chose_village") > said.index("day.deaths")


def test_undealt_wolf_hound_is_still_called() -> None:
    setup = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf"}, "possible": ["wolf_hound"],
             "options": {"captain_election": "never"}}
    r = play(setup, {"nights": [{"werewolves": 7}], "days": DAYS})
    assert keys(r, "night.")[:3] == ["night.falls", "wolf_hound.wake", "wolf_hound.sleep"]


def morning(r: object) -> list[tuple[str, float]]:
    """The first morning's lines, with their offsets from the dawn line."""
    lines = [e for e in r.timeline if e["kind"] == "say" and e["phase"] == "day.morning"]  # type: ignore[attr-defined]
    return [(e["key"], round(e["t"] - lines[0]["t"], 6)) for e in lines if lines]


def test_the_public_choice_is_said_whether_or_not_the_hound_is_dealt() -> None:
    """With `wolf_hound_choice_public=true` the first morning says the Wolf-Hound's
    side whenever his card is possible: dealt (he chose the village) or out of play (his card adds
    no wolf: the village line), the same lines at the same times."""
    options = {"captain_election": "never", "wolf_hound_choice_public": True}
    dealt = play({**SETUP, "options": options}, {"nights": [{"wolf_hound": 1, "werewolves": 7}], "days": DAYS})
    absent = play({"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf"}, "possible": ["wolf_hound"],
                   "options": options}, {"nights": [{"wolf_hound": 1, "werewolves": 7}], "days": DAYS})
    assert "wolf_hound.chose_village" in keys(dealt)
    assert morning(dealt) == morning(absent)
