"""The dead Scapegoat's list of tomorrow's voters (docs/rules-spec.md#role-scapegoat): given when it
is not asked for, it is refused, quoting the list as it was given."""

from __future__ import annotations

import pytest

from rules_kit import new_game, night, refused, votes


@pytest.mark.parametrize(("seats", "quoted"), [((2, 5), "2 5"), ((), "nobody"), (None, "no answer")])
def test_a_list_given_when_none_is_asked_for_is_quoted(seats: tuple[int, ...] | None, quoted: str) -> None:
    game = new_game("werewolf werewolf scapegoat villager villager villager villager villager", captain_election="never")
    night(game, wolves=8)
    refused(game, "designate_voters", seats,
            match=rf"^the Scapegoat's voters \({quoted}\) is not awaited now \(awaiting: nothing\)$")


def test_a_dead_player_on_the_list_is_refused() -> None:
    game = new_game("werewolf werewolf scapegoat villager villager villager villager villager", captain_election="never")
    night(game, wolves=8)
    game.open_vote()
    game.cast_votes(votes("1>4 2>4 4>5 5>5"))  # a tie: the Scapegoat is eliminated instead, and names tomorrow's voters
    assert game.state.awaiting.value == "voters"
    refused(game, "designate_voters", (4, 8), match=r"^seat 8 is dead; the Scapegoat can only choose a living player$")
