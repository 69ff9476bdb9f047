"""The Village Idiot at the table: the pardon said aloud, no vote asked of him afterwards."""

from __future__ import annotations

from narrator.rules import events as ev

from flow_helpers import play, said

SETUP = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 5: "village_idiot"},
         "options": {"captain_election": "never"}}


def test_pardon_is_said_and_he_is_not_asked_to_vote_again() -> None:
    r = play(SETUP, {"nights": [{"werewolves": 6}, {"werewolves": 7}],
                     "days": [{"eliminate": 5}, {"eliminate": 2}, {"eliminate": 3}]})
    lines = said(r)
    pardon = "Seat 5 is the Village Idiot. The village spares them: they show their card and will vote no more."
    assert pardon in lines
    assert any(isinstance(e, ev.PlayerSpared) and e.seat == 5 for e in r.game.events)
    after = lines[lines.index(pardon):]
    assert "Seat 5, your vote?" not in after
    assert r.game.is_alive(5) or any(isinstance(e, ev.PlayerDied) and e.seat == 5 and e.cause is not ev.Cause.VOTE
                                     for e in r.game.events)


def test_no_idiot_no_pardon_line() -> None:
    setup = {**SETUP, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch"}}
    r = play(setup, {"nights": [{"werewolves": 6}], "days": [{"eliminate": 5}, {"eliminate": 2}, {"eliminate": 3}]})
    assert not any("Village Idiot" in t for t in said(r))
    assert not any(isinstance(e, ev.PlayerSpared) for e in r.game.events)
