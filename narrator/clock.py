"""Clocks, the adapters of the `Clock` port: the real one, and a virtual one that jumps (a whole game
in milliseconds: headless play and the tests)."""

from __future__ import annotations

import time


class RealClock:
    """Monotonic time; sleeping really sleeps."""

    def now(self) -> float:
        return time.monotonic()

    def sleep_until(self, t: float) -> None:
        while True:
            left = t - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(left, 0.05))


class VirtualClock:
    """Time that only moves when somebody sleeps: sleeping jumps to the wake-up time."""

    def __init__(self, start: float = 0.0) -> None:
        self.t = start

    def now(self) -> float:
        return self.t

    def sleep_until(self, t: float) -> None:
        if t > self.t:
            self.t = t
