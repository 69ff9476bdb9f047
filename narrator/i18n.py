"""The words the program prints (questions, screens, errors, reports), in the table's language.

Every text the program prints for a person is written in English in the code, as a template with
named slots (`str.format` syntax), and goes through `tr`:

    tr("Seat {seat} is not at the table.", seat=7)

`tr` looks the English template up in the current language's catalogue,
`voices/<lang>/messages.toml` (a `[messages]` table: the English template as the key, the
translation as the value, the same slots), and fills the slots. A template missing from the
catalogue is printed in English; `narrator voices check` names every one.

The language is chosen once, at the edge: the command line sets it from `--lang`, the config or
the setup's language question (`set_language`). The rules engine never calls `tr`: its errors
carry their English template and slots (`NarratorError`), and the command line translates them
when it prints them (`message_of`).

The spoken lines are not here: they live in each pack's `pack.toml`.
"""

from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache
from typing import Iterator

from narrator.errors import marked
from narrator.packs import MESSAGES, UNTRANSLATED, PackError, packs_root, read_catalogue

__all__ = ["catalogue", "current_language", "language", "marked", "message_of", "number", "percent", "set_language", "tr"]

REFERENCE = "en"
_language = REFERENCE


def set_language(language: str) -> None:
    """The language every later `tr` prints in (an unknown language prints English)."""
    global _language
    _language = language or REFERENCE


def current_language() -> str:
    return _language


@contextmanager
def language(lang: str) -> Iterator[None]:
    """`tr` prints in `lang` inside the block, and in the language before it after."""
    before = _language
    set_language(lang)
    try:
        yield
    finally:
        set_language(before)


@lru_cache(maxsize=None)
def catalogue(lang: str) -> dict[str, str]:
    """The translations of `lang`: English template -> translated template (untranslated ones left out)."""
    if lang == REFERENCE:
        return {}
    try:
        table = read_catalogue(packs_root() / lang / MESSAGES)
    except PackError:
        return {}  # `narrator voices check` reports a catalogue it cannot read; printing goes on in English
    return {k: v for k, v in table.items() if not v.startswith(UNTRANSLATED)}


def tr(template: str, /, **slots: object) -> str:
    """`template` (English, with {named} slots) in the current language, its slots filled."""
    text = catalogue(_language).get(template, template) if _language != REFERENCE else template
    if not slots:
        return text
    try:
        return text.format(**slots)
    except (KeyError, IndexError, ValueError):  # a translation with a broken slot: the English is right
        return template.format(**slots)


def number(n: float, decimals: int | None = None) -> str:
    """A number as the current language writes it (CLDR, through Babel): "1,000"; German "1.000"."""
    from narrator.spoken import format_number

    return format_number(_language, n, decimals)


def percent(x: float, decimals: int = 0) -> str:
    """A share as the current language writes a percentage (CLDR): "45%"; German "45 %"."""
    from narrator.spoken import format_percent

    return format_percent(_language, x, decimals)


def message_of(exc: BaseException) -> str:
    """An error's text in the current language: its template translated, or its text as it is.

    A slot that holds another templated error (`UsageError("the setup cannot be played: {exc}",
    exc=rules_error)`) is translated too.
    """
    template = getattr(exc, "template", None)
    slots = getattr(exc, "slots", None)
    if isinstance(template, str) and isinstance(slots, dict):
        return tr(template, **{k: message_of(v) if _templated(v) else v for k, v in slots.items()})
    return str(exc)


def _templated(value: object) -> bool:
    return isinstance(value, BaseException) and isinstance(getattr(value, "template", None), str)


def side_name(side: str) -> str:
    """A winning side as a table in the current language reads it: the pack's name for it (`[sides]`).

    English keeps the side's id (`village`, `werewolves`): the game-over line is read by scripts,
    and those ids are its English words."""
    if _language == REFERENCE:
        return side
    from narrator.packs import PackError, load_pack

    try:
        return load_pack(_language).sides.get(side, side)
    except PackError:
        return side
