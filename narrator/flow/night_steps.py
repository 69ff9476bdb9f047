"""The sequencer's night steps: night falls, each role's call and its turn, the night's Captain election.

Each function is a method of `Sequencer` (bound in narrator/flow/sequencer.py), written with
`self: Sequencer`; moved whole from the class, with its name.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, TYPE_CHECKING, cast

from narrator.ports import Cue, Heard, JournalError, Prompt
from narrator.roles import Call
from narrator.roles.base import NightTurn, PanelLine, powerless_turn
from narrator.rules import Phase, hooks

if TYPE_CHECKING:
    from narrator.flow.sequencer import Sequencer


def do_night_falls(self: Sequencer) -> None:
    self._opening()
    if self.game.state.phase is not Phase.NIGHT:
        self.game.begin_night()
    end = self._line(Cue("night.falls", phase="night.falls"))
    if not self.fast:
        self.hold = end


def _take_due(self: Sequencer) -> float | None:
    due, self.due = self.due, None
    return due


def _line(self: Sequencer, cue: Cue, at: float | None = None) -> float:
    """Start a line (at clock time `at`, or when the step's first line is due, or now) and
    return when it will end, without waiting for it (the night's schedule)."""
    if self.fast:
        return self.clock.now()
    self.last_cue = cue
    due = self._take_due()
    return self.speaker.say(cue, at if at is not None else due)


def _night_call(self: Sequencer, call: str, wake: str, turn: NightTurn, finish: Callable[[list[Heard]], None]) -> None:
    """Wake line, a turn of fixed length, sleep line: the same for every hidden state.

    Every moment of the call is fixed on the clock before it starts: the panel opens when the
    wake line ends, the turn ends `turn(call)` seconds later whatever is typed, and the sleep
    line starts `settle` seconds after that. Both lines are queued `queue_lead` ahead with
    their time, which the speaker keeps to the audio frame (`Speaker.say(cue, at)`). Answers
    are journaled as they come (during the turn); after the deadline only the same pure work is
    done for every call (the engine is given the last answers standing, the panel is cleared),
    and the step's record is written while the sleep line plays (see `_run_step`). A slow disk
    can move nothing the table hears.
    """
    phase = f"night.{call}"
    wake_at = self.due  # the wake line is queued ahead, to start then (see `_line`)
    wake_end = self._line(Cue(wake, phase=phase))
    if not self.fast:
        if wake_at is not None:
            self.wait_until(wake_at)  # keys typed before the wake line starts are not its turn's
        self._too_early(call, wake_end)
    self.wait_until(wake_end)
    deadline = wake_end + self.timing.turn(call)
    answers = self._turn(turn, deadline)
    finish(answers)
    if not self.fast:
        self.display.clear_private()
        self.clock.sleep_until(deadline + self.timing.settle - self.queue_lead)
    sleep_end = self._line(Cue(f"{call}.sleep", phase=phase), at=deadline + self.timing.settle)
    if not self.fast:
        self.hold = sleep_end + self.timing.gap


def _too_early(self: Sequencer, call: str, wake_end: float) -> None:
    """Listen during the wake line: keys typed before the panel opens are not taken (a key
    typed then may be the previous role's, late); the panel's note says so to every role."""
    prompt = Prompt(f"night.{call}.early", night=True, deadline=wake_end, number=self.game.state.night, idle=True)
    while self.listener.listen(prompt) is not None:
        pass


def _turn(self: Sequencer, turn: NightTurn, deadline: float) -> list[Heard]:
    """The role's answers until the deadline; the last ones standing are returned.

    Each accepted input (an answer, or `-` taking the last one back) is journaled at once,
    then echoed on the panel; refused keys get silent feedback on the panel. On resume the
    journaled inputs are fed again in order.
    """
    answers: list[Heard] = []
    number = self.game.state.night
    shown = False
    kept: list[str] = []
    while True:
        prompt = turn.prompt(answers, deadline, number)
        if self.preloaded:
            name, heard = self.preloaded.pop(0)
            if heard is None:
                continue  # night turns always run to their deadline: nothing to place
            if name != prompt.name or not prompt.allows(heard.choice):
                raise JournalError(
                    "the journal does not match the game at step {step} ({state}): it answers {name!r} with {choice!r} "
                    "where the game asks {name2!r}",
                    step=self.step, state=self.state, name=name, choice=heard.choice, name2=prompt.name
                )
            turn.take(answers, heard)
            kept.append(str(heard.choice))
            continue
        if self.fast:
            return answers
        if not shown:
            self._show_turn(turn, answers)
            if kept:
                # The turn cut off by the stop runs again: its role sees what it had typed.
                self.display.feedback("input.kept", {"reason": ", ".join(kept)})
            if turn.question(answers) is not None:
                # The same note whether or not keys came during the wake line: saying it only
                # then would tell the woken role that someone (maybe the role before) typed.
                self.display.feedback("input.too_early", {})
            shown = True
        heard = self.listener.listen(prompt)
        if heard is None:
            return answers
        if not prompt.allows(heard.choice):
            if heard.choice == "no" and not answers:
                self.display.feedback("input.nothing_to_undo", {})  # not "Not possible: -."
            elif heard.choice == "pause":
                # A night turn keeps its length whatever is typed (docs/secrecy.md): `/` says so.
                self.display.feedback("input.no_pause", {})
            elif answers and turn.final:
                # A final answer (the Seer's look, the Fox's sniff): `-` and any key after it
                # get the same one message, never "to change it, press -".
                self.display.feedback("input.final", {})
            elif turn.question(answers) is None:
                self.display.feedback("input.change" if answers else "input.nothing", {})
            else:
                self.display.feedback("input.refused", {"reason": heard.text or str(heard.choice)})
            continue
        self.journal.append(
            {"kind": "input", "n": self.step, "prompt": prompt.name, "choice": heard.choice, "source": heard.source}
        )
        turn.take(answers, heard)
        self._show_turn(turn, answers)


def _show_turn(self: Sequencer, turn: NightTurn, answers: list[Heard]) -> None:
    (key, slots), *more = turn.panel(answers)
    self.display.show_private(key, slots, more)


def _panel(self: Sequencer, key: str, **slots: Any) -> None:
    if not self.fast:
        self.display.show_private(key, slots)


def _night_prompt(self: Sequencer, call: str, deadline: float, seats: Iterable[int] = (), words: Iterable[str] = ()) -> Prompt:
    return Prompt(f"night.{call}", tuple(seats), tuple(words), night=True, deadline=deadline, number=self.game.state.night)


def do_call(self: Sequencer, call: Call) -> None:
    """The one night call every role's declaration drives (narrator/roles/<role>.py)."""
    tonight = call.run(self.game, self.rng)
    extra = [line for lines in hooks.PANEL.get(call.name, ()) for line in lines(self.game)]
    if extra:
        # Private lines other roles add to this call's panel (the pack's: a Wild Child turned).
        panel = tonight.turn.panel
        tonight.turn.panel = lambda answers: [*panel(answers), *cast(list[PanelLine], extra)]
    turn = tonight.turn
    holder = self.game.living_holder(call.role)
    if call.by_holder and holder is not None and not self.game.powered(holder):
        # Powers lost: the same call, the same questions; the engine ignores the answers.
        turn = powerless_turn(turn)
    self._night_call(call.name, tonight.wake, turn, tonight.finish)


def do_night_election(self: Sequencer) -> None:
    self.say(Cue("day.dawn", phase="day.captain"))
    self._election()
    end = self._line(Cue("night.falls", phase="night.falls"))
    if not self.fast:
        self.hold = end
