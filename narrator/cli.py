"""The command line: the only place that chooses concrete adapters and wires them together."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Callable, Sequence

from narrator import __version__
from narrator.errors import NarratorError

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
    def error(self, message: str) -> None:  # type: ignore[override]
        # One clear line and exit 2, as argparse does, but without dumping the usage block.
        self.exit(2, f"narrator: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="narrator", description="An offline, hands-free narrator for Werewolf.")
    parser.add_argument("--version", action="version", version=f"narrator {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    _describe(sub)
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


def ctrl_c_acts() -> None:
    """At a terminal, Ctrl-C stops the program (issue 9 point 5), even when it was started from a
    shell that had set SIGINT to be ignored (a background job of a non-interactive shell does)."""
    import signal

    if sys.stdin is not None and sys.stdin.isatty() and signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def main(argv: Sequence[str] | None = None) -> int:
    ctrl_c_acts()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except NarratorError as exc:  # a value refused by its argument type (narrator/argtypes.py)
        print(f"narrator: {exc}", file=sys.stderr)
        return 1
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
        print(f"narrator: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("narrator: interrupted", file=sys.stderr)
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
