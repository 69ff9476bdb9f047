"""The listener learns the room's running speech level ACROSS prompts, from the stream it reads all
the time, so that table talk at a prompt's start is not taken as an answer: a prompt's first half
second is judged against the level already known (when each prompt learned it from nothing, every
table-talk utterance still taken began in its first 0.5 s). The fakes of narrator/fakes.py and
narrator/listening/fake.py; stream times and conditions, no wall clock."""

from __future__ import annotations

import threading

import numpy as np

from narrator.fakes import FakeAudioSource
from narrator.listening.audio import BYTES_PER_SECOND, RATE
from narrator.listening.fake import ScriptedModel
from narrator.listening.rejection import MIN_ROOM_SECONDS, ROOM_WINDOW, STAND_OUT, RoomLevel
from narrator.listening.vosk_listener import Detector, Recognised, VoiceListener, hear_room, missing_words
from narrator.packs import VoicePack
from narrator.ports import Prompt

CONFIRM = Prompt("day.vote.confirm", words=("yes", "no"))
CHUNK = 800 * 2  # bytes in one 50 ms chunk


def noise(seconds: float, level: float, seed: int) -> bytes:
    """Uniform noise at this RMS (16-bit): a burst the voice detector calls speech, or the table."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1.0, 1.0, int(seconds * RATE)) * level * np.sqrt(3.0)
    return bytes(np.clip(x, -32768, 32767).astype("<i2").tobytes())


def test_the_room_level_is_the_last_window_heard_and_forgets_old_rooms() -> None:
    room = RoomLevel()
    assert room.level(0.0) == 0.0  # nothing heard: not known, the rule does not act
    hear_room(room, noise(ROOM_WINDOW + 2.0, 800.0, 1), ends_at=10.0)
    assert 700.0 < room.level(10.0) < 900.0
    # Only the last ROOM_WINDOW seconds count: a quiet room after a loud one is a quiet room.
    hear_room(room, noise(ROOM_WINDOW, 100.0, 2), ends_at=10.0 + ROOM_WINDOW)
    assert room.level(10.0 + ROOM_WINDOW) < 120.0
    # A room heard more than a minute ago is no longer the room.
    assert room.level(10.0 + ROOM_WINDOW + room.memory + 1.0) == 0.0


def test_a_prompt_opens_knowing_the_room_heard_before_it() -> None:
    """Two prompts' detectors share one room: the second's first utterance, 0.3 s in (less than
    the MIN_ROOM_SECONDS a fresh detector needs), is measured against the table heard before."""
    model = ScriptedModel(["네"], [[("네", 1.0)], [("네", 1.0)]])
    quiet, burst = noise(0.3, 60.0, 3), noise(0.4, 1500.0, 4)
    assert 0.3 < MIN_ROOM_SECONDS

    def first_utterance(detector: Detector, pcm: bytes) -> float:
        for pos in range(0, len(pcm), CHUNK):
            utt = detector.feed(pcm[pos:pos + CHUNK], 100.0 + (pos + CHUNK) / BYTES_PER_SECOND)
            if utt is not None:
                return utt.room
        raise AssertionError("no utterance")

    fresh = Detector(lambda: model.recognizer(["네"]))
    assert first_utterance(fresh, quiet + burst + noise(0.6, 60.0, 5)) == 0.0  # not known yet
    room = hear_room(RoomLevel(), noise(ROOM_WINDOW, 1000.0, 6), ends_at=100.0)
    carried = Detector(lambda: model.recognizer(["네"]), room=room)
    assert first_utterance(carried, quiet + burst + noise(0.6, 60.0, 5)) > 900.0


def test_the_listener_refuses_talk_at_a_prompts_opening_by_the_level_heard_between_prompts(ko_pack: VoicePack) -> None:
    """The table talks while no prompt listens (the listener reads the stream all the time); a
    read-back prompt opens and, 0.3 s in, an utterance no louder than that talk is heard as "네".
    It is refused as table talk: the listener already knew the room. (Learned afresh at each
    prompt, the room was not known 0.3 s in and the "네" was taken.)"""
    table = noise(1.0, 1000.0, 7)  # a second of it: more than MIN_ROOM_SECONDS
    source = FakeAudioSource(table, then_silence=False)  # real time: the silence that ends an utterance
    model = ScriptedModel(["네", "아니요"], [[("네", 1.0)]])
    said: list[Recognised] = []
    done = threading.Event()
    room_heard = threading.Event()

    def observe(r: Recognised) -> None:
        said.append(r)
        done.set()

    def on_listening(on: bool) -> None:
        if on:  # the prompt is open: the talk goes on, a little louder, but no answer
            source.add(noise(0.3, 300.0, 8) + noise(0.5, 1.5 * 1000.0, 9) + noise(0.6, 300.0, 10))

    listener = VoiceListener(model, ko_pack, source, missing=missing_words(model, ko_pack),  # type: ignore[arg-type]
                             observer=observe, on_listening=on_listening)
    with listener:
        while listener.chunks < len(table) // CHUNK:  # every chunk of the talk read, no prompt open
            room_heard.wait(0.01)
        heard = listener.listen(CONFIRM, cancel=done)
    assert heard is None
    assert [(r.heard, r.choice, r.reason) for r in said] == [("네", None, "does not stand out from the table")]
    assert 1.5 < STAND_OUT
