"""The tests' twins of the ports, in one place: a whole game with no audio, no screen and no wait.

Production code never imports this module (tests/test_layering.py proves it): the twins are the
device-free adapters production uses too (headless play, the demo), under the names tests know.
"""

from __future__ import annotations

import queue
from dataclasses import dataclass, field
from typing import Any, Mapping

from narrator.clock import VirtualClock
from narrator.headless import Timeline, TimelineDisplay, TimelineSpeaker
from narrator.journal import MemoryJournal
from narrator.phones.port import PhoneAnswer, View
from narrator.listening.automatic import RandomPlayers as RandomListener
from narrator.listening.automatic import ScriptPlayers as FakeListener
from narrator.speech.estimated import EstimatedSpeaker, estimated_duration

__all__ = ["EstimatedSpeaker", "FakeListener", "MemoryJournal", "RandomListener", "Timeline", "TimelineDisplay",
           "TimelineSpeaker", "VirtualClock", "estimated_duration"]


# ---- the phones' port (narrator/phones/port.py) ---------------------------------------------



@dataclass
class FakePhones:
    """`SeatChannels` in memory: every seat has a phone; what each was sent is kept in `sent`
    (seat, view, beat time or None when sent at once); `tap` is a player's tap on their phone."""

    players: int
    views: dict[int, dict[str, Any]] = field(default_factory=dict)
    sent: list[tuple[int, dict[str, Any], float | None]] = field(default_factory=list)
    is_night: bool = False
    taps: "queue.Queue[PhoneAnswer]" = field(default_factory=queue.Queue)

    def joined(self) -> tuple[int, ...]:
        return tuple(range(1, self.players + 1))

    def show(self, seat: int, view: View) -> None:
        self.views[seat] = dict(view)
        if not self.is_night:
            self.sent.append((seat, dict(view), None))

    def night(self, on: bool) -> None:
        self.is_night = on

    def beat(self, at: float) -> None:
        for seat in self.joined():
            self.sent.append((seat, dict(self.views.get(seat, {})), at))

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

    def tap(self, seat: int, choice: Any) -> None:
        """The seat's player taps `choice` on the view their phone holds now."""
        view: Mapping[str, Any] = self.views.get(seat, {})
        self.taps.put(PhoneAnswer(seat, int(view.get("id", 0)), choice))


__all__ += ["FakePhones"]
