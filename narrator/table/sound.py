"""The table's voice: the real speaker (speech over ambience) unless `--no-audio` asks for silence."""

from __future__ import annotations

import argparse
from typing import Iterable

from narrator.packs import VoicePack
from narrator.ports import Clock, Cue, Speaker


def add_sound_arguments(p: argparse.ArgumentParser) -> None:
    from narrator.speech.cli import add_audio_arguments

    add_audio_arguments(p)
    p.add_argument("--no-audio", action="store_true", help="say nothing aloud: the lines are only shown (--text is silent anyway)")


def open_table_speaker(pack: VoicePack, clock: Clock, args: argparse.Namespace, pace: float) -> Speaker:
    """The AudioSpeaker the options ask for; no device gives one line naming --text, --no-audio and doctor."""
    if getattr(args, "no_audio", False):
        from narrator.speech.estimated import EstimatedSpeaker

        return EstimatedSpeaker(pack, clock, pace)
    from narrator.speech.cli import open_from_args

    speaker: Speaker = open_from_args(pack, args)
    return speaker


class SpeakingTracker:
    """Passes lines to a speaker and remembers until when it speaks (the microphone's mute)."""

    def __init__(self, inner: Speaker) -> None:
        self.inner = inner
        self.until = 0.0

    def say(self, cue: Cue, at: float | None = None) -> float:
        end = self.inner.say(cue, at)
        self.until = max(self.until, end)
        return end

    def prepare(self, cues: Iterable[Cue]) -> None:
        self.inner.prepare(cues)

    def busy_until(self) -> float:
        return self.until

    def close(self) -> None:
        self.inner.close()
