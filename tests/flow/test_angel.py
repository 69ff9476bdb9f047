"""The Angel at the table: a Day 0 before the first night when he is possible, dealt or not; his
win said at once; no Day 0 without him or with angel_opening=night_first."""

from __future__ import annotations

from narrator.rules import Side
from narrator.rules import events as ev

from flow_helpers import keys, play, said

SETUP = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 8: "angel"},
         "options": {"captain_election": "never"}}


def test_day_zero_comes_before_the_first_night_and_its_vote_can_let_the_angel_win() -> None:
    r = play(SETUP, {"day_zero": {"eliminate": 8}, "nights": [{"werewolves": 4}]})
    k = keys(r)
    assert k.index("angel.day_zero") < k.index("debate.start") < k.index("vote.start")
    assert "night.falls" not in k  # the game stopped at once
    assert r.game.outcome is not None and r.game.outcome.winner is Side.ANGEL
    assert "Seat 8 was the Angel, and wins the game alone." in said(r)
    assert "The game is over. Victory for the Angel." in said(r)


def test_angel_devoured_on_night_one_wins_at_dawn() -> None:
    r = play(SETUP, {"day_zero": {"eliminate": 5}, "nights": [{"werewolves": 8, "seer": 2}]})
    first = [e for e in r.game.events if isinstance(e, (ev.DayBegan, ev.NightBegan))][:2]
    assert first == [ev.DayBegan(0), ev.NightBegan(1)]
    assert r.game.outcome is not None and r.game.outcome.winner is Side.ANGEL and r.game.outcome.winners == (8,)


def test_day_zero_when_the_angel_is_possible_but_not_dealt() -> None:
    setup = {**SETUP, "roles": {1: "seer", 2: "werewolf", 3: "werewolf"}, "possible": ["angel"]}
    r = play(setup, {"day_zero": {"eliminate": 4}, "nights": [{"werewolves": 5}],
                     "days": [{"eliminate": 2}, {"eliminate": 3}]})
    k = keys(r)
    assert k[: k.index("night.falls")].count("vote.start") == 1
    assert "angel.day_zero" in k


def test_no_day_zero_without_the_angel_or_with_night_first() -> None:
    plain = {**SETUP, "roles": {1: "seer", 2: "werewolf", 3: "werewolf"}}
    for setup in (plain, {**SETUP, "options": {"captain_election": "never", "angel_opening": "night_first"}}):
        r = play(setup, {"nights": [{"werewolves": 4}], "days": [{"eliminate": 2}, {"eliminate": 3}]})
        k = keys(r)
        assert k.index("night.falls") < k.index("debate.start")
        assert "angel.day_zero" not in k


def test_day_zero_line_comes_after_the_other_opening_lines() -> None:
    setup = {**SETUP, "roles": {**SETUP["roles"], 4: "actor", 5: "abominable_sectarian"}}
    r = play(setup, {"day_zero": {"eliminate": 6}, "nights": [{"werewolves": 7}], "days": [{"eliminate": 2}, {"eliminate": 3}]})
    k = keys(r)
    assert k.index("abominable_sectarian.groups") < k.index("actor.cards") < k.index("angel.day_zero") < k.index("debate.start")


def test_day_zero_elects_the_captain_first() -> None:
    setup = {**SETUP, "options": {"captain_election": "day1"}}
    r = play(setup, {"day_zero": {"captain": 4, "eliminate": 5}, "nights": [{"werewolves": 6}],
                     "days": [{"eliminate": 2}, {"eliminate": 3}]})
    k = keys(r)
    assert k.index("captain.election") < k.index("debate.start") < k.index("night.falls")
    assert k.count("captain.election") == 1


def test_day_zero_votes_clockwise_and_day_one_counter_clockwise() -> None:
    """The first vote of the game goes clockwise, Day 0 included; the next day the other way."""
    r = play(SETUP, {"day_zero": {"eliminate": 5}, "nights": [{"werewolves": 4, "seer": 2}, {"werewolves": 6}],
                     "days": [{"eliminate": 2}, {"eliminate": 3}]})
    orders = [line for line in said(r) if line.startswith("We vote")]
    assert orders[:3] == ["We vote clockwise, starting from seat 1.",
                          "We vote counter-clockwise, starting from seat 8.",
                          "We vote clockwise, starting from seat 1."], orders
