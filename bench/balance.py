"""Benchmark: the balance advisor's answer time, and games per second of the simulator (not a test; run by hand).

    .venv/bin/python bench/balance.py [--games 4000] [--repeat 3]

1. `narrator balance --players N` for 8, 12 and 18 players, cold (an empty user cache: only the table
   shipped with narrator) and cached (the same question again), timed in process and as a whole command
   line with start-up, best of --repeat; for the suggested composition (answered from the shipped table)
   and for one the table does not hold (OFF_TABLE: its games are played within the time budget).
   Goal: at most 1 s.
2. Games per second of `simulate` on one core (--jobs 1), 12 players,
   werewolf=3,seer=1,witch=1,hunter=1,cupid=1,little_girl=1,thief=1, policies `random-votes` and `informed`.
   Goal for random-votes: 5,000 games/s.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from narrator.rules import Options, Role, complete, parse_roles, suggest
from narrator.rules.composition import describe, suggested_wolves
from narrator.sim.balance import Store, advise
from narrator.sim.runner import SimConfig, simulate

ROLES = "werewolf=3,seer=1,witch=1,hunter=1,cupid=1,little_girl=1,thief=1"
OFF_TABLE = "seer=1,witch=1,savior=1,fox=1,elder=1"  # with the suggested Werewolves: not in the shipped table
ADVISOR_GOAL = 1.0
RANDOM_GOAL = 5000


def advisor_times(players: int, roles: str | None) -> tuple[float, float, float, float]:
    """(cold, cached) in process, then (cold, cached) for the command line, each with its own empty cache."""
    options = Options()
    named = suggest(players) if roles is None else {Role.WEREWOLF: suggested_wolves(players), **parse_roles(roles)}
    deck = complete(players, named, options)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "cache.json")
        started = time.perf_counter()
        advise(players, deck, options, store=store)
        cold = time.perf_counter() - started
        started = time.perf_counter()
        advise(players, deck, options, store=Store(Path(tmp) / "cache.json"))
        cached = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "NARRATOR_DATA": tmp}
        command = [sys.executable, "-m", "narrator", "balance", "--players", str(players), "--roles", describe(deck)]
        walls = []
        for _ in range(2):
            started = time.perf_counter()
            subprocess.run(command, env=env, capture_output=True, check=True)
            walls.append(time.perf_counter() - started)
    return cold, cached, walls[0], walls[1]


def best_advisor_times(players: int, roles: str | None, repeat: int) -> tuple[float, ...]:
    runs = [advisor_times(players, roles) for _ in range(repeat)]
    return tuple(min(run[i] for run in runs) for i in range(4))


def rate(policy: str, games: int, repeat: int) -> tuple[float, float]:
    """Best games/s over `repeat` runs: wall clock and CPU time of this process."""
    options = Options()
    config = SimConfig(12, complete(12, parse_roles(ROLES), options), options, policy, 1)
    best_wall = best_cpu = 0.0
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        simulate(config, games, jobs=1)
        best_wall = max(best_wall, games / (time.perf_counter() - wall))
        best_cpu = max(best_cpu, games / (time.process_time() - cpu))
    return best_wall, best_cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--advisor-only", action="store_true", help="time the advisor only, not simulate")
    args = parser.parse_args()

    worst = 0.0
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"advisor (seconds, best of {args.repeat}): players, cold in process, cached in process, "
          "cold command line, cached command line")
    for roles in (None, OFF_TABLE):
        print(f" {'suggested composition' if roles is None else 'suggested Werewolves + ' + roles}:")
        for players in (8, 12, 18):
            cold, cached, cold_cli, cached_cli = best_advisor_times(players, roles, args.repeat)
            worst = max(worst, cold, cached, cold_cli, cached_cli)
            print(f"  {players:>2}: {cold:.2f}  {cached:.2f}  {cold_cli:.2f}  {cached_cli:.2f}")
    print(f"advisor goal: <= {ADVISOR_GOAL:.0f} s (command line, start-up included) -> "
          f"{'met' if worst <= ADVISOR_GOAL else 'NOT met'} (worst {worst:.2f} s)")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.advisor_only:
        return 0

    for policy in ("random-votes", "informed"):
        wall, cpu = rate(policy, args.games, args.repeat)
        print(f"simulate --policy {policy} --jobs 1: {wall:,.0f} games/s wall clock, {cpu:,.0f} games/s of CPU "
              f"(best of {args.repeat} x {args.games} games)")
        if policy == "random-votes":
            print(f"random-votes goal: {RANDOM_GOAL:,} games/s -> {'met' if cpu >= RANDOM_GOAL else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
