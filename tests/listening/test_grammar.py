"""Grammars built from a prompt and a pack, and recognised words mapped back to a choice."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from narrator.listening.grammar import build_grammar, pack_vocabulary, parse_choices
from narrator.packs import VoicePack
from narrator.ports import WORDS, Prompt
from tests.hypo import examples


def test_grammar_holds_living_seats_and_allowed_words(en_pack: VoicePack) -> None:
    g = build_grammar(Prompt("day.vote", seats=(1, 3, 21), words=("nobody", "more_time")), en_pack)
    assert g.phrases == {"one": 1, "three": 3, "twenty one": 21, "nobody": "nobody", "more time": "more_time"}
    assert "two" not in g.vosk_words()
    assert g.vosk_words(with_unk=True)[-1] == "[unk]"


def test_several_words_per_number(ko_pack: VoicePack) -> None:
    g = build_grammar(Prompt("p", seats=(4, 8)), ko_pack)
    assert g.phrases == {"사": 4, "넷": 4, "팔": 8, "여덟": 8}
    assert ko_pack.numbers[4] == "사" and ko_pack.number_words(4) == ("사", "넷")


def test_missing_words_are_left_out_and_listed(ko_pack: VoicePack) -> None:
    g = build_grammar(Prompt("p", seats=(2,), words=("nobody", "no")), ko_pack, missing_words=["아무도"])
    assert g.phrases == {"이": 2, "아니요": "no"}
    assert g.unavailable == {"아무도": "nobody"}


def test_interpret_multiword_phrase_and_confidence(en_pack: VoicePack) -> None:
    g = build_grammar(Prompt("p", seats=tuple(range(1, 25)), words=("vote_now",)), en_pack)
    assert g.interpret([("twenty", 0.9), ("one", 0.95)]).choice == 21
    assert g.interpret([("vote", 1.0), ("now", 1.0)]).choice == "vote_now"
    low = g.interpret([("twenty", 0.4), ("one", 0.95)])
    assert low.choice is None and low.reason == "low confidence"
    assert g.interpret([]).reason == "silence"
    assert g.interpret([("[unk]", 1.0)]).reason == "not a choice"
    # Out-of-grammar speech around a seat: the seat is taken.
    assert g.interpret([("[unk]", 0.8), ("seven", 0.97)]).choice == 7


def test_noise_before_the_answer(ko_pack: VoicePack) -> None:
    g = build_grammar(Prompt("p", seats=(4, 9), words=("no",)), ko_pack)
    # VOICE-LAB: noise at the start can come back as an extra grammar word ("구 사" for "사").
    assert g.interpret([("구", 0.5), ("사", 1.0)]).choice == 4
    assert g.interpret([("구", 1.0), ("사", 0.8)]).reason == "ambiguous"
    assert g.interpret([("넷", 0.9), ("사", 1.0)]).choice == 4


def test_a_phrase_shared_by_two_choices_is_dropped(en_pack: VoicePack) -> None:
    from dataclasses import replace

    pack = replace(en_pack, words={**en_pack.words, "yes": ("yes", "one")})
    g = build_grammar(Prompt("p", seats=(1,), words=("yes",)), pack)
    assert "one" not in g.phrases and g.ambiguous == ("one",)


def test_vocabulary_of_a_pack(en_pack: VoicePack) -> None:
    vocab = pack_vocabulary(en_pack)
    assert "twenty" in vocab and "time" in vocab and "more time" not in vocab


def test_parse_choices() -> None:
    assert parse_choices("1-3,7,nobody,yes,vote now") == ((1, 2, 3, 7), ("nobody", "yes", "vote_now"))
    for bad in ["0-3", "5-2", "x", "1-31", "maybe", ""]:
        with pytest.raises(ValueError):
            parse_choices(bad)


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(st.integers(min_value=1, max_value=30), max_size=12),
    st.lists(st.sampled_from(WORDS), max_size=4),
    st.lists(st.tuples(st.sampled_from(["one", "two", "twenty", "no", "yes", "vote", "now", "[unk]", "more", "time", "zzz"]),
                       st.floats(min_value=0, max_value=1)), max_size=6),
)
def test_interpret_only_returns_choices_of_the_grammar(en_pack: VoicePack, seats: list[int], words: list[str],
                                                      heard: list[tuple[str, float]]) -> None:
    g = build_grammar(Prompt("p", seats=tuple(seats), words=tuple(words)), en_pack)
    result = g.interpret(heard)
    assert result.choice is None or result.choice in g.choices()
    assert (result.choice is None) == bool(result.reason)
