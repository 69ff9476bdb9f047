"""`narrator rules`: every role and every rule option, with its values and what they mean.

The lists come from the engine (`Role`, `Options`, `CHOICES`), the words from the voice pack's
`[rules]` section, so the reference cannot drift from the game: a role or option added to the
engine without its texts makes `narrator voices check` (and the tests) name the missing keys.
`docs/rules.md` is this command's English output, committed (a test proves they are equal).

Pack keys (section `[rules]`):
  title, intro, roles, team, office, options, default, generated   headings and labels
  role.<role>            what the role does; role.captain for the Captain's office
  option.<key>           what the option decides
  value.<key>.<value>    what one value does (true/false for the yes/no options)
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any

from narrator.packs import PackError, VoicePack
from narrator.rules.options import CHOICES, NUMBERS, Options
from narrator.rules.roles import Role, Side, Team

LABELS: tuple[str, ...] = ("title", "intro", "roles", "team", "office", "options", "default", "generated", "pending")
# Offices the reference describes besides the role cards (named in the pack's [roles]).
OFFICES: tuple[str, ...] = ("captain",)
_TEAM_SIDE = {Team.VILLAGE: Side.VILLAGE, Team.WOLVES: Side.WEREWOLVES,
              Team.PIED_PIPER: Side.PIED_PIPER, Team.WHITE_WEREWOLF: Side.WHITE_WEREWOLF}


def option_values(key: str) -> tuple[str, ...]:
    """The values an option takes, as typed after `--option key=`: the default first for yes/no
    and number options."""
    if key in CHOICES:
        return CHOICES[key]
    if key in NUMBERS:
        default = getattr(Options(), key)
        return (str(default), *(str(n) for n in NUMBERS[key] if n != default))
    default = getattr(Options(), key)
    return ("true", "false") if default else ("false", "true")


def default_value(key: str) -> str:
    value = getattr(Options(), key)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def required_keys() -> list[str]:
    """Every `[rules]` key a pack needs, derived from the engine's roles and options."""
    keys = list(LABELS)
    keys += [f"role.{role.value}" for role in Role]
    keys += [f"role.{office}" for office in OFFICES]
    for f in dataclasses.fields(Options):
        keys.append(f"option.{f.name}")
        keys += [f"value.{f.name}.{value}" for value in option_values(f.name)]
    return keys


def pending_keys(pack: VoicePack) -> list[str]:
    """Texts of roles and options the packs describe but the engine does not play yet (the rest of
    RULES-EXTENSIONS.md's catalogue, the Pyromaniac for good): shown apart, under `pending`."""
    required = set(required_keys())
    return [k for k in pack.rules if k not in required and k.startswith(("role.", "option.", "value."))]


def missing_keys(pack: VoicePack) -> list[str]:
    return [key for key in required_keys() if not pack.rules.get(key, "").strip()]


def render_rules(pack: VoicePack) -> str:
    """The reference as Markdown, in the pack's language."""
    missing = missing_keys(pack)
    if missing:
        raise PackError(f"the {pack.language} pack ({pack.path}) has no [rules] text for: {', '.join(missing)}; "
                        "add them (see 'narrator voices check')")
    t = pack.rules
    out: list[str] = [f"# {t['title']}", "", t["intro"], "", f"## {t['roles']}", ""]
    for role in Role:
        side = pack.sides.get(_TEAM_SIDE[role.team].value, role.team.value)
        out += [f"### {pack.role_name(role.value)} (`{role.value}`)", "", f"*{t['team']}: {side}.*", "",
                t[f"role.{role.value}"], ""]
    for office in OFFICES:
        out += [f"### {pack.role_name(office)}", "", f"*{t['office']}.*", "", t[f"role.{office}"], ""]
    out += [f"## {t['options']}", ""]
    for f in dataclasses.fields(Options):
        key = f.name
        out += [f"### `{key}`", "", t[f"option.{key}"], ""]
        default = default_value(key)
        for value in option_values(key):
            mark = f" ({t['default']})" if value == default else ""
            out.append(f"- `{value}`{mark}: {t[f'value.{key}.{value}']}")
        out.append("")
    pending = pending_keys(pack)
    if pending:
        out += [f"## {t['pending']}", ""]
        for key in pending:
            if key.startswith("role."):
                card = key.removeprefix("role.")
                out += [f"### {pack.role_name(card)} (`{card}`)", "", t[key], ""]
            elif key.startswith("option."):
                out += [f"### `{key.removeprefix('option.')}`", "", t[key], ""]
            else:
                value = key.split(".")[-1]
                out += [f"- `{value}`: {t[key]}"]
                if pending.index(key) + 1 == len(pending) or not pending[pending.index(key) + 1].startswith("value."):
                    out.append("")
    out += ["---", "", f"*{t['generated']}*", ""]
    return "\n".join(out)


def option_help() -> str:
    """The help of `--option`: every key, from the engine, and where the values are explained."""
    keys = ", ".join(f.name for f in dataclasses.fields(Options))
    return (f"a rule option, repeatable (e.g. vote_procedure=runoff); KEY is one of: {keys}; "
            "their values and what they do: 'narrator rules'")


# ---- the command ----------------------------------------------------------------------------

def register(sub: Any) -> None:
    from narrator.packs import available_languages

    langs = ", ".join(available_languages()) or "none found"
    p = sub.add_parser(
        "rules", help="every role and every rule option, with its values and what they mean",
        description="Print the rules reference: every role, and every rule option with its values, its default "
                    "and what each value does, in the language of a voice pack (the English one is docs/rules.md). "
                    "Set an option with --option KEY=VALUE, in the setup questions, or under [options] in config.toml.")
    p.add_argument("--lang", default=None, metavar="L",
                   help=f"language of the reference: {langs} (default: the remembered table's language, else en)")
    p.set_defaults(func=run_rules)


def _table_language() -> str:
    """The language of the table's remembered setup (`narrator play` asks for it), else English."""
    from narrator.table.config import config_path, load_config

    loaded = load_config(config_path())
    return loaded.config.language if loaded.exists and not loaded.problems else "en"


def run_rules(args: argparse.Namespace) -> int:
    from narrator.packs import load_pack

    print(render_rules(load_pack(args.lang or _table_language())), end="")
    return 0
