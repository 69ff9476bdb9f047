"""`narrator play`, `narrator resume` and `narrator graph`."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from narrator.errors import UsageError
from narrator.i18n import side_name, tr
from narrator.reference import option_help


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play", help="play a game: at the table, in text mode, or headless from a script",
        description="Play a game. Without --players or --setup, a few setup questions come first (remembered for "
                    "next time). By default the full-screen board and spoken lines; --no-audio keeps the board and "
                    "says nothing; --text (the same as --screen text) prints the lines, reads typed answers and "
                    "never makes a sound. --headless plays a scripted game on a virtual clock.")
    p.add_argument("--headless", action="store_true", help="no audio, no screen: a scripted game on a virtual clock")
    p.add_argument("--text", action="store_true",
                   help="text mode: printed lines, typed answers, never any sound (the same as --screen text; "
                        "--no-audio adds nothing to it)")
    p.add_argument("--players", type=int, metavar="N", help="players at the table (without --setup)")
    p.add_argument("--roles", metavar="SPEC", help='roles in the deck, e.g. "werewolf=2,seer=1,witch=1"')
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help=option_help())
    p.add_argument("--lang", default="en", metavar="L", help="language of the voice pack with --players: {languages} "
                   "(default: en; the setup questions ask for it otherwise)")
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
    r.add_argument("--screen", choices=("full", "text"), default=None,
                   help="the screen to resume on (default: the one the game was played on)")
    from narrator.table.sound import add_sound_arguments

    add_sound_arguments(r)
    r.add_argument("--audio", action="store_true",
                   help="speak aloud, even if the game was played with --no-audio (by default it resumes as it was played)")
    r.set_defaults(func=run_resume)

    g = sub.add_parser("graph", help="print the game's state machine as a mermaid diagram")
    g.add_argument("--page", action="store_true",
                   help="print docs/state-machine.md instead: the night order and the diagram, in Markdown")
    g.set_defaults(func=run_graph)


def known_language(lang: str) -> None:
    """A `--lang` with no voice pack is refused in one line, not played in English."""
    from narrator.packs import available_languages

    languages = available_languages()
    if lang not in languages:
        raise UsageError("--lang {lang!r}: there is no voice pack in that language; choose one of {languages}",
                         lang=lang, languages=", ".join(languages))


def run_play(args: argparse.Namespace) -> int:
    from narrator.table.presets import expand

    known_language(args.lang)
    args.option = expand(args.option)  # --option preset=NAME: the preset's options, in its place
    if args.text and getattr(args, "screen", None) == "full":
        raise UsageError("--text and --screen full contradict each other: --text is the same as --screen text; keep one")
    if args.headless:
        return _play_headless(args)
    from narrator.table.play import play_at_table

    return play_at_table(args)


def _play_headless(args: argparse.Namespace) -> int:
    from narrator.clock import RealClock, VirtualClock
    from narrator.flow.script import load_script, load_setup, warn_players
    from narrator.headless import play_headless, write_timeline
    from narrator.journal import FileJournal

    if args.setup is None or args.script is None:
        raise UsageError("headless play needs --setup SETUP.toml and --script SCRIPT.toml")
    setup = load_setup(args.setup)
    from narrator.flow.secret_vote import with_phones
    from narrator.table.config import adopt_language

    setup = with_phones(setup, False)  # headless: no phone, so no secret accusation vote

    adopt_language(setup.language)  # the script's table speaks its language: every printed line in it
    warn_players(setup.players)
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
    print(game_over(outcome.winner.value, result.game.living()))
    return 0


def game_over(winner: str, living: Any) -> str:
    """The headless game's result, its one line on stdout (scripts read it): the winning side's id, or in
    another language than English the pack's name for it."""
    winner = side_name(winner)
    alive = ", ".join(map(str, living))
    if not alive:
        return tr("game over: the winner is {winner}; alive: nobody", winner=winner)
    return tr("game over: the winner is {winner}; alive: {alive}", winner=winner, alive=alive)


def run_resume(args: argparse.Namespace) -> int:
    import sys

    from narrator.flow.script import warn_players
    from narrator.headless import read_head, resume_headless
    from narrator.journal import read_journal

    path = args.journal or _latest_game()
    head, setup, seed = read_head(path)
    from narrator.table.config import adopt_language

    adopt_language(setup.language)  # the journal's table: every printed line in its language
    records, _ = read_journal(path)
    # Headless: stdout stays the game's result alone (scripts read it); the table reads its terminal.
    where = sys.stdout if head.get("mode") == "text" else sys.stderr
    print(tr("Resuming {path}: {stopped}.", path=path, stopped=describe_journal(path, head, records)), file=where,
          flush=True)
    warn_players(setup.players)
    if head.get("mode") == "text":
        screen = args.screen or head.get("screen", "text")
        if screen == "full":
            from narrator.table.play import resume_full

            if args.audio and args.no_audio:
                raise UsageError("--audio and --no-audio contradict each other; keep one")
            if head.get("no_audio") and not args.audio:
                args.no_audio = True  # the sound choice the game was played with
            args.tv = bool(head.get("tv"))  # its TV page too (docs/tv.md)

            return resume_full(args, path, setup, seed, voice=bool(head.get("voice", True)))
        return _resume_text(path, setup, seed)
    from narrator.history.cli import Recorder

    recorder = Recorder()
    try:
        result = resume_headless(path, args.timeline)
    finally:
        recorder.journal(path)
    outcome = result.game.outcome
    assert outcome is not None
    print(game_over(outcome.winner.value, result.game.living()))
    return 0


def describe_journal(path: Path, head: dict[str, Any], records: list[dict[str, Any]]) -> str:
    """When the game started, and where it stopped: "started 2026-11-23 03:12, stopped in night 2"."""
    import time

    from narrator.flow.sequencer import NIGHT_ORDER

    started = head.get("started")
    if not isinstance(started, str):
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(_birth(path)))
    steps = [r for r in records if r.get("kind") == "step"]
    nights = sum(1 for r in steps if r.get("state") == "night_falls")
    night_states = {name for name, _ in NIGHT_ORDER} - {"dawn"} | {"night_falls"}
    if not steps:
        return tr("started {started}, stopped before the first night", started=started)
    if steps[-1].get("state") in night_states:
        return tr("started {started}, stopped in night {night}", started=started, night=nights)
    return tr("started {started}, stopped in day {day}", started=started, day=max(nights, 1))


def _birth(path: Path) -> float:
    """The journal's start time from its name (game-YYYYmmdd-HHMMSS[-N]), else when it was last written."""
    import time

    from narrator.flow.script import journal_order

    second, number, _ = journal_order(path)
    try:
        if not number:
            raise ValueError(path.name)  # not a name narrator gave
        return time.mktime(time.strptime(second, "%Y%m%d-%H%M%S"))
    except ValueError:
        return path.stat().st_mtime


def _latest_game() -> Path:
    """The newest journal. An empty one (a deal that never finished) stops here: an older game is
    never resumed silently in its place; it can be named."""
    from narrator.flow.script import game_journals, games_folder

    folder = games_folder()
    games = game_journals(folder)
    if not games:
        raise UsageError("no journal to resume in {folder}; name one: narrator resume FILE", folder=folder)
    newest = games[-1]
    if newest.stat().st_size == 0:
        older = [p for p in games[:-1] if p.stat().st_size > 0]
        if older:
            raise UsageError("the newest journal {newest} is empty: that game stopped during the deal, there is nothing to "
                             "resume; to continue the game before it: narrator resume {older}", newest=newest, older=older[-1])
        raise UsageError("the newest journal {newest} is empty: that game stopped during the deal, there is nothing to resume",
                         newest=newest)
    return newest


def _resume_text(path: Path, setup: Any, seed: int) -> int:
    from narrator.clock import RealClock
    from narrator.flow.run import play_game, resume_from
    from narrator.journal import FileJournal
    from narrator.packs import load_pack
    from narrator.table.text import LineListener, TextDisplay, seat_hint, text_speaker

    pack = load_pack(setup.language)
    clock = RealClock()
    stopped = path.stat().st_mtime  # when the game stopped: its journal's last write
    journal = FileJournal.reopen(path)
    try:
        resume = resume_from(journal.records(), path)
    except BaseException:  # a bad journal: one line, and no game recorded from it
        journal.close()
        raise
    journal.mark_resumed(stopped)
    display = TextDisplay(pack)
    listener = LineListener(clock)
    listener.on_prompt = seat_hint(pack)
    try:
        play_game(setup, pack, listener, text_speaker(pack, clock, pace=setup.speech_scale), display, clock, journal,
                  seed, resume)
    finally:
        display.clear_private()  # Ctrl-C during a private turn: wipe it before "interrupted"
        journal.close()
        from narrator.history.cli import Recorder

        Recorder().journal(path)
    return 0


def run_graph(args: argparse.Namespace) -> int:
    from narrator.flow.graph import mermaid, page

    print(page() if args.page else mermaid(), end="" if args.page else "\n")
    return 0
