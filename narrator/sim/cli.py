"""`narrator simulate`: many games with automatic players, for balance statistics."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

from narrator.argtypes import integer
from narrator.errors import UsageError
from narrator import i18n
from narrator.i18n import current_language, tr
from narrator.reference import option_help
from narrator.rules import Options, Role, Side, complete, default_deck, parse_roles, suggest
from narrator.rules.composition import describe, validate
from narrator.rules.composition import describe as _describe
from narrator.sim.policies import POLICIES, InformedParams
from narrator.sim.runner import SimConfig, simulate, wilson


def register(sub: Any) -> None:
    p = sub.add_parser("simulate", help="play many games with automatic players and count who wins",
                       description="Play many games with automatic players and count how often each side wins, "
                                   "with a 95% interval: a way to weigh a composition or a rule option. "
                                   "The same seed gives the same result, whatever --jobs.")
    p.add_argument("--players", type=int, required=True, metavar="N", help="players at the table (4 to 30)")
    p.add_argument("--roles", metavar="SPEC", help='e.g. "werewolf=3,seer=1,witch=1"; the rest are Villagers')
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help=option_help())
    p.add_argument("--games", type=int, default=1000, metavar="K", help="how many games to play (default: 1000)")
    p.add_argument("--seed",
                   type=int, default=0, metavar="S", help="random seed: the same seed plays the same games (default: 0)")
    p.add_argument("--policy", choices=sorted(POLICIES), default="random",
                   help="how the automatic players choose: random (every choice at random; the village votes as "
                        "one block for a random player), random-votes (each voter votes alone for a random other "
                        "player) or informed (players who play like people; see --param) (default: random)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="an informed player's behaviour, e.g. seer_reveal=1 (see docs/simulator.md)")
    p.add_argument("--jobs", type=integer("--jobs",
                                          0), default=1, metavar="J", help="worker processes, 0 for one per core (default: 1)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)
    register_balance(sub)


def run(args: argparse.Namespace) -> int:
    options = Options.parse(args.option)
    if args.games < 1:
        raise UsageError("--games {games}: play at least one game", games=args.games)
    deck = complete(args.players, parse_roles(args.roles) if args.roles else default_deck(args.players), options)
    warnings = validate(args.players, deck, options)
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    if args.param and args.policy != "informed":
        raise UsageError("--param {param!r}: parameters are for --policy informed", param=args.param[0])
    params = InformedParams.parse(args.param) if args.policy == "informed" else None
    config = SimConfig(args.players, deck, options, args.policy, args.seed, params)
    if args.json:
        result = simulate(config, args.games, jobs)
        print(json.dumps(result.to_json()))
        return 0
    for w in warnings:
        print(tr("note: {warning}", warning=_translated(w)), file=sys.stderr)
    result = _with_progress(config, args.games, jobs)
    _print_table(config, deck_text=describe(deck), result=result.to_json())
    return 0


def _translated(note: str) -> str:
    """A rules engine's warning in the language printed in (its template and slots, when it keeps them)."""
    template, slots = getattr(note, "template", None), getattr(note, "slots", None)
    return tr(template, **slots) if isinstance(template, str) and isinstance(slots, dict) else note


def _with_progress(config: SimConfig, games: int, jobs: int) -> Any:
    from rich.progress import Progress

    if games < 5000 or not sys.stderr.isatty():
        return simulate(config, games, jobs)
    with Progress(transient=True) as progress:
        task = progress.add_task(tr("simulating"), total=games)
        return simulate(config, games, jobs, lambda n: progress.advance(task, n))


def _print_table(config: SimConfig, deck_text: str, result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    games = result["games"]
    pack = table_pack()
    table = Table(title=tr("Games: {games}; players: {players}; {deck} (policy {policy}, seed {seed})", games=games,
                           players=config.players, deck=deck_text, policy=config.policy,
                           seed=config.seed))
    table.add_column(tr("side"))
    table.add_column(tr("wins"), justify="right")
    table.add_column(tr("rate"), justify="right")
    table.add_column(tr("95% interval"), justify="right")
    for side in Side:
        wins = result["wins"][side.value]
        lo, hi = wilson(wins, games)
        table.add_row(pack.sides.get(side.value, side.value), str(wins), i18n.percent(wins / games, 1),
                      f"{i18n.percent(lo, 1)} – {i18n.percent(hi, 1)}")
    console = Console()
    console.print(table)
    console.print(tr("mean days: {days}   time: {seconds} s ({speed} games/s)", days=f"{result['mean_days']:.2f}",
                     seconds=f"{result['seconds']:.2f}", speed=i18n.number(round(games / max(result['seconds'], 1e-9)))))


def table_pack() -> Any:
    """The pack of the language printed in (English when that language has no pack): role and side names."""
    from narrator.packs import PackError, load_pack

    try:
        return load_pack(current_language())
    except PackError:
        return load_pack("en")


def register_balance(sub: Any) -> None:
    p = sub.add_parser("balance", help="the village's chance with informed players, and the nearest fair compositions")
    p.add_argument("--players", type=int, metavar="N", help="players at the table (8 to 18 answer from the shipped table)")
    p.add_argument("--roles",
                   metavar="SPEC", help='the chosen roles, e.g. "werewolf=3,seer=1,witch=1" (default: the default composition)')
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help=option_help())
    p.add_argument("--owns", metavar="ROLES", help='special roles the table owns, e.g. "seer,witch,hunter" (default: all)')
    p.add_argument("--budget", type=float, metavar="S",
                   help="seconds to spend playing games not yet known (default: what is left of "
                        f"{ANSWER_WITHIN} s since the command started, at least {MIN_BUDGET} s)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--precompute", action="store_true",
                   help="fill the shipped table for 8 to 18 players from the simulator (slow; see docs/simulator.md)")
    p.add_argument("--jobs", type=integer("--jobs", 0), default=1, metavar="J",
                   help="worker processes for --precompute (0 = one per core)")
    p.set_defaults(func=run_balance)


# `narrator balance` answers within about a second of being started (docs/benchmarks.md): the games it plays
# take what start-up (~0.4 s, most of it importing the rules) leaves, less a margin for the last
# games, the printing and the exit.
ANSWER_WITHIN = 0.85
MIN_BUDGET = 0.1


def seconds_since_start() -> float:
    """How long this process has run: from /proc on Linux; elsewhere the CPU time used so far (start-up
    is mostly CPU, so close to it on an idle machine)."""
    try:
        with open("/proc/self/stat") as f:
            after_name = f.read().rsplit(")", 1)[1].split()
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        return max(0.0, uptime - int(after_name[19]) / os.sysconf("SC_CLK_TCK"))  # field 22: start time
    except (OSError, ValueError, IndexError):
        return time.process_time()


def run_balance(args: argparse.Namespace) -> int:
    from narrator.rules import Role
    from narrator.sim.balance import SPECIALS, advise, precompute

    if args.precompute:
        precompute(range(8, 19), args.jobs if args.jobs > 0 else (os.cpu_count() or 1), progress=True)
        return 0
    if args.players is None:
        raise UsageError("balance needs --players N (or --precompute)")
    if args.budget is not None and not 0 < args.budget <= 600:
        raise UsageError("--budget {budget!r}: give seconds above 0, at most 600", budget=args.budget)
    options = Options.parse(args.option)
    deck = complete(args.players, parse_roles(args.roles) if args.roles else default_deck(args.players), options)
    owned = [Role.parse(name) for name in args.owns.split(",") if name.strip()] if args.owns else list(SPECIALS)
    budget = args.budget if args.budget is not None else max(MIN_BUDGET, ANSWER_WITHIN - seconds_since_start())
    advice = advise(args.players, deck, options, owned, budget=budget)
    if args.json:
        print(json.dumps(advice.to_json()))
        return 0
    for line in advice_lines(advice):
        print(line)
    return 0


AGAIN = "ask again, or give more --budget: the games played are kept"


def advice_lines(advice: Any, pack: Any = None, again: str = AGAIN) -> list[str]:
    """The advisor's answer as plain lines (the command line and the wizard print the same), the
    roles named in the pack's language (the language printed in by default), never by their keys.
    `again` (an English template, translated here) says how to weigh more compositions."""
    from narrator.sim.balance import FAIR, LIMIT, NEAR

    pack = pack or table_pack()
    again = tr("ask again, or give more --budget: the games played are kept") if again == AGAIN else tr(again)

    def changes(a: Any, b: Any) -> str:
        """`-1 Werewolf, +1 Witch`: what turns deck a into deck b."""
        roles = sorted((set(a) | set(b)) - {Role.VILLAGER}, key=lambda r: r.value)
        parts = [pack.count_text(b.get(r, 0) - a.get(r, 0), r.value, sign="+") for r in roles if b.get(r, 0) != a.get(r, 0)]
        return ", ".join(parts) or tr("none")

    def named(deck: Any) -> str:
        return str(pack.deck_text(dict(sorted(((r.value, n) for r, n in deck.items())))))

    def rate(x: float) -> str:
        return i18n.percent(x)

    chosen = advice.chosen
    lo, hi = chosen.interval
    lines = [tr("Players: {players}; {deck}:", players=advice.players, deck=named(chosen.deck))]
    if chosen.games:
        lines.append("  " + tr("the village wins {rate} of games with informed players (95% interval {low}–{high}, "
                               "games played: {games})", rate=rate(chosen.rate), low=rate(lo), high=rate(hi),
                               games=i18n.number(chosen.games)))
    elif _describe(chosen.deck) in advice.failed:
        lines.append("  " + tr("no estimate: the simulator failed on this composition (a bug; please report it)"))
    else:
        lines.append("  " + tr("no estimate yet (no game could be played in the time given)"))
    if chosen.games:
        fair = dict(low=rate(FAIR[0]), high=rate(FAIR[1]))
        if chosen.fair:
            lines.append("  " + tr("verdict: fair (fair is {low}–{high})", **fair))
        elif chosen.rate > FAIR[1]:
            lines.append("  " + tr("verdict: favours the village (fair is {low}–{high})", **fair))
        else:
            lines.append("  " + tr("verdict: favours the Werewolves (fair is {low}–{high})", **fair))
    # Notes first: the wizard numbers the last lines, the fair compositions, to take one with *N.
    others = [name for name in advice.failed if name != describe(chosen.deck)]
    if others:
        lines.append("  " + tr("left out, the simulator failed on them (a bug; please report it): {decks}",
                               decks="; ".join(pack.deck_text(name) for name in others)))
    if advice.unweighed:
        lines.append("  " + tr("compositions {cards} card(s) away were not weighed in the time given: {count} ({again})",
                               count=advice.unweighed, cards=advice.searched, again=again))
    elif advice.searched == 0:
        lines.append("  " + tr("no composition near this one could be weighed in the time given ({again})", again=again))
    elif advice.searched < NEAR and len(advice.fair) < LIMIT:
        lines.append("  " + tr("compositions more than {cards} card(s) away were not weighed in the time given "
                               "({again})", cards=advice.searched, again=again))
    if advice.fair:
        lines.append("  " + tr("nearest fair compositions:"))
        for e in advice.fair:
            elo, ehi = e.interval
            lines.append("    " + tr("{deck}: {rate} ({low}–{high}); change {changes}", deck=named(e.deck),
                                     rate=rate(e.rate), low=rate(elo), high=rate(ehi),
                                     changes=changes(chosen.deck, e.deck)))
    elif advice.searched == NEAR:
        lines.append("  " + tr("no fair composition found near this one with the roles owned"))
    return lines
