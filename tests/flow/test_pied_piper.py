"""The Pied Piper at the table: his call after the Witch, the charmed players' call, his panel
(the seats to tap: designation_notice), refusals and `-`, and his win at a quiet morning."""

from __future__ import annotations

from typing import Any

from narrator.headless import HeadlessResult
from narrator.rules import Side
from narrator.rules import events as ev

from flow_helpers import during, keys, panel_lines, play, said, typed

SETUP = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 8: "pied_piper"},
         "options": {"captain_election": "never"}}
SCRIPT = {"nights": [{"pied_piper": [5, 6], "werewolves": 7}, {"pied_piper": [1, 4], "werewolves": 6}],
          "days": [{"eliminate": 0}, {"eliminate": 2}, {"eliminate": 3}]}


def charms(r: HeadlessResult) -> list[tuple[int, ...]]:
    return [e.targets for e in r.game.events if isinstance(e, ev.PowerUsed) and e.call == "pied_piper"]


def test_piper_then_charmed_are_called_every_night_after_the_witch_before_the_raven() -> None:
    setup = {**SETUP, "roles": {**SETUP["roles"], 7: "raven"}}
    r = play(setup, {**SCRIPT, "nights": [{"pied_piper": [5, 6], "werewolves": 1}, {"werewolves": 6}]})
    night = keys(r, "night.")
    first = night[: night.index("night.falls", 1)]
    assert first[-8:] == ["witch.wake", "witch.sleep", "pied_piper.wake", "pied_piper.sleep",
                          "charmed.wake", "charmed.sleep", "raven.wake", "raven.sleep"]
    assert night.count("pied_piper.wake") == night.count("charmed.wake") == night.count("night.falls")


def test_charm_panel_echo_tap_and_the_charmed_see_each_other() -> None:
    r = play(SETUP, SCRIPT)
    assert charms(r)[:2] == [(5, 6), (1, 4)]
    notified = [e for e in r.game.events if isinstance(e, ev.Notified)]
    assert [(e.seats, e.reason) for e in notified][:1] == [((5, 6), "pied_piper")]
    panel = panel_lines(during(r, "pied_piper.wake", "pied_piper.sleep"))
    assert panel[0] == "Enter the seats of 2 players to charm, one after the other."
    assert "Charmed: seat 5." in panel and "Charmed: seat 6." in panel
    assert "Before you sleep, tap seat 5 on the shoulder." in panel
    assert "Before you sleep, tap seat 6 on the shoulder." in panel
    charmed = panel_lines(during(r, "charmed.wake", "charmed.sleep"))
    assert charmed[:3] == ["You are charmed by the Pied Piper.", "Charmed: seat 5.", "Charmed: seat 6."]
    # Nothing about the charm is said aloud.
    assert not any("charm" in t.lower() for t in said(r) if "Pied Piper" not in t and "harmed players" not in t)


def test_second_night_shows_who_is_charmed_already() -> None:
    r = play(SETUP, SCRIPT)
    wakes = [i for i, e in enumerate(r.timeline) if e.get("key") == "pied_piper.wake"]
    second = [e for e in r.timeline[wakes[1]:] if e["kind"] == "private"]
    lines = panel_lines(second[: next(i for i, e in enumerate(second) if e.get("action") == "clear")])
    assert "Already charmed: seat 5." in lines and "Already charmed: seat 6." in lines


def test_helper_touch_tells_the_helper() -> None:
    setup = {**SETUP, "options": {**SETUP["options"], "designation_notice": "helper_touch"}}
    r = play(setup, SCRIPT)
    panel = panel_lines(during(r, "pied_piper.wake", "pied_piper.sleep"))
    assert "Helper: touch seat 5 on the shoulder." in panel
    assert not any("tap seat" in line for line in panel)


def test_charmed_public_says_the_charmed_seats_each_morning() -> None:
    setup = {**SETUP, "options": {**SETUP["options"], "charmed_public": True}}
    r = play(setup, SCRIPT)
    lines = said(r)
    at = lines.index("The charmed players are:")
    assert lines[at + 1: at + 3] == ["Seat 5.", "Seat 6."]
    quiet = play(SETUP, SCRIPT)
    assert "The charmed players are:" not in said(quiet)


def test_dead_piper_is_still_called_and_the_charm_stays() -> None:
    r = play(SETUP, {**SCRIPT, "nights": [{"pied_piper": [5, 6], "werewolves": 8}, {"pied_piper": [1, 4], "werewolves": 6}]})
    assert charms(r) == [(5, 6)]
    night = keys(r, "night.")
    assert night.count("pied_piper.wake") == night.count("charmed.wake") == night.count("night.falls") >= 2


def scripted(setup: dict[str, Any], script: dict[str, Any], piper: list[Any]) -> HeadlessResult:
    """A game whose Piper types `piper` in turn on the first night (seats, or "no" for `-`), the rest as `script`."""
    return typed(setup, script, "pied_piper", 1, piper)


def test_refusals_and_taking_back_with_minus() -> None:
    # Himself (8) is refused, 5 is taken then taken back with `-`, then 6 and 7 are charmed.
    r = scripted(SETUP, {"nights": [{"werewolves": 1}, {"werewolves": 6}], "days": SCRIPT["days"]},
                 [8, 5, "no", 6, 7])
    assert charms(r)[0] == (6, 7)
    entries = during(r, "pied_piper.wake", "pied_piper.sleep")
    refused = [e for e in entries if e.get("action") == "feedback" and e.get("key") == "input.refused"]
    assert refused and "8" in refused[0]["text"]
    shown = [e["text"] for e in entries if e.get("action") == "show"]
    assert any("Charmed: seat 5." in t for t in shown)
    assert "Charmed: seat 5." not in shown[-1] and "Charmed: seat 7." in shown[-1]


def test_an_already_charmed_player_is_refused_and_a_timeout_keeps_what_was_chosen() -> None:
    # Night 1 only one seat is typed before the deadline: that one is charmed.
    r = scripted(SETUP, {"nights": [{"werewolves": 1}, {"pied_piper": [5, 6, 7], "werewolves": 6}],
                         "days": SCRIPT["days"]}, [5])
    assert charms(r)[:2] == [(5,), (6, 7)]


def test_piper_wins_at_a_quiet_morning() -> None:
    setup = {"players": 5, "roles": {1: "werewolf", 2: "pied_piper", 3: "witch"},
             "options": {"captain_election": "never"}}
    r = play(setup, {"nights": [{"pied_piper": [3, 4], "werewolves": 5, "witch": {"heal": True}},
                                {"pied_piper": [1, 5], "werewolves": 0}],
                     "days": [{"eliminate": 0}]})
    assert r.game.outcome is not None and r.game.outcome.winner is Side.PIED_PIPER
    assert r.game.outcome.winners == (2,)
    deaths = [e.deaths for e in r.game.events if isinstance(e, ev.DawnBroke)]
    assert deaths == [(), ()]
    assert "The game is over. Victory for the Pied Piper." in said(r)


def test_every_seat_the_piper_is_told_to_tap_is_charmed() -> None:
    """Whatever the hidden state, "tap seat N" on the Piper's panel is true: devoured the same
    night, his charms still hold; infected before his call (piper_infected=powerless) his panel
    tells him to tap nobody."""
    devoured = play(SETUP, {**SCRIPT, "nights": [{"pied_piper": [5, 6], "werewolves": 8}, {"werewolves": 7}]})
    panel = panel_lines(during(devoured, "pied_piper.wake", "pied_piper.sleep"))
    tapped = sorted({int(line.split("tap seat ")[1].split()[0]) for line in panel if "tap seat " in line})
    assert tapped == [5, 6] and charms(devoured)[0] == (5, 6) and not devoured.game.is_alive(8)
    setup = {**SETUP, "roles": {1: "seer", 2: "werewolf", 3: "accursed_wolf_father", 4: "witch", 8: "pied_piper"}}
    nights = [{"pied_piper": [5, 6], "werewolves": 8, "accursed_wolf_father": 1},
              *({"werewolves": seat} for seat in (7, 6, 5, 4, 1))]
    infected = play(setup, {"nights": nights, "days": [{"eliminate": 0}] * 5})
    assert infected.game.is_pack(8)
    panel = panel_lines(during(infected, "pied_piper.wake", "pied_piper.sleep"))
    assert not any("tap seat" in line for line in panel), panel
    assert not any(isinstance(e, ev.PowerUsed) and e.call == "pied_piper" and e.targets for e in infected.game.events)
