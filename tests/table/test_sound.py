"""The table's speaker: silent on request, and one clear line when there is no output device."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from narrator.clock import VirtualClock
from narrator.packs import load_pack
from narrator.ports import Cue
from narrator.speech.estimated import EstimatedSpeaker
from narrator.table.sound import open_table_speaker


def _has_output_device() -> bool:
    code = "import sounddevice as sd; print(any(d['max_output_channels'] > 0 for d in sd.query_devices()))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return out.stdout.strip() == "True"


def test_no_audio_gives_a_silent_paced_speaker() -> None:
    clock = VirtualClock()
    speaker = open_table_speaker(load_pack("en"), clock, argparse.Namespace(no_audio=True), 1.0)
    assert isinstance(speaker, EstimatedSpeaker)
    assert speaker.say(Cue("night.falls")) > 1.0


@pytest.mark.slow
def test_without_an_output_device_one_line_says_how_to_go_on() -> None:
    if _has_output_device():
        pytest.skip("this machine has a sound card; the no-device path cannot be shown here")
    from narrator.speech.cli import add_audio_arguments
    from narrator.speech.player import NoOutputDevice

    parser = argparse.ArgumentParser()
    add_audio_arguments(parser)
    args = parser.parse_args([])
    with pytest.raises(NoOutputDevice) as info:
        open_table_speaker(load_pack("en"), VirtualClock(), args, 1.0)
    message = str(info.value)
    assert "\n" not in message and "--text or --no-audio" in message and "narrator doctor" in message
