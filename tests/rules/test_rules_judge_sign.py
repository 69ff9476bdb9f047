"""The Stuttering Judge's sign (docs/rules-spec.md#role-stuttering_judge) taken only from a voter of
the day's first vote, and his night arming (`judge_signal=night_arm`) only on his own seat or nobody;
any other is refused, quoting what was given."""

from __future__ import annotations

from rules_kit import new_game, night, refused

SEATS = "werewolf werewolf stuttering_judge villager villager villager villager villager"


def test_a_sign_outside_the_first_vote_is_refused() -> None:
    game = new_game(SEATS, captain_election="never")
    game.begin_night()
    refused(game, "signal_second_vote", 3, match=r"^seat 3's sign: a sign is taken only during the day's first vote$")


def test_a_sign_from_a_seat_that_does_not_vote_is_refused() -> None:
    game = new_game(SEATS, captain_election="never")
    night(game, wolves=8)
    game.open_vote()
    refused(game, "signal_second_vote", 8, match=r"^seat 8 does not vote in this round, so gives no sign$")


def test_arming_a_second_vote_on_another_seat_is_refused_saying_what_he_may_answer() -> None:
    game = new_game(SEATS, judge_signal="night_arm")
    game.begin_night()
    refused(game, "use_power", "stuttering_judge_arm", (5,),
            match=r"^the stuttering judge on 5: the Judge arms a second vote \(his own seat\) or not \(nobody\)$")


def test_a_sign_during_the_captains_election_is_refused() -> None:
    game = new_game(SEATS)
    night(game, wolves=8)
    game.open_captain_election()
    refused(game, "signal_second_vote", 3, match=r"^seat 3's sign: a sign is taken only during the day's first vote$")
