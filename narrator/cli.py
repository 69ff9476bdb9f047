"""The command line: the only place that chooses concrete adapters and wires them together."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Callable, Iterator, Mapping, Sequence

from narrator import __version__, i18n
from narrator.errors import NarratorError
from narrator.i18n import tr

# Each module adds its subcommands with `register(subparsers)` and sets `func` on its parsers.
# Heavy imports (audio, models) stay inside the command functions so start-up stays fast.
COMMAND_MODULES: tuple[str, ...] = (
    "narrator.sim.cli",
    "narrator.table.play_cli",
    "narrator.speech.cli",
    "narrator.listening.cli",
    "narrator.table.cli",  # also `narrator rules`
    "narrator.history.cli",
)

Handler = Callable[[argparse.Namespace], int]


class _Parser(argparse.ArgumentParser):
    def _get_value(self, action: argparse.Action, arg_string: str) -> object:
        # argparse names a refused number by its Python type ("invalid int value: 'x'"), an English
        # word in every language: say what was wanted instead.
        if action.type in (int, float):
            try:
                return action.type(arg_string)
            except ValueError:
                wanted = (tr("{value!r} is not a whole number", value=arg_string) if action.type is int
                          else tr("{value!r} is not a number", value=arg_string))
                raise argparse.ArgumentError(action, wanted) from None
        return super()._get_value(action, arg_string)

    def error(self, message: str) -> None:  # type: ignore[override]
        # One clear line and exit 2, as argparse does, but without dumping the usage block.
        self.exit(2, "narrator: " + tr("{message} (see '{prog} --help')", message=message, prog=self.prog) + "\n")


def _argparse_speaks_the_language() -> None:
    """argparse's own words ("usage: ", "unrecognized arguments: %s") go through `tr` too: argparse
    looks each up with gettext's `_` and `ngettext`, module globals read when the words are needed."""
    setattr(argparse, "_", _argparse_word)
    setattr(argparse, "ngettext", _argparse_words)


def _argparse_word(text: str) -> str:
    return tr(text)


def _argparse_words(singular: str, plural: str, n: int) -> str:
    return tr(singular if n == 1 else plural)


def build_parser(translate: bool = True) -> argparse.ArgumentParser:
    """The whole command line; its texts in the current language (`translate`), or as written."""
    _argparse_speaks_the_language()
    parser = _Parser(prog="narrator", description="An offline, hands-free narrator for Werewolf.")
    parser.add_argument("--version", action="version", version=f"narrator {__version__}")
    parser.add_argument("--lang", dest="print_language", default=None, metavar="L",
                        help="language of every printed line: {languages} (default: the command's --lang, "
                             "else $NARRATOR_LANG, else en)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    _describe(sub)
    _every_command_takes_lang(parser)
    if translate:
        _translate(parser, _help_slots())
    return parser


def _describe(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Every subcommand page opens with a description: its own, or else its one-line help."""
    helps = {action.dest: action.help for action in sub._choices_actions}
    for name, parser in sub.choices.items():
        if not parser.description and helps.get(name):
            text = str(helps[name])
            parser.description = text[0].upper() + text[1:] + "."
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                _describe(action)


def _every_command_takes_lang(parser: argparse.ArgumentParser) -> None:
    """`narrator COMMAND --lang L` for every command: one that has no `--lang` of its own takes it
    for its printed lines (as `narrator --lang L COMMAND`); left out unless given, so that it never
    hides the global one."""
    for p in _parsers(parser):
        if p is not parser and "--lang" not in p._option_string_actions:
            p.add_argument("--lang", dest="print_language", default=argparse.SUPPRESS, metavar="L",
                           help="language of every printed line: {languages} (default: $NARRATOR_LANG, else en)")


def _help_slots() -> dict[str, str]:
    """The slots a help text may hold: values that change without the text changing."""
    from narrator.argtypes import languages
    from narrator.reference import option_keys

    return {"languages": languages(), "options": option_keys()}


def _parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """`parser` and every subcommand's parser under it, each once (aliases share a parser)."""
    seen: set[int] = set()
    todo = [parser]
    while todo:
        p = todo.pop()
        if id(p) in seen:
            continue
        seen.add(id(p))
        yield p
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                todo.extend(action.choices.values())


def _help_actions(parser: argparse.ArgumentParser) -> Iterator[argparse.Action]:
    """The actions whose help a page shows: the options and, for a parser of commands, each command's line."""
    for action in parser._actions:
        yield action
        if isinstance(action, argparse._SubParsersAction):
            yield from action._choices_actions


def parser_texts(parser: argparse.ArgumentParser) -> Iterator[str]:
    """Every text of the command line's help pages, as written (the English templates)."""
    for p in _parsers(parser):
        yield from (text for text in (p.description, p.epilog, p.usage) if text)
        for group in p._action_groups:
            yield from (text for text in (group.title, group.description) if text)
        for action in _help_actions(p):
            if action.help and action.help is not argparse.SUPPRESS:
                yield action.help


def _translate(parser: argparse.ArgumentParser, slots: dict[str, str]) -> None:
    """Every help page's texts in the current language, their {slots} filled."""

    def text_of(template: str) -> str:
        given = {k: v for k, v in slots.items() if "{" + k + "}" in template}
        return tr(template, **given)

    for p in _parsers(parser):
        p.description = text_of(p.description) if p.description else p.description
        p.epilog = text_of(p.epilog) if p.epilog else p.epilog
        p.usage = text_of(p.usage) if p.usage else p.usage
        for group in p._action_groups:
            group.title = text_of(group.title) if group.title else group.title
            group.description = text_of(group.description) if group.description else group.description
        for action in _help_actions(p):
            if action.help and action.help is not argparse.SUPPRESS:
                action.help = text_of(action.help)


def chosen_language(argv: Sequence[str], environ: Mapping[str, str] = os.environ) -> str:
    """The language of every printed line: the global `--lang L` (before the command: `narrator --lang de
    COMMAND`), else the command's own `--lang` (the last given), else $NARRATOR_LANG, else English.

    The global one wins, so `narrator --lang en listen --lang ko` prints in English while it listens with
    the Korean model. It must be known before the command line is parsed, so that argparse's errors and
    the help pages are printed in it too.
    """
    chosen = global_choice = ""
    in_command = False
    i = 0
    while i < len(argv):
        token = argv[i]
        if token == "--":
            break
        value = None
        if token == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
            i += 1
        elif token.startswith("--lang="):
            value = token.split("=", 1)[1]
        elif not token.startswith("-"):
            in_command = True
        if value is not None:
            chosen = value
            if not in_command:
                global_choice = value
        i += 1
    chosen = global_choice or chosen
    if chosen and chosen != "all":
        return chosen
    return environ.get("NARRATOR_LANG", "") or i18n.REFERENCE


def _command_parser(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.ArgumentParser:
    """The parser of the (sub)command `argv` names: `voices render ...` -> the `voices render` parser."""
    for token in argv:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if subs and token in subs[0].choices:
            parser = subs[0].choices[token]
    return parser


def _global_language_for_the_command(parser: argparse.ArgumentParser, argv: Sequence[str],
                                     args: argparse.Namespace) -> None:
    """`narrator --lang de play`: a command with its own `--lang` takes the global one when its own is not given."""
    if args.print_language is None or not hasattr(args, "lang"):
        return
    command = _command_parser(parser, argv)
    own = command._option_string_actions.get("--lang")
    if own is None or own.dest != "lang":
        return
    command_at = next((i for i, token in enumerate(argv) if token == getattr(args, "command", None)), len(argv))
    after = argv[command_at + 1:]
    if not any(token == "--lang" or token.startswith("--lang=") for token in after):
        args.lang = args.print_language


def ctrl_c_acts() -> None:
    """At a terminal, Ctrl-C stops the program, even when it was started from a
    shell that had set SIGINT to be ignored (a background job of a non-interactive shell does)."""
    import signal

    if sys.stdin is not None and sys.stdin.isatty() and signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def main(argv: Sequence[str] | None = None) -> int:
    ctrl_c_acts()
    words = list(sys.argv[1:] if argv is None else argv)
    with i18n.language(chosen_language(words)):
        return _run(words)


def _run(argv: list[str]) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except NarratorError as exc:  # a value refused by its argument type (narrator/argtypes.py)
        print(f"narrator: {i18n.message_of(exc)}", file=sys.stderr)
        return 1
    _global_language_for_the_command(parser, argv, args)
    func: Handler | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        code = func(args)
        sys.stdout.flush()  # a closed pipe shows up here, not at exit where it would print a traceback
        return code
    except BrokenPipeError:
        return _reader_went_away()
    except NarratorError as exc:
        print(f"narrator: {i18n.message_of(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("narrator: " + tr("interrupted"), file=sys.stderr)
        return 130


def _reader_went_away() -> int:
    """The reader of stdout closed it (`narrator simulate --json | head -c1`): stop quietly.

    Whatever is still buffered for stdout can never be written; point stdout at /dev/null so the
    interpreter's own flush at exit does not report the broken pipe again. Exit as a process
    killed by SIGPIPE would, as `yes | true` does.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout without a file descriptor (a test's StringIO)
        pass
    return 141
