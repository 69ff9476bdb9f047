"""The Savior at the table: his call before the Seer, his panel, the protected victim's morning."""

from __future__ import annotations

from narrator.rules import events as ev

from flow_helpers import during, keys, panel_lines, play, private

SETUP = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 5: "savior"},
         "options": {"captain_election": "never"}}
TWO_NIGHTS = {"nights": [{"savior": 6, "werewolves": 6}, {"savior": 7, "werewolves": 6}],
              "days": [{"eliminate": 0}, {"eliminate": 2}, {"eliminate": 3}]}


def night_deaths(r: object) -> list[tuple[int, ...]]:
    return [e.deaths for e in r.game.events if isinstance(e, ev.DawnBroke)]  # type: ignore[attr-defined]


def test_savior_is_called_every_night_before_the_seer() -> None:
    r = play(SETUP, TWO_NIGHTS)
    night = keys(r, "night.")
    first = night[: night.index("night.falls", 1)]
    assert first == ["night.falls", "savior.wake", "savior.sleep", "seer.wake", "seer.sleep",
                     "werewolves.wake_first", "werewolves.sleep", "witch.wake", "witch.sleep"]
    assert night.count("savior.wake") == night.count("night.falls")


def test_protected_victim_lives_the_unprotected_one_dies() -> None:
    r = play(SETUP, TWO_NIGHTS)
    assert night_deaths(r)[:2] == [(), (6,)]
    panel = panel_lines(during(r, "savior.wake", "savior.sleep"))
    assert panel[0] == "Enter the seat you protect tonight, yours allowed."
    assert "Protected: seat 6." in panel


def test_last_nights_player_is_refused_and_shown_on_his_panel_only() -> None:
    r = play(SETUP, {"nights": [{"savior": 6, "werewolves": 7}, {"savior": [6, 8], "werewolves": 6}],
                     "days": [{"eliminate": 0}, {"eliminate": 2}, {"eliminate": 3}]})
    lines = panel_lines(private(r))
    assert "Last night you protected seat 6: not them again tonight." in lines
    assert "Protected: seat 8." in lines and "Protected: seat 6." in lines
    assert night_deaths(r)[:2] == [(7,), (6,)]
    # Shown only inside his turns: between a savior.wake and its savior.sleep.
    wakes = [i for i, e in enumerate(r.timeline) if e.get("key") == "savior.wake"]
    sleeps = [i for i, e in enumerate(r.timeline) if e.get("key") == "savior.sleep"]
    shown = [i for i, e in enumerate(r.timeline) if "Last night you protected" in (e.get("text") or "")]
    assert shown and all(any(w < i < z for w, z in zip(wakes, sleeps)) for i in shown)


def test_dead_savior_is_still_called_and_protects_nobody() -> None:
    r = play(SETUP, {"nights": [{"werewolves": 5}, {"savior": 6, "werewolves": 6}],
                     "days": [{"eliminate": 0}, {"eliminate": 2}, {"eliminate": 3}]})
    assert night_deaths(r)[:2] == [(5,), (6,)]
    night = keys(r, "night.")
    assert night.count("savior.wake") == night.count("night.falls")
