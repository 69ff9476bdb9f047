"""Two nights of a real game through the real audio path; prints a JSON report of its timing.

The sequencer on the real clock, the AudioSpeaker with its ambience into an ALSA file device, a
journal on disk whose syncs may be slowed, and a scripted table that answers at the last moment.
Run in a subprocess with ALSA_CONFIG_PATH and VOICE_OUTFILE set (sounddevice reads the ALSA
configuration when it is first imported) and NARRATOR_CACHE pointing at a cache folder.

    python night_pairs.py STORY JOURNAL SYNC [NIGHTS]
    # SYNC: seconds added to every sync, or "random" (0-100 ms); NIGHTS: 1 or 2 (default)
    python night_pairs.py prepare
    # renders into NARRATOR_CACHE every line the game can say, as the sequencer does before it starts

tests/speech/test_night_audio_secrecy.py renders the lines once (`prepare`: the three stories are
the same table, so the same lines), then plays the three stories once (at the same time, in three
processes, on that cache) and checks both what the sequencer scheduled (wake -> sleep intervals) and what the
recording holds (every night line's onset).
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

from narrator.fakes import Timeline, TimelineDisplay
from narrator.clock import RealClock
from narrator.flow.run import start_game
from narrator.journal import FileJournal
from narrator.flow.script import Script, parse_script, parse_setup
from narrator.flow.sequencer import Sequencer, all_cues
from narrator.packs import load_pack
from narrator.ports import Clock, Heard, Prompt
from narrator.speech.player import MixSettings
from narrator.speech.speaker import LineSource, make_engine, open_speaker
from narrator.speech.render import Renderer

SETUP: dict[str, Any] = {
    "players": 8, "language": "en",
    "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 5: "hunter", 6: "cupid"},
    "options": {"captain_election": "never"},
    "timing": {"cupid": 0.4, "lovers": 0.4, "seer": 0.4, "werewolves": 0.4, "witch": 0.4, "settle": 0.25, "gap": 0.3,
               "suspense": 0.05, "debate": 3, "defence": 0.05, "vote": 0.4, "chain": 0.4},
}
DAY = {"vote_now": True, "eliminate": 6}
# The same table, three hidden stories (see test_night_audio_secrecy.py).
STORIES: dict[str, dict[str, Any]] = {
    "answering": {"nights": [{"cupid": [7, 8], "seer": 2, "werewolves": 5, "witch": {"heal": True, "poison": 1}},
                             {"seer": 3, "werewolves": 8, "witch": {"heal": True, "poison": 7}}], "days": [DAY]},
    "silent": {"nights": [{}, {}], "days": [DAY]},
    "witch_dead": {"nights": [{"cupid": [7, 8], "seer": 3, "werewolves": 4}, {"seer": 2, "werewolves": 8}], "days": [DAY]},
}
NIGHT_ANSWER = 0.18  # seconds after a question opens: the Witch's second answer comes 40 ms before the deadline
RATE = 300  # words a minute: faster than the pack's calm rate only to keep the run short


class SlowJournal(FileJournal):
    pause: Callable[[], float] = staticmethod(lambda: 0.0)

    def _sync(self, fd: int) -> None:
        wait = self.pause()
        if wait:
            time.sleep(wait)
        super()._sync(fd)


class TimedScript:
    def __init__(self, clock: Clock, script: Script) -> None:
        self.clock = clock
        self.script = script

    def listen(self, prompt: Prompt) -> Heard | None:
        heard = self.script.answer(prompt)
        at = self.clock.now() + (NIGHT_ANSWER if prompt.night else 0.02)
        assert prompt.deadline is not None
        if heard is None or at > prompt.deadline:
            self.clock.sleep_until(prompt.deadline)
            return None
        self.clock.sleep_until(at)
        return heard


class Stop(Exception):
    pass


def night_onsets(report: dict[str, Any], wav: Path) -> list[list[tuple[str, int]]]:
    """Each night's lines with their onsets in the recorded WAV, in frames from its `night.falls`.

    Each line is found in the recording by cross-correlation near the frame the mixer reported,
    so the onset is the recording's own, not the mixer's word for it.
    """
    from wavcheck import locate, read_wav

    signal, rate = read_wav(wav)
    assert rate == report["sample_rate"]
    out: list[list[tuple[str, int]]] = []
    base = 0
    for line in report["lines"]:
        if not line["phase"].startswith("night."):
            continue
        clip, _ = read_wav(Path(line["path"]))
        clip = clip * report["voice_volume"]
        lo = max(0, int(line["frame"]) - rate // 2)
        offset, quality = locate(signal[lo : lo + len(clip) + rate], clip)
        at = lo + offset
        assert quality > 0.9, f"{line['key']} is not in the recording near frame {line['frame']} (match {quality:.2f})"
        if line["key"] == "night.falls":
            base = at
            out.append([])
        out[-1].append((line["key"], at - base))
    return out


def prepare() -> None:
    """Render every line the table's game can say into the cache, as `Sequencer.run` does first."""
    setup = parse_setup(SETUP, "SETUP")
    pack = dataclasses.replace(load_pack("en"), rate=RATE)
    synth, voice = make_engine(pack)
    try:
        LineSource(pack, Renderer(synth), voice).prepare(all_cues(pack, start_game(setup), setup.timing))
    finally:
        synth.close()


def main(story: str, journal_path: Path, sync: str, nights: int = 2) -> None:
    rng = random.Random(hash((story, sync)) & 0xFFFF)
    pause: Callable[[], float] = (lambda: rng.uniform(0.0, 0.1)) if sync == "random" else (lambda: float(sync))
    setup = parse_setup(SETUP, "SETUP")
    pack = dataclasses.replace(load_pack("en"), rate=RATE)
    clock = RealClock()
    speaker = open_speaker(pack, mix=MixSettings())
    journal = type("Slow", (SlowJournal,), {"pause": staticmethod(pause)}).create(journal_path)
    journal.append({"kind": "setup", "mode": "test", "seed": 1, "setup": setup.to_record()})
    game = start_game(setup)

    def stop_at_second_dawn(step: int, state: str) -> None:
        if state == "dawn" and game.state.night == nights:
            raise Stop

    timeline = Timeline(clock)
    seq = Sequencer(game, pack, speaker, TimedScript(clock, parse_script(STORIES[story], 8, "SCRIPT")),
                    TimelineDisplay(pack, timeline), clock, journal, random.Random(1), setup.timing, None, stop_at_second_dawn)
    try:
        seq.run()
    except Stop:
        pass
    finally:
        journal.close()
    speaker.wait()
    mixer = speaker.player.mixer
    started = {s.token: s.frame for s in mixer.started}
    rendered = speaker.renderer.rendered
    # Each line as the sequencer got it back (`start`, `end`: the clock times its frames are heard at)
    # and as the mixer started it (`frame`).
    lines = [{"key": line.cue.key, "phase": line.cue.phase, "token": line.token, "frame": started.get(line.token),
              "start": line.start, "end": line.end, "path": str(speaker.renderer.path(line.text, speaker.settings))}
             for line in speaker.log]
    keys = {line.token: line.cue.key for line in speaker.log}
    report = {"sample_rate": mixer.sample_rate, "block": speaker.player.BLOCK, "voice_volume": mixer.settings.voice_volume,
              "lines": lines, "rendered": rendered, "late": [[keys.get(token, "?"), asked, given] for token, asked, given in mixer.late]}
    speaker.close()
    json.dump(report, sys.stdout)


if __name__ == "__main__":
    if sys.argv[1:] == ["prepare"]:
        prepare()
        sys.exit()
    main(sys.argv[1], Path(sys.argv[2]), sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 2)
