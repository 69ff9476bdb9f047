"""The phones' port: a private channel to each seat's phone (docs/phones.md).

`PhoneTable` (narrator/phones/table.py) speaks only to this: the real `PhoneHub` (tokens, keys,
sealed frames, the web server's connections) and the tests' `FakePhones` (narrator.fakes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Protocol

from narrator.ports import Choice

# A view: what one phone shows (a JSON object: see `PhoneTable.view`). Its "id" names it; an
# answer carries the id of the view it answers, so a tap on a stale view answers nothing.
View = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class PhoneAnswer:
    """A tap on a phone: which seat, on which view, what."""

    seat: int
    view: int
    choice: Choice


class SeatChannels(Protocol):
    """A private channel per seat.

    Nothing goes out on its own, day or night: `show` sets a seat's view, and every joined phone
    gets its current view at each `beat`, a message of the same length at the same time whoever
    is awake and whatever anyone chose (the fixed schedule); the phone answers each with one.
    """

    def joined(self) -> tuple[int, ...]:
        """Seats with a phone connected now."""
        ...

    def show(self, seat: int, view: View) -> None: ...

    def night(self, on: bool) -> None: ...

    def aside(self, seat: int, kind: str, message: Mapping[str, Any]) -> None:
        """A message for one seat's phone beside its view (the view for the dead), sent in a frame of
        its own at a beat when it changed."""
        ...

    def beat(self, at: float) -> None:
        """Every joined phone's current view, now (`at`: the schedule's clock time, for the record)."""
        ...

    def take(self) -> PhoneAnswer | None:
        """The oldest tap not yet taken, or None."""
        ...

    def wait(self, timeout: float) -> bool:
        """Block up to `timeout` seconds (real time) for a tap; whether one is there."""
        ...

    def moves_asked(self) -> tuple[int, ...]:
        """Seats where a second device asks to take over (refused until the laptop confirms)."""
        ...

    def allow_move(self, seat: int) -> None:
        """The laptop confirms: a new device may take that seat over."""
        ...
