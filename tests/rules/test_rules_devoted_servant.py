"""The Devoted Servant plays the card she takes to the end, fresh, keeping her infection
(docs/rules-spec.md#role-devoted_servant): the Actor's card too, whose borrowed powers are then hers;
the Piper's card, infected, charms nobody. Only she may take, alive and not in love: any other
claim is refused, saying why."""

from __future__ import annotations

import pytest

from narrator.rules import Game, Role

from rules_kit import new_game, refused, votes
from tests.flow.flow_helpers import play

SEATS = "werewolf werewolf actor devoted_servant villager villager villager villager"


def servant_takes_the_actors_card() -> Game:
    """Night 1 the Actor (seat 3) takes card 1; Day 1 he is voted out and the Servant (seat 4) takes his card."""
    game = new_game(SEATS, captain_election="never")
    assert game.state.laid == (Role.SEER, Role.WITCH, Role.HUNTER)
    game.begin_night()
    game.use_power("actor", (1,))
    game.wolves_choose(8)
    game.dawn()
    game.open_vote()
    game.cast_votes(votes("1>3 2>3 5>3"))
    game.take_card(4)
    assert not game.is_alive(3) and game.role(4) is Role.ACTOR
    return game


def test_the_servant_who_took_the_actors_card_finds_every_card_on_the_table() -> None:
    game = servant_takes_the_actors_card()
    game.begin_night()
    game.use_power("actor", (1,))  # the Seer's card, which the dead Actor had used: fresh again
    assert game.living_holder(Role.SEER) == 4


def test_the_servant_who_took_the_actors_card_heals_with_the_witchs_card() -> None:
    game = servant_takes_the_actors_card()
    game.begin_night()
    game.use_power("actor", (2,))  # the Witch's card
    assert game.living_holder(Role.WITCH) == 4 and game.acts_as(4, Role.WITCH)
    game.wolves_choose(7)
    game.witch_act(True, None)
    game.dawn()
    assert game.is_alive(7)


def test_an_infected_servant_who_takes_the_pipers_card_charms_nobody() -> None:
    """Infected on Night 1, she takes the Piper's card on Day 1: with piper_infected=powerless (the
    default) an infected Piper's charms and win are gone, hers too; the charmed of Night 1 stay."""
    setup = {"players": 9, "roles": {1: "werewolf", 2: "accursed_wolf_father", 3: "pied_piper", 4: "devoted_servant"},
             "options": {"captain_election": "never"}}
    r = play(setup, {"nights": [{"werewolves": 4, "accursed_wolf_father": 1, "pied_piper": [5, 6]},
                                {"werewolves": 9, "pied_piper": [7, 8]}],
                     "days": [{"eliminate": 3, "window": 4}, {"eliminate": 1}, {"eliminate": 2}, {"eliminate": 4}]})
    assert r.game.role(4) is Role.PIED_PIPER and r.game.is_pack(4)
    assert r.game.state.lasting_choices["pied_piper"] == (5, 6)
    assert r.game.outcome is not None and r.game.outcome.winner.value == "village"


@pytest.mark.parametrize(("taker", "why"), [
    (5, "seat 5 is not the Devoted Servant"),
    (4, "a Devoted Servant in love cannot take a card"),
])
def test_a_claim_she_may_not_make_is_refused_saying_why(taker: int, why: str) -> None:
    game = new_game("werewolf werewolf hunter devoted_servant villager villager cupid villager", captain_election="never")
    game.begin_night()
    game.cupid_choose(4, 6)
    game.wolves_choose(8)
    game.dawn()
    game.open_vote()
    game.cast_votes(votes("1>3 2>3 5>3"))
    refused(game, "take_card", taker, match=rf"^seat {taker} cannot take seat 3's card: {why}$")
