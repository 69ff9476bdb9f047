"""The command line: the only place that chooses concrete adapters and wires them together."""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Callable, Sequence

from narrator import __version__
from narrator.errors import NarratorError

# Each module adds its subcommands with `register(subparsers)` and sets `func` on its parsers.
# Heavy imports (audio, models) stay inside the command functions so start-up stays fast.
COMMAND_MODULES: tuple[str, ...] = (
    "narrator.sim.cli",
    "narrator.flow.cli",
    "narrator.speech.cli",
    "narrator.listening.cli",
    "narrator.table.cli",
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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Handler | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return func(args)
    except NarratorError as exc:
        print(f"narrator: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("narrator: interrupted", file=sys.stderr)
        return 130
