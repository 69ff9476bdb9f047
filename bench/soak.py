"""Soak benchmark: many random games through the sequencer with fakes; counts exceptions and games/s.

    .venv/bin/python bench/soak.py [--games 10000] [--seed 1]

Random compositions, options and answers (early, late, never); a virtual clock.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from narrator.fakes import RandomListener  # noqa: E402
from narrator.clock import VirtualClock  # noqa: E402
from narrator.headless import run_game  # noqa: E402
from narrator.flow.script import Setup  # noqa: E402
from narrator.flow.timing import Timing  # noqa: E402
from narrator.rules import Options, Role, deal  # noqa: E402
from narrator.rules.composition import complete, suggested_wolves  # noqa: E402
from narrator.rules.options import CHOICES  # noqa: E402

SPECIALS = [Role.SEER, Role.WITCH, Role.HUNTER, Role.CUPID, Role.LITTLE_GIRL, Role.THIEF]


def random_setup(rng: random.Random) -> Setup:
    players = rng.randint(5, 18)
    options = Options(
        **{key: rng.choice(values) for key, values in CHOICES.items()},
        witch_sees_victim_after_heal=rng.random() < 0.5,
        lovers_team_if_both_wolves=rng.random() < 0.3,
        first_night_kill=rng.random() < 0.8,
        reveal_role_on_death=rng.random() < 0.8,
        wolves_win_at_parity=rng.random() < 0.3,
    )
    named = {Role.WEREWOLF: suggested_wolves(players), **{r: 1 for r in rng.sample(SPECIALS, rng.randint(0, 6))}}
    while sum(named.values()) > players:
        named.pop(next(r for r in named if r is not Role.WEREWOLF))
    deck = complete(players, named, options)
    timing = Timing().with_values({"debate": 30, "defence": 5, "vote": 5, "chain": 5})
    return Setup(players, "en", deal(players, deck, rng, options), None, options, timing)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    failures = 0
    lines = 0
    started = time.perf_counter()
    for i in range(args.games):
        setup = random_setup(rng)
        seed = rng.randrange(10**9)
        clock = VirtualClock()
        try:
            result = run_game(setup, RandomListener(clock, random.Random(seed)), seed, clock)
            lines += len(result.timeline)
        except Exception:  # noqa: BLE001 - a soak counts every failure
            failures += 1
            if failures <= 3:
                traceback.print_exc()
    seconds = time.perf_counter() - started
    print(f"games: {args.games}  exceptions: {failures}  seconds: {seconds:.1f}  "
          f"games/s: {args.games / seconds:.0f}  timeline entries: {lines}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
