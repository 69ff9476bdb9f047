"""A table's presets (docs/rules-spec.md#presets): found by name or path, listed, saved.

The shipped presets and the reading of a file are narrator/presets; a table's own are in its
presets folder beside config.toml (`narrator rules --save-preset NAME` writes one there), and any
preset file can be played from where it lies (`--option preset=path/to/file.toml`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from narrator.errors import UsageError
from narrator.presets import BUILT_IN, Preset, as_text, load_preset, shipped

KEY = "preset"  # the --option key that names a preset

__all__ = ["KEY", "Preset", "as_text", "expand", "find_preset", "presets", "save_preset", "user_folder"]


def user_folder() -> Path:
    """The table's own presets: beside its remembered setup."""
    from narrator.table.config import config_path

    return config_path().parent / "presets"


def presets(skip_bad: bool = False) -> list[Preset]:
    """Every preset here: the shipped ones, then the table's own (by name). A bad file of the
    table's raises its one line, or with `skip_bad` is left out."""
    found = shipped()
    folder = user_folder()
    for path in sorted(folder.glob("*.toml")) if folder.is_dir() else ():
        try:
            found.append(load_preset(path))
        except UsageError:
            if not skip_bad:
                raise
    return found


def find_preset(text: str) -> Preset:
    """A preset by its name (shipped, then the table's own) or by the path of its file."""
    name = text.strip()
    if "/" in name or "\\" in name or name.endswith(".toml"):
        return load_preset(Path(name).expanduser())
    for folder, built_in in ((BUILT_IN, True), (user_folder(), False)):
        path = folder / f"{name}.toml"
        if name and path.is_file():
            return load_preset(path, built_in)
    names = ", ".join(p.stem for p in sorted(BUILT_IN.glob("*.toml")))
    raise UsageError("unknown preset {name!r}; presets: {names} (all: 'narrator rules --presets'), or the path of a "
                     "preset file", name=name, names=names)


def expand(pairs: list[str] | tuple[str, ...]) -> list[str]:
    """`--option` pairs with each `preset=NAME` replaced by the preset's options, in place: an
    option given after it changes what the preset set."""
    out: list[str] = []
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if sep and key.strip() == KEY:
            out += [f"{k}={as_text(v)}" for k, v in find_preset(value).options.items()]
        else:
            out.append(pair)
    return out


def save_preset(target: str, options: Mapping[str, Any], description: str = "") -> Path:
    """Write `options` as a preset: a bare NAME goes into the table's presets folder, a path is
    written where it says. Returns the file."""
    from narrator.table.config import _toml_value

    name = target.strip()
    if "/" in name or "\\" in name or name.endswith(".toml"):
        path = Path(name).expanduser()
    else:
        if not name or not all(c.isalnum() or c in "-_" for c in name):
            raise UsageError("preset name {name!r}: use letters, digits, - and _ (e.g. our-house), or give the path "
                             "of a .toml file", name=name)
        if (BUILT_IN / f"{name}.toml").is_file():
            raise UsageError("{name!r} is a preset that comes with narrator; choose another name", name=name)
        path = user_folder() / f"{name}.toml"
    lines = [f"description = {_toml_value(description)}"] if description else []
    lines += [*([""] if lines else []), "[options]", *(f"{k} = {_toml_value(v)}" for k, v in sorted(options.items()))]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    except OSError as exc:
        raise UsageError("the preset cannot be written to {path!r}: {error}", path=str(path),
                         error=exc.strerror or exc) from None
    return path
