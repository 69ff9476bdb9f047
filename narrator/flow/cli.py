"""`narrator play`, `narrator resume` and `narrator graph`."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from narrator.errors import UsageError


def register(sub: Any) -> None:
    p = sub.add_parser("play", help="play a game: at the table, in text mode, or headless from a script")
    p.add_argument("--headless", action="store_true", help="no audio, no screen: a scripted game on a virtual clock")
    p.add_argument("--text", action="store_true", help="no audio: lines are printed, the keypad is typed")
    p.add_argument("--players", type=int, metavar="N", help="players at the table (without --setup)")
    p.add_argument("--roles", metavar="SPEC", help='roles in the deck, e.g. "werewolf=2,seer=1,witch=1"')
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a rule option")
    p.add_argument("--lang", default="en", metavar="L", help="language of the voice pack")
    p.add_argument("--setup", type=Path, metavar="SETUP.toml", help="who holds what, options, timing")
    p.add_argument("--script", type=Path, metavar="SCRIPT.toml", help="headless: what each role answers")
    p.add_argument("--timeline", type=Path, metavar="OUT.jsonl", help="headless: write what was said and shown")
    p.add_argument("--journal", type=Path, metavar="FILE", help="where to journal the game (resume it from there)")
    p.add_argument("--real-clock", action="store_true", help="headless: wait in real time")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="random seed (deal, draws)")
    from narrator.table.play import add_arguments

    add_arguments(p)
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
    from narrator.table.play import play_at_table

    return play_at_table(args)


def games_folder() -> Path:
    import os

    from platformdirs import user_data_dir

    base = os.environ.get("NARRATOR_DATA") or user_data_dir("narrator")
    return Path(base) / "games"


def _text_setup(args: argparse.Namespace) -> Any:
    import random

    from narrator.flow.script import Setup, load_setup
    from narrator.flow.timing import Timing
    from narrator.rules import Options, complete, deal, parse_roles, suggest

    if args.setup is not None:
        return load_setup(args.setup)
    options = Options.parse(args.option)
    deck = complete(args.players, parse_roles(args.roles) if args.roles else suggest(args.players), options)
    rng = random.Random(args.seed)
    return Setup(args.players, args.lang, deal(args.players, deck, rng, options), None, options, Timing())


def _play_headless(args: argparse.Namespace) -> int:
    from narrator.flow.clock import RealClock, VirtualClock
    from narrator.flow.headless import play_headless, write_timeline
    from narrator.flow.journal import FileJournal
    from narrator.flow.script import load_script, load_setup

    if args.setup is None or args.script is None:
        raise UsageError("headless play needs --setup SETUP.toml and --script SCRIPT.toml")
    setup = load_setup(args.setup)
    script = load_script(args.script, setup.players)
    from narrator.history.cli import Recorder

    journal = FileJournal.create(args.journal) if args.journal else None
    clock = RealClock() if args.real_clock else VirtualClock()
    recorder = Recorder()
    try:
        result = play_headless(setup, script, args.seed or 0, clock, journal)
    finally:
        if journal is not None:
            journal.close()
            recorder.journal(args.journal)
    if journal is None:
        recorder.events(setup.to_record(), result.game.events, args.seed or 0, "headless")
    if args.timeline:
        write_timeline(args.timeline, result.timeline)
    outcome = result.game.outcome
    assert outcome is not None
    print(f"game over: the winner is {outcome.winner.value}; alive: {', '.join(map(str, result.game.living())) or 'nobody'}")
    return 0


def run_resume(args: argparse.Namespace) -> int:
    from narrator.flow.headless import read_head, resume_headless

    path = args.journal or _latest_game()
    head, setup, seed = read_head(path)
    if head.get("mode") == "text":
        return _resume_text(path, setup, seed)
    from narrator.history.cli import Recorder

    recorder = Recorder()
    try:
        result = resume_headless(path, args.timeline)
    finally:
        recorder.journal(path)
    outcome = result.game.outcome
    assert outcome is not None
    print(f"game over: the winner is {outcome.winner.value}; alive: {', '.join(map(str, result.game.living())) or 'nobody'}")
    return 0


def _latest_game() -> Path:
    folder = games_folder()
    # A game whose deal never finished left an empty journal: it is not a game to continue.
    games = sorted(p for p in folder.glob("game-*.jsonl") if p.stat().st_size > 0) if folder.is_dir() else []
    if not games:
        raise UsageError(f"no journal to resume in {folder}; name one: narrator resume FILE")
    return games[-1]


def _resume_text(path: Path, setup: Any, seed: int) -> int:
    from narrator.flow.clock import RealClock
    from narrator.flow.headless import resume_from, run_game
    from narrator.flow.journal import FileJournal
    from narrator.flow.text import LineListener, TextDisplay, TextSpeaker
    from narrator.packs import load_pack

    pack = load_pack(setup.language)
    clock = RealClock()
    journal = FileJournal.reopen(path)
    try:
        run_game(setup, LineListener(clock), seed, clock, journal, resume_from(journal.records()), None,
                 TextSpeaker(pack, clock, pace=setup.speech_scale), TextDisplay(pack))
    finally:
        journal.close()
        from narrator.history.cli import Recorder

        Recorder().journal(path)
    return 0


def run_graph(args: argparse.Namespace) -> int:
    from narrator.flow.graph import mermaid

    print(mermaid())
    return 0
