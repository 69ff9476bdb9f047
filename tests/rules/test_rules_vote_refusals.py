"""A vote the rules refuse says what was wrong, quoting it (docs/rules-spec.md#votes): the voter,
his target, and whom he may vote for; the game is left as it was."""

from __future__ import annotations

from narrator.rules import Game

from rules_kit import new_game, night, refused, votes

SEATS = "werewolf werewolf seer villager villager villager villager villager"


def day_one() -> Game:
    game = new_game(SEATS, captain_election="never")
    night(game, seer=1, wolves=8)  # seat 8 is dead
    game.open_vote()
    return game


def test_a_vote_for_a_dead_player_names_the_voter() -> None:
    refused(day_one(), "cast_votes", votes("1>8"), match=r"^seat 8 is dead; seat 1's vote can only choose a living player$")


def test_a_vote_outside_the_revote_names_the_tied_candidates() -> None:
    game = day_one()
    game.cast_votes(votes("1>3 2>3 3>4 4>4"))  # a tie, no Captain: the tied are voted on again
    assert game.state.candidates == (3, 4)
    refused(game, "cast_votes", votes("1>5"), match=r"^seat 1 voted for seat 5, who is not a candidate \(3, 4\)$")


def test_the_captains_choice_outside_the_tie_names_the_tied() -> None:
    game = new_game(SEATS)
    night(game, seer=1, wolves=8)
    game.open_captain_election()
    game.cast_votes(votes("1>7 2>7 3>7"))
    game.open_vote()
    game.cast_votes(votes("1>3 2>3 3>4 4>4"))  # a tie: the Captain (seat 7) chooses among the tied
    refused(game, "break_tie", 5, match=r"^seat 5 is not among the tied \(3, 4\)$")


def test_a_vote_by_a_voter_who_is_not_a_seat_names_him_and_the_seats() -> None:
    refused(day_one(), "cast_votes", votes("9>3"), match=r"^voter 9 is not a seat; seats are 1 to 8$")


def test_a_tie_break_when_there_is_no_tie_names_the_seat_offered() -> None:
    refused(day_one(), "break_tie", 3, match=r"^the Captain's tie-break seat 3 is not awaited now \(awaiting: vote\)$")
