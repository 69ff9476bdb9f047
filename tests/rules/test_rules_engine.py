"""The engine's contract: options, refusals that change nothing and quote the input, replay."""

from __future__ import annotations

import random

import pytest

from narrator.rules import (
    Deal,
    Event,
    Game,
    OptionError,
    Options,
    Role,
    RulesError,
    UnknownRoleError,
    complete,
    deal,
    parse_roles,
)
from narrator.rules.events import GameStarted
from narrator.sim.policies import RandomVotesPolicy, play_day, play_night
from rules_kit import OPTION_VALUES, new_game, night, refused

TABLE = "werewolf werewolf seer witch hunter cupid villager villager"



def test_every_option_of_rules_md_is_known_with_its_default_first() -> None:
    defaults = Options().to_dict()
    assert set(defaults) == set(OPTION_VALUES)
    for key, values in OPTION_VALUES.items():
        assert defaults[key] == values[0], key


@pytest.mark.parametrize("key", sorted(OPTION_VALUES))
def test_option_parses_from_text_and_is_carried_by_the_game(key: str) -> None:
    for value in OPTION_VALUES[key]:
        text = str(value).lower()
        options = Options.parse([f"{key}={text}"])
        assert getattr(options, key) == value
        game = Game.start(deal(8, complete(8, parse_roles("werewolf=2,seer,thief"), options), random.Random(1), options),
                          options)
        started = game.events[0]
        assert isinstance(started, GameStarted) and getattr(started.options, key) == value
        assert getattr(Game.replay(game.events).options, key) == value


@pytest.mark.parametrize("key", sorted(OPTION_VALUES))
def test_option_bad_value_is_refused_quoting_it(key: str) -> None:
    with pytest.raises(OptionError, match=f"{key}.*'sometimes'"):
        Options.parse([f"{key}=sometimes"])


def test_option_unknown_key_is_refused_quoting_it() -> None:
    with pytest.raises(OptionError, match="unknown option 'witch_sees_all'"):
        Options.parse(["witch_sees_all=true"])
    with pytest.raises(OptionError, match="'vote_procedure'"):
        Options.parse(["vote_procedure"])


def test_option_booleans_accept_the_usual_words_and_dashes() -> None:
    assert Options.parse(["first-night-kill=no"]).first_night_kill is False
    assert Options.parse(["wolves_win_at_parity=Yes"]).wolves_win_at_parity is True


def test_rule_role_names_are_read_as_users_type_them() -> None:
    assert Role.parse("Little Girl") is Role.LITTLE_GIRL and Role.parse("wolves") is Role.WEREWOLF
    with pytest.raises(UnknownRoleError, match="'witcher'"):
        Role.parse("witcher")


# ---- a refused action changes nothing and quotes its input ------------------------------


def test_rule_refused_actions_leave_the_state_unchanged_and_quote_the_input() -> None:
    game = new_game(TABLE)
    assert "seat 12" in str(refused(game, "seer_inspect", 12))  # not night yet
    game.begin_night()
    assert "'x'" in str(refused(game, "cupid_choose", "x", 2))
    assert "seat 9" in str(refused(game, "cupid_choose", 1, 9))
    assert "seat 0" in str(refused(game, "seer_inspect", 0))
    assert "seat 1" in str(refused(game, "wolves_choose", 1))
    assert "seat 3" in str(refused(game, "seer_inspect", 3))
    game.wolves_choose(7)
    assert "seat 10" in str(refused(game, "witch_act", False, 10))
    game.witch_act(False, 8)
    game.dawn()
    assert "seat 8" in str(refused(game, "hunter_shoot", 8))
    game.open_captain_election()
    err = refused(game, "cast_votes", {1: 7})
    assert "seat 7" in str(err)
    err = refused(game, "cast_votes", {7: 1})
    assert "seat 7" in str(err)
    err = refused(game, "cast_votes", {1: 9})
    assert "seat 9" in str(err)


def test_rule_seat_must_be_a_whole_number_in_range() -> None:
    game = new_game(TABLE)
    for bad in (0, 9, -1, True, 2.0, "3", None):
        with pytest.raises(RulesError, match=repr(bad).replace("(", r"\(").replace(".", r"\.")):
            game.role(bad)  # type: ignore[arg-type]


def test_rule_actions_after_the_end_are_refused() -> None:
    game = new_game("werewolf seer villager villager", captain_election="never")
    night(game, wolves=3)
    game.open_vote()
    game.cast_votes({2: 1, 4: 1})
    assert game.outcome is not None
    for action, args in [("begin_night", ()), ("open_vote", ()), ("cast_votes", ({2: 1},)), ("dawn", ()),
                         ("hunter_shoot", (2,)), ("name_successor", (2,)), ("break_tie", (2,))]:
        refused(game, action, *args)


# ---- replay -----------------------------------------------------------------------------


def _random_game(seed: int, spec: str, *options: str) -> Game:
    opts = Options.parse(list(options))
    rng = random.Random(seed)
    game = Game.start(deal(12, complete(12, parse_roles(spec), opts), rng, opts), opts)
    policy = RandomVotesPolicy()
    while game.outcome is None:
        play_night(game, rng, policy)
        if game.outcome is None:
            play_day(game, rng, policy)
    return game


@pytest.mark.parametrize("seed", range(6))
def test_rule_replay_rebuilds_an_equal_state(seed: int) -> None:
    options = [[], ["vote_procedure=runoff"], ["vote_procedure=accusation", "captain_election=night1_end"],
               ["thief_extra_cards=from_deck"], ["captain_powers=tiebreak_only"], ["hunter_shoots_on=wolves_or_vote"]]
    game = _random_game(seed, "werewolf=3,seer,witch,hunter,cupid,little_girl,thief", *options[seed])
    replayed = Game.replay(game.events)
    assert replayed.state == game.state and replayed.events == game.events
    assert replayed.outcome == game.outcome
    # and at every prefix too
    for cut in range(1, len(game.events), 7):
        prefix = Game.replay(game.events[:cut])
        assert len(prefix.events) == cut and Game.replay(prefix.events).state == prefix.state


def test_rule_replay_needs_game_started_first() -> None:
    with pytest.raises(RulesError, match="GameStarted"):
        Game.replay([])


def test_rule_state_copy_is_independent() -> None:
    game = new_game(TABLE)
    copy = game.state.copy()
    game.begin_night()
    game.wolves_choose(7)
    game.witch_act(False, 8)
    game.dawn()
    assert copy.alive == [True] * 8 and copy != game.state


def test_rule_deal_object_round_trips_through_start() -> None:
    seats = tuple(Role.parse(w) for w in TABLE.split())
    game = Game.start(Deal(seats))
    assert tuple(game.state.roles) == seats and game.players == 8


def test_an_option_splits_at_its_first_equals_sign() -> None:
    with pytest.raises(OptionError, match=r"^option elder_lives cannot be '2=3'; give a whole number from 1 to 5$"):
        Options.parse(["elder_lives=2=3"])


@pytest.mark.parametrize("word", ["true", "yes", "1", "on", "ON"])
def test_an_option_takes_every_word_for_true(word: str) -> None:
    assert Options.parse([f"wolves_win_at_parity={word}"]).wolves_win_at_parity is True


@pytest.mark.parametrize("word", ["false", "no", "0", "off", "False"])
def test_an_option_takes_every_word_for_false(word: str) -> None:
    assert Options.parse([f"first_night_kill={word}"]).first_night_kill is False
