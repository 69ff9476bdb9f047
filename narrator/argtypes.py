"""Argument types for the command line: numbers refused at once, in one line, when out of range.

`type=` functions for argparse. A refusal raises `UsageError` (argparse lets it through), which
`narrator.cli.main` prints as one line and exit 1, like every other refused value:
`narrator: --duck-db 100 is too high: give a value from 0 to 40`.
"""

from __future__ import annotations

import math
from typing import Callable

from narrator.errors import UsageError, marked


def _refuse(flag: str, text: str, problem: str, lo: float | None, hi: float | None, above: bool) -> UsageError:
    """One whole sentence per bound and problem, so each language words it its own way."""
    if above and lo is not None:
        if hi is not None:
            templates = {"low": marked("{flag} {text} is too low: give a value above {lo:g}, at most {hi:g}"),
                         "high": marked("{flag} {text} is too high: give a value above {lo:g}, at most {hi:g}"),
                         "whole": marked("{flag} {text!r} is not a whole number: give one above {lo:g}, at most {hi:g}"),
                         "number": marked("{flag} {text!r} is not a number: give one above {lo:g}, at most {hi:g}")}
        else:
            templates = {"low": marked("{flag} {text} is too low: give a value above {lo:g}"),
                         "high": marked("{flag} {text} is too high: give a value above {lo:g}"),
                         "whole": marked("{flag} {text!r} is not a whole number: give one above {lo:g}"),
                         "number": marked("{flag} {text!r} is not a number: give one above {lo:g}")}
    elif lo is not None and hi is not None:
        templates = {"low": marked("{flag} {text} is too low: give a value from {lo:g} to {hi:g}"),
                     "high": marked("{flag} {text} is too high: give a value from {lo:g} to {hi:g}"),
                     "whole": marked("{flag} {text!r} is not a whole number: give one from {lo:g} to {hi:g}"),
                     "number": marked("{flag} {text!r} is not a number: give one from {lo:g} to {hi:g}")}
    elif lo is not None:
        templates = {"low": marked("{flag} {text} is too low: give a value of at least {lo:g}"),
                     "high": marked("{flag} {text} is too high: give a value of at least {lo:g}"),
                     "whole": marked("{flag} {text!r} is not a whole number: give one of at least {lo:g}"),
                     "number": marked("{flag} {text!r} is not a number: give one of at least {lo:g}")}
    else:
        templates = {"low": marked("{flag} {text} is too low: give a value of at most {hi:g}"),
                     "high": marked("{flag} {text} is too high: give a value of at most {hi:g}"),
                     "whole": marked("{flag} {text!r} is not a whole number: give one of at most {hi:g}"),
                     "number": marked("{flag} {text!r} is not a number: give one of at most {hi:g}")}
    return UsageError(templates[problem], flag=flag, text=text, lo=lo, hi=hi)


def _check(flag: str, text: str, value: float, lo: float | None, hi: float | None, above: bool) -> None:
    if lo is not None and (value <= lo if above else value < lo):
        raise _refuse(flag, text, "low", lo, hi, above)
    if hi is not None and value > hi:
        raise _refuse(flag, text, "high", lo, hi, above)


def integer(flag: str, lo: int | None = None, hi: int | None = None) -> Callable[[str], int]:
    """A whole number within lo..hi (either end may be open)."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise _refuse(flag, text, "whole", lo, hi, False) from None
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
            raise _refuse(flag, text, "number", lo, hi, False)
        _check(flag, text, value, lo, hi, above)
        return value

    parse.__name__ = "number"
    return parse


def languages() -> str:
    """The voice packs' languages, for a `--lang` help: "en, es, fr, it, ko"."""
    from narrator.packs import available_languages

    from narrator.i18n import tr

    return ", ".join(available_languages()) or tr("no voice pack found")
