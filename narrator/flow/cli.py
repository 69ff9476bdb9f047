"""`narrator play`, `narrator resume` and `narrator graph`."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from narrator.errors import UsageError


def register(sub: Any) -> None:
    p = sub.add_parser("play", help="play a game: at the table, in text mode, or headless from a script")
    p.add_argument("--headless", action="store_true", help="no audio, no screen: a scripted game on a virtual clock")
    p.add_argument("--setup", type=Path, metavar="SETUP.toml", help="who holds what, options, timing")
    p.add_argument("--script", type=Path, metavar="SCRIPT.toml", help="headless: what each role answers")
    p.add_argument("--timeline", type=Path, metavar="OUT.jsonl", help="headless: write what was said and shown")
    p.add_argument("--journal", type=Path, metavar="FILE", help="where to journal the game (resume it from there)")
    p.add_argument("--real-clock", action="store_true", help="headless: wait in real time")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="random seed (deal, draws)")
    p.set_defaults(func=run_play)

    r = sub.add_parser("resume", help="continue an interrupted game from its journal")
    r.add_argument("journal", type=Path, nargs="?", metavar="FILE", help="the journal (default: the last game's)")
    r.add_argument("--timeline", type=Path, metavar="OUT.jsonl", help="headless: write the resumed timeline")
    r.set_defaults(func=run_resume)

    g = sub.add_parser("graph", help="print the game's state machine as a mermaid diagram")
    g.set_defaults(func=run_graph)


def run_play(args: argparse.Namespace) -> int:
    if args.headless:
        return _play_headless(args)
    raise UsageError("only --headless play is available in this version; try 'narrator play --headless --help'")


def _play_headless(args: argparse.Namespace) -> int:
    from narrator.flow.clock import RealClock, VirtualClock
    from narrator.flow.headless import play_headless, write_timeline
    from narrator.flow.journal import FileJournal
    from narrator.flow.script import load_script, load_setup

    if args.setup is None or args.script is None:
        raise UsageError("headless play needs --setup SETUP.toml and --script SCRIPT.toml")
    setup = load_setup(args.setup)
    script = load_script(args.script, setup.players)
    journal = FileJournal.create(args.journal) if args.journal else None
    clock = RealClock() if args.real_clock else VirtualClock()
    try:
        result = play_headless(setup, script, args.seed or 0, clock, journal)
    finally:
        if journal is not None:
            journal.close()
    if args.timeline:
        write_timeline(args.timeline, result.timeline)
    outcome = result.game.outcome
    assert outcome is not None
    print(f"game over: the winner is {outcome.winner.value}; alive: {', '.join(map(str, result.game.living())) or 'nobody'}")
    return 0


def run_resume(args: argparse.Namespace) -> int:
    from narrator.flow.headless import resume_headless

    if args.journal is None:
        raise UsageError("name the journal to resume: narrator resume FILE")
    result = resume_headless(args.journal, args.timeline)
    outcome = result.game.outcome
    assert outcome is not None
    print(f"game over: the winner is {outcome.winner.value}; alive: {', '.join(map(str, result.game.living())) or 'nobody'}")
    return 0


def run_graph(args: argparse.Namespace) -> int:
    from narrator.flow.graph import mermaid

    print(mermaid())
    return 0
