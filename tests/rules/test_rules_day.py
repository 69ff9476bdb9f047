"""docs/rules-spec.md#captain and #day: the election, the three vote procedures, the Captain's powers."""

from __future__ import annotations

import random

import pytest

from narrator.rules import Awaiting, Ballot, Game, Phase, RulesError
from narrator.rules.events import CaptainElected, NobodyEliminated, PlayerEliminated, VoteOpened, VotesCast
from rules_kit import block_vote, new_game, night, refused, votes

TABLE = "werewolf werewolf seer villager villager villager villager villager"


def day_one(**options: object) -> Game:
    """Night 1 kills seat 8; it is day 1 with seats 1 to 7 alive."""
    game = new_game(TABLE, **options)
    night(game, seer=1, wolves=8)
    return game


def elect(game: Game, captain: int) -> None:
    game.open_captain_election()
    block_vote(game, captain)


def counted(game: Game) -> dict[int, int]:
    """The weighted count of the last round of votes, by candidate."""
    return dict(next(e for e in reversed(game.events) if isinstance(e, VotesCast)).counts)


def last(game: Game, kind: type) -> object:
    return next(e for e in reversed(game.events) if isinstance(e, kind))


# ---- Captain election -------------------------------------------------------------------


def test_rule_captain_elected_by_relative_majority() -> None:
    game = day_one()
    assert game.captain_election_due()
    game.open_captain_election()
    game.cast_votes(votes("1>2 2>2 3>4 4>4 5>6 6>2 7>-"))
    assert game.state.captain == 2 and last(game, CaptainElected) == CaptainElected(2, False)


def test_rule_captain_election_tie_revote_among_the_tied() -> None:
    game = day_one()
    game.open_captain_election()
    game.cast_votes(votes("1>2 2>2 3>4 4>4 5>6"))
    assert last(game, VoteOpened) == VoteOpened(Ballot.CAPTAIN_REVOTE, (2, 4), (1, 2, 3, 4, 5, 6, 7))
    refused(game, "cast_votes", votes("1>6"), match="not a candidate")
    game.cast_votes(votes("1>2 2>2 3>4 4>4 5>4"))
    assert game.state.captain == 4


def test_rule_captain_election_still_tied_random_draw_announced() -> None:
    game = day_one()
    game.open_captain_election()
    game.cast_votes(votes("1>2 2>2 3>4 4>4"))
    refused(game, "cast_votes", votes("1>2 2>2 3>4 4>4"), match="random draw")
    game.cast_votes(votes("1>2 2>2 3>4 4>4"), random.Random(5))
    elected = last(game, CaptainElected)
    assert isinstance(elected, CaptainElected) and elected.by_draw and elected.seat in (2, 4)
    assert elected.seat == random.Random(5).choice((2, 4))


def test_option_captain_election_day1_by_default_and_only_once() -> None:
    game = day_one()
    assert game.options.captain_election == "day1"
    elect(game, 3)
    assert not game.captain_election_due()
    refused(game, "open_captain_election", match="no Captain election is due")


def test_option_captain_election_never() -> None:
    game = day_one(captain_election="never")
    assert not game.captain_election_due()
    refused(game, "open_captain_election")


def test_option_captain_election_night1_end_after_preparation_before_the_seer() -> None:
    game = new_game("werewolf werewolf seer cupid villager villager villager villager", captain_election="night1_end")
    game.begin_night()
    game.cupid_choose(5, 6)
    assert game.captain_election_due()
    game.open_captain_election()
    block_vote(game, 5)
    assert game.state.captain == 5 and game.state.phase is Phase.NIGHT
    game.seer_inspect(1)
    game.wolves_choose(8)
    game.dawn()
    assert not game.captain_election_due()


def test_rule_captain_election_is_not_held_once_the_seer_has_acted() -> None:
    game = new_game(TABLE, captain_election="night1_end")
    game.begin_night()
    game.seer_inspect(1)
    assert not game.captain_election_due()


# ---- plurality -------------------------------------------------------------------------


def test_rule_vote_plurality_most_votes_is_eliminated() -> None:
    game = day_one(captain_election="never")
    game.open_vote()
    game.cast_votes(votes("1>4 2>4 3>1 4>1 5>1 6>- 7>-"))
    assert last(game, PlayerEliminated) == PlayerEliminated(1, False)
    assert not game.is_alive(1) and game.state.phase is Phase.DUSK


def test_rule_vote_plurality_tie_without_captain_revote_then_nobody() -> None:
    game = day_one(captain_election="never")
    game.open_vote()
    game.cast_votes(votes("1>4 2>4 3>1 4>1"))
    assert last(game, VoteOpened) == VoteOpened(Ballot.REVOTE, (1, 4), (1, 2, 3, 4, 5, 6, 7))
    game.cast_votes(votes("1>4 2>4 3>1 4>1"))
    assert last(game, NobodyEliminated) == NobodyEliminated("tie")
    assert game.living() == (1, 2, 3, 4, 5, 6, 7)


def test_rule_vote_plurality_tie_revote_can_eliminate() -> None:
    game = day_one(captain_election="never")
    game.open_vote()
    game.cast_votes(votes("1>4 2>4 3>1 4>1"))
    game.cast_votes(votes("1>4 2>4 3>1 4>4"))
    assert not game.is_alive(4)


def test_rule_vote_captain_counts_double() -> None:
    game = day_one()
    elect(game, 3)
    game.open_vote()
    game.cast_votes(votes("3>1 4>2"))
    assert counted(game)[1] == 2 and counted(game)[2] == 1
    assert not game.is_alive(1)


def test_rule_vote_captain_breaks_the_tie() -> None:
    game = day_one()
    elect(game, 3)
    game.open_vote()
    game.cast_votes(votes("1>4 2>4 3>1"))
    assert game.state.awaiting is Awaiting.TIEBREAK and game.state.candidates == (1, 4)
    refused(game, "break_tie", 2, match="seat 2 is not among the tied")
    game.break_tie(1)
    assert last(game, PlayerEliminated) == PlayerEliminated(1, True)


def test_rule_vote_captain_tiebreak_without_answer_goes_to_revote() -> None:
    game = day_one()
    elect(game, 3)
    game.open_vote()
    game.cast_votes(votes("1>4 2>4 3>1"))
    game.break_tie(None)
    assert last(game, VoteOpened) == VoteOpened(Ballot.REVOTE, (1, 4), (1, 2, 3, 4, 5, 6, 7))


def test_option_captain_powers_double_vote_only() -> None:
    game = day_one(captain_powers="double_vote_only")
    elect(game, 3)
    game.open_vote()
    game.cast_votes(votes("1>4 2>4 3>1"))
    assert counted(game)[1] == 2 and counted(game)[4] == 2
    assert game.state.awaiting is Awaiting.VOTE and game.state.ballot is Ballot.REVOTE


def test_option_captain_powers_tiebreak_only() -> None:
    game = day_one(captain_powers="tiebreak_only")
    elect(game, 3)
    game.open_vote()
    game.cast_votes(votes("1>4 3>1"))
    assert counted(game)[1] == 1 and counted(game)[4] == 1
    assert game.state.awaiting is Awaiting.TIEBREAK


def test_option_captain_powers_both_by_default() -> None:
    game = day_one()
    elect(game, 3)
    assert game.options.captain_powers == "both"
    game.open_vote()
    game.cast_votes(votes("1>4 2>4 3>1"))
    assert counted(game)[1] == 2 and counted(game)[4] == 2
    assert game.state.awaiting is Awaiting.TIEBREAK


def test_rule_vote_no_votes_nobody_eliminated() -> None:
    game = day_one()
    game.open_vote()
    game.cast_votes({})
    assert last(game, NobodyEliminated) == NobodyEliminated("no_votes")


def test_rule_vote_self_votes_are_allowed() -> None:
    game = day_one(captain_election="never")
    game.open_vote()
    game.cast_votes(votes("4>4 5>4"))
    assert not game.is_alive(4)


def test_rule_vote_one_vote_a_day() -> None:
    game = day_one(captain_election="never")
    game.open_vote()
    game.cast_votes(votes("4>5"))
    refused(game, "open_vote", match="one vote a day")


def test_rule_vote_dead_players_neither_vote_nor_are_voted_for() -> None:
    game = day_one(captain_election="never")
    game.open_vote()
    assert 8 not in game.state.ballot_voters and 8 not in game.state.candidates
    refused(game, "cast_votes", votes("8>1"), match="seat 8 is dead; the dead do not vote")
    refused(game, "cast_votes", votes("1>8"), match="seat 8 is dead")
    refused(game, "cast_votes", votes("1>9"), match="seat 9")
    refused(game, "cast_votes", votes("9>1"), match="voter 9")


# ---- runoff ----------------------------------------------------------------------------


def test_option_vote_procedure_runoff_second_round_between_the_top_two() -> None:
    game = day_one(vote_procedure="runoff", captain_election="never")
    game.open_vote()
    game.cast_votes(votes("1>4 2>4 3>4 4>5 5>5 6>6 7>-"))
    assert last(game, VoteOpened) == VoteOpened(Ballot.RUNOFF, (4, 5), (1, 2, 3, 4, 5, 6, 7))
    refused(game, "cast_votes", votes("1>6"), match="not a candidate")
    game.cast_votes(votes("1>5 2>5 3>4"))
    assert not game.is_alive(5) and game.is_alive(4)


def test_option_vote_procedure_runoff_ties_for_second_place_all_go_through() -> None:
    game = day_one(vote_procedure="runoff", captain_election="never")
    game.open_vote()
    game.cast_votes(votes("1>4 2>4 3>4 4>5 5>5 6>6 7>6"))
    assert last(game, VoteOpened) == VoteOpened(Ballot.RUNOFF, (4, 5, 6), (1, 2, 3, 4, 5, 6, 7))


def test_option_vote_procedure_runoff_tie_at_the_top_goes_to_round_two() -> None:
    game = day_one(vote_procedure="runoff")
    elect(game, 3)
    game.open_vote()
    game.cast_votes(votes("1>4 2>4 4>5 5>5"))
    assert game.state.ballot is Ballot.RUNOFF and game.state.candidates == (4, 5)


def test_option_vote_procedure_runoff_single_candidate_is_eliminated_directly() -> None:
    game = day_one(vote_procedure="runoff")
    game.open_vote()
    game.cast_votes(votes("1>4 2>4"))
    assert not game.is_alive(4)


# ---- accusation ------------------------------------------------------------------------


def test_option_vote_procedure_accusation_unanimous_is_eliminated_directly() -> None:
    game = day_one(vote_procedure="accusation")
    game.open_vote()
    assert game.state.ballot is Ballot.ACCUSATION
    game.cast_votes(votes("1>4 2>4 3>4 5>4 6>4 7>4 4>-"))
    assert not game.is_alive(4)


def test_option_vote_procedure_accusation_top_and_tied_second_are_accused() -> None:
    game = day_one(vote_procedure="accusation")
    game.open_vote()
    game.cast_votes(votes("1>4 2>4 3>4 4>5 5>6 6>7"))
    assert last(game, VoteOpened) == VoteOpened(Ballot.BALLOT, (4, 5, 6, 7), (1, 2, 3))


def test_option_vote_procedure_accusation_ballot_by_the_non_accused() -> None:
    game = day_one(vote_procedure="accusation")
    game.open_vote()
    game.cast_votes(votes("1>4 2>4 3>5 4>5 5>6"))
    assert last(game, VoteOpened) == VoteOpened(Ballot.BALLOT, (4, 5), (1, 2, 3, 6, 7))
    refused(game, "cast_votes", votes("4>5"), match="does not vote in this round")
    refused(game, "cast_votes", votes("1>6"), match="not a candidate")
    game.cast_votes(votes("1>5 2>5 3>4"))
    assert not game.is_alive(5)


def test_option_vote_procedure_accusation_ballot_tie_nobody_even_with_a_captain() -> None:
    game = day_one(vote_procedure="accusation")
    elect(game, 1)
    game.open_vote()
    game.cast_votes(votes("2>4 3>4 4>5 5>5"))
    game.cast_votes(votes("1>4 2>5 3>5"))
    assert last(game, NobodyEliminated) == NobodyEliminated("tie")


def test_option_vote_procedure_plurality_by_default() -> None:
    game = day_one()
    assert game.options.vote_procedure == "plurality"
    game.open_vote()
    assert game.state.ballot is Ballot.VOTE


def test_rule_votes_are_refused_when_no_vote_is_open() -> None:
    game = day_one()
    with pytest.raises(RulesError, match=r"votes \{1: 2\} is not awaited"):
        game.cast_votes(votes("1>2"))


def test_rule_lovers_may_vote_against_each_other_the_engine_never_enforces_it() -> None:
    game = new_game("werewolf werewolf seer cupid villager villager villager villager", captain_election="never")
    game.begin_night()
    game.cupid_choose(5, 6)
    game.wolves_choose(8)
    game.dawn()
    game.open_vote()
    game.cast_votes(votes("5>6 6>5 1>6"))
    assert not game.is_alive(6) and not game.is_alive(5)


def test_rule_roll_call_alternates_direction_every_day() -> None:
    game = day_one(captain_election="never")
    game.open_vote()
    assert game.roll_call() == (1, 2, 3, 4, 5, 6, 7)  # day 1: clockwise
    game.cast_votes(votes("1>7 2>7"))
    game.begin_night()
    game.seer_inspect(2)
    game.wolves_choose(6)
    game.dawn()
    assert game.roll_call() == (5, 4, 3, 2, 1)  # day 2: counter-clockwise
    game.open_vote()
    game.cast_votes(votes("1>5 2>5"))
    game.begin_night()
    game.wolves_choose(None)
    game.dawn()
    assert game.roll_call() == (1, 2, 3, 4)


def test_day_zeros_vote_is_a_first_vote_not_the_judges_second() -> None:
    """Day 0 (the Angel's) has a first vote: the Judge's sign is taken there and it is no second vote
    (second_vote_day once started at 0, so Day 0's vote looked like the second one)."""
    game = new_game("seer werewolf werewolf villager villager stuttering_judge villager angel", captain_election="never")
    assert game.day_zero_due()
    game.open_day_zero()
    game.open_vote()
    assert game.state.awaiting is Awaiting.VOTE
    assert game.first_vote_open()
    assert game.state.second_vote_day < game.state.day


@pytest.mark.parametrize("angel_opening", ["day_first", "night_first"])
def test_the_first_vote_of_the_game_goes_clockwise_then_alternates(angel_opening: str) -> None:
    """The game's first day votes clockwise, Day 0 included (an Angel's game opened counter-
    clockwise, then Day 1 went clockwise); the next day counter-clockwise (docs/rules.md)."""
    game = new_game("seer werewolf villager villager villager villager villager angel",
                    captain_election="day1", angel_opening=angel_opening)
    if angel_opening == "day_first":
        game.open_day_zero()
        assert game.state.day == 0
    else:
        game.begin_night()
        game.wolves_choose(7)
        game.dawn()
        assert game.state.day == 1
    first = tuple(game.living())
    assert game.captain_election_due()
    assert game.roll_call() == first  # the election: clockwise
    game.open_captain_election()
    assert game.roll_call() == first
    game.cast_votes({seat: 1 for seat in first})
    game.open_vote()
    assert game.roll_call() == first  # the elimination vote: clockwise
    game.cast_votes({1: 3, 2: 3})
    game.begin_night()
    game.wolves_choose(4)
    game.dawn()
    second = tuple(game.living())
    assert game.roll_call() == tuple(reversed(second))  # the next day: counter-clockwise
