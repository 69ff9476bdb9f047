"""How long the physical cards' roll call takes before night 1 (deal mode b): a 12-player deck of
9 roles, on the virtual clock, each line lasting its estimated length in each shipped pack
(`narrator.speech.estimated`, within about 20% of espeak-ng), the turns of the default `[timing]`.

Three tables: everyone answers; one role (the Seer) misses its turn; the Werewolves give one seat
of their three. Each holder types its seats at a random moment in the first third of its turn.
With --espeak, each line lasts as long as espeak-ng takes to say it (its WAV's length, at the
pack's voice and rate) instead of the estimate.
Usage: .venv/bin/python bench/roll_call.py [--espeak]
"""

from __future__ import annotations

import functools
import random
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

from narrator.clock import VirtualClock
from narrator.fakes import Timeline, TimelineDisplay, TimelineSpeaker
from narrator.flow.timing import Timing
from narrator.packs import load_pack
from narrator.ports import Cue, Heard, Prompt
from narrator.rules import Deal, Options, Role, deal
from narrator.table.deal import roll_call

DECK = {Role.WEREWOLF: 3, Role.SEER: 1, Role.WITCH: 1, Role.HUNTER: 1, Role.CUPID: 1, Role.LITTLE_GIRL: 1,
        Role.SAVIOR: 1, Role.FOX: 1, Role.RAVEN: 1, Role.VILLAGER: 1}  # 12 players, 9 roles called


class Holders:
    """The holders of each role type their seats; `miss`: seats a role leaves out in its first turn."""

    def __init__(self, clock: VirtualClock, truth: Deal, rng: random.Random, miss: dict[Role, int]) -> None:
        self.clock, self.truth, self.rng, self.miss = clock, truth, rng, miss
        self.turn: dict[Role, float] = {}  # the deadline of the turn each role is in
        self.typed: dict[Role, list[int]] = {}
        self.plan: dict[Role, list[int]] = {}

    def listen(self, prompt: Prompt) -> Heard | None:
        assert prompt.deadline is not None
        role = Role(prompt.name.split(".")[1])
        if self.turn.get(role) != prompt.deadline:  # a new turn: what this role types in it
            self.turn[role] = prompt.deadline
            mine = [s for s, r in enumerate(self.truth.seats, 1) if r is role]
            if role in self.typed:  # called again: the seats it left out
                self.plan[role] = [s for s in mine if s not in self.typed[role]]
            else:
                self.plan[role] = mine[: len(mine) - self.miss.get(role, 0)]
                self.typed[role] = []
        if not self.plan[role]:
            self.clock.sleep_until(prompt.deadline)
            return None
        self.clock.sleep_until(self.clock.now() + self.rng.uniform(0, (prompt.deadline - self.clock.now()) / 3))
        seat = self.plan[role].pop(0)
        self.typed[role].append(seat)
        return Heard(seat, "keypad", str(seat))


@functools.lru_cache(maxsize=None)
def espeak_seconds(voice: str, rate: int, text: str) -> float:
    """How long espeak-ng takes to say `text`: the length of the WAV it writes."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "line.wav"
        subprocess.run(["espeak-ng", "-v", voice, "-s", str(rate), "-w", str(path), text], check=True)
        with wave.open(str(path)) as w:
            return float(w.getnframes()) / float(w.getframerate())


class EspeakTimelineSpeaker(TimelineSpeaker):
    """The timeline's speaker, each line lasting what espeak-ng takes to say it."""

    def say(self, cue: Cue, at: float | None = None) -> float:
        text = self.pack.text(cue)
        start = self.clock.now() if at is None else max(at, self.clock.now())
        self.timeline.said(cue, text, start)
        return start + espeak_seconds(self.pack.voice, self.pack.rate, text)


def measure(language: str, miss: dict[Role, int], seed: int = 1, espeak: bool = False) -> tuple[float, int]:
    clock = VirtualClock()
    timeline = Timeline(clock)
    pack = load_pack(language)
    truth = deal(12, DECK, random.Random(seed), Options())
    speaker = EspeakTimelineSpeaker(pack, timeline) if espeak else TimelineSpeaker(pack, timeline)
    learnt = roll_call(12, DECK, Options(), speaker, Holders(clock, truth, random.Random(seed), miss),
                       TimelineDisplay(pack, timeline), clock, Timing())
    assert learnt == truth
    wakes = sum(1 for e in timeline.entries if e["kind"] == "say" and e["key"] == "deal.seat_wake")
    return clock.now(), wakes


def main() -> None:
    espeak = "--espeak" in sys.argv[1:]
    print("roll call, 12 players, 9 roles (werewolf=3,seer,witch,hunter,cupid,little_girl,savior,fox,raven),"
          f" default timing, {'espeak-ng' if espeak else 'estimated'} line lengths")
    for language in ("en", "fr", "es", "it", "ko"):
        everyone, calls = measure(language, {}, espeak=espeak)
        seer, calls_seer = measure(language, {Role.SEER: 1}, espeak=espeak)
        wolves, calls_wolves = measure(language, {Role.WEREWOLF: 2}, espeak=espeak)
        print(f"  {language}: everyone answers {everyone:5.1f} s ({everyone / 60:.2f} min, {calls} calls); "
              f"the Seer misses her turn +{seer - everyone:4.1f} s ({calls_seer} calls); "
              f"the Werewolves give 1 seat of 3 +{wolves - everyone:4.1f} s ({calls_wolves} calls)")


if __name__ == "__main__":
    main()
