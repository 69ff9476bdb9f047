"""Resume as an adapter: a journal replayed through the ports, so that the steps never know.

`narrator resume` runs the game again from its setup. While the journal records a step as done,
the ports the steps are given replay it: the listener answers each prompt with the input the
journal accepted for it (in order, checked against the prompt), the speaker says nothing, the
clock jumps instead of waiting, the display draws nothing (it keeps the last board), and the
journal writes nothing (it checks each step's events against the ones it holds). At the first step
the journal does not record as done, the replay catches up: the display draws the board as it
stands, and the ports are the table's again, but for the listener, which first gives that step the
inputs it had accepted before the stop (none written twice; each shown as kept, but a secret vote's
accusations, which would tell who accused whom).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from narrator.ports import (
    Clock, Cue, Display, Heard, Journal, JournalError, Listener, PanelLines, Prompt, PublicBoard, SlotValue, Speaker,
)


@dataclass
class Resume:
    """What a journal says about an interrupted game."""

    # step → its answers in order: (prompt name, the accepted choice, or None when the prompt ran out)
    inputs: dict[int, list[tuple[str, Heard | None]]] = field(default_factory=dict)
    steps: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # step → its events

    @property
    def completed(self) -> int:
        return max(self.steps, default=0)


class Replay:
    """The four ports of a replay, and where the replay stands: the step the game is in, and
    whether the table is back (`live`)."""

    def __init__(self, resume: Resume, speaker: Speaker, listener: Listener, display: Display, clock: Clock,
                 journal: Journal) -> None:
        self.resume = resume
        self.live = resume.completed == 0
        self.step = 0
        self.state = ""
        self.pending: list[tuple[str, Heard | None]] = []  # this step's journaled inputs not given yet
        self.kept: list[str] = []  # the answers given back since the replay caught up, not yet shown as kept
        self.echoes = 0  # inputs given from the journal whose record the game will write again
        self.clock = ReplayClock(self, clock)
        self.speaker = ReplaySpeaker(self, speaker)
        self.display = ReplayDisplay(self, display)
        self.listener = ReplayListener(self, listener)
        self.journal = ReplayJournal(self, journal)

    def begin(self, step: int, state: str) -> bool:
        """Step `step` (the table's step `state`) begins; True when it is the first one the journal
        does not record as done: the replay has caught up, and the table is back."""
        self.show_kept()
        self.step, self.state = step, state
        self.pending = list(self.resume.inputs.get(step, []))
        if self.live or step <= self.resume.completed:
            return False
        self.live = True
        self.display.catch_up()
        return True

    def show_kept(self) -> None:
        """The answers given back from before the stop, on the screen once they are all taken: the
        player whose turn was cut off sees them again (on the private panel at night)."""
        if self.kept:
            self.display.feedback("input.kept", {"reason": ", ".join(self.kept)})
            self.kept = []

    def mismatch(self, name: str, prompt: Prompt, heard: Heard | None) -> JournalError:
        if heard is None:
            return JournalError("the journal does not match the game at step {step} ({state}): it answers {name!r} where "
                                "the game asks {name2!r}", step=self.step, state=self.state, name=name, name2=prompt.name)
        return JournalError("the journal does not match the game at step {step} ({state}): it answers {name!r} with "
                            "{choice!r} where the game asks {name2!r}",
                            step=self.step, state=self.state, name=name, choice=heard.choice, name2=prompt.name)


class ReplayListener:
    """Answers each prompt with the journal's input for it, then (once the replay caught up and
    the step's inputs are all given) listens to the table."""

    def __init__(self, replay: Replay, listener: Listener) -> None:
        self.replay = replay
        self.listener = listener

    def listen(self, prompt: Prompt) -> Heard | None:
        replay = self.replay
        if replay.pending:
            name, heard = replay.pending[0]
            if name == prompt.name:
                if heard is not None and not prompt.allows(heard.choice):
                    raise replay.mismatch(name, prompt, heard)
                replay.pending.pop(0)
                replay.echoes += 1
                if heard is not None and replay.live and not prompt.secret:
                    replay.kept.append(str(heard.choice))  # shown when the table takes over (`show_kept`)
                elif heard is None and prompt.deadline is not None and not replay.live:
                    replay.clock.sleep_until(prompt.deadline)  # it had run out (a kept one goes by at once)
                return heard
            if not prompt.idle:  # an idle prompt (a wake line's, `-` watched after an answer) is no record's
                raise replay.mismatch(name, prompt, heard)
        if replay.live:
            replay.show_kept()
            return self.listener.listen(prompt)
        if prompt.deadline is not None:
            replay.clock.sleep_until(prompt.deadline)  # no answer came: the prompt runs out
        return None


class ReplayJournal:
    """Writes nothing the journal already holds: the inputs given from it, the steps it records
    (their events checked against the game's); nor, while replaying, a prompt running out after
    the inputs it holds for its step (the debate's last minutes, which the table had cut short)."""

    def __init__(self, replay: Replay, journal: Journal) -> None:
        self.replay = replay
        self.journal = journal

    def append(self, record: Mapping[str, Any]) -> None:
        replay = self.replay
        kind = record.get("kind")
        if kind == "step":
            recorded = replay.resume.steps.get(int(record["n"]))
            if recorded is not None:
                if recorded != record["events"]:
                    raise JournalError("the journal does not match the game at step {step} ({state}); it was written "
                                       "by another version or edited", step=record["n"], state=record["state"])
                return
        elif kind == "input" and replay.echoes:
            replay.echoes -= 1
            return
        elif kind == "input" and not replay.live:
            return
        self.journal.append(record)

    def records(self) -> list[dict[str, Any]]:
        return self.journal.records()


class ReplayClock:
    """Jumps instead of waiting while replaying (from the table's time when the replay began)."""

    def __init__(self, replay: Replay, clock: Clock) -> None:
        self.replay = replay
        self.clock = clock
        self.t = clock.now()

    def now(self) -> float:
        return self.clock.now() if self.replay.live else self.t

    def sleep_until(self, t: float) -> None:
        if self.replay.live:
            self.clock.sleep_until(t)
        elif t > self.t:
            self.t = t


class ReplaySpeaker:
    """Says nothing while replaying: each line ends as it starts."""

    def __init__(self, replay: Replay, speaker: Speaker) -> None:
        self.replay = replay
        self.speaker = speaker

    def say(self, cue: Cue, at: float | None = None) -> float:
        if self.replay.live:
            return self.speaker.say(cue, at)
        now = self.replay.clock.now()
        return now if at is None else max(at, now)

    def prepare(self, cues: Iterable[Cue]) -> None:
        self.speaker.prepare(cues)

    def close(self) -> None:
        self.speaker.close()


class ReplayDisplay:
    """Draws nothing while replaying; when the replay catches up, the board as it stands."""

    def __init__(self, replay: Replay, display: Display) -> None:
        self.replay = replay
        self.display = display
        self.last: PublicBoard | None = None

    def catch_up(self) -> None:
        if self.last is not None:
            self.display.board(self.last)

    def board(self, state: PublicBoard) -> None:
        if self.replay.live:
            self.display.board(state)
        else:
            self.last = state

    def show_private(self, key: str, slots: Mapping[str, SlotValue], more: PanelLines = ()) -> None:
        if self.replay.live:
            self.display.show_private(key, slots, more)

    def clear_private(self) -> None:
        if self.replay.live:
            self.display.clear_private()

    def feedback(self, key: str, slots: Mapping[str, SlotValue]) -> None:
        if self.replay.live:
            self.display.feedback(key, slots)
