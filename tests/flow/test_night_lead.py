"""Night lines keep their time however late the sequencer's thread wakes: the wake and sleep lines
are queued `Sequencer.queue_lead` ahead with their time (`Speaker.say(cue, at)`), so a thread late
by less than that moves no line (the onsets in the audio stay equal within one block)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from narrator.clock import VirtualClock
from narrator.headless import HeadlessResult, run_game
from narrator.flow.script import parse_script, parse_setup
from narrator.flow.sequencer import Sequencer
from narrator.fakes import FakeListener

from flow_helpers import FAST, nights

ROLES = {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 5: "hunter", 6: "cupid"}
SCRIPT = {"nights": [{"cupid": [5, 6], "seer": 2, "werewolves": 7, "witch": {"heal": True, "poison": 3}}],
          "days": [{"eliminate": 2}, {"eliminate": 3}, {"eliminate": 8}]}


class LateClock(VirtualClock):
    """A virtual clock whose sleeper wakes up late, by a random part of `late` each time (a loaded
    machine's thread): what it was asked to wake for runs late."""

    def __init__(self, late: float, seed: int) -> None:
        super().__init__()
        self.late = late
        self.rng = random.Random(seed)

    def sleep_until(self, t: float) -> None:
        super().sleep_until(t + self.rng.uniform(0.0, self.late))


def play(late: float, seed: int = 0) -> HeadlessResult:
    setup = parse_setup({"players": 8, "language": "en", "roles": ROLES, "timing": dict(FAST)}, "SETUP")
    clock = LateClock(late, seed) if late else VirtualClock()
    listener = FakeListener(clock, parse_script(SCRIPT, 8, "SCRIPT").answer, delay=1.0)
    return run_game(setup, listener, 0, clock)


@pytest.mark.parametrize("seed", range(5))
def test_a_late_thread_moves_no_night_line(seed: int) -> None:
    on_time = nights(play(0.0).timeline)[0]
    late = nights(play(0.9 * Sequencer.queue_lead, seed).timeline)[0]
    assert [k for k, _ in late] == [k for k, _ in on_time]
    assert len(on_time) >= 10
    for (key, a), (_, b) in zip(late, on_time):
        assert abs(a - b) < 1e-6, f"{key} starts {a - b:+.3f} s off the on-time game's"


def test_lines_are_queued_ahead_with_their_time() -> None:
    said: list[tuple[str, float, Any]] = []

    class Recording:
        def __init__(self, clock: VirtualClock) -> None:
            self.clock = clock

        def say(self, cue: Any, at: float | None = None) -> float:
            said.append((cue.key, self.clock.now(), at))
            return (self.clock.now() if at is None else max(at, self.clock.now())) + 2.0

        def prepare(self, cues: Any) -> None:
            pass

    setup = parse_setup({"players": 8, "language": "en", "roles": ROLES, "timing": dict(FAST)}, "SETUP")
    clock = VirtualClock()
    listener = FakeListener(clock, parse_script(SCRIPT, 8, "SCRIPT").answer, delay=1.0)
    run_game(setup, listener, 0, clock, speaker=Recording(clock))
    night = [s for s in said if s[0].endswith((".wake", ".wake_first", ".sleep"))]
    assert night
    for key, queued, at in night:
        assert at is not None and at - queued == pytest.approx(Sequencer.queue_lead), key
