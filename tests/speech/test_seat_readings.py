"""Seats said with the reading a table of the language expects, where the language has several ways
to read a number (docs/languages.md, "Shown and said").

Japanese tables say 4 よん, 7 なな and 9 きゅう, never し, しち or く (し is also 死, death; しち is
easily heard as いち); Korean says a seat with the Sino-Korean numbers (사번, not the native 넷);
Mandarin says 二号, keeping 两 for before a measure word. The readings
expected are written out here, not taken from the pack: a test that compared the voice with the
pack's own [numbers] would pass whatever the pack said, which is how a seat read as し could land.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from narrator.packs import VoicePack, load_pack
from narrator.ports import Cue
from narrator.speech.recorded import units
from narrator.speech.render import Renderer
from narrator.speech.speaker import LineSource

from tests.speech.test_spoken_lines import RecordingSynth

TABLE = range(1, 19)  # the seats a table has (docs/playing.md: up to 18 players)
_JA_UNITS = {1: "いち", 2: "に", 3: "さん", 4: "よん", 5: "ご", 6: "ろく", 7: "なな", 8: "はち", 9: "きゅう"}
_KO_UNITS = {1: "일", 2: "이", 3: "삼", 4: "사", 5: "오", 6: "육", 7: "칠", 8: "팔", 9: "구"}
_ZH_UNITS = {1: "一", 2: "二", 3: "三", 4: "四", 5: "五", 6: "六", 7: "七", 8: "八", 9: "九"}
EXPECTED = {
    "ja": {**_JA_UNITS, 10: "じゅう", **{10 + n: "じゅう" + w for n, w in _JA_UNITS.items() if n <= 8}},
    "ko": {**_KO_UNITS, 10: "십", **{10 + n: "십" + w for n, w in _KO_UNITS.items() if n <= 8}},
    "zh": {**_ZH_UNITS, 10: "十", **{10 + n: "十" + w for n, w in _ZH_UNITS.items() if n <= 8}},
}
# Stand-ins for the two seat slots: characters no pack writes, so that the line around the seat can be
# filled once and the expected reading put in its place.
_SEAT, _OTHER = "\ue000", "\ue001"


def _seat_keys(pack: VoicePack) -> list[str]:
    """Every spoken line that says a seat."""
    return [k for k, variants in pack.lines.items() if any("{seat}" in t or "{other}" in t for t in variants)]


def _other(seat: int) -> int:
    return TABLE[-1] - seat + 1  # a different reading in the second slot (9 with 10, 4 with 15)


def _with_seats(around: str, seat: int, words: dict[int, str]) -> str:
    return around.replace(_SEAT, words[seat]).replace(_OTHER, words[_other(seat)])


@pytest.mark.parametrize("lang", sorted(EXPECTED))
def test_every_seat_line_gives_the_voice_the_tables_reading_of_each_seat(lang: str) -> None:
    """Every line that says a seat, every seat of a table, as each engine is given it: exactly the line
    with the expected reading in the seat's place; on screen, the seat in digits."""
    pack = load_pack(lang)
    digits = {n: str(n) for n in TABLE}
    keys = _seat_keys(pack)
    assert len(keys) > 20, keys  # the day's lines, the votes, the chains: not a pack without seats
    for key in keys:
        for variant in range(len(pack.lines[key])):
            around_shown = pack.text(Cue(key, {"seat": _SEAT, "other": _OTHER}), variant)
            for engine in ("espeak", "piper"):
                around = pack.spoken(Cue(key, {"seat": _SEAT, "other": _OTHER}), variant, engine)
                for seat in TABLE:
                    cue = Cue(key, {"seat": seat, "other": _other(seat)})
                    said = pack.spoken(cue, variant, engine)
                    assert said == _with_seats(around, seat, EXPECTED[lang]), (key, engine, seat, said)
                    # The screen and the phones show the seat in digits, whatever the voice says.
                    assert pack.text(cue, variant) == _with_seats(around_shown, seat, digits), (key, seat)


# Lines a game says with one seat, with two, and in asking a vote back: enough to show that what the
# engine is handed is the pack's spoken text (rendering every seat line costs a WAV and its loudness each).
_THROUGH_THE_ENGINE = ("day.death", "vote.said", "vote.ask_back")


@pytest.mark.parametrize("lang", sorted(EXPECTED))
def test_the_speech_engine_is_handed_the_tables_reading_of_each_seat(lang: str, tmp_path: Path) -> None:
    """Through the real line source and renderer, into the synth: the reading expected, seats 1-18."""
    pack = load_pack(lang)
    for key in _THROUGH_THE_ENGINE:
        synth = RecordingSynth()
        source = LineSource(pack, Renderer(synth, tmp_path / key))
        around = pack.spoken(Cue(key, {"seat": _SEAT, "other": _OTHER}), 0, "espeak")
        for seat in TABLE:
            source.audio(Cue(key, {"seat": seat, "other": _other(seat)}), 0)
            assert len(synth.said) == seat, (key, seat)  # rendered now, not an earlier line's audio
            assert synth.said[-1] == _with_seats(around, seat, EXPECTED[lang]), (key, seat, synth.said[-1])


@pytest.mark.parametrize("lang", sorted(EXPECTED))
def test_a_narrator_recording_the_pack_is_asked_for_the_tables_reading(lang: str) -> None:
    """A recorded pack says seats from its `number.N` recordings: the script asks for the same readings."""
    script = {u.name: u.text for u in units(load_pack(lang))}
    assert {n: script[f"number.{n}"] for n in TABLE} == EXPECTED[lang]


def _phonemes(voice: str, lines: list[str]) -> list[str]:
    """espeak-ng's phonemes (`-x`) of each line. espeak-ng starts a new output line at each clause, so
    each line given is one clause (no 、 inside) and ends one (。)."""
    assert all(line.endswith("。") and "、" not in line for line in lines), lines
    out = subprocess.run(["espeak-ng", "-q", "-x", "-v", voice], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(out) == len(lines), out
    return [line.strip() for line in out]


# What a Japanese table must not hear for a seat, and the seats it would be.
_JA_WRONG = {4: "し", 7: "しち", 9: "く", 14: "じゅうし", 17: "じゅうしち", 19: "じゅうく", 24: "にじゅうし"}


@pytest.mark.slow  # espeak-ng -x in a child process, once
def test_espeak_ng_reads_each_japanese_seat_as_the_table_expects() -> None:
    """What the voice actually says: espeak-ng's phonemes of "N ばん。" as the pack gives it, seat by seat,
    are those of the expected reading, and none of the pack's [misreadings] (which the full read-back,
    tests/speech/test_readback.py, applies to every line) is heard. The misreadings for し, しち and く
    must themselves match what espeak-ng says for those readings, or they would guard nothing."""
    pack = load_pack("ja")
    said = [pack.spoken(Cue("day.death", {"seat": seat}), 0, "espeak") for seat in TABLE]
    expected = [f"{EXPECTED['ja'][seat]} ばん。" for seat in TABLE]
    wrong = [f"{w} ばん。" for w in _JA_WRONG.values()]
    heard = _phonemes(pack.voice, said + expected + wrong)
    heard_said, heard_expected, heard_wrong = heard[:len(said)], heard[len(said):-len(wrong)], heard[-len(wrong):]
    for seat, got, want in zip(TABLE, heard_said, heard_expected):
        assert got == want, (seat, got, want)
        assert not [p for p in pack.misreadings if re.search(p, got)], (seat, got)
    for (seat, reading), got in zip(_JA_WRONG.items(), heard_wrong):
        assert [p for p in pack.misreadings if re.search(p, got)], f"no [misreadings] entry hears {seat} as {reading}: {got}"
