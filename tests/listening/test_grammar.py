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
    expected = {"one": 1, "three": 3, "twenty one": 21, "nobody": "nobody", "more time": "more_time",
                # the short natural forms of the pack's [listening] section, as people say a seat
                "number one": 1, "seat one": 1, "number three": 3, "seat three": 3,
                "number twenty one": 21, "seat twenty one": 21, "no one": "nobody", "pass": "nobody"}
    for number, seat in (("one", 1), ("three", 3), ("twenty one", 21)):  # carrier words, as people say a vote
        for form in ("i vote {}", "i vote for {}", "i vote number {}", "{} please"):
            expected[form.format(number)] = seat
    assert g.phrases == expected
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
    # Out-of-grammar speech around a seat is not forced onto it (it may not be a vote): ask again.
    assert g.interpret([("[unk]", 0.8), ("seven", 0.97)]).reason == "not a choice"
    assert g.interpret([("seven", 0.97), ("[unk]", 0.8)]).choice is None


def test_filler_words_mean_not_a_choice(ko_pack: VoicePack) -> None:
    g = build_grammar(Prompt("p", seats=(3, 4), words=("no",)), ko_pack, rejects=["음", "그", "사"])
    assert "음" in g.vosk_words() and "사" not in g.rejects  # a grammar word is never a filler
    assert g.interpret([("음", 1.0)]).reason == "not a choice"
    assert g.interpret([("사", 1.0), ("음", 1.0)]).choice is None  # 삼 is heard as "사 음"
    assert g.interpret([("사", 1.0)]).choice == 4


def test_alternatives_that_disagree_refuse_the_answer(ko_pack: VoicePack) -> None:
    g = build_grammar(Prompt("p", seats=(1, 2)), ko_pack)
    close = [("이", 70.0), ("일", 68.0)]
    assert g.decide([("이", 1.0)], close, margin=3.0).reason == "uncertain"
    assert g.decide([("이", 1.0)], close, margin=1.0).choice == 2
    assert g.decide([("이", 1.0)], [("이", 70.0), ("이 이", 69.0)], margin=3.0).choice == 2


def test_seat_forms_and_compound_numbers_from_the_pack() -> None:
    from narrator.packs import load_pack

    ko = load_pack("ko")
    g = build_grammar(Prompt("p", seats=(7, 22), words=("nobody",)), ko, missing_words=["이십이", "아무도"])
    assert g.phrases["칠 번"] == 7 and g.phrases["이십 이"] == 22 and g.phrases["이십 이 번"] == 22
    assert g.phrases["없어요"] == "nobody" and g.phrases["패스"] == "nobody"
    assert "이십이" in g.unavailable and "아무도" in g.unavailable


def test_noise_before_the_answer(ko_pack: VoicePack) -> None:
    g = build_grammar(Prompt("p", seats=(4, 9), words=("no",)), ko_pack)
    # VOICE-LAB: noise at the start can come back as an extra grammar word ("구 사" for "사").
    assert g.interpret([("구", 0.5), ("사", 1.0)]).choice == 4
    assert g.interpret([("구", 1.0), ("사", 0.8)]).reason == "ambiguous"
    assert g.interpret([("구", 0.8), ("사", 1.0)]).reason == "ambiguous"  # no longer "the last, surest"
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


def test_calibrated_confusions_refuse_a_word_while_its_lookalike_is_legal(ko_pack: VoicePack) -> None:
    conf = {"이": ("일", "십")}
    g = build_grammar(Prompt("p", seats=(1, 2)), ko_pack, confusions=conf)
    assert g.decide([("이", 1.0)]).reason == "confusable"
    alone = build_grammar(Prompt("p", seats=(2, 4)), ko_pack, confusions=conf)
    assert alone.decide([("이", 1.0)]).choice == 2  # seat 1 is not legal now: 이 is safe


def test_an_alternative_that_is_only_filler_contradicts_but_nothing_does_not(ko_pack: VoicePack) -> None:
    g = build_grammar(Prompt("p", seats=(1, 4)), ko_pack, rejects=["나", "음"])
    assert g.decide([("사", 1.0)], [("사", 15.8), ("나", 15.5)], margin=2.0).reason == "uncertain"
    assert g.decide([("사", 1.0)], [("사", 15.8), ("", 15.5)], margin=2.0).choice == 4
    assert g.decide([("사", 1.0)], [("사", 15.8), ("사 음", 15.5)], margin=2.0).choice == 4


def test_a_read_back_no_is_refused_only_by_another_choice(ko_pack: VoicePack) -> None:
    # A wrong "no" only asks the vote again, so a filler reading close to
    # it no longer refuses it; a "yes" (which lets a seat stand) keeps the stricter rule.
    g = build_grammar(Prompt("day.vote.confirm", words=("yes", "no")), ko_pack, rejects=["음", "그냥"])
    assert g.decide([("아니요", 1.0)], [("아니요", 34.9), ("음", 34.1)], margin=2.0).choice == "no"
    assert g.decide([("아니요", 1.0)], [("아니요", 17.2), ("아니요 그냥", 16.6)], margin=2.0).choice == "no"
    assert g.decide([("아니요", 1.0)], [("아니요", 34.9), ("네", 34.1)], margin=2.0).reason == "uncertain"
    assert g.decide([("네", 1.0)], [("네", 66.0), ("음", 65.5)], margin=2.0).reason == "uncertain"
    assert g.decide([("네", 1.0)], [("네", 66.0), ("", 65.0)], margin=2.0).choice == "yes"


def test_the_yes_no_grammar_leaves_out_fillers_that_sound_like_yes(ko_pack: VoicePack) -> None:
    # 물, 정말, 그, 둘, 잘, 하나 took 예/네 away in the read-back (calibrated on
    # half of the robustness corpus); a vote keeps every filler, and the hum 음 stays everywhere.
    from narrator.listening.fake import ScriptedModel
    from narrator.listening.vosk_listener import listening_grammar

    model = ScriptedModel(["예", "네", "아니요", "사", "이", "음", "물", "정말", "하나", "우리"])
    yes_no = listening_grammar(Prompt("day.vote.confirm", words=("yes", "no")), ko_pack, model)
    vote = listening_grammar(Prompt("day.vote", seats=(2, 4)), ko_pack, model)
    assert set(yes_no.rejects) == {"음", "우리"}
    assert {"음", "물", "정말", "하나", "우리"} <= set(vote.rejects)


def test_missing_words_line_says_another_way_before_the_keypad(ko_pack: VoicePack) -> None:
    from narrator.listening.vosk_listener import describe_missing
    from narrator.packs import load_pack

    ko = load_pack("ko")
    missing = {w: ps for w, ps in pack_vocabulary(ko).items() if w in {"이십이", "아무도"}}
    line = describe_missing(missing, ko, "m")
    assert "say '이십 이' for '이십이'" in line and "'없음' for '아무도'" in line and "keypad" not in line
    # the test pack has no other way to say "nobody": the keypad
    tiny = {w: ps for w, ps in pack_vocabulary(ko_pack).items() if w == "아무도"}
    assert describe_missing(tiny, ko_pack, "m").endswith("answer '아무도' with the keypad")
