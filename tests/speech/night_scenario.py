"""Plays a whole night through the real AudioSpeaker into an ALSA file device; prints a JSON report.

Run in a subprocess with ALSA_CONFIG_PATH and VOICE_OUTFILE set (sounddevice reads the ALSA
configuration when it is first imported), and NARRATOR_CACHE pointing at a temporary folder.
NIGHT_ENGINE (espeak, piper) picks the engine; NIGHT_RECORDED names a recorded pack to say the
lines it has (with NARRATOR_DATA pointing at it).
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import time

from narrator.packs import load_pack
from narrator.ports import Cue
from narrator.speech.player import MixSettings
from narrator.speech.speaker import open_speaker

# (cue key, seconds of silence after the line): a first night with the Seer, the Werewolves and
# the Witch, each with a short turn, then dawn.
# The pauses after wake lines are long enough for the bed to come fully back (hold + release).
NIGHT = [
    ("night.falls", 1.4),
    ("seer.wake", 1.4),
    ("seer.sleep", 0.3),
    ("werewolves.wake", 1.4),
    ("werewolves.sleep", 0.3),
    ("witch.wake", 1.4),
    ("witch.sleep", 0.3),
    ("day.dawn", 0.8),
]
# Faster than the pack's calm 150 words a minute only to keep the test short; the audio path
# is the same.
RATE = 210


def main() -> None:
    pack = dataclasses.replace(load_pack("en"), rate=RATE)
    recorded = None
    if os.environ.get("NIGHT_RECORDED"):
        from narrator.speech.recorded import RecordedPack

        recorded = RecordedPack.open("en", os.environ["NIGHT_RECORDED"])
    speaker = open_speaker(pack, mix=MixSettings(), engine=os.environ.get("NIGHT_ENGINE") or None, recorded=recorded)
    cues = [Cue(key) for key, _ in NIGHT]
    speaker.prepare(cues)
    after_first = speaker.renderer.rendered
    speaker.prepare(cues)  # everything is cached now: nothing may be rendered again
    after_second = speaker.renderer.rendered
    speaker.set_ambience("day")
    time.sleep(1.0)  # the day bed rises, then night falls over it
    for cue, pause in zip(cues, (p for _, p in NIGHT)):
        end = speaker.say(cue)
        time.sleep(max(0.0, end - time.monotonic()) + pause)
    speaker.wait()
    rendered_during_night = speaker.renderer.rendered - after_second
    mixer = speaker.player.mixer
    lines = [
        {"key": line.cue.key, "text": line.text, "token": line.token, "path": str(line.path), "source": line.source}
        for line in speaker.log
    ]
    started = {s.token: s.frame for s in mixer.started}
    report = {
        "sample_rate": mixer.sample_rate,
        "ambience_volume": mixer.settings.ambience_volume,
        "crossfade": mixer.settings.crossfade,
        "attack": mixer.settings.attack,
        "hold": mixer.settings.hold,
        "release": mixer.settings.release,
        "voice_volume": mixer.settings.voice_volume,
        "duck_gain": mixer.duck_gain,
        "lines": [dict(line, frame=started[line["token"]]) for line in lines],
        "rendered_first_prepare": after_first,
        "rendered_second_prepare": after_second - after_first,
        "rendered_during_night": rendered_during_night,
        "frames": mixer.frames,
    }
    speaker.close()
    json.dump(report, sys.stdout)


if __name__ == "__main__":
    main()
