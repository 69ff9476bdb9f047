"""The fake speaker's line lengths are close to the real voice's, so timelines are realistic."""

from __future__ import annotations

import wave
from pathlib import Path

from narrator.fakes import Timeline, TimelineSpeaker, estimated_duration
from narrator.flow.clock import VirtualClock
from narrator.packs import load_pack
from narrator.ports import Cue, Speaker
from narrator.speech.render import Pyttsx3Synth, Renderer, VoiceSettings


def test_timeline_speaker_records_lines_and_returns_their_end() -> None:
    clock = VirtualClock(100.0)
    timeline = Timeline(clock)
    speaker: Speaker = TimelineSpeaker(load_pack("en"), timeline)
    end = speaker.say(Cue("day.death", {"seat": 4}))
    assert timeline.entries == [{"t": 100.0, "kind": "say", "key": "day.death", "text": "Seat 4.", "phase": ""}]
    assert end == 100.0 + estimated_duration("Seat 4.")


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
            assert abs(estimated_duration(text, pack.rate) - real) < 0.3 * real, (key, real)
    finally:
        synth.close()
