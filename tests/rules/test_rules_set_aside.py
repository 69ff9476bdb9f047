"""Possible roles beyond the dealt ones (docs/rules-spec.md#set-aside): which chosen cards may be
set aside unseen, each replaced by a Villager."""

from __future__ import annotations

import random

from narrator.rules import Role
from narrator.rules.composition import set_aside


def test_only_single_cards_outside_the_pack_and_not_shown_are_set_aside_each_for_a_villager() -> None:
    deck = {Role.WEREWOLF: 2, Role.BIG_BAD_WOLF: 1, Role.SEER: 1, Role.WITCH: 1, Role.TWO_SISTERS: 2,
            Role.VILLAGER_VILLAGER: 1, Role.VILLAGER: 4}
    seen: set[Role] = set()
    for seed in range(40):
        dealt = set_aside(deck, 2, random.Random(seed))
        gone = {r for r in deck if r not in dealt}
        assert len(gone) == 2 and sum(dealt.values()) == sum(deck.values())
        assert dealt[Role.VILLAGER] == 6 and dealt[Role.WEREWOLF] == 2 and dealt[Role.BIG_BAD_WOLF] == 1
        seen |= gone
    assert seen == {Role.SEER, Role.WITCH}  # never the pack's, the Sisters, the Villager-Villager


def test_fewer_cards_set_aside_when_fewer_may_be() -> None:
    deck = {Role.WEREWOLF: 2, Role.SEER: 1, Role.VILLAGER: 5}
    assert set_aside(deck, 2, random.Random(1)) == {Role.WEREWOLF: 2, Role.VILLAGER: 6}
    assert set_aside(deck, 0, random.Random(1)) == deck
