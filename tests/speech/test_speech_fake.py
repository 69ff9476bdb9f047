"""The fake speaker's line lengths are close to the real voice's, so timelines are realistic."""

from __future__ import annotations

from pathlib import Path

import pytest

from narrator.fakes import Timeline, TimelineSpeaker, estimated_duration
from narrator.clock import VirtualClock
from narrator.packs import load_pack
from narrator.ports import Cue, Speaker
from wavcheck import espeak_ng_seconds


def test_timeline_speaker_records_lines_and_returns_their_end() -> None:
    clock = VirtualClock(100.0)
    timeline = Timeline(clock)
    speaker: Speaker = TimelineSpeaker(load_pack("en"), timeline)
    end = speaker.say(Cue("day.death", {"seat": 4}))
    assert timeline.entries == [{"t": 100.0, "kind": "say", "key": "day.death", "text": "Seat 4.", "phase": ""}]
    assert end == 100.0 + estimated_duration("Seat 4.")


@pytest.mark.slow
def test_estimates_are_close_to_espeak(tmp_path: Path) -> None:
    """The real lengths come from the espeak-ng command line (synchronous), so a loaded machine
    cannot make them wrong. Through pyttsx3 this failed once in four loaded runs: a lost rate
    change (fixed in render.py; see test_speech_render, which checks the pyttsx3 lengths against
    the same command line)."""
    pack = load_pack("en")
    for key in ("night.falls", "seer.wake", "witch.wake", "werewolves.sleep", "vote.start"):
        text = pack.lines[key][0]
        real = espeak_ng_seconds(text, pack.voice, pack.rate, tmp_path)
        assert abs(estimated_duration(text, pack.rate) - real) < 0.3 * real, (key, real)


def test_the_silent_speakers_are_one_speaker() -> None:
    """Text mode, --no-audio and timelines: one silent speaker, the same line lengths, paced alike;
    only what each shows of a line differs."""
    import argparse
    import io

    from narrator.speech.estimated import EstimatedSpeaker
    from narrator.table.sound import open_table_speaker
    from narrator.table.text import text_speaker

    pack, clock, cue = load_pack("en"), VirtualClock(10.0), Cue("night.falls")
    out = io.StringIO()
    timeline = Timeline(clock)
    speakers: list[Speaker] = [open_table_speaker(pack, clock, argparse.Namespace(no_audio=True), 0.5),
                               text_speaker(pack, clock, out, pace=0.5), TimelineSpeaker(pack, timeline, scale=0.5)]
    assert all(isinstance(s, EstimatedSpeaker) for s in speakers)
    assert {s.say(cue, at=12.0) for s in speakers} == {12.0 + 0.5 * estimated_duration(pack.text(cue), pack.rate)}
    assert out.getvalue() == f"  » {pack.text(cue)}\n"
    assert [e["t"] for e in timeline.entries] == [12.0]
    for s in speakers:
        s.close()  # in the port: nothing to release
