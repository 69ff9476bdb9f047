"""`narrator play` at the table: the wizard (or a given setup), the deal, then the game on a screen."""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Collection, TextIO

from narrator.errors import NarratorError, UsageError
from narrator.flow.script import Setup
from narrator.i18n import REFERENCE, current_language, marked, message_of, side_name, tr
from narrator.ports import Clock, Display, Journal, Listener, Prompt, Speaker

if TYPE_CHECKING:
    from narrator.names import People
    from narrator.packs import VoicePack
    from narrator.phones.play import TablePhones
    from narrator.phones.server import PhoneServer
    from narrator.speech.pool import RenderPool
    from narrator.table.early import EarlyRender, TablePool
    from narrator.table.text import LineListener
from narrator.table.config import Loaded, TableConfig, adopt_language, config_path, load_config, save_config
from narrator.table.setups import scaled as scaled, setup_from_config as setup_from_config


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", type=Path, metavar="FILE", help="the table's config file (default: the user's config folder)")
    p.add_argument("--screen", choices=("full", "text", "tv"), default=None, nargs="?", const="tv",
                   help="full: the full-screen board, lines spoken unless --no-audio (default in a terminal); "
                        "text: printed lines, typed answers, no sound (the same as --text); "
                        "tv (or --screen alone): the full screen, and the board as a web page for a TV (docs/tv.md)")
    p.add_argument("--pace", type=float, default=None, metavar="F",
                   help="scale every turn and line by F (0.1 = ten times faster, for trying things out)")
    p.add_argument("--again", action="store_true",
                   help="play the last game again: same table, composition and options, a fresh deal")
    from narrator.table.sound import add_sound_arguments

    add_sound_arguments(p)
    # Every player's phone as their private panel (docs/phones.md; narrator/phones/play.py).
    p.add_argument("--phones", action="store_true",
                   help="each player's phone shows their card, their night panel and their vote (full screen only)")
    p.add_argument("--phones-host", default=None, metavar="ADDRESS",
                   help="the laptop's address the phones reach (default: its address on the network)")
    p.add_argument("--phones-port", type=int, default=0, metavar="PORT", help="the phones' port (default: any free one)")
    p.add_argument("--dead-view", action="store_true",
                   help="with --phones: a dead player's phone shows every card and the night's choices (docs/phones.md)")


def _voice_check(asker: Any, config: TableConfig) -> str:
    """The setup's voice check in the room (narrator/listening/check.py); without a model or a
    microphone, one line and the mode stays as it was."""
    from narrator.listening.check import live_check

    try:
        return live_check(config.language, config.players, asker.tell).mode
    except NarratorError as exc:
        asker.tell(tr("! voice check not possible: {problem}", problem=message_of(exc)))
        return config.voice_mode


def run_wizard(args: argparse.Namespace, read_line: Callable[[], str | None] | None = None,
               ask_phones: bool = True, composed: Callable[[TableConfig], None] | None = None,
               phones_installed: bool = True) -> TableConfig:
    """Read the remembered setup (reporting any problem), ask the questions, remember the answers;
    `composed` is told the table once its composition and language are known (`Wizard.composed`)."""
    from narrator.packs import available_languages
    from narrator.table.wizard import LineAsker, Wizard

    path: Path = args.config or config_path()
    loaded: Loaded = load_config(path)
    asked = current_language()  # --lang (or $NARRATOR_LANG): the table's language unless answered otherwise
    if asked != REFERENCE and asked in available_languages():
        loaded.config.language = asked
    if loaded.exists and adopt_language(loaded.config.language):
        # The remembered table's language: its questions, and the config's problems, in it.
        loaded = load_config(path)
    asker = LineAsker(sys.stdin, sys.stdout, read_line)
    for problem in loaded.problems:
        asker.tell(f"! {problem}")
    if loaded.config.phones and not phones_installed:
        # A remembered `phones = true` that cannot work here: said before the first question, and off.
        asker.tell("! " + tr(PHONES_MISSING, packages=", ".join(phones_missing())))
        loaded.config.phones = False
    wizard = Wizard(asker, loaded.config, available_languages(), advisor=balance_advice,
                    ask_phones=ask_phones and phones_installed)
    wizard.voice_check = partial(_voice_check, asker)
    wizard.composed = composed
    config = wizard.run(offer_last=loaded.exists and not loaded.problems)
    try:
        kept = save_config(config, path, keep_old=bool(loaded.problems))
    except OSError as exc:
        # The answers still make this game; only remembering them failed.
        asker.tell(tr("! the setup could not be saved in {path} ({error}); this game goes on, "
                      "next time choose a writable file with --config FILE", path=path, error=exc.strerror or exc))
        return config
    asker.tell(tr("Saved in {path}. The old file is kept as {kept}.", path=path, kept=kept) if kept
               else tr("Saved in {path}.", path=path))
    return config


def balance_advice(config: TableConfig) -> tuple[list[str], list[dict[str, int]]]:
    """The balance advisor for the wizard: its lines, and the fair compositions as the config's roles."""
    from narrator.rules import RulesError
    from narrator.sim.balance import advise

    try:
        advice = advise(config.players, config.composition(), config.rule_options())
    except RulesError:
        return [], []
    from narrator.packs import PackError, load_pack

    try:
        pack = load_pack(config.language)
    except PackError:
        pack = None
    return wizard_advice(advice, pack)


# The wizard has no --budget: its roles question asks the advisor again after every change.
def wizard_again() -> str:
    return tr("change a role and back to ask again: the games played are kept")


def wizard_advice(advice: Any, pack: Any = None) -> tuple[list[str], list[dict[str, int]]]:
    """The advisor's answer as the wizard shows it: the fair compositions numbered *1, *2..."""
    from narrator.rules import Role
    from narrator.sim.cli import advice_lines

    offers = [{r.value: n for r, n in e.deck.items() if r is not Role.VILLAGER} for e in advice.fair]
    lines = advice_lines(advice, again=wizard_again(), pack=pack)
    numbered = [f"    *{i} {line.strip()}" for i, line in enumerate(lines[-len(offers):], start=1)] if offers else []
    return (lines[: len(lines) - len(offers)] + numbered) if offers else lines, offers


# The phones' run-time packages (the `phones` extra, which `./play` installs): module -> package.
PHONE_PACKAGES = {"aiohttp": "aiohttp", "nacl": "pynacl", "qrcode": "qrcode"}
PHONES_MISSING = marked("the phones need packages that are not installed ({packages}): from a clone, ./play "
                        "installs them; otherwise pip install 'narrator[phones]'")


def phones_missing() -> list[str]:
    """The phones' packages that cannot be imported here (none after `./play`)."""
    from importlib.util import find_spec

    return [package for module, package in PHONE_PACKAGES.items() if find_spec(module) is None]


def play_at_table(args: argparse.Namespace) -> int:
    if args.pace is not None and not 0 < args.pace <= 10:
        raise UsageError("--pace {pace!r}: give a factor above 0, at most 10 (0.1 is ten times faster)", pace=args.pace)
    tty = sys.stdout.isatty() and sys.stdin.isatty()
    if args.screen == "tv":  # the full screen, and the board on the TV page (docs/tv.md)
        args.tv, args.screen = True, "full"
    screen = args.screen or ("text" if args.text or not tty else "full")
    if screen == "full" and not tty:
        raise UsageError("the full screen needs a terminal; use --screen text (or --text) when input or output is redirected")
    if getattr(args, "phones", False) and screen != "full":
        raise UsageError("--phones needs the full screen (the text screen has no private panel); leave out --text")
    if getattr(args, "tv", False) and screen != "full":
        raise UsageError("--screen tv shows the full screen's board on a TV; leave out --text")
    missing = phones_missing()
    if getattr(args, "phones", False) and missing:
        # Before the setup and before any journal: nothing to answer in vain, no abandoned game.
        raise UsageError(PHONES_MISSING, packages=", ".join(missing))
    from narrator.clock import RealClock
    from narrator.table.text import LineListener

    lines = LineListener(RealClock())  # one reader for the wizard and the text game: no answer lost between
    given = args.setup is not None or args.players is not None
    if not given and not args.again:
        remembered = load_config(args.config or config_path())
        if remembered.exists and not remembered.problems:
            adopt_language(remembered.config.language)  # the sound check's lines in the table's language too
    if screen == "full" and not args.no_audio:
        # Before the first question: a table with no speaker learns it now, not after the setup.
        screen = check_sound(args, lines.read_line, _voice_remembered(args, given))
    from narrator.table.early import EarlyRender, TablePool

    # The render workers the wizard starts once the composition is known (narrator/table/early.py).
    early = TablePool(args) if screen == "full" and not (given or args.again) else None
    hook = EarlyRender(early) if early is not None else None
    try:
        return _play_games(args, screen, lines, given, early, hook)
    finally:
        if early is not None and hook is not None:
            hook.stop()
            early.close()  # the game did not take them: a stop during the setup


def _play_games(args: argparse.Namespace, screen: str, lines: LineListener, given: bool,
                early: TablePool | None, hook: EarlyRender | None) -> int:
    """The setup (wizard, --setup or --again), then games until the table wants no rematch."""
    from narrator.flow.script import setup_from_args

    config: TableConfig | None = None
    names: dict[int, str] = {}
    if args.again:
        from narrator.flow.script import games_folder
        from narrator.table.rematch import last_game, rematch_setup

        last, head = last_game(games_folder())
        setup = rematch_setup(last, _rematch_rng(args.seed, 0))
        from narrator.names import head_names

        names = head_names(head)
    elif given:
        setup = setup_from_args(args)
        if args.pace is not None:
            from dataclasses import replace

            setup = replace(setup, timing=scaled(setup.timing, args.pace), speech_scale=setup.speech_scale * args.pace)
    else:
        # The first night's lines render while the last questions are asked.
        # The phones question: not when --phones answered it already, nor when they cannot work here.
        config = run_wizard(args, lines.read_line, ask_phones=screen == "full" and not args.phones,
                            composed=hook, phones_installed=not phones_missing())
        if hook is not None:
            hook.join()  # a plan being made (a tenth of a second) starts the workers the game takes over
            hook.stop()  # the game plans its own lines on the same workers
        if config.phones and screen == "full":
            args.phones = True  # the setup's answer, as `--phones` (docs/phones.md)
        if config.tv and screen == "full":
            args.tv = True  # the setup's answer, as `--screen` (docs/tv.md)
        setup = setup_from_config(config, args.seed, args.pace)
        names = config.seat_names()
    if getattr(args, "dead_view", False) and not getattr(args, "phones", False):
        raise UsageError("--dead-view shows the dead what the narrator knows on their phones; add --phones")
    adopt_language(setup.language)  # the table's language (the setup file's, the last game's, --lang): every line in it
    from narrator.flow.secret_vote import with_phones

    # The secret accusation vote needs a phone on every seat: refused now, before the game, without.
    setup = with_phones(setup, bool(getattr(args, "phones", False)) and screen == "full")
    if given or args.again:  # the wizard warned already
        from narrator.flow.script import warn_players

        warn_players(setup.players, sys.stdout)
    deal_mode = config.deal if config is not None else "program"
    if screen == "text" and config is not None and config.phones:
        print(tr("Note: the text screen has no private panel; the phones need the full screen."))
    if screen == "text" and config is not None and config.inputs != "keypad":
        from narrator.table.config import input_label

        print(tr("Note: the text screen reads typed answers only; answers by {inputs} need the full screen.",
                 inputs=input_label(config.inputs)))
    from narrator.packs import load_pack
    from narrator.table.rematch import offer_rematch, rematch_setup

    for game in range(1, 1000):
        if screen == "text":
            code = _play_text(args, setup, deal_mode, lines, names)
            again = code == 0 and offer_rematch(load_pack(setup.language), lines.read_line)
        else:
            # Voice answers when a model is present, unless the table chose the keypad alone.
            rematch: list[bool] = []
            # The voice check (`narrator listen --check`) may have picked yes/no only, or the keypad.
            voice = config is None or (config.inputs != "keypad" and config.voice_mode != "keypad")
            code = _play_full(args, setup, deal_mode, voice=voice, names=names, rematch=rematch,
                              seats_by_voice=config is None or config.voice_mode == "voice",
                              started=early.take() if early is not None else None)
            again = code == 0 and any(rematch)
        if not again:
            return code
        # The rematch: same table, composition, options and timing; a fresh deal; a new journal.
        setup = rematch_setup(setup, _rematch_rng(args.seed, game))
        args.journal = None
    return 0


def _rematch_rng(seed: int | None, game: int) -> random.Random:
    """A fresh deal's random source: reproducible with --seed, otherwise from the system."""
    return random.Random(f"rematch:{seed}:{game}") if seed is not None else random.Random(random.SystemRandom().random())


def _voice_remembered(args: argparse.Namespace, given: bool) -> bool:
    """Whether the remembered setup answers by voice (the microphone is checked with the speaker)."""
    if given:
        return False
    loaded = load_config(args.config or config_path())
    return loaded.exists and loaded.config.inputs != "keypad"


def sound_problems(device: str | None, voice: bool) -> tuple[list[str], bool]:
    """What keeps the table from hearing the narrator (and, for voice answers, the narrator from hearing it),
    and whether there is no sound at all."""
    from narrator.errors import NarratorError

    problems: list[str] = []
    no_sound = False
    try:
        from narrator.speech.player import resolve_device

        resolve_device(device)
    except NarratorError as exc:
        problems.append(tr("no sound: {problem}", problem=message_of(exc)))
        no_sound = True
    if voice:
        from narrator.table.doctor import check_microphone

        mic = check_microphone()[0]
        if not mic.ok:
            problems.append(tr("no microphone for voice answers: {problem}; the keypad still works", problem=mic.detail))
    return problems, no_sound


def check_sound(args: argparse.Namespace, read_line: Callable[[], str | None], voice: bool,
                out: TextIO | None = None) -> str:
    """The screen to play on, after checking the speaker (and the microphone when voice is chosen).

    Without a speaker, the table chooses right here: the full screen without sound (--no-audio),
    the text screen (--text), or stop. Returns "full" or "text"; sets `args.no_audio` if chosen.
    """
    stream = out or sys.stdout
    problems, no_sound = sound_problems(getattr(args, "output_device", None), voice)
    for problem in problems:
        stream.write(f"narrator: {problem}\n")
    if not no_sound:
        stream.flush()
        return "full"
    stream.write(tr("Play without sound? 1 = full screen, silent (--no-audio); 2 = printed lines (--text); "
                    "Enter = stop (then 'narrator doctor'):") + " ")
    stream.flush()
    answer = (read_line() or "").strip()
    if answer == "1":
        args.no_audio = True
        return "full"
    if answer == "2":
        return "text"
    raise UsageError("no sound for the game; run 'narrator doctor', or play with --no-audio or --text")


def deal_at_table(setup: Setup, mode: str, speaker: Speaker, listener: Listener, display: Display, clock: Clock,
                  on_phones: Collection[int] = ()) -> Setup:
    """Mode a: the program's deal, shown seat by seat (but for the seats `on_phones`, whose card is on
    their phone). Mode b: the deal learnt from the physical cards."""
    from dataclasses import replace

    from narrator.rules.composition import deck_of
    from narrator.table.deal import deal_on_screen, roll_call

    if mode == "program":
        deal_on_screen(setup.deal, display, listener, setup.options, on_phones)
        return setup
    extra = setup.deal.extra if setup.options.thief_extra_cards == "from_deck" else ()
    deck = deck_of(setup.deal.seats, extra)
    dealt = roll_call(setup.players, deck, setup.options, speaker, listener, display, clock, setup.timing)
    # Every role announced is called every night, even one left in the middle by the Thief.
    return replace(setup, deal=dealt, possible=frozenset(deck) | (setup.possible or frozenset()))


def _journal(args: argparse.Namespace) -> Path:
    from narrator.flow.script import games_folder, new_journal_path

    if args.journal is not None:
        return Path(args.journal)
    return new_journal_path(games_folder())  # two games in the same second (a quick rematch) get -2, -3...


def _play_text(args: argparse.Namespace, setup: Setup, deal_mode: str, listener: LineListener,
               names: dict[int, str] | None = None) -> int:
    from narrator.flow.run import play_game
    from narrator.journal import FileJournal
    from narrator.packs import load_pack
    from narrator.table.text import TextDisplay, seat_hint, text_speaker

    from narrator.names import People

    people = People(names or {}, frozen=True)  # the text screen has no phone to give one later
    pack = load_pack(setup.language).with_people(people)
    _check_names(people, pack, None)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    path = _journal(args)
    journal = FileJournal.create(path)
    clock = listener.clock
    display = TextDisplay(pack)
    speaker = text_speaker(pack, clock, pace=setup.speech_scale)
    listener.on_prompt = seat_hint(pack)
    print(tr("Journal: {path} (if the game stops, continue it with: narrator resume {path})", path=path))
    from narrator.history.cli import Recorder

    recorder = Recorder(names)
    try:
        setup = deal_at_table(setup, deal_mode, speaker, listener, display, clock)
        head = {"mode": "text", "screen": "text", "started": _now(), "started_at": round(time.time(), 3), "seed": seed,
                "setup": setup.to_record(), **_names_head(names)}
        play_game(setup, pack, listener, speaker, display, clock, journal, seed, None, head)
    finally:
        display.clear_private()  # Ctrl-C during a private turn: wipe it before "interrupted"
        journal.close()
        recorder.journal(path, setup.to_record())  # stopped during the deal: recorded as abandoned
    return 0


def _in_order_of_need(speaker: Speaker, started: RenderPool | None = None) -> Speaker:
    """The first night's lines before the first line, the day's while the night plays;
    `started`: the workers the setup started (narrator/table/early.py)."""
    from narrator.speech.need import in_order_of_need

    return in_order_of_need(speaker, started)


def _now() -> str:
    return time.strftime("%Y-%m-%d %H:%M")


def _names_head(names: dict[int, str] | None) -> dict[str, object]:
    """The seats' names in the journal's head record (for the history), when the table gave them."""
    return {"names": {str(k): v for k, v in sorted(names.items())}} if names else {}


def _play_full(args: argparse.Namespace, setup: Setup, deal_mode: str = "program", voice: bool = True,
               names: dict[int, str] | None = None, rematch: list[bool] | None = None,
               seats_by_voice: bool = True, started: RenderPool | None = None) -> int:
    """One game on the full screen; `rematch` gets True when the table asks for another at game over (`*`)."""
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    return _full_screen(args, setup, seed, _journal(args), deal_mode, voice, names=names, rematch=rematch,
                        seats_by_voice=seats_by_voice, started=started)


def resume_full(args: argparse.Namespace, path: Path, setup: Setup, seed: int, voice: bool = True) -> int:
    """`narrator resume` of a game played on the full screen (or `--screen full`), answered as it was."""
    if not (sys.stdout.isatty() and sys.stdin.isatty()):
        raise UsageError("the full screen needs a terminal; use --screen text when input or output is redirected")
    return _full_screen(args, setup, seed, path, None, voice=voice, resuming=True)


def _full_screen(args: argparse.Namespace, setup: Setup, seed: int, path: Path, deal_mode: str | None,
                 voice: bool = True, resuming: bool = False, names: dict[int, str] | None = None,
                 rematch: list[bool] | None = None, seats_by_voice: bool = True,
                 started: RenderPool | None = None) -> int:
    from narrator.clock import RealClock
    from narrator.flow.run import play_game, resume_from, start_game
    from narrator.flow.sequencer import all_cues
    from narrator.journal import FileJournal
    from narrator.listening.table import open_table_listener
    from narrator.packs import load_pack
    from narrator.table.screen import ScreenDisplay, ScreenListener, ScreenSpeaker
    from narrator.table.sound import SpeakingTracker, open_table_speaker

    from narrator.names import People

    # The table's names (docs/names.md): the wizard's, the last game's, or a resumed game's; the
    # phones add theirs until the game starts. Every line, screen and page takes them from the pack.
    people = People(names if names is not None else _journal_names(path) if resuming else {}, frozen=resuming)
    pack = load_pack(setup.language).with_people(people)
    clock = RealClock()
    try:
        table_speaker = open_table_speaker(pack, clock, args, setup.speech_scale)  # no device: stop here
    except BaseException:
        if started is not None:
            started.close()
        raise
    _check_names(people, pack, table_speaker)
    voice_out = SpeakingTracker(_in_order_of_need(table_speaker, started))
    phones: TablePhones | None = None
    tv_server: PhoneServer | None = None
    try:
        # The phones' server first: an address it cannot have stops the game before its journal exists
        # (no abandoned game in the history). None without --phones (a resumed game: its links file).
        phones = _phones(args, setup, path, resuming)
        if getattr(args, "tv", False) and phones is None:
            from narrator.table.tv_page import tv_server as own_server

            # The TV page alone: a server of its own, with the phones' limits and checks.
            tv_server = own_server(setup.players, path, getattr(args, "phones_host", None),
                                   getattr(args, "phones_port", 0) or 0)
        stopped = path.stat().st_mtime if resuming else 0.0  # when the game stopped: its journal's last write
        journal = FileJournal.reopen(path) if resuming else FileJournal.create(path)
    except BaseException:
        if phones is not None:
            phones.close()
        if tv_server is not None:
            tv_server.stop()
        voice_out.close()
        raise
    try:
        resume = resume_from(journal.records(), path) if resuming else None
    except BaseException:  # a bad journal: one line from the caller, nothing left open
        if phones is not None:
            phones.close()
        if tv_server is not None:
            tv_server.stop()
        voice_out.close()
        journal.close()
        raise
    if resuming:
        journal.mark_resumed(stopped)
    from narrator.history.cli import Recorder

    recorder = Recorder(names)
    screen = ScreenDisplay(pack, clock, timing=setup.timing)
    screen.title = tr("narrator — journal {name}", name=path.name)
    speaker: Speaker = ScreenSpeaker(voice_out, pack, screen)
    game_journal: Journal = journal
    try:
        if phones is not None:
            from narrator.phones.names import take_names

            take_names(phones.hub, people)  # each phone asks its seat's name until the game starts
        tv_address = ""
        if getattr(args, "tv", False):
            from narrator.table.tv_page import serve_tv
            from narrator.table.tv import TvBoard, TvJournal, TvSpeaker

            tv = TvBoard(screen, pack, setup.players)
            speaker, game_journal = TvSpeaker(speaker, tv), TvJournal(journal, tv)
            own = tv_server if tv_server is not None else phones.server if phones is not None else None
            if own is not None:
                tv_address = serve_tv(own, tv, pack)
        # The first night's lines before the screen takes over (with the progress bar); the rest render
        # behind the game, in the order of need (narrator/speech/need.py).
        cues = all_cues(pack, start_game(setup), setup.timing)
        voice_out.prepare(cues)
        named = people.version
        at_table = (phones.table(screen, pack, clock, dead_view=bool(getattr(args, "dead_view", False)))
                    if phones is not None else None)
        extra = [at_table.source()] if at_table is not None else []
        with open_table_listener(pack, speaker, voice_out.busy_until, voice=voice, echo=screen.echo,
                                 extra=extra, seats_by_voice=seats_by_voice) as answers:
            listener = ScreenListener(answers, screen)
            if phones is not None and at_table is not None:
                at_table.listener = listener
                _drop_typed_ahead()  # an Enter typed twice at the setup's last question shows no link in vain

                def enter() -> None:
                    while listener.listen(_final_prompt()) is None:
                        pass

                phones.codes(sys.stdout, enter)
            if tv_address:
                from narrator.table.tv_page import show_address

                show_address(sys.stdout, tv_address)
            if at_table is not None or tv_address:
                print(pack.panel_text("screen.start", {}))
                sys.stdout.flush()
                while listener.listen(_final_prompt()) is None:
                    pass
            # The names are those given by now: every line naming a seat renders before it is due.
            if phones is not None:
                from narrator.phones.names import close_names

                close_names(phones.hub, people)
            people.freeze()
            if people.version != named:
                _check_names(people, pack, table_speaker)
                voice_out.prepare(cues)
            recorder.names = people.names()
            if names is not None:
                names.update(people.names())  # a rematch keeps them
            if answers.notes:
                # Before the screen takes over, while it can be read: why answers are keypad only.
                for note in answers.notes:
                    print(f"narrator: {note}")
                print(pack.panel_text("screen.start", {}))
                sys.stdout.flush()
                while listener.listen(_final_prompt()) is None:
                    pass
            screen.start()
            try:
                # A mixed table: the seats whose phone has joined hold their card there; the screen deals
                # the others (every seat joined: no deal on the screen).
                on_phones = phones.hub.joined() if phones is not None else ()
                if deal_mode is not None:
                    if at_table is not None and deal_mode == "program":
                        at_table.deal(start_game(setup))  # a joined phone holds its card from now on
                    setup = deal_at_table(setup, deal_mode, speaker, listener, screen, clock, on_phones)
                    if at_table is not None and deal_mode == "program":
                        dealt = setup

                        def deal_here(seat: int) -> None:
                            others = set(range(1, dealt.players + 1)) - {seat}
                            deal_at_table(dealt, "program", speaker, listener, screen, clock, others)

                        # The night waits until every player has seen their card.
                        at_table.cards_seen(on_phones, listener, deal_here)
                head = {"mode": "text", "screen": "full", "voice": voice,
                        "no_audio": bool(getattr(args, "no_audio", False)), "started": _now(),
                        "started_at": round(time.time(), 3), "seed": seed,
                        "setup": setup.to_record(), **_names_head(people.names()),
                        **({"tv": True} if tv_address else {})}
                if at_table is not None:
                    from narrator.phones.run import play_with_phones

                    game = play_with_phones(setup, pack, at_table, speaker, clock, game_journal, seed, resume,
                                            {**head, "phones": True})
                else:
                    game = play_game(setup, pack, listener, speaker, screen, clock, game_journal, seed, resume, head)
                if phones is not None:
                    phones.hub.close()  # the game is over: every token dies now, not at Enter (docs/phones.md)
                # Game over: Enter leaves; `*` (a rematch) deals again where the caller offers one.
                screen.final_hint = pack.panel_text("game.rematch" if rematch is not None else "screen.end", {})
                screen.refresh()
                last = listener.listen(_final_prompt())
                if rematch is not None:
                    rematch.append(last is not None and last.choice == "repeat")
            finally:
                screen.clear_private()  # Ctrl-C or an error: no secret stays on the screen
                screen.stop()
    finally:
        if phones is not None:
            phones.close()
        if tv_server is not None:
            tv_server.stop()
        voice_out.close()
        journal.close()
        recorder.journal(path, setup.to_record())  # stopped during the deal: recorded as abandoned
    outcome = game.outcome
    assert outcome is not None
    if phones is not None:
        phones.forget()  # the game is over: its links die with it
    print(tr("game over: the winner is {winner}; journal: {path}", winner=side_name(outcome.winner.value), path=path))
    return 0


def _journal_names(path: Path) -> dict[int, str]:
    """The names a journal's game was played with (its head record), for `narrator resume`."""
    from narrator.journal import JournalError, read_journal
    from narrator.names import head_names

    try:
        records, _ = read_journal(path)
    except (JournalError, OSError):
        return {}
    return head_names(records[0]) if records else {}


def _check_names(people: People, pack: VoicePack, speaker: Speaker | None) -> None:
    """Mark the names the table's voice cannot say (narrator/speech/names.py): those seats keep
    their numbers in every line. Without a voice (--no-audio) only the characters are looked at."""
    if not people:
        return
    from narrator.speech.names import check_names
    from narrator.speech.speaker import AudioSpeaker

    seconds = speaker.seconds if isinstance(speaker, AudioSpeaker) else None
    check_names(people, pack, seconds)


def _phones(args: argparse.Namespace, setup: Setup, path: Path, resuming: bool) -> TablePhones | None:
    """The game's phones: with --phones, or when a resumed game has its phones' links beside its journal."""
    from narrator.phones.play import TablePhones, links_path

    if not (getattr(args, "phones", False) or (resuming and links_path(path).exists())):
        return None
    path.parent.mkdir(parents=True, exist_ok=True)  # the links file goes beside the journal, made after it
    phones = TablePhones(setup.players, path, getattr(args, "phones_host", None),
                         getattr(args, "phones_port", 0) or 0, resuming)
    phones.start()
    return phones


def _drop_typed_ahead() -> None:
    """Keys typed before the phones' links are shown are not an answer to "Press Enter to start"."""
    if sys.stdin.isatty():
        import termios

        termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)


def _final_prompt() -> Prompt:
    # Enter finishes; `*` (the keypad's "repeat") asks for a rematch.
    return Prompt("game.end", words=("enter", "repeat"))
