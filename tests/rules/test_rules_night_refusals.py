"""A night answer the rules refuse says what was wrong, quoting the answer (docs/rules-spec.md#night):
Cupid's Lovers, the Seer's look, the Witch's potions; the game is left as it was."""

from __future__ import annotations

from narrator.rules import Game

from rules_kit import new_game, refused

SEATS = "werewolf werewolf seer witch cupid villager villager villager"


def first_night() -> Game:
    game = new_game(SEATS)
    game.begin_night()
    return game


def test_cupid_naming_one_lover_is_refused_quoting_him() -> None:
    refused(first_night(), "use_power", "cupid", (6,), match=r"^Lovers \(6,\): Cupid names exactly two Lovers$")


def test_the_seer_looking_at_her_own_card_is_refused_naming_her_seat() -> None:
    game = first_night()
    game.use_power("cupid", (6, 7))
    refused(game, "use_power", "seer", (3,), match=r"^seat 3 is the Seer herself; she looks at another player's card$")


def test_the_seer_looking_at_two_cards_is_refused_quoting_both_seats() -> None:
    game = first_night()
    game.use_power("cupid", (6, 7))
    refused(game, "use_power", "seer", (4, 5), match=r"^the Seer on seats \(4, 5\): the Seer looks at exactly one card$")


def witch_awake() -> Game:
    game = first_night()
    game.use_power("cupid", (6, 7))
    game.use_power("seer", (1,))
    game.wolves_choose(6)
    return game


def test_the_witch_answering_half_is_refused_saying_how_she_answers() -> None:
    refused(witch_awake(), "use_power", "witch", (1,),
            match=r"^the Witch \(heal=\(1,\), poison=None\): the Witch answers heal \(1 or 0\), the seat saved "
                  r"\(0: the pack's victim\), then the seat poisoned$")


def test_the_witch_healing_a_player_not_devoured_is_refused_naming_the_devoured() -> None:
    refused(witch_awake(), "use_power", "witch", (1, 7),
            match=r"^heal seat 7: not devoured tonight \(devoured: 6\); she heals one of them$")


def test_a_seat_outside_the_table_is_refused_naming_the_seats() -> None:
    refused(first_night(), "seer_inspect", 9, match=r"^seat 9 is out of range; seats are 1 to 8$")
