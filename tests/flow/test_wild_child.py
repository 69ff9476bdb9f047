"""The Wild Child at the table: his first-night call, his panel, his change told on the pack's panel."""

from __future__ import annotations

from narrator.rules import events as ev

from flow_helpers import during, keys, panel_lines, play, private

SETUP = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "wild_child"},
         "options": {"captain_election": "never"}}
DAYS = [{"eliminate": 2}, {"eliminate": 3}, {"eliminate": 4}]  # the pack, the Wild Child last: the game ends


def test_called_on_the_first_night_only_after_cupid_and_before_the_seer() -> None:
    r = play(SETUP, {"nights": [{"wild_child": 6, "werewolves": 7}], "days": DAYS})
    night = keys(r, "night.")
    first = night[: night.index("night.falls", 1)]
    assert first == ["night.falls", "wild_child.wake", "wild_child.sleep", "seer.wake", "seer.sleep",
                     "werewolves.wake_first", "werewolves.sleep"]
    assert night.count("wild_child.wake") == 1


def test_panel_echoes_the_model_and_himself_is_not_offered() -> None:
    r = play(SETUP, {"nights": [{"wild_child": [4, 6], "werewolves": 7}], "days": DAYS})
    panel = panel_lines(during(r, "wild_child.wake", "wild_child.sleep"))
    assert panel[0] == "Enter your model's seat."
    assert "Your model: seat 6." in panel  # seat 4 (himself) is refused, 6 taken
    used = [e for e in r.game.events if isinstance(e, ev.PowerUsed) and e.call == "wild_child"]
    assert [e.targets for e in used] == [(6,)]


def test_model_devoured_he_wakes_with_the_pack_and_is_told_on_its_panel() -> None:
    r = play(SETUP, {"nights": [{"wild_child": 6, "werewolves": 6}, {"werewolves": 7}],
                     "days": [{"eliminate": 0}, *DAYS]})
    assert any(isinstance(e, ev.JoinedPack) and e.seat == 4 for e in r.game.events)
    told = [e for e in private(r) if "Your model is dead" in (e.get("text") or "")]
    assert told, "the pack's panel tells the Wild Child"
    # Shown only during the pack's call of the second night.
    second = [i for i, e in enumerate(r.timeline) if e.get("key") == "werewolves.wake"][0]
    assert all(r.timeline.index(e) > second for e in told)
    assert "wild_child.transformed" not in keys(r)  # wild_child_transformation_public=false


def test_transformation_said_aloud_with_the_option() -> None:
    setup = {**SETUP, "options": {"captain_election": "never", "wild_child_transformation_public": True}}
    r = play(setup, {"nights": [{"wild_child": 6, "werewolves": 6}], "days": DAYS})
    said = keys(r)
    assert said.index("wild_child.transformed") > said.index("day.deaths")


def test_dead_or_undealt_wild_child_is_still_called() -> None:
    setup = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf"}, "possible": ["wild_child"],
             "options": {"captain_election": "never"}}
    r = play(setup, {"nights": [{"werewolves": 7}], "days": DAYS})
    assert keys(r, "night.").count("wild_child.wake") == 1
