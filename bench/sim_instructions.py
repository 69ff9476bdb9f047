"""Benchmark: machine instructions per simulated game, counted by valgrind (not a test; run by hand).

    .venv/bin/python bench/sim_instructions.py [--games 200] [--policy random-votes ...]

On the shared 2-core machine, games per second swing by ±10% from one run to the next with the
other engineers' load, which hides a change of a few per cent. The number of instructions a game
executes does not depend on the load: valgrind's callgrind counts them (`Ir`), once for a run of
no games (start-up, imports) and once for `--games`, and the difference is divided by the games.
Same 12-player table as bench/balance.py. Needs `valgrind` (apt); slow (~50x), so keep --games small.
Compare two checkouts by running each one's copy of this script.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys

ROLES = "werewolf=3,seer=1,witch=1,hunter=1,cupid=1,little_girl=1,thief=1"

PLAY = """
import sys
from narrator.rules import Options, complete, parse_roles
from narrator.sim.runner import SimConfig, simulate
options = Options()
config = SimConfig(12, complete(12, parse_roles({roles!r}), options), options, sys.argv[1], 1)
simulate(config, int(sys.argv[2]))
"""


def instructions(policy: str, games: int) -> int:
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, "-c", PLAY.format(roles=ROLES), policy, str(games)],
        capture_output=True, text=True, check=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"valgrind printed no instruction count:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--policy", action="append", choices=("random", "random-votes", "informed"))
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 1
    start = instructions("random", 0)
    for policy in args.policy or ["random-votes", "informed", "random"]:
        per_game = (instructions(policy, args.games) - start) / args.games
        print(f"{policy}: {per_game / 1e6:.2f} M instructions per game ({args.games} games)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
