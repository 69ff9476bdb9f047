"""The Actor at the table: his three cards said before the first call and on the public board;
his call first of every night (after the Thief), its panel, echo and `-`; the card's own call wakes
him that night; the card used is said the next morning; dead or out of cards, the same lines."""

from __future__ import annotations

from narrator.roles import BOARD
from narrator.rules import events as ev

from flow_helpers import during, keys, panel_lines, play, said

SETUP = {"players": 8, "roles": {1: "werewolf", 2: "werewolf", 8: "actor"},
         "options": {"captain_election": "never"}}


def test_cards_are_laid_before_the_first_call_and_shown_on_the_board() -> None:
    r = play(SETUP, {"nights": [{"actor": 0, "werewolves": 3}], "days": [{"eliminate": 1}, {"eliminate": 2}]})
    k = keys(r)
    first = k.index("actor.cards")
    assert k[first: first + 4] == ["actor.cards", "actor.card", "actor.card", "actor.card"]
    assert first < k.index("night.falls")
    assert said(r)[first + 1: first + 4] == ["The Seer card.", "The Witch card.", "The Hunter card."]
    # All day on the board, each card says it is the Actor's (not bare "The Witch card." lines).
    assert [line for b in BOARD for line in b(r.game)] == [
        ("actor.on_table", {"role": "seer"}), ("actor.on_table", {"role": "witch"}), ("actor.on_table", {"role": "hunter"})]
    from narrator.packs import available_languages, load_pack
    from narrator.ports import Cue

    for lang in available_languages():
        pack = load_pack(lang)
        for key, slots in (line for b in BOARD for line in b(r.game)):
            text = pack.text(Cue(key, dict(slots)))  # as the boards render them
            assert pack.role_name("actor") in text and pack.role_name(str(slots["role"])) in text, (lang, text)


def test_actor_call_opens_every_night_its_panel_lists_the_cards_and_echoes_the_choice() -> None:
    r = play(SETUP, {"nights": [{"actor": 1, "seer": 2, "werewolves": 3}, {"actor": 0, "werewolves": 4}],
                     "days": [{"eliminate": 1}, {"eliminate": 2}]})
    night = keys(r, "night.")
    assert night[1:3] == ["actor.wake", "actor.sleep"]
    assert night.count("actor.wake") == night.count("night.falls")
    lines = panel_lines(during(r, "actor.wake", "actor.sleep"))
    assert lines[:4] == ["Enter a card's number, 0 for none.", "1 = Seer", "2 = Witch", "3 = Hunter"]
    assert "Tonight you are the Seer." in lines
    # Woken in the Seer's call, he sees seat 2's card.
    seer_panel = panel_lines(during(r, "seer.wake", "seer.sleep"))
    assert seer_panel and "Werewolf" in seer_panel[-1]
    assert any(isinstance(e, ev.SeerSaw) and e.seer == 8 and e.target == 2 for e in r.game.events)
    assert "The Actor has used the Seer card." in said(r)


def test_a_card_used_is_gone_the_next_night() -> None:
    r = play(SETUP, {"nights": [{"actor": 2, "werewolves": 3, "witch": {"heal": True}}, {"actor": [2, 3], "werewolves": 4}],
                     "days": [{"eliminate": 1}, {"eliminate": 2}]})
    used = [e for e in r.game.events if isinstance(e, ev.PowerUsed) and e.call == "actor"]
    assert [u.targets for u in used] == [(2,), (3,)]
    assert not any(isinstance(e, ev.PlayerDied) and e.seat == 3 for e in r.game.events)  # healed by the Actor-Witch


def test_dead_actor_is_still_called_with_the_same_lines() -> None:
    alive = play(SETUP, {"nights": [{"actor": 0, "werewolves": 3}, {"actor": 0, "werewolves": 4}],
                         "days": [{"eliminate": 5}, {"eliminate": 1}, {"eliminate": 2}]})
    dead = play(SETUP, {"nights": [{"actor": 0, "werewolves": 8}, {"actor": 0, "werewolves": 4}],
                        "days": [{"eliminate": 5}, {"eliminate": 1}, {"eliminate": 2}]})
    assert keys(alive, "night.")[:12] == keys(dead, "night.")[:12]
    assert keys(dead, "night.").count("actor.wake") == keys(dead, "night.").count("night.falls")


def test_the_actor_holding_the_idiots_card_is_pardoned_aloud() -> None:
    """Voted out while he holds the Village Idiot's card, the Actor is spared and the table hears
    the pardon as for the Idiot (the line follows the power held, not the dealt card)."""
    setup = {**SETUP, "options": {"captain_election": "never", "actor_cards": "village_idiot,elder,seer"}}
    r = play(setup, {"nights": [{"actor": 1, "werewolves": 3}, {"actor": 0, "werewolves": 4},
                                {"werewolves": 5}, {"werewolves": 6}, {"werewolves": 7}],
                     "days": [{"eliminate": 8}, {"eliminate": 8}, {"eliminate": 0}, {"eliminate": 0}]})
    assert any(isinstance(e, ev.PlayerSpared) and e.seat == 8 for e in r.game.events)
    assert "Seat 8 is the Village Idiot. The village spares them: they show their card and will vote no more." in said(r)
