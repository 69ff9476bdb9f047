"""The Elder's revenge said aloud only when the cause of his death is public
(docs/rules-spec.md#role-elder, docs/rules-spec.md#secrecy point 9), at the table."""

from __future__ import annotations

from typing import Any

from narrator.rules import events as ev

from tests.flow.flow_helpers import keys, play

SETUP: dict[str, Any] = {
    "players": 8,
    "roles": {1: "werewolf", 2: "werewolf", 3: "hunter", 4: "witch", 5: "elder"},
    "options": {"captain_election": "never"},
}


def test_a_poisoned_elder_is_not_announced_when_a_hunter_devoured_the_same_night_shoots_first() -> None:
    """The Hunter (seat 3) devoured and the Elder (seat 5) poisoned the same night: the Hunter's
    shot, resolved first, is a public death, but the Elder's own is not: his revenge strikes in
    silence, as for any night death, or the table learns he was poisoned and not devoured."""
    r = play(SETUP, {"nights": [{"werewolves": 3, "witch": {"heal": False, "poison": 5}}],
                     "days": [{"hunter": 7, "eliminate": 1}, {"eliminate": 2}]})
    deaths = [(e.seat, e.cause.value) for e in r.game.events if isinstance(e, ev.PlayerDied)]
    assert deaths[:3] == [(3, "wolves"), (5, "poison"), (7, "hunter")]
    assert any(isinstance(e, ev.PowersLost) for e in r.game.events), "the poisoned Elder took no revenge"
    assert "elder.revenge" not in keys(r)


def test_an_elder_shot_by_the_hunter_at_dawn_is_announced() -> None:
    """The same night with the Elder only devoured (a spare life lost) and the Hunter's shot at him:
    the shot is public, so the revenge is said."""
    r = play(SETUP, {"nights": [{"werewolves": 3}], "days": [{"hunter": 5, "eliminate": 1}, {"eliminate": 2}]})
    assert [(e.seat, e.cause.value) for e in r.game.events if isinstance(e, ev.PlayerDied)][:2] == [
        (3, "wolves"), (5, "hunter")]
    assert "elder.revenge" in keys(r)


def test_a_poisoned_elders_lover_the_hunter_shoots_and_the_revenge_stays_unsaid() -> None:
    """The poisoned Elder's Lover is the Hunter: he dies of grief after the Elder and shoots (a public
    death after the revenge): still nothing said of the revenge."""
    setup = {**SETUP, "roles": {**SETUP["roles"], 6: "cupid"}}
    r = play(setup, {"nights": [{"cupid": [3, 5], "werewolves": 8, "witch": {"heal": False, "poison": 5}}],
                     "days": [{"hunter": 7, "eliminate": 1}, {"eliminate": 2}]})
    deaths = [(e.seat, e.cause.value) for e in r.game.events if isinstance(e, ev.PlayerDied)]
    assert deaths[:4] == [(5, "poison"), (8, "wolves"), (3, "grief"), (7, "hunter")]
    assert "elder.revenge" not in keys(r)


def test_the_actor_holding_the_elders_card_voted_out_is_announced() -> None:
    """The seat that holds the Elder's power may be the Actor's (his card 1 tonight): voted out, his
    revenge is said like the Elder's."""
    setup = {"players": 8, "roles": {1: "werewolf", 2: "werewolf", 7: "seer", 8: "actor"},
             "options": {"captain_election": "never", "actor_cards": "elder,knight_rusty_sword,village_idiot"}}
    r = play(setup, {"nights": [{"actor": 1, "seer": 1, "werewolves": 3}],
                     "days": [{"eliminate": 8}, {"eliminate": 1}, {"eliminate": 2}]})
    assert any(isinstance(e, ev.PowersLost) for e in r.game.events)
    assert "elder.revenge" in keys(r)
