"""docs/rules-spec.md#end: the four outcomes, their options, and who wins with each."""

from __future__ import annotations

from narrator.rules import Game, Phase, Side
from rules_kit import block_vote, new_game, night

TABLE = "werewolf werewolf seer cupid villager villager villager villager"


def lynch(game: Game, seat: int) -> None:
    game.open_vote()
    block_vote(game, seat)


def test_rule_end_village_wins_when_no_werewolf_is_alive() -> None:
    game = new_game(TABLE, captain_election="never")
    night(game, wolves=8)
    lynch(game, 1)
    assert game.outcome is None
    game.begin_night()
    game.wolves_choose(7)
    game.dawn()
    lynch(game, 2)
    assert game.outcome is not None and game.outcome.winner is Side.VILLAGE
    # every villager wins, alive or dead
    assert game.outcome.winners == (3, 4, 5, 6, 7, 8)
    assert game.state.phase is Phase.OVER


def test_rule_end_werewolves_win_when_every_living_player_is_a_werewolf() -> None:
    game = new_game("werewolf werewolf seer villager", captain_election="never")
    night(game, wolves=4)
    assert game.outcome is None  # one non-Werewolf left: the game goes on by default
    lynch(game, 3)
    assert game.outcome is not None and game.outcome.winner is Side.WEREWOLVES
    assert game.outcome.winners == (1, 2)


def test_option_wolves_win_at_parity() -> None:
    game = new_game("werewolf werewolf seer villager", captain_election="never", wolves_win_at_parity=True)
    night(game, wolves=4)
    assert game.outcome is not None and game.outcome.winner is Side.WEREWOLVES


def test_option_wolves_win_at_parity_needs_at_most_one_non_werewolf() -> None:
    game = new_game("werewolf seer villager villager", captain_election="never", wolves_win_at_parity=True)
    night(game, wolves=4)
    assert game.outcome is None


def test_rule_end_mixed_lovers_win_alone_when_last_alive() -> None:
    game = new_game("werewolf werewolf cupid villager", captain_election="never")
    game.begin_night()
    game.cupid_choose(1, 4)
    game.wolves_choose(3)
    game.dawn()
    assert game.outcome is None  # a living mixed couple keeps the game going
    lynch(game, 2)
    assert game.outcome is not None and game.outcome.winner is Side.LOVERS
    assert game.outcome.winners == (1, 4)


def test_rule_end_mixed_lovers_are_not_counted_with_their_card_team() -> None:
    game = new_game("werewolf werewolf cupid villager villager", captain_election="never")
    game.begin_night()
    game.cupid_choose(1, 4)
    game.wolves_choose(5)
    game.dawn()
    lynch(game, 1)  # 4 dies of grief; 2 alive against 3
    assert game.outcome is None
    game.begin_night()
    game.wolves_choose(3)
    game.dawn()
    assert game.outcome is not None and game.outcome.winner is Side.WEREWOLVES
    assert game.outcome.winners == (2,)


def test_rule_end_lovers_of_the_same_team_win_with_their_team() -> None:
    game = new_game("werewolf werewolf cupid villager villager", captain_election="never")
    game.begin_night()
    game.cupid_choose(1, 2)
    game.wolves_choose(5)
    game.dawn()
    lynch(game, 3)
    assert game.outcome is None
    game.begin_night()
    game.wolves_choose(4)
    game.dawn()
    assert game.outcome is not None and game.outcome.winner is Side.WEREWOLVES
    assert game.outcome.winners == (1, 2)


def test_option_lovers_team_if_both_wolves() -> None:
    game = new_game("werewolf werewolf werewolf cupid villager", captain_election="never",
                    lovers_team_if_both_wolves=True)
    game.begin_night()
    game.cupid_choose(1, 2)
    game.wolves_choose(5)
    game.dawn()
    lynch(game, 4)
    assert game.outcome is None  # only Werewolves alive, but the wolf couple plays for itself
    lynch_next_day(game, 3)
    assert game.outcome is not None and game.outcome.winner is Side.LOVERS
    assert game.outcome.winners == (1, 2)


def lynch_next_day(game: Game, seat: int) -> None:
    game.begin_night()
    game.wolves_choose(None)
    game.dawn()
    lynch(game, seat)


def test_rule_end_nobody_wins_when_nobody_is_alive() -> None:
    game = new_game("werewolf witch cupid villager", captain_election="never")
    game.begin_night()
    game.cupid_choose(1, 2)
    game.wolves_choose(4)
    game.witch_act(False, None)
    game.dawn()
    game.open_vote()
    game.cast_votes({})
    game.begin_night()
    game.wolves_choose(3)
    game.witch_act(False, 1)  # the Witch poisons her own Lover and dies of grief
    game.dawn()
    assert game.living() == ()
    assert game.outcome is not None and game.outcome.winner is Side.NOBODY and game.outcome.winners == ()


def test_rule_end_is_checked_after_the_night() -> None:
    game = new_game("werewolf seer villager villager", captain_election="never")
    game.begin_night()
    game.seer_inspect(1)
    game.wolves_choose(3)
    game.dawn()
    assert game.outcome is None and game.check_outcome() is None
    lynch(game, 4)
    game.begin_night()
    game.wolves_choose(2)
    game.dawn()
    assert game.outcome is not None and game.outcome.winner is Side.WEREWOLVES


def test_option_wolves_win_at_parity_a_living_mixed_couple_still_keeps_the_game_going() -> None:
    # Interpretation kept from the engine: at parity the only non-Werewolf left is a Werewolf's
    # Lover; the couple plays for itself, so the Werewolves have not won yet.
    game = new_game("werewolf werewolf cupid villager", captain_election="never", wolves_win_at_parity=True)
    game.begin_night()
    game.cupid_choose(1, 4)
    game.wolves_choose(3)
    game.dawn()
    assert game.living() == (1, 2, 4) and game.outcome is None
