"""`narrator assist`: ambience and the caller for a human narrator who runs the game themself.

The program calls the night in order with the fixed turn lengths and keeps the day's timer with
spoken warnings; it tracks no roles and no deaths. Keys: Enter or + next, - back, / pause,
* repeat; c calls a call made only when due (asked before it: Enter skips it).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Callable, Iterable, TextIO

from narrator.flow.sequencer import debate_cue, time_left_cue
from narrator.flow.timing import Timing
from narrator.packs import VoicePack
from narrator.ports import Clock, Cue, Speaker
from narrator.roles import NIGHT_ELECTION_ORDER, Call, Schedule, night_calls
from narrator.rules import Options, Role
from narrator.i18n import tr
from narrator.table.keys import KeySource

KEYS = {"\n": "next", "+": "next", "n": "next", "-": "back", "b": "back", "/": "pause", "p": "pause",
        "*": "repeat", "r": "repeat", "q": "quit", "c": "call"}


def help_line() -> str:
    """The keys, in the table's language."""
    return tr("Enter/+ next   - back   / pause   * repeat   q quit")


@dataclass(frozen=True)
class Step:
    """One line, then a wait: seconds (a turn), None (until Enter), or the debate timer.

    `call`: the night call whose line it is (its name is shown in the table's language);
    `optional`: a call made only after a public fact the assistant does not track (the Devoted
    Servant's new card): the narrator says whether it is due before it is made."""

    cue: Cue
    wait: float | None
    label: str
    night: int
    debate: bool = False
    call: str | None = None
    optional: bool = False

    @property
    def when(self) -> str:
        """"night 2" for the night's calls, "day 2" for the day after it."""
        return tr("day {day}", day=self.night) if self.cue.phase.startswith("day.") else tr("night {night}", night=self.night)

    def text(self, pack: VoicePack) -> str:
        """The step's label, the call's name in the table's language."""
        return tr("{call}: {label}", call=pack.call_name(self.call), label=self.label) if self.call else self.label


def calls_tonight(night: int, possible: Iterable[Role], options: Options) -> list[Call]:
    """The catalogue's night calls made on night `night` when these roles are possible, in the
    merged night order (as the sequencer makes them: `narrator.flow.sequencer.Sequencer._call_due`),
    the public fact of a `due` call left to the narrator (see `Step.optional`)."""
    roles = set(possible)
    made: list[Call] = []
    for call in night_calls():
        if call.schedule is Schedule.AFTER:
            if any(c.name == call.after for c in made):
                made.append(call)
            continue
        if not call.always and call.role not in roles:
            continue
        if call.nights is not None and not call.nights(options, night):
            continue
        if call.schedule is Schedule.FIRST_NIGHT and night != 1:
            continue
        made.append(call)
    return made


def night_steps(night: int, possible: Iterable[Role], timing: Timing, options: Options) -> list[Step]:
    """The calls of one night in the order the sequencer uses, each with its wake line and turn."""
    steps = [Step(Cue("night.falls", phase="night.falls"), timing.gap, tr("night falls"), night)]
    election = night == 1 and options.captain_election == "night1_end"
    for call in calls_tonight(night, possible, options):
        if election and call.order > NIGHT_ELECTION_ORDER:
            election = False
            steps.append(Step(Cue("day.dawn", phase="day.captain"), None, tr("Captain election: run it, then Enter"), night))
            steps.append(Step(Cue("night.falls", phase="night.falls"), timing.gap, tr("night falls"), night))
        phase = f"night.{call.name}"
        optional = call.due is not None
        steps.append(Step(Cue(call.wake(options, night), phase=phase), timing.turn(call.name), tr("awake"), night,
                          call=call.name, optional=optional))
        steps.append(Step(Cue(f"{call.name}.sleep", phase=phase), timing.gap, tr("asleep"), night, call=call.name,
                          optional=optional))
    steps.append(Step(Cue("day.dawn", phase="day.morning"), None, tr("morning: announce the deaths, then Enter"), night))
    steps.append(Step(debate_cue(timing.debate), timing.debate, tr("debate"), night, True))
    steps.append(Step(Cue("vote.start", phase="day.vote"), None, tr("vote: run it, then Enter"), night))
    steps.append(Step(Cue("day.dusk", phase="day.dusk"), timing.gap, tr("dusk"), night))
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
            if step.optional and step.cue.key != f"{step.call}.sleep":
                asked = self.ask_due(step)
                if asked == "quit":
                    return
                if asked == "skip":
                    i += 2  # its wake and sleep lines
                    continue
            self.show(f"[{step.when}] {step.text(self.pack)}")
            result = self.play(step)
            if result == "quit":
                return
            i = max(0, i - 1) if result == "back" else i + 1

    def ask_due(self, step: Step) -> str:
        """Whether a call made only after a public fact is due tonight: c calls it, Enter skips it."""
        self.show(tr("[{when}] {call}: called only when due tonight; c to call it, Enter to skip it", when=step.when,
                     call=self.pack.call_name(step.call or '')))
        while True:
            command = self.key(None)
            if command in ("call", "quit"):
                return command
            if command == "next":
                return "skip"

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
            self.out.write("\r  " + tr("{time} left", time=f"{left // 60}:{left % 60:02d}") + " ")
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
                self.show(tr("[{when}] * {step}: said again", when=step.when, step=step.text(self.pack)))
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
        self.show(tr("paused: / or Enter to go on"))
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
                self.show(tr("[debate] * time left"))
                self.say(time_left_cue(end - self.clock.now()))
            elif command == "pause":
                shift = self.pause()
                if shift is None:
                    return "quit"
                end += shift


def run_assist(language: str, roles: Iterable[Role], timing: Timing, options: Options, keys: KeySource,
               speaker_factory: Callable[[VoicePack, Clock], Speaker] | None = None, out: TextIO = sys.stdout,
               pace: float = 1.0) -> None:
    """`pace`: how long a printed line lasts, as a share of the time to say it (the config's speech_scale)."""
    from narrator.clock import RealClock
    from narrator.packs import load_pack
    from narrator.table.text import text_speaker

    pack = load_pack(language)
    clock = RealClock()
    speaker = speaker_factory(pack, clock) if speaker_factory else text_speaker(pack, clock, out, pace)
    out.write(tr("narrator assist: you run the game; I call the night. {keys}", keys=help_line()) + "\n")
    try:
        Assistant(pack, speaker, clock, keys, roles, timing, options, out, captions=speaker_factory is not None).run()
    finally:
        speaker.close()  # the last line ends, the ambience fades, the stream closes
