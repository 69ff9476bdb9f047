"""Players' names (narrator/names.py, docs/names.md): plain text, trimmed and cut, whatever was typed;
two seats with one name told apart; fixed once the game starts."""

from __future__ import annotations

import pytest

from narrator.names import MAX_NAME, People, clean_name


def test_a_name_is_trimmed_and_its_blanks_made_one_space() -> None:
    assert clean_name("  Ann \t Marie\n") == "Ann Marie"
    assert clean_name("\u2028Bo\u2029") == "Bo"
    assert clean_name("   ") == ""


def test_control_and_format_characters_never_reach_a_screen() -> None:
    # An escape sequence that would clear the laptop's terminal, a bell, a NUL, a bidirectional override.
    name = clean_name("\x1b[2J\x1b[31mAnn\x07\x00\u202eoB")
    assert name == "[2J[31mAnnoB"
    assert all(ch.isprintable() for ch in name)


def test_markup_stays_text() -> None:
    # Markup is kept as the characters typed: every page and screen shows it as text, never as markup.
    assert clean_name("<script>alert(1)</script>") == "<script>alert(1)</script>"[:MAX_NAME]
    assert clean_name("[bold red]Bo[/]") == "[bold red]Bo[/]"


def test_a_pasted_ten_thousand_characters_is_cut_to_the_limit() -> None:
    assert clean_name("A" * 10_000) == "A" * MAX_NAME
    assert clean_name(" " * 10_000 + "Ann") == "Ann"
    assert len(clean_name("Ann " + "x" * 9_996)) == MAX_NAME


def test_an_emoji_is_kept_whole_and_a_cut_sequence_loses_its_dangling_joiner() -> None:
    assert clean_name("Zoé 🐺") == "Zoé 🐺"
    family = "\U0001F468\u200d\U0001F469\u200d\U0001F467"
    assert clean_name(family) == family
    cut = clean_name("x" * (MAX_NAME - 2) + family)  # the cut falls after the first joiner
    assert cut == "x" * (MAX_NAME - 2) + "\U0001F468"
    assert clean_name("e\u0301") == "\u00e9"  # one character, as typed on another keyboard


def test_two_seats_with_one_name_are_told_apart_by_their_numbers() -> None:
    people = People({3: "Ann", 6: "ann ", 7: "Bo"})
    assert people.shown(3) == "Ann (3)" and people.shown(6) == "ann (6)" and people.shown(7) == "Bo"
    assert people.twin(3) and not people.twin(7) and people.shown(1) is None
    assert people.names() == {3: "Ann", 6: "ann", 7: "Bo"}


def test_names_are_fixed_once_the_game_starts() -> None:
    people = People()
    assert people.set(2, "  Cleo ") == "Cleo" and people.version == 1
    people.freeze()
    with pytest.raises(ValueError):
        people.set(2, "Other")
    assert people.names() == {2: "Cleo"}


def test_a_name_the_voice_cannot_say_is_kept_but_not_said() -> None:
    people = People({1: "Ann", 2: "🐺"})
    people.unsay(2, "not a letter")
    assert people.said(1) and not people.said(2) and people.shown(2) == "🐺"
    assert people.unsaid() == {2: "not a letter"}
