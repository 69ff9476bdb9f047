"""The table's remembered setup: a TOML file in the user's config folder, editable by hand."""

from __future__ import annotations

import dataclasses
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from narrator.errors import UsageError
from narrator.i18n import REFERENCE, current_language, message_of, set_language, tr
from narrator.flow.timing import Timing
from narrator.rules import Options, Role, RulesError, complete, default_deck
from narrator.rules.options import TEXTS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

INPUTS = ("keypad", "voice", "both")
DEAL_MODES = ("program", "cards")
# What the voice check picked (narrator/listening/check.py, `narrator listen --check`): voice for
# seats and yes/no, voice for yes/no only (seats on the keypad), or the keypad only.
VOICE_MODES = ("voice", "yes_no", "keypad")
KEYS = ("players", "roles", "options", "language", "inputs", "deal", "timing", "speech_scale", "names", "voice_mode", "phones",
        "tv")


def adopt_language(language: str) -> bool:
    """The table's language (its config, setup file or journal) for every printed line, unless a
    language was chosen already on the command line (`--lang`, $NARRATOR_LANG): that choice wins.
    Returns whether the language changed."""
    if current_language() != REFERENCE or language == REFERENCE:
        return False
    set_language(language)
    return True


def config_path() -> Path:
    """$NARRATOR_CONFIG (a folder) or the user's config folder, then `config.toml`."""
    base = os.environ.get("NARRATOR_CONFIG")
    if not base:
        from platformdirs import user_config_dir

        base = user_config_dir("narrator")
    return Path(base) / "config.toml"


def specials_of(players: int) -> dict[str, int]:
    """The default composition (`default_deck`) without its Villagers: what the table names."""
    return {r.value: n for r, n in default_deck(players).items() if r is not Role.VILLAGER and n}


@dataclass
class TableConfig:
    """Everything the wizard asks. Roles name the special cards; the rest are Villagers."""

    players: int = 8
    roles: dict[str, int] = field(default_factory=lambda: specials_of(8))
    options: dict[str, Any] = field(default_factory=dict)  # only the options changed from the defaults
    language: str = "en"
    inputs: str = "keypad"
    deal: str = "program"
    phones: bool = False  # every player's phone as their private card and panel (docs/phones.md)
    tv: bool = False  # the board as a web page for a TV too (docs/tv.md)
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
        def count(key: str, n: int) -> str:
            """"2 Werewolves" in the pack's words (its plurals), else "2 werewolf"."""
            return str(pack.count_text(n, key)) if pack is not None else f"{n} {key}"

        roles = ", ".join(count(r.value, n) for r, n in sorted(deck.items(), key=lambda kv: _ROLE_ORDER[kv[0]]))
        if pack is not None:
            changed = ", ".join(option_text(pack, k, v) for k, v in sorted(self.options.items())) or tr("standard rules")
        else:
            changed = ", ".join(f"{k}={_toml_value(v)}" for k, v in sorted(self.options.items())) or tr("standard rules")
        deal = tr("the program deals") if self.deal == "program" else tr("physical cards")
        slots = dict(players=self.players, roles=roles, rules=changed, language=self.language,
                     inputs=input_label(self.inputs), deal=deal)
        if self.phones:
            return tr("{players} players ({roles}); {rules}; language {language}; input {inputs}; {deal}; phones",
                      **slots)
        return tr("{players} players ({roles}); {rules}; language {language}; input {inputs}; {deal}", **slots)

    def to_toml(self) -> str:
        lines = [
            "# narrator: the last table setup. Edit by hand if you like; `narrator play` asks again if a",
            "# value is wrong. Roles name the special cards (the rest are Villagers).",
            f"players = {self.players}",
            f"language = {_toml_value(self.language)}",
            f"inputs = {_toml_value(self.inputs)}",
            f"deal = {_toml_value(self.deal)}",
        ]
        if self.phones:
            lines.append("phones = true")
        if self.tv:
            lines.append("tv = true")
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


def input_label(inputs: str) -> str:
    """How the table answers (`inputs` in the config) as the table reads it."""
    if inputs == "keypad":
        return tr("keypad")
    if inputs == "voice":
        return tr("voice")
    if inputs == "both":
        return tr("both")
    return inputs


def deal_label(mode: str, long: bool = False) -> str:
    """A deal mode (`deal` in the config): its word, or (`long`) what it means."""
    if mode == "program":
        return tr("the program deals on the screen") if long else tr("program")
    if mode == "cards":
        return tr("physical cards") if long else tr("cards")
    return mode



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
        return Loaded(TableConfig(), [tr("config file {where!r} cannot be read: {error}", where=where, error=exc)], True)
    if not text.strip():
        return Loaded(TableConfig(), [tr("config file {where!r} is empty; using the defaults", where=where)], True)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return Loaded(TableConfig(), [tr("config file {where!r} is not valid TOML ({error}); using the defaults",
                                         where=where, error=exc)], True)
    config, problems = parse_config(data, where)
    return Loaded(config, problems, True)


def parse_config(data: Mapping[str, Any], where: str) -> tuple[TableConfig, list[str]]:
    problems: list[str] = []
    cfg = TableConfig()

    def bad(key: str, message: str) -> None:
        problems.append(tr("config file {where!r}: {key}: {problem}", where=where, key=key, problem=message))

    for key in data:
        if key not in KEYS:
            bad(key, tr("unknown key; known keys: {keys}", keys=", ".join(KEYS)))
    players = data.get("players", cfg.players)
    if isinstance(players, bool) or not isinstance(players, int) or not 4 <= players <= 30:
        bad("players", tr("{value!r} is not a number of players from 4 to 30", value=players))
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
            bad("options", tr("must be a table like {example}", example='{ vote_procedure = "runoff" }'))
        else:
            for k, v in raw.items():
                try:
                    Options().with_values({k: v})
                except RulesError as exc:
                    bad(f"options.{k}", message_of(exc))
                    continue
                cfg.options[k.strip().replace("-", "_")] = v
    for key, allowed in (("inputs", INPUTS), ("deal", DEAL_MODES), ("voice_mode", VOICE_MODES)):
        if key in data:
            if data[key] in allowed:
                setattr(cfg, key, data[key])
            else:
                bad(key, tr("{value!r}; choose one of: {choices}", value=data[key], choices=", ".join(allowed)))
    if "phones" in data:
        if isinstance(data["phones"], bool):
            cfg.phones = data["phones"]
        else:
            bad("phones", tr("{value!r}; write phones = true or phones = false", value=data["phones"]))
    if "tv" in data:
        if isinstance(data["tv"], bool):
            cfg.tv = data["tv"]
        else:
            bad("tv", tr("{value!r}; write tv = true or tv = false", value=data["tv"]))
    if "language" in data:
        from narrator.packs import available_languages

        langs = available_languages()
        if isinstance(data["language"], str) and data["language"] in langs:
            cfg.language = data["language"]
        else:
            bad("language", tr("{value!r}; voice packs here: {languages}", value=data["language"],
                               languages=", ".join(langs)) if langs
                else tr("{value!r}; voice packs here: none", value=data["language"]))
    if "timing" in data:
        raw = data["timing"]
        if not isinstance(raw, dict):
            bad("timing", tr("must be a table like {example}", example="{ seer = 20, debate = 300 }"))
        else:
            for k, v in raw.items():
                try:
                    Timing().with_values({k: v})
                except UsageError as exc:
                    bad(f"timing.{k}", message_of(exc).removeprefix("timing: "))
                    continue
                cfg.timing[k] = float(v)
    if "names" in data:
        raw = data["names"]
        if not isinstance(raw, dict):
            bad("names", tr("must be a table like {example}", example='{ "1" = "Ann", "2" = "Bo" }'))
        else:
            for k, v in raw.items():
                if not str(k).isdigit() or not isinstance(v, str) or not v.strip():
                    bad(f"names.{k}", tr("{value!r}: give a seat number and a name, like {example}", value=v,
                                         example='"1" = "Ann"'))
                    continue
                cfg.names[str(int(k))] = v.strip()
    if "speech_scale" in data:
        scale = data["speech_scale"]
        if isinstance(scale, bool) or not isinstance(scale, (int, float)) or scale < 0:
            bad("speech_scale", tr("{value!r} must be a number, 0 or more", value=scale))
        else:
            cfg.speech_scale = float(scale)
    try:
        cfg.composition()
    except RulesError as exc:
        bad("roles", tr("{problem}; using the suggested roles for {players} players", problem=message_of(exc),
                        players=cfg.players))
        cfg.roles = specials_of(cfg.players)
        try:
            cfg.composition()
        except RulesError:
            cfg.options = {}  # e.g. an option that makes the suggested deck unplayable
    return cfg, problems


def _roles(raw: Any, bad: Any) -> dict[str, int] | None:
    if not isinstance(raw, dict):
        bad(tr("must be a table like {example}", example="{ werewolf = 2, seer = 1 }"))
        return None
    out: dict[str, int] = {}
    for name, count in raw.items():
        try:
            role = Role.parse(str(name))
        except RulesError as exc:
            bad(message_of(exc))
            return None
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            bad(tr("{role} = {value!r} must be a whole number, 0 or more", role=name, value=count))
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
    elif name in TEXTS:
        # A text of its own: never an empty value (the default is said in words), cards by their names.
        text = str(value).strip()
        if not text:
            shown = pack.panel.get(f"setup.empty.{name}", ("-",))[0]
        elif name == "actor_cards":
            shown = ", ".join(pack.role_name(w.strip()) for w in text.split(",") if w.strip())
        else:
            shown = text
    else:
        shown = pack.panel.get(f"setup.value.{value}", (str(value).replace("_", " "),))[0]
    return f"{label}: {shown}"


# The role each rule option belongs to, for the wizard's rules question (grouped by role, only the
# roles in the deck); an option of several roles shows when any of them is in the deck, under the
# first. Options not listed here are the whole game's (the vote, the Sheriff, the night's kill).
OPTION_ROLES: dict[str, tuple[Role, ...]] = {
    "seer_sees": (Role.SEER,),
    "witch_sees_victim_after_heal": (Role.WITCH,), "witch_sees": (Role.WITCH,),
    "hunter_shoots_on": (Role.HUNTER,),
    "thief_extra_cards": (Role.THIEF,),
    "lovers_team_if_both_wolves": (Role.CUPID,),
    "savior_same_target_twice": (Role.SAVIOR,), "savior_protects_little_girl": (Role.SAVIOR,),
    "savior_blocks": (Role.SAVIOR,),
    "raven_mark_votes": (Role.RAVEN,), "raven_mark_needs_living_raven": (Role.RAVEN,),
    "idiot_captain_office": (Role.VILLAGE_IDIOT,),
    "piper_charms_per_night": (Role.PIED_PIPER,), "piper_infected": (Role.PIED_PIPER,),
    "piper_elder_revenge": (Role.PIED_PIPER,), "charmed_public": (Role.PIED_PIPER,),
    "designation_notice": (Role.PIED_PIPER, Role.ACCURSED_WOLF_FATHER),
    "white_werewolf_nights": (Role.WHITE_WEREWOLF,), "white_werewolf_kill_blockable": (Role.WHITE_WEREWOLF,),
    "siblings_wake": (Role.TWO_SISTERS, Role.THREE_BROTHERS),
    "fox_loses_power_on_miss": (Role.FOX,),
    "bear_growls_if_infected": (Role.BEAR_TAMER,),
    "knight_disease_victim": (Role.KNIGHT_RUSTY_SWORD,), "knight_disease_timing": (Role.KNIGHT_RUSTY_SWORD,),
    "judge_second_votes": (Role.STUTTERING_JUDGE,), "judge_request_survives_death": (Role.STUTTERING_JUDGE,),
    "judge_signal": (Role.STUTTERING_JUDGE,),
    "elder_lives": (Role.ELDER,), "elder_revenge_causes": (Role.ELDER,), "elder_revenge_announced": (Role.ELDER,),
    "idiot_dies_with_elder": (Role.ELDER, Role.VILLAGE_IDIOT),
    "scapegoat_vs_captain": (Role.SCAPEGOAT,),
    "angel_opening": (Role.ANGEL,), "angel_vote_tie": (Role.ANGEL,),
    "sectarian_groups": (Role.ABOMINABLE_SECTARIAN,), "sectarian_infected": (Role.ABOMINABLE_SECTARIAN,),
    "actor_cards": (Role.ACTOR,), "actor_infected": (Role.ACTOR,),
    "wild_child_transformation_public": (Role.WILD_CHILD,),
    "wolf_hound_timeout": (Role.WOLF_HOUND,), "wolf_hound_choice_public": (Role.WOLF_HOUND,),
    "bbw_loses_power_on_wolf_death": (Role.BIG_BAD_WOLF,),
    "servant_scope": (Role.DEVOTED_SERVANT,),
}


# Options that matter only when every role they name is in the deck.
NEEDS_ALL = frozenset({"idiot_dies_with_elder"})


def option_groups(deck: Mapping[Role, int]) -> list[tuple[Role | None, list[str]]]:
    """The rule options a table with `deck` may change, grouped: the whole game's first (None),
    then each role of the deck with options of its own, in the role catalogue's order."""
    from narrator.roles import CARDS

    names = [f.name for f in dataclasses.fields(Options)]
    groups: list[tuple[Role | None, list[str]]] = [(None, [n for n in names if n not in OPTION_ROLES])]
    for role in CARDS:
        mine = [n for n in names if n in OPTION_ROLES and OPTION_ROLES[n][0] is role
                and (all if n in NEEDS_ALL else any)(deck.get(r) for r in OPTION_ROLES[n])]
        if mine:
            groups.append((role, mine))
    return groups
