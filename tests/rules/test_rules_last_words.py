"""The dead Hunter's shot and the dead Captain's successor (docs/rules-spec.md#dawn step 6 and 7,
docs/rules-spec.md#captain): a dead seat named is refused, saying who may only choose the living."""

from __future__ import annotations

from rules_kit import new_game, night, refused, votes

SEATS = "werewolf werewolf hunter seer villager villager villager villager"


def test_the_hunter_naming_a_dead_seat_is_refused() -> None:
    game = new_game(SEATS, captain_election="never")
    night(game, seer=1, wolves=8)
    game.open_vote()
    game.cast_votes(votes("1>3 2>3 4>3"))  # the Hunter is voted out
    refused(game, "hunter_shoot", 8, match=r"^seat 8 is dead; the Hunter can only choose a living player$")


def test_the_captain_naming_a_dead_successor_is_refused() -> None:
    game = new_game(SEATS)
    night(game, seer=1, wolves=8)
    game.open_captain_election()
    game.cast_votes(votes("1>5 2>5 3>5"))
    game.open_vote()
    game.cast_votes(votes("1>5 2>5 3>5"))  # the Captain is voted out
    refused(game, "name_successor", 8, match=r"^seat 8 is dead; the Captain can only choose a living player$")
