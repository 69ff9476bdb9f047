"""Presets: rule options a table sets at once, one TOML file each (docs/rules-spec.md#presets).

The presets shipped with the program are the `.toml` files of this folder; a table's own live in
its presets folder (narrator/table/presets.py finds, lists and saves them). A file has an
`[options]` table (keys and values as under `[options]` in config.toml) and may have a
`description`. A bad file gets one line naming the file and what is wrong in it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from narrator.errors import UsageError
from narrator.i18n import message_of, tr
from narrator.rules import Options, RulesError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

BUILT_IN = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Preset:
    name: str
    path: Path
    options: dict[str, Any] = field(default_factory=dict)
    description: str = ""
    built_in: bool = False


def load_preset(path: Path, built_in: bool = False) -> Preset:
    """Read one preset file; a problem is one line naming the file (a `UsageError`)."""
    where = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        error = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise UsageError("preset file {where!r} cannot be read ({error}); give a preset's name or the path of a "
                         "preset file ('narrator rules --presets' lists them)", where=where, error=error) from None
    for key in data:
        if key not in ("options", "description"):
            raise UsageError("preset file {where!r}: {problem}", where=where, problem=tr(
                "unknown key; known keys: {keys}", keys="options, description")) from None
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise UsageError("preset file {where!r}: {problem}", where=where, problem=tr(
            "must be a table like {example}", example='{ vote_procedure = "runoff" }'))
    try:
        Options().with_values(options)
    except RulesError as exc:
        raise UsageError("preset file {where!r}: {problem}", where=where, problem=message_of(exc)) from None
    return Preset(path.stem, path, {k.strip().replace("-", "_"): v for k, v in options.items()},
                  str(data.get("description", "")), built_in)


def shipped() -> list[Preset]:
    """The presets that come with the program, by name."""
    return [load_preset(p, built_in=True) for p in sorted(BUILT_IN.glob("*.toml"))]


def as_text(value: Any) -> str:
    """An option's value as typed after `--option KEY=`."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)
