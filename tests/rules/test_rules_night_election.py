"""The Captain elected at the end of the first night's preparation (`captain_election=night1_end`,
docs/rules-spec.md#night-order row 10.5): once he is elected, the preparation calls before it are past."""

from __future__ import annotations

from rules_kit import new_game, refused, votes


def test_the_preparation_is_over_once_the_night_election_is_held() -> None:
    game = new_game("werewolf werewolf cupid seer villager villager villager villager", captain_election="night1_end")
    game.begin_night()
    assert game.captain_election_due()
    game.open_captain_election()
    game.cast_votes(votes("1>4 2>4 3>4"))
    assert game.state.captain == 4
    refused(game, "cupid_choose", 5, 6, match=r"^Lovers 5 and 6: Cupid cannot act now: the night has moved past that call$")
    game.seer_inspect(1)  # the night goes on after the election


def test_dawn_is_refused_while_the_night_election_waits_for_its_votes_saying_so() -> None:
    game = new_game("werewolf werewolf cupid seer villager villager villager villager", captain_election="night1_end")
    game.begin_night()
    game.open_captain_election()
    refused(game, "dawn", match=r"^dawn comes only at the end of a night; first the game waits for vote$")
