"""The two-player game (docs/rules-spec.md#last-two, `two_player_end`): with two players left and
the game not over, a single vote, and at a dawn with no death the one who is not a Werewolf is
eliminated."""

from __future__ import annotations

from typing import Any

from narrator.rules import Side
from narrator.rules import events as ev

from flow_helpers import keys, play, said

# Seat 1 the Werewolf, seat 2 the Witch; seats 5, 4, 3 go in the first two days.
SETUP: dict[str, Any] = {"players": 5, "roles": {1: "werewolf", 2: "witch", 3: "seer"},
                         "options": {"captain_election": "never", "two_player_end": True}}
TO_TWO: dict[str, Any] = {"nights": [{"werewolves": 5}, {"werewolves": 3}],
                          "days": [{"eliminate": 4}, {"votes": {1: 2, 2: 1}}]}


def test_a_dawn_with_no_death_eliminates_the_one_who_is_not_a_werewolf() -> None:
    # Night 3: the pack devours the Witch, who heals herself: nobody died tonight.
    script = {**TO_TWO, "nights": [*TO_TWO["nights"], {"werewolves": 2, "witch": {"heal": True}}]}
    r = play(SETUP, script)
    lines = said(r)
    quiet = lines.index("Only two players are left, and nobody died tonight: seat 2 is eliminated.")
    assert lines[quiet - 1] == "Everyone wakes up. Nobody died tonight."
    assert lines[quiet + 1:quiet + 3] == ["Seat 2.", "Their card: Witch."]
    assert [e for e in r.game.events if isinstance(e, ev.PlayerDied)][-1] == ev.PlayerDied(2, ev.Cause.LAST_TWO,
                                                                                        ev.Role.WITCH)
    assert r.game.outcome is not None and r.game.outcome.winner is Side.WEREWOLVES
    # Day 2's single vote: a tie eliminates nobody, with no revote.
    day2 = keys(r)[keys(r).index("vote.start", keys(r).index("vote.start") + 1):]
    assert "vote.revote" not in day2 and "vote.none" in day2


def test_the_single_vote_burns_the_one_with_more_votes_whatever_the_procedure() -> None:
    # The Witch is Captain: her vote counts twice. With the accusation procedure two players
    # would accuse each other and nobody would be left to judge; the single vote burns the wolf.
    setup = {**SETUP, "options": {"captain_election": "day1", "two_player_end": True,
                                  "vote_procedure": "accusation"}}
    script = {"nights": [{"werewolves": 5}, {"werewolves": 3}],
              "days": [{"captain": 2, "votes": {1: 4, 2: 4, 3: 4, 4: 1}}, {"votes": {1: 2, 2: 1}}]}
    r = play(setup, script)
    day2 = keys(r)[keys(r).index("night.falls", keys(r).index("night.falls") + 1):]
    assert "vote.start" in day2 and "vote.accusation" not in day2
    assert "Seat 1 is eliminated." in said(r)
    assert r.game.outcome is not None and r.game.outcome.winner is Side.VILLAGE

