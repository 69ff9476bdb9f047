"""The Abominable Sectarian wins alone once every player of the other group is dead
(docs/rules-spec.md#role-abominable_sectarian): every seat of that group counts, the first one too."""

from __future__ import annotations

from narrator.rules import Side

from rules_kit import new_game, night

# Seat 1 is the only player of group B: the Sectarian (seat 2) wins once seat 1 is dead.
SEATS = "villager abominable_sectarian werewolf werewolf seer villager villager villager"


def test_the_sectarian_does_not_win_while_the_first_seat_of_the_other_group_lives() -> None:
    game = new_game(SEATS, sectarian_groups="BAAAAAAA", captain_election="never")
    assert game.check_outcome() is None


def test_the_sectarian_wins_once_the_other_group_is_dead() -> None:
    game = new_game(SEATS, sectarian_groups="BAAAAAAA", captain_election="never")
    night(game, seer=3, wolves=1)
    assert game.state.outcome is not None
    assert (game.state.outcome.winner, game.state.outcome.winners) == (Side.ABOMINABLE_SECTARIAN, (2,))
