"""`narrator simulate`: many games with automatic players, for balance statistics."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from narrator.errors import UsageError
from narrator.rules import Options, Side, complete, parse_roles, suggest
from narrator.rules.composition import describe, validate
from narrator.sim.policies import POLICIES, InformedParams
from narrator.sim.runner import SimConfig, simulate, wilson


def register(sub: Any) -> None:
    p = sub.add_parser("simulate", help="play many games with automatic players and count who wins")
    p.add_argument("--players", type=int, required=True, metavar="N", help="players at the table (4 to 30)")
    p.add_argument("--roles", metavar="SPEC", help='e.g. "werewolf=3,seer=1,witch=1"; the rest are Villagers')
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a rule option of RULES.md")
    p.add_argument("--games", type=int, default=1000, metavar="K")
    p.add_argument("--seed", type=int, default=0, metavar="S")
    p.add_argument("--policy", choices=sorted(POLICIES), default="random",
                   help="random, random-votes, or informed (players who play like people)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="an informed player's behaviour, e.g. seer_reveal=1 (see README, Balance)")
    p.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes (0 = one per core)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    options = Options.parse(args.option)
    if args.games < 1:
        raise UsageError(f"--games {args.games}: play at least one game")
    deck = complete(args.players, parse_roles(args.roles) if args.roles else suggest(args.players), options)
    warnings = validate(args.players, deck, options)
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    if args.param and args.policy != "informed":
        raise UsageError(f"--param {args.param[0]!r}: parameters are for --policy informed")
    params = InformedParams.parse(args.param) if args.policy == "informed" else None
    config = SimConfig(args.players, deck, options, args.policy, args.seed, params)
    if args.json:
        result = simulate(config, args.games, jobs)
        print(json.dumps(result.to_json()))
        return 0
    for w in warnings:
        print(f"note: {w}", file=sys.stderr)
    result = _with_progress(config, args.games, jobs)
    _print_table(config, deck_text=describe(deck), result=result.to_json())
    return 0


def _with_progress(config: SimConfig, games: int, jobs: int) -> Any:
    from rich.progress import Progress

    if games < 5000 or not sys.stderr.isatty():
        return simulate(config, games, jobs)
    with Progress(transient=True) as progress:
        task = progress.add_task("simulating", total=games)
        return simulate(config, games, jobs, lambda n: progress.advance(task, n))


def _print_table(config: SimConfig, deck_text: str, result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    games = result["games"]
    table = Table(title=f"{games} games, {config.players} players: {deck_text} (policy {config.policy}, seed {config.seed})")
    table.add_column("side")
    table.add_column("wins", justify="right")
    table.add_column("rate", justify="right")
    table.add_column("95% interval", justify="right")
    for side in Side:
        wins = result["wins"][side.value]
        lo, hi = wilson(wins, games)
        table.add_row(side.value, str(wins), f"{wins / games:.1%}", f"{lo:.1%} – {hi:.1%}")
    console = Console()
    console.print(table)
    console.print(f"mean days: {result['mean_days']:.2f}   time: {result['seconds']:.2f} s "
                  f"({games / max(result['seconds'], 1e-9):,.0f} games/s)")
