"""The cards the Thief may take (docs/rules-spec.md#role-base): an extra card, 1 or 2, or his own
(0); with two Werewolf cards among the extra cards he must take one of them. A card always dealt to
a seat is never one of the extra cards."""

from __future__ import annotations

import random

import pytest

from narrator.roles import thief
from narrator.rules import CompositionError, Role, hooks

from rules_kit import new_game

TABLE = "werewolf werewolf seer thief villager villager villager villager"


def test_the_thief_may_keep_his_card_or_take_either_extra_card() -> None:
    game = new_game(TABLE, "villager villager")
    game.begin_night()
    assert hooks.POWERS["thief"].targets(game, 4) == (0, 1, 2)


def test_the_thief_facing_two_werewolf_cards_may_take_either_but_not_keep_his() -> None:
    game = new_game(TABLE, "werewolf werewolf", thief_extra_cards="from_deck")
    game.begin_night()
    assert hooks.POWERS["thief"].targets(game, 4) == (1, 2)


def test_the_silent_thief_facing_two_werewolf_cards_gets_either_one_drawn_and_shown_from_the_start() -> None:
    taken: set[Role] = set()
    for seed in range(8):
        game = new_game(TABLE, "werewolf big_bad_wolf", thief_extra_cards="from_deck")
        game.begin_night()
        call = thief.run(game, random.Random(seed))
        shown = dict(call.turn.panel([]))["thief.forced"]["seat"]
        cards = tuple(game.state.extra)
        assert call.finish is not None
        call.finish([])  # no answer before the deadline
        assert game.state.roles[3] is cards[shown - 1]  # the card his panel showed him
        taken.add(game.state.roles[3])
    assert taken == {Role.WEREWOLF, Role.BIG_BAD_WOLF}


def test_a_card_always_dealt_to_a_seat_left_in_the_centre_is_refused_naming_it() -> None:
    with pytest.raises(CompositionError, match=r"^extra cards \(two_sisters, two_sisters\): the two_sisters card is "
                                               r"always dealt to a seat, never left in the centre"):
        new_game(TABLE, "two_sisters two_sisters", thief_extra_cards="from_deck")
