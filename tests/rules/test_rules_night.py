"""docs/rules-spec.md#role-base and #night: each night action, its order, and its refusals."""

from __future__ import annotations

import pytest

from narrator.rules import Game, Role, Team
from narrator.roles import witch
from rules_kit import block_vote, new_game, night, refused

# seat: 1 2 wolves, 3 seer, 4 witch, 5 hunter, 6 cupid, 7 little girl, 8 villager
TABLE = "werewolf werewolf seer witch hunter cupid little_girl villager"
THIEF_TABLE = "werewolf werewolf seer thief villager villager villager villager"


def thief_choosing(choice: int) -> Game:
    """The Thief's table with two Villagers set aside, once he has made `choice` (0 keeps his card)."""
    game = new_game(THIEF_TABLE, "villager villager")
    game.begin_night()
    game.thief_choose(choice)
    return game


def test_rule_thief_keeps_his_card() -> None:
    game = thief_choosing(0)
    assert game.role(4) is Role.THIEF
    assert game.state.extra == [Role.VILLAGER, Role.VILLAGER]


def test_rule_thief_swaps_for_an_extra_card() -> None:
    game = thief_choosing(2)
    assert game.role(4) is Role.VILLAGER
    assert game.state.extra == [Role.VILLAGER, Role.THIEF]


def test_rule_thief_must_take_a_werewolf_when_both_extra_cards_are_werewolves() -> None:
    game = new_game(THIEF_TABLE, "werewolf werewolf", thief_extra_cards="from_deck")
    game.begin_night()
    refused(game, "thief_choose", 0, match="must take one")
    game.thief_choose(1)
    assert game.role(4) is Role.WEREWOLF


def test_rule_thief_who_takes_a_werewolf_wakes_with_them_that_night() -> None:
    game = new_game(THIEF_TABLE, "werewolf villager", thief_extra_cards="from_deck")
    game.begin_night()
    game.thief_choose(1)
    assert game.living_wolves() == (1, 2, 4)
    assert 4 not in game.wolf_targets()
    refused(game, "wolves_choose", 4, match="Werewolf")


def test_rule_thief_card_must_be_0_1_or_2() -> None:
    game = new_game(THIEF_TABLE, "villager villager")
    game.begin_night()
    err = refused(game, "thief_choose", 3)
    assert "3" in str(err)


def test_rule_thief_and_cupid_act_on_the_first_night_only() -> None:
    game = new_game("werewolf werewolf seer thief cupid villager villager villager", "villager villager")
    night(game, seer=1, wolves=8)
    game.open_vote()
    block_vote(game, 7)
    game.begin_night()
    refused(game, "thief_choose", 0, match="first night")
    refused(game, "cupid_choose", 1, 2, match="first night")


def test_rule_night_order_thief_then_cupid_then_seer_then_wolves_then_witch() -> None:
    game = new_game("werewolf werewolf seer witch thief cupid villager villager", "villager villager")
    game.begin_night()
    game.cupid_choose(7, 8)
    refused(game, "thief_choose", 0, match="moved past")
    game.wolves_choose(7)
    refused(game, "seer_inspect", 1, match="moved past")
    game.witch_act(False, None)
    refused(game, "wolves_choose", 8, match="moved past")


def test_rule_cupid_designates_two_lovers_who_may_include_himself() -> None:
    game = new_game(TABLE)
    game.begin_night()
    game.cupid_choose(6, 1)
    assert game.state.lovers == (6, 1)


def test_rule_cupid_needs_two_different_players() -> None:
    game = new_game(TABLE)
    game.begin_night()
    refused(game, "cupid_choose", 3, 3, match="seat 3 twice")
    refused(game, "cupid_choose", 3, 9, match="seat 9")


def test_rule_seer_is_shown_the_role_card() -> None:
    game = new_game(TABLE)
    game.begin_night()
    assert game.seer_inspect(5) is Role.HUNTER


def test_option_seer_sees_team() -> None:
    game = new_game(TABLE, seer_sees="team")
    game.begin_night()
    assert game.seer_inspect(2) is Team.WOLVES
    game2 = new_game(TABLE, seer_sees="team")
    game2.begin_night()
    assert game2.seer_inspect(7) is Team.VILLAGE


def test_rule_seer_chooses_another_living_player() -> None:
    game = new_game(TABLE)
    night(game, wolves=8)
    game.open_vote()
    block_vote(game, 7)
    game.begin_night()
    assert 3 not in game.seer_targets() and 8 not in game.seer_targets() and 7 not in game.seer_targets()
    refused(game, "seer_inspect", 3, match="seat 3 is the Seer")
    refused(game, "seer_inspect", 8, match="seat 8 is dead")


def test_rule_werewolves_choose_one_victim() -> None:
    game = new_game(TABLE)
    game.begin_night()
    game.wolves_choose(5)
    assert game.state.victim == 5


def test_rule_werewolf_may_never_be_the_victim() -> None:
    game = new_game(TABLE)
    game.begin_night()
    assert 1 not in game.wolf_targets() and 2 not in game.wolf_targets()
    refused(game, "wolves_choose", 2, match="seat 2 is a Werewolf")


def test_rule_werewolves_choosing_a_dead_player_are_refused_naming_him() -> None:
    game = new_game(TABLE, captain_election="never")
    night(game, wolves=8)
    game.open_vote()
    game.cast_votes({})
    game.begin_night()
    refused(game, "wolves_choose", 8, match=r"^seat 8 is dead; the Werewolves can only choose a living player$")


def test_rule_werewolves_without_consensus_have_no_victim() -> None:
    game = new_game(TABLE)
    night(game, wolves=None)
    assert game.living() == tuple(range(1, 9))
    assert game.state.day == 1


def test_rule_little_girl_may_be_chosen_by_the_werewolves() -> None:
    game = new_game(TABLE)
    night(game, wolves=7)
    assert not game.is_alive(7)


def test_option_first_night_kill_false_wolves_only_recognise_each_other() -> None:
    game = new_game(TABLE, first_night_kill=False)
    game.begin_night()
    assert game.wolf_targets() == ()
    refused(game, "wolves_choose", 5, match="only recognise each other")
    game.wolves_choose(None)
    game.witch_act(False, None)
    game.dawn()
    game.open_captain_election()
    block_vote(game, 3)
    game.open_vote()
    block_vote(game, 8)
    game.begin_night()
    assert 5 in game.wolf_targets()
    game.wolves_choose(5)


def test_option_first_night_kill_true_by_default() -> None:
    game = new_game(TABLE)
    game.begin_night()
    assert game.wolf_targets() == (3, 4, 5, 6, 7, 8)


def test_rule_witch_heal_and_poison_same_night() -> None:
    game = new_game(TABLE)
    game.begin_night()
    game.wolves_choose(8)
    view = witch.view(game)
    assert view.victim == 8 and view.can_heal and view.can_poison
    game.witch_act(True, 1)
    game.dawn()
    assert game.is_alive(8) and not game.is_alive(1)
    assert not game.state.heal_left and not game.state.poison_left


def test_rule_witch_potions_are_used_once_per_game() -> None:
    game = new_game(TABLE)
    game.begin_night()
    game.wolves_choose(8)
    game.witch_act(True, 7)
    game.dawn()
    game.open_captain_election()
    block_vote(game, 3)
    game.open_vote()
    block_vote(game, 6)
    game.begin_night()
    game.wolves_choose(3)
    view = witch.view(game)
    assert not view.can_heal and not view.can_poison and view.targets == ()
    refused(game, "witch_act", True, None, match="already used her healing potion")
    refused(game, "witch_act", False, 1, match="poison seat 1: the Witch has already used her poison")


def test_rule_witch_heal_needs_a_victim() -> None:
    game = new_game(TABLE)
    game.begin_night()
    game.wolves_choose(None)
    assert not witch.view(game).can_heal
    refused(game, "witch_act", True, None, match="no victim")


def test_rule_witch_may_heal_herself() -> None:
    game = new_game(TABLE)
    game.begin_night()
    game.wolves_choose(4)
    assert witch.view(game).victim == 4
    game.witch_act(True, None)
    game.dawn()
    assert game.is_alive(4)


def test_rule_witch_may_poison_any_living_player() -> None:
    game = new_game(TABLE)
    game.begin_night()
    game.wolves_choose(8)
    assert witch.view(game).targets == tuple(range(1, 9))
    refused(game, "witch_act", False, 0, match="seat 0")


def test_option_witch_sees_victim_after_heal_false_by_default() -> None:
    game = _witch_after_heal()
    assert witch.view(game).victim is None


def test_option_witch_sees_victim_after_heal_true() -> None:
    game = _witch_after_heal(witch_sees_victim_after_heal=True)
    assert witch.view(game).victim == 5
    assert not witch.view(game).can_heal


def _witch_after_heal(**options: object) -> "object":
    game = new_game(TABLE, captain_election="never", **options)
    game.begin_night()
    game.wolves_choose(8)
    game.witch_act(True, None)
    game.dawn()
    game.open_vote()
    block_vote(game, 6)
    game.begin_night()
    game.wolves_choose(5)
    return game


def test_rule_dead_roles_do_not_act_at_night() -> None:
    game = new_game(TABLE, captain_election="never")
    game.begin_night()
    game.wolves_choose(3)
    game.witch_act(False, 4)  # the Witch poisons herself
    game.dawn()
    game.open_vote()
    block_vote(game, 6)
    game.begin_night()
    refused(game, "seer_inspect", 1, match=r"the Seer \(seat 3\) is dead")
    game.wolves_choose(8)
    refused(game, "witch_act", False, None, match=r"the Witch \(seat 4\) is dead")


def test_rule_roles_not_dealt_do_not_act() -> None:
    game = new_game("werewolf werewolf villager villager villager villager villager villager")
    game.begin_night()
    refused(game, "seer_inspect", 1, match="nobody holds the seer card")
    refused(game, "cupid_choose", 1, 2, match="nobody holds the cupid card")


def test_rule_no_night_action_by_day() -> None:
    game = new_game(TABLE)
    night(game, wolves=8)
    refused(game, "seer_inspect", 1, match="only at night")
    refused(game, "wolves_choose", 5, match="only at night")


def test_the_werewolves_answering_twice_are_refused_quoting_their_answer() -> None:
    game = new_game("werewolf werewolf seer villager villager villager villager villager")
    game.begin_night()
    game.seer_inspect(1)
    game.wolves_choose(5)
    refused(game, "wolves_choose", 6, match=r"^the Werewolves on seat 6: the Werewolves cannot act now")
    refused(game, "wolves_choose", None, match=r"^the Werewolves without a victim: the Werewolves cannot act now")


def test_a_power_of_a_card_nobody_holds_is_refused_quoting_the_answer() -> None:
    game = new_game("werewolf werewolf villager villager villager villager villager villager")
    game.begin_night()
    refused(game, "use_power", "fox", (3,), match=r"^the fox on 3: nobody holds the fox card, so the fox cannot act$")
