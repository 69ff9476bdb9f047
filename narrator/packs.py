"""Voice packs: every line the game says, keyed, per language (`voices/<lang>/pack.toml`)."""

from __future__ import annotations

import os
import string
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from narrator.errors import NarratorError
from narrator.ports import Cue, SlotValue

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


class PackError(NarratorError):
    """A voice pack that is missing, unreadable or incomplete."""


# Slots whose value is a role key, rendered with the pack's [roles] names.
ROLE_SLOTS = frozenset({"role", "role_a", "role_b"})
SIDE_SLOTS = frozenset({"side"})


def packs_root() -> Path:
    """Where packs live: $NARRATOR_VOICES, the source checkout's voices/, or the installed copy."""
    env = os.environ.get("NARRATOR_VOICES")
    if env:
        return Path(env)
    checkout = Path(__file__).resolve().parent.parent / "voices"
    if checkout.is_dir():
        return checkout
    return Path(sys.prefix) / "share" / "narrator" / "voices"


def available_languages(root: Path | None = None) -> list[str]:
    base = root or packs_root()
    if not base.is_dir():
        return []
    return sorted(p.name for p in base.iterdir() if (p / "pack.toml").is_file())


def slots_of(template: str) -> frozenset[str]:
    """The named slots of a line: `"Seat {seat}."` → {"seat"}."""
    try:
        return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)
    except ValueError as exc:
        raise PackError(f"line {template!r} has a broken slot: {exc}") from None


@dataclass(frozen=True)
class VoicePack:
    language: str
    name: str
    voice: str
    rate: int
    volume: float
    roles: Mapping[str, str]
    sides: Mapping[str, str]
    numbers: Mapping[int, str]
    words: Mapping[str, tuple[str, ...]]
    lines: Mapping[str, tuple[str, ...]]
    panel: Mapping[str, tuple[str, ...]]
    path: Path
    # Every way to say each seat number (a [numbers] entry may be a list); `numbers` keeps the
    # first, which is the one the narrator speaks.
    number_variants: Mapping[int, tuple[str, ...]] = field(default_factory=dict)

    def number_words(self, n: int) -> tuple[str, ...]:
        """Every way a player may say seat `n` (the spoken one first); () if the pack has none."""
        variants = self.number_variants.get(n)
        if variants:
            return variants
        word = self.numbers.get(n)
        return (word,) if word else ()

    def template(self, key: str, variant: int = 0) -> str:
        variants = self.lines.get(key)
        if variants is None:
            raise PackError(f"the {self.language} pack ({self.path}) has no line {key!r}; add it under [lines]")
        return variants[variant % len(variants)]

    def text(self, cue: Cue, variant: int = 0) -> str:
        """The words of a cue in this language."""
        return self._fill(self.template(cue.key, variant), cue.slots, cue.key)

    def panel_text(self, key: str, slots: Mapping[str, SlotValue]) -> str:
        variants = self.panel.get(key)
        if variants is None:
            raise PackError(f"the {self.language} pack ({self.path}) has no panel line {key!r}; add it under [panel]")
        return self._fill(variants[0], slots, key)

    def role_name(self, role: str) -> str:
        return self.roles.get(role, role)

    def _fill(self, template: str, slots: Mapping[str, SlotValue], key: str) -> str:
        values: dict[str, Any] = {}
        for name, value in slots.items():
            if name in ROLE_SLOTS:
                values[name] = self.roles.get(str(value), str(value))
            elif name in SIDE_SLOTS:
                values[name] = self.sides.get(str(value), str(value))
            else:
                values[name] = value
        try:
            return template.format(**values)
        except (KeyError, IndexError) as exc:
            raise PackError(f"line {key!r} of the {self.language} pack needs slot {exc}; the cue gave {dict(slots)}") from None


def _variants(raw: Any, where: str) -> tuple[str, ...]:
    if isinstance(raw, str):
        return (raw,)
    if isinstance(raw, list) and raw and all(isinstance(x, str) for x in raw):
        return tuple(raw)
    raise PackError(f"{where} must be a string or a list of strings, not {raw!r}")


def load_pack(language: str, root: Path | None = None) -> VoicePack:
    base = root or packs_root()
    path = base / language / "pack.toml"
    if not path.is_file():
        have = ", ".join(available_languages(base)) or "none"
        raise PackError(f"no voice pack for language {language!r} at {path}; packs here: {have}")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PackError(f"voice pack {path} cannot be read: {exc}") from None
    try:
        meta = data["pack"]
        number_variants = {int(k): _variants(v, f"{path} [numbers] {k}") for k, v in data.get("numbers", {}).items()}
        return VoicePack(
            language=str(meta.get("language", language)),
            name=str(meta.get("name", language)),
            voice=str(meta["voice"]),
            rate=int(meta.get("rate", 150)),
            volume=float(meta.get("volume", 1.0)),
            roles={str(k): str(v) for k, v in data.get("roles", {}).items()},
            sides={str(k): str(v) for k, v in data.get("sides", {}).items()},
            numbers={n: v[0] for n, v in number_variants.items()},
            words={str(k): _variants(v, f"{path} [words] {k}") for k, v in data.get("words", {}).items()},
            lines={str(k): _variants(v, f"{path} [lines] {k}") for k, v in data["lines"].items()},
            panel={str(k): _variants(v, f"{path} [panel] {k}") for k, v in data.get("panel", {}).items()},
            path=path,
            number_variants=number_variants,
        )
    except KeyError as exc:
        raise PackError(f"voice pack {path} has no {exc.args[0]!r} section or key") from None
    except (TypeError, ValueError) as exc:
        raise PackError(f"voice pack {path} has a bad value: {exc}") from None
