"""The Elder at the table: a spare life lost in silence, the revenge said aloud, and the powerless
roles still called with the same lines at the same times, their panel saying the power is lost."""

from __future__ import annotations

from typing import Any

from narrator.rules import events as ev

from flow_helpers import during, keys, panel_lines, play, private, said

SETUP: dict[str, Any] = {
    "players": 8,
    "roles": {1: "werewolf", 2: "werewolf", 3: "seer", 4: "witch", 5: "elder", 6: "savior"},
    "options": {"captain_election": "never"},
}
REVENGE = "The Elder died at the villagers' hands. In their despair, the villagers lose their powers."  # worded to fit every cause of death


def test_a_spare_life_is_lost_in_silence() -> None:
    r = play(SETUP, {"nights": [{"werewolves": 5, "seer": 1, "savior": 7}], "days": [{"eliminate": 8}, {"eliminate": 1}, {"eliminate": 2}]})
    assert any(isinstance(e, ev.LifeLost) and e.seat == 5 for e in r.game.events)
    assert r.game.is_alive(5)
    morning = keys(r, "day.morning")
    assert "day.no_deaths" in morning and "day.deaths" not in morning


def test_the_revenge_is_said_and_the_seer_panel_says_her_power_is_lost() -> None:
    r = play(SETUP, {"nights": [{"werewolves": 8, "seer": 1, "savior": 7}, {"werewolves": 7, "seer": 2, "savior": 3,
                                                                             "witch": {"heal": True}}],
                     "days": [{"eliminate": 5}, {"eliminate": 1}, {"eliminate": 2}]})
    lines = said(r)
    assert REVENGE in lines
    shown = lines.index("Their card: Elder.")
    assert lines[shown - 1] == "Seat 5." and lines.index(REVENGE) > shown
    lost = next(e for e in r.game.events if isinstance(e, ev.PowersLost))
    assert set(lost.seats) == {3, 4, 6, 7}
    # Night 2: the Seer, the Savior and the Witch are called as before; their answers do nothing.
    seer_turns = [e for e in private(r) if e.get("key") == "power.none"]
    assert seer_turns, "no panel said the power was lost"
    assert not r.game.is_alive(7), "the powerless Witch's potion saved the victim"
    assert r.game.state.heal_left and r.game.state.poison_left
    ignored = {e.call for e in r.game.events if isinstance(e, ev.PowerIgnored)}
    assert {"seer", "savior", "witch"} <= ignored


def test_the_revenge_unannounced_is_silent() -> None:
    setup = {**SETUP, "options": {**SETUP["options"], "elder_revenge_announced": False}}
    r = play(setup, {"nights": [{"werewolves": 8, "seer": 1, "savior": 7}], "days": [{"eliminate": 5}, {"eliminate": 1}, {"eliminate": 2}]})
    assert REVENGE not in said(r)
    assert any(isinstance(e, ev.PowersLost) for e in r.game.events)


def test_the_powerless_seer_panel() -> None:
    r = play(SETUP, {"nights": [{"werewolves": 8, "seer": 1, "savior": 7}, {"werewolves": 7, "seer": 2, "savior": 3}],
                     "days": [{"eliminate": 5}, {"eliminate": 1}, {"eliminate": 2}]})
    seer_wakes = [i for i, e in enumerate(r.timeline) if e["kind"] == "say" and e["key"] == "seer.wake"]
    assert len(seer_wakes) >= 2
    second = r.timeline[seer_wakes[1]:]
    sleep = next(i for i, e in enumerate(second) if e["kind"] == "say" and e["key"] == "seer.sleep")
    shown = panel_lines([e for e in second[:sleep] if e["kind"] == "private"])
    assert "Your power is lost or spent: your answer changes nothing." in shown
    assert not any("Seat 2" in line and "Werewolf" in line for line in shown), "the powerless Seer saw a card"
    first = panel_lines(during(r, "seer.wake", "seer.sleep"))
    assert any("Seat 1" in line for line in first), "the powered Seer saw nothing"


def test_no_public_revenge_line_for_an_elder_killed_at_night() -> None:
    """The Elder poisoned at night (his cause of death is never said) brings his
    revenge in silence, even with `elder_revenge_announced` and `reveal_role_on_death=false`; the
    powerless learn it on their own panel (the Seer's next call). Voted out, it is still said."""
    setup = {**SETUP, "options": {**SETUP["options"], "reveal_role_on_death": False}}
    r = play(setup, {"nights": [{"werewolves": 8, "seer": 1, "savior": 7, "witch": {"heal": False, "poison": 5}},
                                {"werewolves": 7, "seer": 2, "savior": 3}],
                     "days": [{"eliminate": 1}, {"eliminate": 2}]})
    lost = [e for e in r.game.events if isinstance(e, ev.PowersLost)]
    assert lost and 3 in lost[0].seats, "the poisoned Elder took no revenge"
    assert REVENGE not in said(r)
    assert "elder.revenge" not in keys(r)
    seer = [i for i, e in enumerate(r.timeline) if e["kind"] == "say" and e["key"] == "seer.wake"]
    second = r.timeline[seer[1]:]
    sleep = next(i for i, e in enumerate(second) if e["kind"] == "say" and e["key"] == "seer.sleep")
    assert "Your power is lost or spent: your answer changes nothing." in panel_lines(
        [e for e in second[:sleep] if e["kind"] == "private"])
    voted = play(setup, {"nights": [{"werewolves": 8, "seer": 1, "savior": 7}],
                         "days": [{"eliminate": 5}, {"eliminate": 1}, {"eliminate": 2}]})
    assert REVENGE in said(voted)
