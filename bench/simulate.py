"""Benchmark: games per second of `narrator simulate` on one core (not a test; run by hand).

    .venv/bin/python bench/simulate.py [--games 20000] [--repeat 3]

12 players, werewolf=3,seer=1,witch=1,hunter=1,cupid=1,little_girl=1,thief=1, policy random-votes,
--jobs 1. Prints the in-process rate (best of --repeat runs) and the rate of the whole command line
(`python -m narrator simulate ... --json`, start-up included). Goal: at least 2,000 games/s.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from narrator.rules import Options, complete, parse_roles
from narrator.sim.runner import SimConfig, simulate

ROLES = "werewolf=3,seer=1,witch=1,hunter=1,cupid=1,little_girl=1,thief=1"
GOAL = 2000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    options = Options()
    config = SimConfig(12, complete(12, parse_roles(ROLES), options), options, "random-votes", 1)
    rates = []
    for _ in range(args.repeat):
        result = simulate(config, args.games, jobs=1)
        rates.append(args.games / result.seconds)
    best = max(rates)
    print(f"in-process: {best:,.0f} games/s (best of {args.repeat} x {args.games} games; "
          f"all: {', '.join(f'{r:,.0f}' for r in rates)})")

    command = [sys.executable, "-m", "narrator", "simulate", "--players", "12", "--roles", ROLES,
               "--policy", "random-votes", "--games", str(args.games), "--seed", "1", "--jobs", "1", "--json"]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - started
    reported = json.loads(done.stdout)
    print(f"command line: {args.games / wall:,.0f} games/s wall clock with start-up "
          f"({args.games / reported['seconds']:,.0f} games/s as it reports itself)")
    print(f"goal: {GOAL:,} games/s -> {'met' if best >= GOAL else 'NOT met'}")
    return 0 if best >= GOAL else 1


if __name__ == "__main__":
    raise SystemExit(main())
