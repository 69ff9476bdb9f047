"""`narrator assist`: ambience and the caller for a human narrator who runs the game themself.

The program calls the night in order with the fixed turn lengths and keeps the day's timer with
spoken warnings; it tracks no roles and no deaths. Keys: Enter or + next, - back, / pause,
* repeat.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Callable, Iterable, TextIO

from narrator.flow.sequencer import minutes_cue, time_left_cue
from narrator.flow.timing import Timing
from narrator.packs import VoicePack
from narrator.ports import Clock, Cue, Speaker
from narrator.rules import Options, Role
from narrator.table.keys import KeySource

KEYS = {"\n": "next", "+": "next", "n": "next", "-": "back", "b": "back", "/": "pause", "p": "pause",
        "*": "repeat", "r": "repeat", "q": "quit"}
HELP = "Enter/+ next   - back   / pause   * repeat   q quit"


@dataclass(frozen=True)
class Step:
    """One line, then a wait: seconds (a turn), None (until Enter), or the debate timer."""

    cue: Cue
    wait: float | None
    label: str
    night: int
    debate: bool = False

    @property
    def when(self) -> str:
        """"night 2" for the night's calls, "day 2" for the day after it."""
        return f"{'day' if self.cue.phase.startswith('day.') else 'night'} {self.night}"


def night_steps(night: int, possible: Iterable[Role], timing: Timing, options: Options) -> list[Step]:
    """The calls of one night in the order the sequencer uses, every possible role every night."""
    roles = set(possible)
    calls: list[tuple[str, str]] = []
    if night == 1 and Role.THIEF in roles:
        calls.append(("thief", "thief.wake"))
    if night == 1 and Role.CUPID in roles:
        calls += [("cupid", "cupid.wake"), ("lovers", "lovers.wake")]
    if Role.SEER in roles:
        calls.append(("seer", "seer.wake"))
    if night == 1:
        calls.append(("werewolves", "werewolves.wake_first" if options.first_night_kill else "werewolves.wake_meet"))
    else:
        calls.append(("werewolves", "werewolves.wake"))
    if Role.WITCH in roles:
        calls.append(("witch", "witch.wake"))
    steps = [Step(Cue("night.falls", phase="night.falls"), timing.gap, "night falls", night)]
    for call, wake in calls:
        steps.append(Step(Cue(wake, phase=f"night.{call}"), timing.turn(call), f"{call}: awake", night))
        steps.append(Step(Cue(f"{call}.sleep", phase=f"night.{call}"), timing.gap, f"{call}: asleep", night))
    steps.append(Step(Cue("day.dawn", phase="day.morning"), None, "morning: announce the deaths, then Enter", night))
    steps.append(Step(minutes_cue("debate.start", timing.debate), timing.debate, "debate", night, True))
    steps.append(Step(Cue("vote.start", phase="day.vote"), None, "vote: run it, then Enter", night))
    steps.append(Step(Cue("day.dusk", phase="day.dusk"), timing.gap, "dusk", night))
    return steps


class Assistant:
    """Plays the steps night after night; keys move through them."""

    def __init__(
        self,
        pack: VoicePack,
        speaker: Speaker,
        clock: Clock,
        keys: KeySource,
        possible: Iterable[Role],
        timing: Timing | None = None,
        options: Options | None = None,
        out: TextIO | None = None,
        captions: bool = False,
    ) -> None:
        self.pack = pack
        self.speaker = speaker
        self.clock = clock
        self.keys = keys
        self.possible = frozenset(possible)
        self.timing = timing or Timing()
        self.options = options or Options()
        self.out = out
        self.steps: list[Step] = []
        self.pending = ""
        self.last: Cue | None = None
        # The speaker does not print (audio, or --no-audio): print each line, and count down the waits.
        self.captions = captions
        self.shown_left: int | None = None
        self.count_to: float | None = None  # the debate's end, while it runs (its warnings come before)

    def run(self, nights: int | None = None) -> None:
        """Until `nights` nights and their days are done, the input ends, or q is pressed."""
        i = 0
        while True:
            if i >= len(self.steps):
                night = (self.steps[-1].night if self.steps else 0) + 1
                if nights is not None and night > nights:
                    return
                self.steps += night_steps(night, self.possible, self.timing, self.options)
            step = self.steps[i]
            self.show(f"[{step.when}] {step.label}")
            result = self.play(step)
            if result == "quit":
                return
            i = max(0, i - 1) if result == "back" else i + 1

    def show(self, text: str) -> None:
        if self.out is not None:
            if self.shown_left is not None:
                self.out.write("\n")  # the countdown's line stays as it ended
                self.shown_left = None
            self.out.write(text + "\n")
            self.out.flush()

    def say(self, cue: Cue, at: float | None = None) -> float:
        self.last = cue
        if self.captions:
            self.show(f"  » {self.pack.text(cue)}")
        end = self.speaker.say(cue, at)
        self.clock.sleep_until(end)
        return end

    def countdown(self, deadline: float | None) -> None:
        """The time left of the current wait, rewritten in place once a second."""
        if not self.captions or self.out is None or deadline is None:
            return
        left = max(0, int(deadline - self.clock.now() + 0.999))
        if left != self.shown_left:
            self.shown_left = left
            self.out.write(f"\r  {left // 60}:{left % 60:02d} left ")
            self.out.flush()

    def key(self, deadline: float | None) -> str | None:
        """The next command key before the deadline (clock time), or None when it passed."""
        while True:
            if self.pending:
                ch, self.pending = self.pending[0], self.pending[1:]
                if ch in KEYS:
                    return KEYS[ch]
                continue
            wait = None if deadline is None else deadline - self.clock.now()
            if wait is not None and wait <= 0:
                return None
            self.countdown(self.count_to if self.count_to is not None else deadline)
            if wait is not None and self.captions:
                wait = min(wait, 1.0)  # wake up to count down
            chunk = self.keys.read(wait)
            if chunk is None:
                if getattr(self.keys, "closed", False):
                    return "quit"
                if deadline is not None and self.clock.now() >= deadline:
                    return None
                continue
            self.pending += chunk

    def play(self, step: Step) -> str:
        end = self.say(step.cue)
        if step.debate:
            return self.debate(end)
        deadline = None if step.wait is None else end + step.wait
        while True:
            command = self.key(deadline)
            if command is None or command == "next":
                return "next"
            if command in ("back", "quit"):
                return command
            if command == "repeat":
                self.show(f"[{step.when}] * {step.label}: said again")
                end = self.say(step.cue)
                deadline = None if step.wait is None else end + step.wait
            elif command == "pause":
                shift = self.pause()
                if shift is None:
                    return "quit"
                deadline = None if deadline is None else deadline + shift

    def pause(self) -> float | None:
        """Until / (or Enter) again; returns how long the pause lasted."""
        started = self.clock.now()
        self.say(Cue("game.paused", phase="game.pause"))
        self.show("paused: / or Enter to go on")
        while True:
            command = self.key(None)
            if command == "quit":
                return None
            if command in ("pause", "next"):
                break
        self.say(Cue("game.resumed", phase="game.pause"))
        return self.clock.now() - started

    def debate(self, start: float) -> str:
        """The day's timer: spoken warnings at one minute and ten seconds, then time is up."""
        end = start + self.timing.debate
        try:
            return self._debate(end)
        finally:
            self.count_to = None

    def _debate(self, end: float) -> str:
        warnings = [(w, key) for w, key in ((60.0, "debate.one_minute"), (10.0, "debate.ten_seconds")) if w < self.timing.debate]
        while True:
            stop = end - warnings[0][0] if warnings else end
            self.count_to = end
            command = self.key(stop)
            if command is None:
                if warnings:
                    self.say(Cue(warnings.pop(0)[1], phase="day.debate"))
                    continue
                self.say(Cue("debate.end", phase="day.debate"))
                return "next"
            if command in ("next", "back", "quit"):
                return command
            if command == "repeat":
                # What is left of the debate, not its opening line again.
                self.show("[debate] * time left")
                self.say(time_left_cue(end - self.clock.now()))
            elif command == "pause":
                shift = self.pause()
                if shift is None:
                    return "quit"
                end += shift


def run_assist(language: str, roles: Iterable[Role], timing: Timing, options: Options, keys: KeySource,
               speaker_factory: Callable[[VoicePack, Clock], Speaker] | None = None, out: TextIO = sys.stdout) -> None:
    from narrator.clock import RealClock
    from narrator.packs import load_pack
    from narrator.table.text import text_speaker

    pack = load_pack(language)
    clock = RealClock()
    speaker = speaker_factory(pack, clock) if speaker_factory else text_speaker(pack, clock, out)
    out.write(f"narrator assist: you run the game; I call the night. {HELP}\n")
    try:
        Assistant(pack, speaker, clock, keys, roles, timing, options, out, captions=speaker_factory is not None).run()
    finally:
        speaker.close()  # the last line ends, the ambience fades, the stream closes
