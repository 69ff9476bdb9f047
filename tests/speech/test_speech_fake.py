"""The fake speaker: a timeline with no audio, durations close to the real voice."""

from __future__ import annotations

import wave
from pathlib import Path

from narrator.packs import load_pack
from narrator.ports import Cue, Speaker
from narrator.speech.fake import TimelineSpeaker, estimate_seconds
from narrator.speech.render import Pyttsx3Synth, Renderer, VoiceSettings


class _Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def now(self) -> float:
        return self.t


def test_timeline_lines_follow_each_other() -> None:
    clock = _Clock()
    speaker: Speaker = TimelineSpeaker(load_pack("en"), now=clock.now)
    end1 = speaker.say(Cue("night.falls"))
    end2 = speaker.say(Cue("seer.wake"))  # said before the first ended: it waits its turn
    clock.t = end2 + 5
    end3 = speaker.say(Cue("day.death", {"seat": 4}))
    assert isinstance(speaker, TimelineSpeaker)
    (a, b, c) = speaker.lines
    assert a.start == 100.0 and a.end == end1 and b.start == end1 and b.end == end2
    assert c.start == end2 + 5 and c.end == end3 and c.text == "Seat 4."
    assert speaker.timeline()[0][0] == "night.falls"


def test_estimates_are_close_to_espeak(tmp_path: Path) -> None:
    pack = load_pack("en")
    settings = VoiceSettings(pack.voice, pack.rate, pack.volume)
    synth = Pyttsx3Synth()
    try:
        renderer = Renderer(synth, tmp_path)
        for key in ("night.falls", "seer.wake", "witch.wake", "werewolves.sleep", "vote.start"):
            text = pack.lines[key][0]
            with wave.open(str(renderer.ensure(text, settings))) as w:
                real = w.getnframes() / w.getframerate()
            assert abs(estimate_seconds(text, pack.rate) - real) < 0.3 * real, (key, real)
    finally:
        synth.close()
