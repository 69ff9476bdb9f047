"""Small helpers for the rules tests: build a game from a line of role names, and drive it."""

from __future__ import annotations

from typing import Any

import pytest

from narrator.rules import Deal, Game, Options, Role, RulesError
from narrator.roles.actor import DEFAULT as ACTOR_CARDS

# Every option key of docs/rules.md#rule-options with all its values, the default first.
OPTION_VALUES: dict[str, tuple[Any, ...]] = {
    "seer_sees": ("role", "team"),
    "witch_sees_victim_after_heal": (False, True),
    "hunter_shoots_on": ("any_death", "wolves_or_vote"),
    "thief_extra_cards": ("villagers", "from_deck"),
    "captain_election": ("day1", "never", "night1_end"),
    "captain_powers": ("both", "double_vote_only", "tiebreak_only"),
    "lovers_team_if_both_wolves": (False, True),
    "first_night_kill": (True, False),
    "reveal_role_on_death": (True, False),
    "vote_procedure": ("plurality", "runoff", "accusation"),
    "wolves_win_at_parity": (False, True),
    "savior_same_target_twice": (False, True),
    "savior_protects_little_girl": (False, True),
    "savior_blocks": ("all_devouring", "pack_only"),
    "raven_mark_votes": (2, 1, 3, 4, 5),
    "raven_mark_needs_living_raven": (False, True),
    "idiot_captain_office": ("lost", "successor"),
    # The Pied Piper, the White Werewolf, telling a designated player.
    "piper_charms_per_night": (2, 1, 3, 4, 5),
    "piper_infected": ("powerless", "keeps_power"),
    "piper_elder_revenge": (False, True),
    "charmed_public": (False, True),
    "designation_notice": ("tap_by_chooser", "helper_touch"),
    "end_check": ("morning_and_vote", "dawn"),
    "two_player_end": (False, True),
    "possible_beyond_dealt": (0, 1, 2),
    "accusation_vote": ("open", "secret", "secret_with_phones"),
    "white_werewolf_nights": ("even", "odd"),
    "white_werewolf_kill_blockable": (True, False),
    "siblings_wake": ("every_other_night", "first_night_only", "every_night"),
    "fox_loses_power_on_miss": (True, False),
    "bear_growls_if_infected": (True, False),
    "knight_disease_victim": ("guilty", "nearest_pack_member"),
    "knight_disease_timing": ("next_dusk", "next_dawn"),
    "judge_second_votes": (1, 2, 3, 4, 5),
    "judge_request_survives_death": (True, False),
    "judge_signal": ("sign_during_vote", "night_arm"),
    "elder_lives": (2, 1, 3, 4, 5),
    "elder_revenge_causes": ("vote_poison_shot", "vote_only", "none"),
    "elder_revenge_announced": (True, False),
    "idiot_dies_with_elder": (True, False),
    "scapegoat_vs_captain": ("scapegoat_first", "captain_first"),
    "angel_opening": ("day_first", "night_first"),
    "angel_vote_tie": ("base", "random_among_tied"),
    "sectarian_groups": ("",),  # a seat map: drawn apart, as it must fit the table
    "sectarian_infected": ("powerless", "keeps_goal"),
    "witch_sees": ("all_devoured", "pack_victim_only"),
    "actor_cards": (",".join(ACTOR_CARDS), "savior,raven,hunter", "witch"),
    "actor_infected": ("powerless", "keeps_power"),
    "designation_notice": ("tap_by_chooser", "helper_touch"),
    "end_check": ("morning_and_vote", "dawn"),
    "two_player_end": (False, True),
    "possible_beyond_dealt": (0, 1, 2),
    "accusation_vote": ("open", "secret", "secret_with_phones"),
    "wild_child_transformation_public": (False, True),
    "wolf_hound_timeout": ("villager", "random"),
    "wolf_hound_choice_public": (False, True),
    "bbw_loses_power_on_wolf_death": (True, False),
    "servant_scope": ("vote_only", "any_death"),
}


def roles_of(text: str) -> tuple[Role, ...]:
    return tuple(Role.parse(word) for word in text.split())


def new_game(seats: str, extra: str = "", **options: Any) -> Game:
    """A game whose seat 1 holds the first role named, seat 2 the second, and so on."""
    return Game.start(Deal(roles_of(seats), roles_of(extra)), Options().with_values(options))


def refused(game: Game, action: Any, *args: Any, match: str | None = None) -> RulesError:
    """Call `game.action(*args)`, expect a refusal, and check the game did not change at all."""
    before = game.state.copy()
    events = len(game.events)
    with pytest.raises(RulesError, match=match) as info:
        getattr(game, action)(*args)
    assert game.state == before, f"{action}{args} was refused but changed the state"
    assert len(game.events) == events
    return info.value


def night(
    game: Game,
    seer: int | None = None,
    wolves: int | None = None,
    heal: bool = False,
    poison: int | None = None,
) -> None:
    """Play one night's Seer, Werewolves and Witch calls (each only if given / alive), then dawn."""
    game.begin_night()
    if seer is not None:
        game.seer_inspect(seer)
    if game.living_wolves():
        game.wolves_choose(wolves)
    if game.living_holder(Role.WITCH) is not None:
        game.witch_act(heal, poison)
    game.dawn()


def block_vote(game: Game, target: int | None) -> None:
    """Every voter of the open round votes for `target`."""
    game.cast_votes({voter: target for voter in game.state.ballot_voters})


def votes(text: str) -> dict[int, int | None]:
    """`"1>2 3>2 4>-"`: voter > target, `-` abstains."""
    result: dict[int, int | None] = {}
    for pair in text.split():
        voter, _, target = pair.partition(">")
        result[int(voter)] = None if target == "-" else int(target)
    return result
