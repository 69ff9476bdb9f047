"""Powers lost (docs/rules-spec.md#powers-lost): the Elder's revenge, and the cards that keep their power."""

from __future__ import annotations

import pytest

from narrator.rules import Role, events as ev
from narrator.rules import hooks
from narrator.roles import witch

from rules_kit import block_vote, new_game, night

SEATS = "werewolf werewolf seer witch elder villager villager villager"


def revenge(**options: object) -> ev.PowersLost:
    game = new_game(SEATS, captain_election="never", **options)
    night(game, seer=1, wolves=8)
    game.open_vote()
    block_vote(game, 5)
    return next(e for e in game.events if isinstance(e, ev.PowersLost))


def test_the_revenge_strikes_every_living_village_player() -> None:
    assert revenge().seats == (3, 4, 6, 7)


def test_a_card_that_keeps_its_power(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(hooks.KEEPS_POWER, Role.SEER, True)
    assert revenge().seats == (4, 6, 7)


def test_a_card_whose_option_takes_its_power(monkeypatch: pytest.MonkeyPatch) -> None:
    # As the Pied Piper declares keeps_power="piper_elder_revenge": struck only when the option is true.
    monkeypatch.setitem(hooks.KEEPS_POWER, Role.WEREWOLF, "wolves_win_at_parity")
    assert revenge().seats == (3, 4, 6, 7)
    assert revenge(wolves_win_at_parity=True).seats == (1, 2, 3, 4, 6, 7)


def test_powerless_seer_sees_nothing_and_witch_keeps_her_potions() -> None:
    game = new_game(SEATS, captain_election="never")
    night(game, seer=1, wolves=8)
    game.open_vote()
    block_vote(game, 5)
    game.begin_night()
    assert game.seer_inspect(2) is None
    game.wolves_choose(6)
    view = witch.view(game)
    assert view.victim is None and not view.can_heal and not view.can_poison
    game.witch_act(True, 1)
    game.dawn()
    assert not game.is_alive(6) and game.is_alive(1)
    assert game.state.heal_left and game.state.poison_left
