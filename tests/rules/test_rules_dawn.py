"""docs/rules-spec.md#dawn: night deaths, chain reactions, the Captain's successor."""

from __future__ import annotations

from narrator.rules import Awaiting, Cause, Game, Phase
from narrator.rules.events import CaptainSucceeded, DawnBroke, PlayerDied
from narrator.roles import witch
from rules_kit import block_vote, new_game, night, refused

TABLE = "werewolf werewolf seer witch hunter cupid villager villager villager"


def deaths(game: Game, since: int = 0) -> list[tuple[int, Cause]]:
    return [(e.seat, e.cause) for e in game.events[since:] if isinstance(e, PlayerDied)]


def test_rule_night_deaths_are_the_victim_and_the_poisoned_in_seat_order() -> None:
    game = new_game(TABLE)
    game.begin_night()
    game.wolves_choose(9)
    game.witch_act(False, 3)
    game.dawn()
    dawn = next(e for e in game.events if isinstance(e, DawnBroke))
    assert dawn.deaths == (3, 9)
    assert deaths(game) == [(3, Cause.POISON), (9, Cause.WOLVES)]


def test_rule_a_player_killed_at_night_counts_as_alive_until_dawn_and_can_be_healed() -> None:
    game = new_game(TABLE)
    game.begin_night()
    game.wolves_choose(7)
    assert game.is_alive(7) and 7 in witch.view(game).targets
    game.witch_act(True, None)
    game.dawn()
    assert game.is_alive(7) and deaths(game) == []


def test_rule_a_player_both_healed_and_poisoned_dies() -> None:
    game = new_game(TABLE)
    game.begin_night()
    game.wolves_choose(7)
    game.witch_act(True, 7)
    game.dawn()
    assert deaths(game) == [(7, Cause.POISON)]


def test_rule_chain_grief_the_lover_dies_too() -> None:
    game = new_game(TABLE)
    game.begin_night()
    game.cupid_choose(7, 8)
    game.wolves_choose(8)
    game.witch_act(False, None)
    game.dawn()
    assert deaths(game) == [(8, Cause.WOLVES), (7, Cause.GRIEF)]
    assert game.state.phase is Phase.DAY


def test_rule_chain_hunter_shoots_a_living_player_who_dies() -> None:
    game = new_game(TABLE)
    night(game, wolves=5)
    assert game.state.awaiting is Awaiting.HUNTER
    assert game.hunter_targets() == (1, 2, 3, 4, 6, 7, 8, 9)
    refused(game, "hunter_shoot", 5, match="seat 5 is dead")
    refused(game, "open_captain_election")
    game.hunter_shoot(1)
    assert deaths(game) == [(5, Cause.WOLVES), (1, Cause.HUNTER)]
    assert game.state.phase is Phase.DAY


def test_rule_chain_hunter_without_answer_does_not_shoot() -> None:
    game = new_game(TABLE)
    night(game, wolves=5)
    game.hunter_shoot(None)
    assert deaths(game) == [(5, Cause.WOLVES)]
    assert game.state.phase is Phase.DAY


def test_rule_chain_order_grief_before_the_hunters_shot() -> None:
    game = new_game(TABLE)
    game.begin_night()
    game.cupid_choose(5, 7)
    game.wolves_choose(5)
    game.witch_act(False, None)
    game.dawn()
    # The Hunter's Lover is already dead when he is called to shoot.
    assert deaths(game) == [(5, Cause.WOLVES), (7, Cause.GRIEF)]
    assert 7 not in game.hunter_targets()
    game.hunter_shoot(8)
    assert deaths(game)[-1] == (8, Cause.HUNTER)


def test_rule_chain_each_new_death_has_its_own_reactions() -> None:
    game = new_game(TABLE)
    game.begin_night()
    game.cupid_choose(8, 9)
    game.wolves_choose(5)
    game.witch_act(False, None)
    game.dawn()
    game.hunter_shoot(8)
    assert deaths(game) == [(5, Cause.WOLVES), (8, Cause.HUNTER), (9, Cause.GRIEF)]


def test_rule_chain_queue_processes_night_deaths_in_order() -> None:
    # Seat 3 (poisoned) and seat 5 (the Hunter, devoured) die; 3's Lover (9) dies of grief
    # before the Hunter is called, because 3 comes first in the queue.
    game = new_game(TABLE)
    game.begin_night()
    game.cupid_choose(3, 9)
    game.wolves_choose(5)
    game.witch_act(False, 3)
    game.dawn()
    assert deaths(game) == [(3, Cause.POISON), (5, Cause.WOLVES), (9, Cause.GRIEF)]
    assert game.state.awaiting is Awaiting.HUNTER


def test_option_hunter_shoots_on_any_death_by_default() -> None:
    game = new_game(TABLE)
    game.begin_night()
    game.wolves_choose(7)
    game.witch_act(False, 5)
    game.dawn()
    assert game.state.awaiting is Awaiting.HUNTER


def test_option_hunter_shoots_on_wolves_or_vote() -> None:
    poisoned = new_game(TABLE, hunter_shoots_on="wolves_or_vote")
    poisoned.begin_night()
    poisoned.wolves_choose(7)
    poisoned.witch_act(False, 5)
    poisoned.dawn()
    assert poisoned.state.awaiting is Awaiting.NOTHING and poisoned.state.phase is Phase.DAY

    devoured = new_game(TABLE, hunter_shoots_on="wolves_or_vote")
    night(devoured, wolves=5)
    assert devoured.state.awaiting is Awaiting.HUNTER

    lynched = new_game(TABLE, hunter_shoots_on="wolves_or_vote", captain_election="never")
    night(lynched, wolves=9)
    lynched.open_vote()
    block_vote(lynched, 5)
    assert lynched.state.awaiting is Awaiting.HUNTER


def _with_captain(captain: int, **options: object) -> Game:
    game = new_game(TABLE, **options)
    night(game, wolves=None)
    game.open_captain_election()
    block_vote(game, captain)
    assert game.state.captain == captain
    return game


def test_rule_captain_names_a_living_successor_after_the_chain() -> None:
    game = _with_captain(7)
    game.open_vote()
    block_vote(game, 5)  # the Hunter is lynched and shoots the Captain
    game.hunter_shoot(7)
    assert game.state.awaiting is Awaiting.SUCCESSOR
    refused(game, "name_successor", 5, match="seat 5 is dead")
    game.name_successor(3)
    assert game.state.captain == 3
    assert [e for e in game.events if isinstance(e, CaptainSucceeded)] == [CaptainSucceeded(7, 3)]
    assert game.state.phase is Phase.DUSK


def test_rule_captain_without_answer_leaves_the_office_vacant_and_it_is_elected_again() -> None:
    game = _with_captain(7, captain_election="day1")
    game.open_vote()
    block_vote(game, 7)
    game.name_successor(None)
    assert game.state.captain is None
    game.begin_night()
    game.wolves_choose(None)
    game.witch_act(False, None)
    game.dawn()
    assert game.captain_election_due()
    game.open_captain_election()
    block_vote(game, 4)
    assert game.state.captain == 4


def test_option_reveal_role_on_death_carried_and_roles_recorded_in_every_death() -> None:
    for reveal in (True, False):
        game = new_game(TABLE, reveal_role_on_death=reveal)
        night(game, wolves=6)
        assert game.options.reveal_role_on_death is reveal
        died = [e for e in game.events if isinstance(e, PlayerDied)]
        assert [(e.seat, e.role.value) for e in died] == [(6, "cupid")]
