"""The voice listener's logic (with a scripted model and timed fake audio), the keypad+voice
listener and the confirmation of risky choices.

The fake audio is released in real time, so these tests take real seconds; none of them has a
wall-clock bound that load can break: deadlines are far (FAR), an upper bound
only says "long before the deadline", and who answers first is decided by seconds of audio, not
by a timer racing a thread.
"""

from __future__ import annotations

import os
import pty
import threading
import time

import numpy as np
import pytest

from narrator.fakes import FakeAudioSource
from narrator.listening.audio import RATE
from narrator.listening.fake import RecordingSpeaker, ScriptedListener, ScriptedModel
from narrator.listening.keypad import KeypadListener
from narrator.listening.table import ConfirmingListener, EitherListener
from narrator.listening.vosk_listener import VoiceListener, missing_words
from narrator.packs import VoicePack
from narrator.ports import Heard, Prompt


def silence(seconds: float) -> bytes:
    return b"\0" * int(seconds * RATE) * 2


def burst(seconds: float = 0.3, level: int = 4000) -> bytes:
    rng = np.random.default_rng(7)
    return (rng.uniform(-level, level, int(seconds * RATE))).astype("<i2").tobytes()


FAR = 60.0  # a deadline no answer comes near, however loaded the machine: listen returns at the answer

VOCAB = ["일", "이", "삼", "사", "넷", "오", "아니요", "네", "다시"]


def voice(pack: VoicePack, pcm: bytes, answers: list[list[tuple[str, float]]],
          speaker: RecordingSpeaker | None = None, mute_until: object = None) -> tuple[VoiceListener, ScriptedModel]:
    model = ScriptedModel(VOCAB, answers)
    listener = VoiceListener(model, pack, FakeAudioSource(pcm), speaker=speaker,
                             mute_until=mute_until, missing=missing_words(model, pack))  # type: ignore[arg-type]
    return listener, model


def test_a_spoken_seat_comes_back_as_a_choice(ko_pack: VoicePack) -> None:
    """Bounded by "long before the deadline", not by "< 2 s", which a loaded machine can break."""
    listener, model = voice(ko_pack, silence(0.2) + burst() + silence(1), [[("사", 0.97)]])
    with listener:
        start = time.monotonic()
        heard = listener.listen(Prompt("day.vote", seats=(2, 4), words=("no",), deadline=start + FAR))
    assert heard == Heard(4, source="voice", text="사", confidence=0.97)
    assert sorted(model.grammars[0]) == sorted(["이", "사", "넷", "아니요"])
    # The answer comes after the speech and the silence timeout, not at the deadline.
    assert 0.5 <= time.monotonic() - start < FAR / 2


@pytest.mark.slow  # 8 s of audio in real time
def test_misses_ask_to_repeat_then_suggest_the_keypad(ko_pack: VoicePack) -> None:
    """The gaps leave a second for a loaded machine to be late with "please repeat"
    (said on the real clock, muting what follows), and the deadline is far."""
    # Each gap outlasts the silence timeout plus the mute tail after "please repeat", plus 1 s.
    pcm = b"".join(silence(1.9) + burst(0.2) for _ in range(4)) + silence(1)
    speaker = RecordingSpeaker()
    # 넷 last: 이 is refused as a look-alike while 4 or 5 is legal (the look-alike table's calibration).
    answers = [[("사", 0.3)], [("오", 1.0), ("사", 0.9)], [("이", 0.2)], [("넷", 0.95)]]
    listener, _ = voice(ko_pack, pcm, answers, speaker=speaker)
    with listener:
        heard = listener.listen(Prompt("day.vote", seats=(2, 4, 5), deadline=time.monotonic() + FAR))
    assert heard is not None and heard.choice == 4
    # Two misses: "please repeat", then "use the keypad"; the third miss is not spoken.
    assert speaker.keys() == ["prompt.repeat", "prompt.use_keypad"]


def test_speech_while_the_narrator_speaks_is_ignored(ko_pack: VoicePack) -> None:
    """The narrator's line is timed from the audio's start, not from before the listener was built
    (a slow build let the first burst through); 2 s separate the two bursts."""
    pcm = silence(0.1) + burst(0.3) + silence(2.0) + burst(0.3) + silence(1)
    speaking_until = [float("inf")]  # the narrator speaks from before the microphone opens...
    t0 = time.monotonic()
    listener, model = voice(ko_pack, pcm, [[("넷", 1.0)], [("오", 1.0)]], mute_until=lambda: speaking_until[0])
    with listener:
        speaking_until[0] = time.monotonic() + 0.2  # ...until 0.2 s after it opened (+ the mute tail)
        heard = listener.listen(Prompt("day.vote", seats=(4, 5), deadline=t0 + FAR))
        done = time.monotonic()
    assert heard is not None and heard.choice == 4  # the first scripted answer went to the 2nd burst
    assert len(model.grammars) == 1  # the muted burst never reached the recogniser
    assert done - t0 >= 2.4


def test_at_night_the_microphone_takes_nothing(ko_pack: VoicePack) -> None:
    speaker = RecordingSpeaker()
    listener, model = voice(ko_pack, burst(0.5) + silence(1), [[("사", 1.0)]], speaker=speaker)
    with listener:
        start = time.monotonic()
        assert listener.listen(Prompt("night.seer", seats=(4,), night=True, deadline=start + 0.8)) is None
        assert time.monotonic() - start >= 0.79
    assert model.grammars == [] and speaker.said == []


def test_missing_words_are_reported_and_left_to_the_keypad(ko_pack: VoicePack) -> None:
    model = ScriptedModel(VOCAB)
    missing = missing_words(model, ko_pack)
    assert "아무도" in missing and "여섯" in missing and "사" not in missing
    listener = VoiceListener(model, ko_pack, FakeAudioSource(), missing=missing)
    grammar = listener.grammar_for(Prompt("p", seats=(4, 6), words=("nobody",)))
    assert grammar.phrases == {"사": 4, "넷": 4}
    assert set(grammar.unavailable) == {"육", "여섯", "아무도"}


# --- confirmation of risky choices -----------------------------------------------------------

def test_a_risky_choice_is_read_back_and_no_cancels_it() -> None:
    inner = ScriptedListener({
        "day.vote": [Heard(3, "voice"), Heard(5, "voice")],
        "day.vote.confirm": [Heard(7, "keypad"), Heard("no", "voice"), None],
    })
    speaker = RecordingSpeaker()
    heard = ConfirmingListener(inner, speaker).listen(Prompt("day.vote", seats=(3, 5, 7), risky=True))
    assert heard == Heard(5, "voice")
    assert [(c.key, dict(c.slots)) for c, _, _ in speaker.said] == [
        ("vote.confirm", {"seat": 3}), ("vote.cancelled", {}), ("vote.confirm", {"seat": 5})]
    assert [p.name for p in inner.prompts] == ["day.vote", "day.vote.confirm", "day.vote.confirm",
                                               "day.vote", "day.vote.confirm"]
    assert inner.prompts[1].words == ("yes", "no")
    assert inner.unused() == {}


def test_not_risky_or_nobody_is_not_confirmed() -> None:
    speaker = RecordingSpeaker()
    inner = ScriptedListener({"a": [Heard(3)], "b": [Heard("nobody")]})
    c = ConfirmingListener(inner, speaker)
    assert c.listen(Prompt("a", seats=(3,))) == Heard(3)
    assert c.listen(Prompt("b", seats=(3,), words=("nobody",), risky=True)) == Heard("nobody")
    assert speaker.said == []


def test_the_countdown_runs_in_real_time_and_then_the_choice_stands(ko_pack: VoicePack) -> None:
    """Bounded by "long before the deadline", not by "< 3 s", which a loaded machine can break."""
    # First a spoken "사", then nothing: the read-back's countdown runs out and 4 stands.
    listener, model = voice(ko_pack, silence(0.1) + burst(0.3) + silence(3), [[("사", 1.0)]])
    speaker = RecordingSpeaker(seconds_per_line=0.2)
    with listener:
        listener.speaker = speaker
        start = time.monotonic()
        heard = ConfirmingListener(listener, speaker, countdown=0.5).listen(
            Prompt("chain.hunter", seats=(2, 4), risky=True, deadline=start + FAR))
        took = time.monotonic() - start
    assert heard is not None and heard.choice == 4
    assert speaker.keys() == ["vote.confirm"]
    assert 0.5 + 0.2 + 0.4 <= took < FAR / 2
    assert len(model.grammars) == 1  # nobody spoke during the countdown


# --- keypad and voice at once ------------------------------------------------------------------

def test_keypad_and_voice_at_once_first_answer_wins(ko_pack: VoicePack) -> None:
    """The keys are typed before the prompt opens (kept by day), so the keypad
    is first by a second of audio, not by a timer racing the voice; no "< 1 s" bound."""
    master, slave = pty.openpty()
    try:
        keypad = KeypadListener(fd=slave, echo=lambda s: None)
        # Voice would answer after about 1.6 s; the keypad answers at once.
        listener, _ = voice(ko_pack, silence(1.0) + burst(0.3) + silence(2), [[("사", 1.0)]])
        with listener, keypad:
            either = EitherListener([keypad, listener])
            os.write(master, b"2\r")
            heard = either.listen(Prompt("day.vote", seats=(2, 4), deadline=time.monotonic() + FAR))
            assert heard == Heard(2, source="keypad", text="2")
            # Next prompt: nobody types, the voice answers.
            heard = either.listen(Prompt("day.vote", seats=(2, 4), deadline=time.monotonic() + FAR))
            assert heard is not None and heard.source == "voice" and heard.choice == 4
    finally:
        os.close(master)
        os.close(slave)


def test_either_listener_passes_errors_on() -> None:
    class Broken:
        def listen(self, prompt: Prompt, cancel: threading.Event | None = None) -> Heard | None:
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        EitherListener([ScriptedListener(lambda p: None), Broken()]).listen(Prompt("p", deadline=time.monotonic() + 1))
