"""The Actor's three cards (docs/rules-spec.md#role-actor, `actor_cards`): any card of the narrator
but a Werewolf's, a Villager's or the Actor's, whether the default list names it or not; a card that
may not be his is refused at the start, naming it."""

from __future__ import annotations

import pytest

from narrator.rules import CompositionError, Role

from rules_kit import new_game

SEATS = "werewolf actor villager villager villager villager villager villager"


def test_a_card_outside_the_default_list_is_laid() -> None:
    assert new_game(SEATS, actor_cards="cupid,seer,witch").state.laid == (Role.CUPID, Role.SEER, Role.WITCH)


@pytest.mark.parametrize("card", ["werewolf", "villager"])
def test_a_card_that_may_not_be_his_is_refused_by_name(card: str) -> None:
    with pytest.raises(CompositionError, match=rf"^actor_cards: '{card}' cannot be one of the Actor's cards \(never a "
                                               r"Werewolf, a Villager or the Actor\)$"):
        new_game(SEATS, actor_cards=f"{card},seer,witch")
