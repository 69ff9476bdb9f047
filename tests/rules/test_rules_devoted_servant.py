"""The Devoted Servant plays the card she takes to the end, fresh
(docs/rules-spec.md#role-devoted_servant): the Actor's card too, whose borrowed powers are then hers."""

from __future__ import annotations

from narrator.rules import Game, Role

from rules_kit import new_game, votes

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
