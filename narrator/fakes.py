"""The tests' twins of the ports, in one place: a whole game with no audio, no screen and no wait.

Production code never imports this module (tests/test_layering.py proves it): the twins are the
device-free adapters production uses too (headless play, the demo), under the names tests know.
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Mapping

from narrator.clock import VirtualClock
from narrator.headless import Timeline, TimelineDisplay, TimelineSpeaker
from narrator.journal import MemoryJournal
from narrator.listening.audio import BLOCK, BYTES_PER_SECOND
from narrator.phones.port import PhoneAnswer, View
from narrator.listening.automatic import RandomPlayers as RandomListener
from narrator.listening.automatic import ScriptPlayers as FakeListener
from narrator.ports import Clock
from narrator.speech.estimated import EstimatedSpeaker, estimated_duration

__all__ = ["EstimatedSpeaker", "FakeAudioSource", "FakeListener", "FakePhones", "MemoryJournal", "RandomListener",
           "ScriptedAsker", "ScriptedKeys", "Timeline", "TimelineDisplay", "TimelineSpeaker", "VirtualClock",
           "estimated_duration"]


# ---- the test doubles of adapters: a microphone, the keypad, the wizard's terminal -------------


class FakeAudioSource:
    """Audio from bytes, released in real time (or faster) from `start()`; silence afterwards.

    The twin of `MicrophoneSource` for tests: the capture times are real monotonic times, so
    the listener's silence timeout, deadlines and half-duplex muting behave as with a microphone.
    """

    def __init__(self, pcm: bytes = b"", block: int = BLOCK, speed: float = 1.0, then_silence: bool = True) -> None:
        self.block = block
        self.speed = speed
        self.then_silence = then_silence
        self._pcm = bytearray(pcm)
        self._lock = threading.Lock()
        self._pos = 0
        self._t0: float | None = None

    def add(self, pcm: bytes) -> None:
        """Append audio (to be heard after what is already queued)."""
        with self._lock:
            self._pcm += pcm

    def start(self) -> None:
        self._t0 = time.monotonic()
        self._pos = 0

    def read(self, timeout: float) -> tuple[bytes, float] | None:
        if self._t0 is None:
            time.sleep(timeout)
            return None
        size = self.block * 2
        due = self._t0 + (self._pos + size) / BYTES_PER_SECOND / self.speed
        wait = due - time.monotonic()
        if wait > timeout:
            time.sleep(timeout)
            return None
        if wait > 0:
            time.sleep(wait)
        with self._lock:
            chunk = bytes(self._pcm[self._pos:self._pos + size])
        if len(chunk) < size:
            if not self.then_silence and not chunk:
                return None
            chunk += b"\0" * (size - len(chunk))
        self._pos += size
        return chunk, due

    def stop(self) -> None:
        self._t0 = None


@dataclass
class ScriptedKeys:
    """The twin of `narrator.table.keys.TerminalKeys`: keys that arrive at given clock times (a virtual clock jumps to them)."""

    clock: Clock
    keys: list[tuple[float, str]] = field(default_factory=list)
    closed: bool = False

    def read(self, timeout: float | None) -> str | None:
        now = self.clock.now()
        if self.keys and (timeout is None or self.keys[0][0] <= now + timeout):
            at, key = self.keys.pop(0)
            self.clock.sleep_until(at)
            return key
        if timeout is None:
            self.closed = True
            return None
        self.clock.sleep_until(now + timeout)
        return None


@dataclass
class ScriptedAsker:
    """The twin of the wizard's terminal asker (`narrator.table.wizard.Asker`): answers from a list; records every question and line told."""

    answers: list[str]
    questions: list[str] = field(default_factory=list)
    told: list[str] = field(default_factory=list)

    def ask(self, question: str) -> str:
        self.questions.append(question)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)

    def tell(self, text: str) -> None:
        self.told.append(text)



# ---- the phones' port (narrator/phones/port.py) ---------------------------------------------



@dataclass
class FakePhones:
    """`SeatChannels` in memory: every seat has a phone; what each was sent is kept in `sent`
    (seat, view, beat time: a view goes out on the beats only); `tap` is a player's tap on their phone."""

    players: int
    views: dict[int, dict[str, Any]] = field(default_factory=dict)
    sent: list[tuple[int, dict[str, Any], float]] = field(default_factory=list)
    is_night: bool = False
    taps: "queue.Queue[PhoneAnswer]" = field(default_factory=queue.Queue)
    moves: list[int] = field(default_factory=list)  # seats where a second device asks to take over
    allowed: list[int] = field(default_factory=list)  # the moves the laptop confirmed
    away: frozenset[int] = frozenset()  # seats without a phone (they play on the screen and the keypad)
    asides: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)  # each seat's last, by kind
    asides_sent: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # every change, in order

    def joined(self) -> tuple[int, ...]:
        return tuple(seat for seat in range(1, self.players + 1) if seat not in self.away)

    def show(self, seat: int, view: View) -> None:
        self.views[seat] = dict(view)

    def night(self, on: bool) -> None:
        self.is_night = on

    def aside(self, seat: int, kind: str, message: Mapping[str, Any]) -> None:
        if self.asides.get((seat, kind)) != dict(message):
            self.asides[(seat, kind)] = dict(message)
            self.asides_sent.append((seat, dict(message)))

    def beat(self, at: float) -> None:
        # A view is never changed in place (`show` keeps a copy of its own), so every beat that
        # sends the same view keeps the same dict: a long game's tens of thousands of frames share
        # a few hundred views, and a check of every view sent need look at each dict once.
        for seat in self.joined():
            self.sent.append((seat, self.views.get(seat, {}), at))

    def take(self) -> PhoneAnswer | None:
        try:
            return self.taps.get_nowait()
        except queue.Empty:
            return None

    def wait(self, timeout: float) -> bool:
        try:
            answer = self.taps.get(timeout=timeout)
        except queue.Empty:
            return False
        with self.taps.mutex:
            self.taps.queue.appendleft(answer)
        return True

    def moves_asked(self) -> tuple[int, ...]:
        return tuple(self.moves)

    def allow_move(self, seat: int) -> None:
        self.moves.remove(seat)
        self.allowed.append(seat)

    def tap(self, seat: int, choice: Any) -> None:
        """The seat's player taps `choice` on the view their phone holds now."""
        view: Mapping[str, Any] = self.views.get(seat, {})
        self.taps.put(PhoneAnswer(seat, int(view.get("id", 0)), choice))




# ---- a slow synthesiser on a virtual clock (lines rendered in the order of need) -----


class SlowLines:
    """A render queue on a virtual clock: `jobs` workers, each line taking `cost` seconds, the
    soonest-needed first; `wait` sleeps the clock until the lines are done. `warm` lines are in
    the cache already. `said_late` lists lines asked for with `ready` False: what a table would hear late."""

    def __init__(self, clock: VirtualClock, cost: float, jobs: int = 1, warm: bool = False) -> None:
        self.clock = clock
        self.cost = cost
        self.jobs = jobs
        self.warm = warm
        self.done_at: dict[str, float] = {}
        self.order: list[str] = []
        self._free = [clock.now()] * jobs

    def plan(self, lines: Any) -> None:
        for text, _ in sorted(lines, key=lambda line: line[1]):
            if text in self.done_at:
                continue
            if self.warm:
                self.done_at[text] = float("-inf")
                continue
            i = min(range(self.jobs), key=lambda j: self._free[j])
            self._free[i] = max(self._free[i], self.clock.now()) + self.cost
            self.done_at[text] = self._free[i]
            self.order.append(text)

    def ready(self, text: str) -> bool:
        return self.done_at.get(text, float("inf")) <= self.clock.now()

    def wait(self, texts: Any) -> None:
        for text in texts:
            if text not in self.done_at:
                self.plan([(text, 0.0)])
            self.clock.sleep_until(self.done_at[text])
