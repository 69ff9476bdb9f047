"""docs/rules-spec.md#players and #composition: the suggestion, validation and the deal."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from narrator.rules import (
    CompositionError,
    Deal,
    Game,
    Options,
    Role,
    RulesError,
    UnknownRoleError,
    complete,
    deal,
    parse_roles,
    suggest,
    validate,
)
from rules_kit import roles_of

FROM_DECK = Options(thief_extra_cards="from_deck")


@pytest.mark.parametrize("players", range(8, 12))
def test_rule_composition_suggestion_8_to_11_players_two_werewolves(players: int) -> None:
    assert suggest(players) == {Role.WEREWOLF: 2, Role.SEER: 1, Role.VILLAGER: players - 3}


@pytest.mark.parametrize("players", range(12, 19))
def test_rule_composition_suggestion_12_to_18_players_three_werewolves(players: int) -> None:
    assert suggest(players) == {Role.WEREWOLF: 3, Role.SEER: 1, Role.VILLAGER: players - 4}


def test_rule_composition_each_special_role_replaces_a_villager() -> None:
    deck = complete(10, parse_roles("werewolf=2,seer,witch,hunter"), Options())
    assert deck == {Role.WEREWOLF: 2, Role.SEER: 1, Role.WITCH: 1, Role.HUNTER: 1, Role.VILLAGER: 5}
    assert validate(10, deck, Options()) == []


def test_rule_validation_special_roles_are_unique() -> None:
    with pytest.raises(CompositionError, match="2 seer cards"):
        validate(8, {Role.WEREWOLF: 2, Role.SEER: 2, Role.VILLAGER: 4}, Options())
    # Villagers and Werewolves may repeat.
    validate(8, {Role.WEREWOLF: 3, Role.VILLAGER: 5}, Options())


def test_rule_validation_needs_at_least_one_werewolf() -> None:
    with pytest.raises(CompositionError, match="no Werewolf"):
        validate(8, {Role.SEER: 1, Role.VILLAGER: 7}, Options())


def test_rule_validation_needs_at_least_one_non_werewolf() -> None:
    with pytest.raises(CompositionError, match="only Werewolves"):
        validate(4, {Role.WEREWOLF: 4}, Options())


@pytest.mark.parametrize("players", [0, 3, 31, 100])
def test_rule_validation_players_4_to_30(players: int) -> None:
    with pytest.raises(CompositionError, match=f"{players} players is out of range"):
        suggest(players)


@pytest.mark.parametrize("players", [4, 7, 19, 30])
def test_rule_validation_warns_outside_8_to_18(players: int) -> None:
    warnings = validate(players, suggest(players), Options())
    assert any("best with 8 to 18" in w for w in warnings)


@pytest.mark.parametrize("players", [8, 12, 18])
def test_rule_validation_no_warning_inside_8_to_18(players: int) -> None:
    assert validate(players, suggest(players), Options()) == []


def test_rule_validation_deck_size_must_match_the_table() -> None:
    with pytest.raises(CompositionError, match="has 9 cards; 8 players need 8"):
        validate(8, {Role.WEREWOLF: 2, Role.SEER: 1, Role.VILLAGER: 6}, Options())
    with pytest.raises(CompositionError, match="do not fit 8 players"):
        complete(8, parse_roles("werewolf=5,seer,witch,hunter,cupid"), Options())


def test_rule_composition_errors_quote_the_input() -> None:
    with pytest.raises(UnknownRoleError, match="'wizard'"):
        parse_roles("werewolf=2,wizard")
    with pytest.raises(CompositionError, match="'three'"):
        parse_roles("werewolf=three")
    with pytest.raises(CompositionError, match="-1"):
        parse_roles("werewolf=-1")


def test_rule_deal_uses_the_random_source_passed_in() -> None:
    deck = complete(12, parse_roles("werewolf=3,seer,witch,hunter,cupid,little_girl"), Options())
    state = random.getstate()
    first = deal(12, deck, random.Random(42), Options())
    assert random.getstate() == state, "the deal touched the global random source"
    assert deal(12, deck, random.Random(42), Options()) == first
    assert Counter(first.seats) == Counter(deck)
    seen = {deal(12, deck, random.Random(seed), Options()).seats for seed in range(20)}
    assert len(seen) > 1, "the deal ignores its random source"


def test_rule_deal_thief_gets_two_extra_villager_cards() -> None:
    deck = complete(8, parse_roles("werewolf=2,seer,thief"), Options())
    dealt = deal(8, deck, random.Random(1), Options())
    assert len(dealt.seats) == 8 and Counter(dealt.seats) == Counter(deck)
    assert dealt.extra == (Role.VILLAGER, Role.VILLAGER)


def test_rule_deal_without_thief_has_no_extra_cards() -> None:
    assert deal(8, suggest(8), random.Random(1), Options()).extra == ()


def test_option_thief_extra_cards_from_deck_deals_n_plus_2_and_always_the_thief() -> None:
    deck = complete(8, parse_roles("werewolf=3,seer,thief"), FROM_DECK)
    assert sum(deck.values()) == 10
    for seed in range(30):
        dealt = deal(8, deck, random.Random(seed), FROM_DECK)
        assert Role.THIEF in dealt.seats and len(dealt.seats) == 8 and len(dealt.extra) == 2
        assert Counter(dealt.seats) + Counter(dealt.extra) == Counter(deck)
    extras = {deal(8, deck, random.Random(seed), FROM_DECK).extra for seed in range(30)}
    assert any(Role.WEREWOLF in e for e in extras), "from_deck extras should be any leftover cards"


def test_rule_possible_roles_default_to_the_dealt_roles() -> None:
    game = Game.start(Deal(roles_of("werewolf werewolf seer villager villager villager villager villager")))
    assert game.state.possible == {Role.WEREWOLF, Role.SEER, Role.VILLAGER}


def test_rule_possible_roles_may_be_more_than_dealt_but_include_them() -> None:
    seats = roles_of("werewolf werewolf seer villager villager villager villager villager")
    game = Game.start(Deal(seats), possible=[Role.WEREWOLF, Role.SEER, Role.VILLAGER, Role.WITCH])
    assert Role.WITCH in game.state.possible
    # An announcement that leaves out a dealt role still calls it: the cards in play are added.
    game = Game.start(Deal(seats), possible=[Role.WEREWOLF, Role.VILLAGER])
    assert game.state.possible == {Role.WEREWOLF, Role.SEER, Role.VILLAGER}


def test_rule_thief_needs_two_extra_cards() -> None:
    seats = roles_of("werewolf werewolf seer thief villager villager villager villager")
    with pytest.raises(RulesError, match="two extra cards, got 1"):
        Game.start(Deal(seats, (Role.VILLAGER,)))


def test_option_thief_extra_cards_villagers_means_two_villagers() -> None:
    seats = roles_of("werewolf werewolf seer thief villager villager villager villager")
    with pytest.raises(CompositionError, match="thief_extra_cards=villagers"):
        Game.start(Deal(seats, (Role.WEREWOLF, Role.VILLAGER)))
    Game.start(Deal(seats, (Role.WEREWOLF, Role.VILLAGER)), FROM_DECK.with_values({}))


def test_pyromaniac_is_refused_with_the_reason() -> None:
    from narrator.rules import Role, UnknownRoleError

    with pytest.raises(UnknownRoleError, match="Pyromaniac is not played.*building cards"):
        Role.parse("Pyromaniac")


@pytest.mark.parametrize("wolf", ["accursed_wolf_father", "big_bad_wolf"])
def test_a_special_wolf_alone_is_the_pack(wolf: str) -> None:
    """A special wolf replaces a Werewolf and counts as one: a deck whose only wolf card is the
    Accursed Wolf-Father or the Big Bad Wolf plays, and the pack wins (docs/rules.md "Werewolf")."""
    deck = parse_roles(f"{wolf}=1,seer=1,villager=3")
    assert validate(5, deck, Options()) == ["5 players: the game is best with 8 to 18"]
    game = Game.start(Deal(roles_of(f"{wolf} seer villager villager villager")), Options(captain_election="never"))
    game.begin_night()
    game.wolves_choose(2)
    game.dawn()
    game.open_vote()
    game.cast_votes({1: 3, 4: 3, 5: 3})
    game.begin_night()
    game.wolves_choose(4)
    game.dawn()
    game.open_vote()
    game.cast_votes({1: 5})
    assert game.outcome is not None and game.outcome.winner.value == "werewolves" and game.outcome.winners == (1,)


def test_the_white_werewolf_alone_is_refused() -> None:
    """The White Werewolf plays alone: with no other wolf card there is no pack (docs/rules.md)."""
    with pytest.raises(CompositionError, match=r"no Werewolf \(the White Werewolf plays alone: he is no pack\); add werewolf=1"):
        validate(5, parse_roles("white_werewolf=1,seer=1,villager=3"), Options())
    with pytest.raises(CompositionError, match="only Werewolves"):
        validate(4, parse_roles("big_bad_wolf=1,werewolf=3"), Options())


def test_a_count_refused_names_the_count_and_the_role_it_counts() -> None:
    with pytest.raises(CompositionError, match=r"^count 'three' for 'werewolf' is not a whole number$"):
        parse_roles("werewolf=three")
    with pytest.raises(CompositionError, match=r"^count -1 for 'werewolf' cannot be negative$"):
        parse_roles("seer, werewolf = -1")


def test_named_villagers_beyond_the_table_are_refused_counting_the_cards() -> None:
    with pytest.raises(CompositionError, match=r"^seer=1,villager=6,werewolf=2 is 9 cards; 8 players take 8$"):
        complete(8, parse_roles("werewolf=2,seer,villager=6"), Options())


def test_a_single_card_dealt_twice_is_refused_naming_the_card() -> None:
    with pytest.raises(CompositionError, match=r"^2 seer cards: the seer is a single card$"):
        validate(8, {Role.WEREWOLF: 2, Role.SEER: 2, Role.VILLAGER: 4}, Options())


def test_a_deck_without_a_werewolf_is_refused_quoting_the_deck() -> None:
    with pytest.raises(CompositionError, match=r"^the deck seer=1,villager=7 has no Werewolf; add werewolf=1 or more$"):
        validate(8, {Role.SEER: 1, Role.VILLAGER: 7}, Options())


def test_a_deck_whose_only_wolf_is_the_white_werewolf_is_refused_saying_he_is_no_pack() -> None:
    with pytest.raises(CompositionError, match=r"^the deck seer=1,villager=6,white_werewolf=1 has no Werewolf \(the White "
                                               r"Werewolf plays alone: he is no pack\); add werewolf=1 or more$"):
        validate(8, {Role.WHITE_WEREWOLF: 1, Role.SEER: 1, Role.VILLAGER: 6}, Options())
