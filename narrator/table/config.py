"""The table's remembered setup: a TOML file in the user's config folder, editable by hand."""

from __future__ import annotations

import dataclasses
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from narrator.errors import UsageError
from narrator.flow.timing import Timing
from narrator.rules import Options, Role, RulesError, complete, suggest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

INPUTS = ("keypad", "voice", "both")
DEAL_MODES = ("program", "cards")
# What the voice check picked (narrator/listening/check.py, `narrator listen --check`): voice for
# seats and yes/no, voice for yes/no only (seats on the keypad), or the keypad only.
VOICE_MODES = ("voice", "yes_no", "keypad")
KEYS = ("players", "roles", "options", "language", "inputs", "deal", "timing", "speech_scale", "names", "voice_mode")


def config_path() -> Path:
    """$NARRATOR_CONFIG (a folder) or the user's config folder, then `config.toml`."""
    base = os.environ.get("NARRATOR_CONFIG")
    if not base:
        from platformdirs import user_config_dir

        base = user_config_dir("narrator")
    return Path(base) / "config.toml"


def specials_of(players: int) -> dict[str, int]:
    """The suggested composition without its Villagers: what the table names."""
    return {r.value: n for r, n in suggest(players).items() if r is not Role.VILLAGER and n}


@dataclass
class TableConfig:
    """Everything the wizard asks. Roles name the special cards; the rest are Villagers."""

    players: int = 8
    roles: dict[str, int] = field(default_factory=lambda: specials_of(8))
    options: dict[str, Any] = field(default_factory=dict)  # only the options changed from the defaults
    language: str = "en"
    inputs: str = "keypad"
    deal: str = "program"
    timing: dict[str, float] = field(default_factory=dict)  # only the values changed from the defaults
    speech_scale: float = 1.0  # text mode: how long a printed line 'lasts' (tests and demos shorten it)
    names: dict[str, str] = field(default_factory=dict)  # optional: seat number -> the player's name (history)
    voice_mode: str = "voice"  # what the voice check picked (VOICE_MODES)

    def seat_names(self) -> dict[int, str]:
        """The named seats that exist at this table."""
        return {int(k): v for k, v in self.names.items() if k.isdigit() and 1 <= int(k) <= self.players and v}

    def rule_options(self) -> Options:
        return Options().with_values(self.options)

    def composition(self) -> dict[Role, int]:
        """The full deck for this table (Villagers added); raises RulesError if it cannot be dealt."""
        return complete(self.players, {Role(k): v for k, v in self.roles.items()}, self.rule_options())

    def timings(self) -> Timing:
        return Timing().with_values(self.timing)

    def describe(self, pack: Any = None) -> str:
        """One line; with a voice pack, roles and options in the pack's words (not raw keys)."""
        deck = self.composition()
        def role(key: str) -> str:
            return str(pack.role_name(key)) if pack is not None else key

        roles = ", ".join(f"{n} {role(r.value)}" for r, n in sorted(deck.items(), key=lambda kv: _ROLE_ORDER[kv[0]]))
        if pack is not None:
            changed = ", ".join(option_text(pack, k, v) for k, v in sorted(self.options.items())) or "standard rules"
        else:
            changed = ", ".join(f"{k}={_toml_value(v)}" for k, v in sorted(self.options.items())) or "standard rules"
        return (
            f"{self.players} players ({roles}); {changed}; language {self.language}; "
            f"input {self.inputs}; {'the program deals' if self.deal == 'program' else 'physical cards'}"
        )

    def to_toml(self) -> str:
        lines = [
            "# narrator: the last table setup. Edit by hand if you like; `narrator play` asks again if a",
            "# value is wrong. Roles name the special cards (the rest are Villagers).",
            f"players = {self.players}",
            f"language = {_toml_value(self.language)}",
            f"inputs = {_toml_value(self.inputs)}",
            f"deal = {_toml_value(self.deal)}",
        ]
        if self.speech_scale != 1.0:
            lines.append(f"speech_scale = {self.speech_scale!r}")
        if self.voice_mode != "voice":
            lines.append(f"voice_mode = {_toml_value(self.voice_mode)}")
        for name, table in (("roles", self.roles), ("options", self.options), ("timing", self.timing)):
            lines.append("")
            lines.append(f"[{name}]")
            lines.extend(f"{k} = {_toml_value(v)}" for k, v in sorted(table.items()))
        if self.names:
            lines += ["", "[names]"] + [f'"{k}" = {_toml_value(v)}' for k, v in sorted(self.names.items(), key=lambda kv: int(kv[0]))]
        return "\n".join(lines) + "\n"


_ROLE_ORDER = {role: i for i, role in enumerate(Role)}


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


@dataclass
class Loaded:
    """A config as read: what could be used, and one clear line per problem (file and key named)."""

    config: TableConfig
    problems: list[str]
    exists: bool


def load_config(path: Path) -> Loaded:
    """Read the config; every unusable part is reported and replaced by its default, never fatal."""
    if not path.exists():
        return Loaded(TableConfig(), [], False)
    where = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return Loaded(TableConfig(), [f"config file {where!r} cannot be read: {exc}"], True)
    if not text.strip():
        return Loaded(TableConfig(), [f"config file {where!r} is empty; using the defaults"], True)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return Loaded(TableConfig(), [f"config file {where!r} is not valid TOML ({exc}); using the defaults"], True)
    config, problems = parse_config(data, where)
    return Loaded(config, problems, True)


def parse_config(data: Mapping[str, Any], where: str) -> tuple[TableConfig, list[str]]:
    problems: list[str] = []
    cfg = TableConfig()

    def bad(key: str, message: str) -> None:
        problems.append(f"config file {where!r}: {key}: {message}")

    for key in data:
        if key not in KEYS:
            bad(key, f"unknown key; known keys: {', '.join(KEYS)}")
    players = data.get("players", cfg.players)
    if isinstance(players, bool) or not isinstance(players, int) or not 4 <= players <= 30:
        bad("players", f"{players!r} is not a number of players from 4 to 30")
    else:
        cfg.players = players
        cfg.roles = specials_of(players)
    if "roles" in data:
        roles = _roles(data["roles"], lambda m: bad("roles", m))
        if roles is not None:
            cfg.roles = roles
    if "options" in data:
        raw = data["options"]
        if not isinstance(raw, dict):
            bad("options", "must be a table like { vote_procedure = \"runoff\" }")
        else:
            for k, v in raw.items():
                try:
                    Options().with_values({k: v})
                except RulesError as exc:
                    bad(f"options.{k}", str(exc))
                    continue
                cfg.options[k.strip().replace("-", "_")] = v
    for key, allowed in (("inputs", INPUTS), ("deal", DEAL_MODES), ("voice_mode", VOICE_MODES)):
        if key in data:
            if data[key] in allowed:
                setattr(cfg, key, data[key])
            else:
                bad(key, f"{data[key]!r}; choose one of: {', '.join(allowed)}")
    if "language" in data:
        from narrator.packs import available_languages

        langs = available_languages()
        if isinstance(data["language"], str) and data["language"] in langs:
            cfg.language = data["language"]
        else:
            bad("language", f"{data['language']!r}; voice packs here: {', '.join(langs) or 'none'}")
    if "timing" in data:
        raw = data["timing"]
        if not isinstance(raw, dict):
            bad("timing", "must be a table like { seer = 20, debate = 300 }")
        else:
            for k, v in raw.items():
                try:
                    Timing().with_values({k: v})
                except UsageError as exc:
                    bad(f"timing.{k}", str(exc).removeprefix("timing: "))
                    continue
                cfg.timing[k] = float(v)
    if "names" in data:
        raw = data["names"]
        if not isinstance(raw, dict):
            bad("names", 'must be a table like { "1" = "Ann", "2" = "Bo" }')
        else:
            for k, v in raw.items():
                if not str(k).isdigit() or not isinstance(v, str) or not v.strip():
                    bad(f"names.{k}", f"{v!r}: give a seat number and a name, like \"1\" = \"Ann\"")
                    continue
                cfg.names[str(int(k))] = v.strip()
    if "speech_scale" in data:
        scale = data["speech_scale"]
        if isinstance(scale, bool) or not isinstance(scale, (int, float)) or scale < 0:
            bad("speech_scale", f"{scale!r} must be a number, 0 or more")
        else:
            cfg.speech_scale = float(scale)
    try:
        cfg.composition()
    except RulesError as exc:
        bad("roles", f"{exc}; using the suggested roles for {cfg.players} players")
        cfg.roles = specials_of(cfg.players)
        try:
            cfg.composition()
        except RulesError:
            cfg.options = {}  # e.g. an option that makes the suggested deck unplayable
    return cfg, problems


def _roles(raw: Any, bad: Any) -> dict[str, int] | None:
    if not isinstance(raw, dict):
        bad("must be a table like { werewolf = 2, seer = 1 }")
        return None
    out: dict[str, int] = {}
    for name, count in raw.items():
        try:
            role = Role.parse(str(name))
        except RulesError as exc:
            bad(str(exc))
            return None
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            bad(f"{name} = {count!r} must be a whole number, 0 or more")
            return None
        if role is not Role.VILLAGER and count:
            out[role.value] = count
    return out


def save_config(config: TableConfig, path: Path, keep_old: bool = False) -> Path | None:
    """Write the config atomically. With `keep_old`, the previous file is kept beside it (`.bad`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    kept: Path | None = None
    if keep_old and path.exists():
        kept = path.with_name(path.name + ".bad")
        kept.write_bytes(path.read_bytes())
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(config.to_toml(), encoding="utf-8")
    tmp.replace(path)
    return kept


def with_defaults(config: TableConfig) -> TableConfig:
    return dataclasses.replace(config, roles=dict(config.roles), options=dict(config.options), timing=dict(config.timing))


def option_text(pack: Any, name: str, value: object) -> str:
    """A rule option as the table reads it: "the Seer sees: the side" (the pack's words)."""
    label = pack.panel.get(f"setup.option.{name}", (name.replace("_", " "),))[0]
    if isinstance(value, bool):
        words = pack.words.get("yes" if value else "no")
        shown = words[0] if words else ("yes" if value else "no")
    else:
        shown = pack.panel.get(f"setup.value.{value}", (str(value).replace("_", " "),))[0]
    return f"{label}: {shown}"
