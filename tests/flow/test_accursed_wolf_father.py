"""The Accursed Wolf-Father at the table: his call after the pack, his panel, the designation
notice, the infected player told on the pack's panel, and his call once the infection is spent."""

from __future__ import annotations

import pytest

from narrator.rules import events as ev

from flow_helpers import during, keys, panel_lines, play, private

SETUP = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "accursed_wolf_father", 4: "witch"},
         "options": {"captain_election": "never"}}
DAYS = [{"eliminate": 2}, {"eliminate": 3}, {"eliminate": 6}, {"eliminate": 7}]


def infected(r: object) -> list[int]:
    return [e.seat for e in r.game.events if isinstance(e, ev.JoinedPack) and e.reason == "infected"]  # type: ignore[attr-defined]


def test_called_every_night_after_the_pack_and_before_the_witch() -> None:
    r = play(SETUP, {"nights": [{"werewolves": 6}, {"werewolves": 7}], "days": DAYS})
    night = keys(r, "night.")
    first = night[: night.index("night.falls", 1)]
    assert first == ["night.falls", "seer.wake", "seer.sleep", "werewolves.wake_first", "werewolves.sleep",
                     "accursed_wolf_father.wake", "accursed_wolf_father.sleep", "witch.wake", "witch.sleep"]
    assert night.count("accursed_wolf_father.wake") == night.count("night.falls")
    assert infected(r) == []


def test_infecting_shows_the_victim_and_whom_to_tap_then_the_pack_panel_tells_him() -> None:
    r = play(SETUP, {"nights": [{"werewolves": 6, "accursed_wolf_father": 1}, {"werewolves": 7}], "days": DAYS})
    panel = panel_lines(during(r, "accursed_wolf_father.wake", "accursed_wolf_father.sleep"))
    assert panel[:2] == ["Infect the victim? + yes, - no.", "The Werewolves' victim: seat 6."]
    assert "Infect: yes." in panel and "Before you sleep, tap seat 6 on the shoulder." in panel
    assert infected(r) == [6]
    # The Witch is not shown an infected victim; the morning is quiet.
    assert "Devoured" not in " ".join(panel_lines(during(r, "witch.wake", "witch.sleep")))
    assert [e.deaths for e in r.game.events if isinstance(e, ev.DawnBroke)][0] == ()
    told = [i for i, e in enumerate(r.timeline) if e["kind"] == "private" and "bitten and infected" in (e.get("text") or "")]
    second_pack = [i for i, e in enumerate(r.timeline) if e.get("key") == "werewolves.wake"][0]
    assert told and all(i > second_pack for i in told)


def test_helper_touch_tells_the_helper() -> None:
    setup = {**SETUP, "options": {"captain_election": "never", "designation_notice": "helper_touch"}}
    r = play(setup, {"nights": [{"werewolves": 6, "accursed_wolf_father": 1}], "days": DAYS})
    panel = panel_lines(during(r, "accursed_wolf_father.wake", "accursed_wolf_father.sleep"))
    assert "Helper: touch seat 6 on the shoulder." in panel


def test_declining_devours_and_a_spent_infection_is_called_the_same() -> None:
    r = play(SETUP, {"nights": [{"werewolves": 6, "accursed_wolf_father": 0},
                                {"werewolves": 7, "accursed_wolf_father": 1},
                                {"werewolves": 8, "accursed_wolf_father": 1}], "days": [{"eliminate": 0}, *DAYS]})
    assert infected(r) == [7]
    deaths = [e.deaths for e in r.game.events if isinstance(e, ev.DawnBroke)]
    assert deaths[0] == (6,) and deaths[1] == () and 8 in deaths[2]
    spent = [e for e in private(r) if "Your power is lost or spent" in (e.get("text") or "")]
    assert spent, "the third night's panel says the answer changes nothing"


@pytest.mark.parametrize(("victim", "lives", "protected"), [
    ("elder", 2, False), ("elder", 3, False), ("elder", 2, True), ("elder", 1, False),
    ("villager", 2, True), ("little_girl", 2, True), ("knight_rusty_sword", 2, False), ("hunter", 2, True),
])
def test_the_wolf_fathers_tap_is_true_in_every_hidden_state(victim: str, lives: int, protected: bool) -> None:
    """Whatever the pack's victim holds (an Elder with a spare life, a player the Savior protects),
    "tap seat 6" on the Wolf-Father's panel is true: seat 6 is infected, lives, and wakes with the
    pack the next night. An infection is not a devouring (docs/rules.md "Accursed Wolf-Father");
    an Elder with a spare life was told to be tapped and then not infected."""
    setup = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "accursed_wolf_father", 4: "witch", 5: "savior",
                                     6: victim},
             "options": {"captain_election": "never", "elder_lives": lives}}
    first = {"savior": 6 if protected else 7, "werewolves": 6, "accursed_wolf_father": 1}
    nights = [first, {"savior": 8, "werewolves": 7}, {"savior": 5, "werewolves": 8}, {"werewolves": 5}]
    r = play(setup, {"nights": nights, "days": [{"eliminate": 1}, {"eliminate": 4}]})
    panel = panel_lines(during(r, "accursed_wolf_father.wake", "accursed_wolf_father.sleep"))
    assert "Before you sleep, tap seat 6 on the shoulder." in panel
    assert infected(r) == [6]
    assert r.game.is_pack(6) and 6 not in [e.seat for e in r.game.events if isinstance(e, ev.PlayerDied)]
    assert not [e for e in r.game.events if isinstance(e, ev.LifeLost)], "an infection costs no life"
