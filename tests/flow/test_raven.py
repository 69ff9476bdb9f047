"""The Raven at the table: the last call of the night, his mark said in the morning, its votes."""

from __future__ import annotations

from narrator.rules import events as ev

from flow_helpers import during, keys, panel_lines, play, said

SETUP = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 8: "raven"},
         "options": {"captain_election": "never"}}


def test_raven_is_the_last_call_of_every_night() -> None:
    r = play(SETUP, {"nights": [{"raven": 5, "werewolves": 6}], "days": [{"eliminate": 0}, {"eliminate": 2}, {"eliminate": 3}]})
    night = keys(r, "night.")
    first = night[: night.index("night.falls", 1)]
    assert first[-4:] == ["witch.wake", "witch.sleep", "raven.wake", "raven.sleep"]
    assert night.count("raven.wake") == night.count("night.falls")


def test_mark_is_said_in_the_morning_after_the_deaths_and_weighs_in_the_count() -> None:
    r = play(SETUP, {"nights": [{"raven": 5, "werewolves": 6}],
                     "days": [{"votes": {1: 7, 2: 7, 3: 5}}, {"eliminate": 2}, {"eliminate": 3}]})
    lines = said(r)
    mark = lines.index("The Raven has marked seat 5.")
    assert lines[mark + 1] == "At today's first count, 2 votes against them are added."
    assert any("Seat 6" in t for t in lines[:mark])  # the night's death comes first
    assert "Marked: seat 5." in panel_lines(during(r, "raven.wake", "raven.sleep"))
    counted = next(e for e in r.game.events if isinstance(e, ev.VotesCast))
    assert dict(counted.counts)[5] == 3 and dict(counted.counts)[7] == 2
    assert next(e for e in r.game.events if isinstance(e, ev.PlayerEliminated)).seat == 5


def test_no_mark_nothing_said() -> None:
    r = play(SETUP, {"nights": [{"raven": 0, "werewolves": 6}], "days": [{"eliminate": 2}, {"eliminate": 3}]})
    assert not any("Raven has marked" in t for t in said(r))
    assert "Marked: nobody." in panel_lines(during(r, "raven.wake", "raven.sleep"))
