"""Argument types for the command line: numbers refused at once, in one line, when out of range.

`type=` functions for argparse. A refusal raises `UsageError` (argparse lets it through), which
`narrator.cli.main` prints as one line and exit 1, like every other refused value:
`narrator: --duck-db 100 is too high: give a value from 0 to 40`.
"""

from __future__ import annotations

import math
from typing import Callable

from narrator.errors import UsageError


def _bounds(lo: float | None, hi: float | None) -> str:
    if lo is not None and hi is not None:
        return f"from {lo:g} to {hi:g}"
    if lo is not None:
        return f"of at least {lo:g}"
    return f"of at most {hi:g}"


def _check(flag: str, text: str, value: float, lo: float | None, hi: float | None, above: bool) -> None:
    if lo is not None and (value <= lo if above else value < lo):
        low = f"above {lo:g}" + (f", at most {hi:g}" if hi is not None else "") if above else _bounds(lo, hi)
        raise UsageError(f"{flag} {text} is too low: give a value {low}")
    if hi is not None and value > hi:
        high = f"above {lo:g}, at most {hi:g}" if above and lo is not None else _bounds(lo, hi)
        raise UsageError(f"{flag} {text} is too high: give a value {high}")


def integer(flag: str, lo: int | None = None, hi: int | None = None) -> Callable[[str], int]:
    """A whole number within lo..hi (either end may be open)."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise UsageError(f"{flag} {text!r} is not a whole number: give one {_bounds(lo, hi)}") from None
        _check(flag, text, value, lo, hi, above=False)
        return value

    parse.__name__ = "whole number"  # argparse names the type in its own messages
    return parse


def decimal(flag: str, lo: float | None = None, hi: float | None = None, above: bool = False) -> Callable[[str], float]:
    """A finite number within lo..hi; `above` makes lo itself refused (a factor that must be > 0)."""

    def parse(text: str) -> float:
        try:
            value = float(text.strip())
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise UsageError(f"{flag} {text!r} is not a number: give one {_bounds(lo, hi)}")
        _check(flag, text, value, lo, hi, above)
        return value

    parse.__name__ = "number"
    return parse


def languages() -> str:
    """The voice packs' languages, for a `--lang` help: "en, es, fr, it, ko"."""
    from narrator.packs import available_languages

    return ", ".join(available_languages()) or "no voice pack found"
