"""How long the full-screen board takes to draw one frame (it redraws 4 times a second), and how
long `narrator demo` lasts at its normal pace (virtual clock, estimated line lengths)."""

from __future__ import annotations

import io
import random
import time

from rich.console import Console

from narrator.fakes import RandomListener
from narrator.clock import VirtualClock
from narrator.headless import run_game
from narrator.packs import load_pack
from narrator.table.demo import DEMO_SEED, demo_setup
from narrator.table.screen import ScreenDisplay


def frame_ms(players: int, width: int, height: int, night: bool, frames: int = 60) -> float:
    pack = load_pack("en")
    console = Console(file=io.StringIO(), width=width, height=height, color_system="truecolor")
    screen = ScreenDisplay(pack, VirtualClock(), console)
    alive = list(range(1, players + 1))[: players - 3]
    screen.board({"phase": "debate", "night": 2, "day": 2, "alive": alive,
                  "revealed": {s: "villager" for s in range(players - 2, players + 1)}, "captain": 1})
    screen.phase = "night.seer" if night else "day.debate"
    screen.timer_end = 250.0
    if night:
        screen.show_private("seer.result", {"seat": 3, "role": "werewolf"})
    start = time.perf_counter()
    for _ in range(frames):
        console.print(screen.render())
    return (time.perf_counter() - start) / frames * 1000


def main() -> None:
    for players, width, height in ((8, 100, 40), (18, 100, 40), (30, 100, 40), (18, 200, 60)):
        day = frame_ms(players, width, height, night=False)
        night = frame_ms(players, width, height, night=True)
        print(f"board frame, {players:2d} seats, {width}x{height}: day {day:6.2f} ms, night {night:6.2f} ms")
    lengths = []
    for seed in (DEMO_SEED, *(s for s in range(1, 9) if s != DEMO_SEED)):
        setup = demo_setup("en", seed)
        clock = VirtualClock()
        run_game(setup, RandomListener(clock, random.Random(seed + 1), silence=0.0, late=0.0), seed, clock)
        lengths.append(clock.now())
    print(f"demo game length at pace 1 (seed {DEMO_SEED}, the default): {lengths[0]:.0f} s; "
          f"other seeds: {min(lengths[1:]):.0f}-{max(lengths[1:]):.0f} s")


if __name__ == "__main__":
    main()
