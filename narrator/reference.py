"""The rules reference that `narrator rules` prints (narrator/table/cli.py): every role and every
rule option, with its values and what they mean.

The lists come from the engine (`Role`, `Options`, `CHOICES`), the words from the voice pack's
`[rules]` section, so the reference cannot drift from the game: a role or option added to the
engine without its texts makes `narrator voices check` (and the tests) name the missing keys
(`required_keys` in narrator/packs.py). `docs/rules.md` is the command's English output,
committed (a test proves they are equal).

Pack keys (section `[rules]`):
  title, intro, roles, team, office, options, default, generated   headings and labels
  role.<role>            what the role does; role.captain for the Captain's office
  option.<key>           what the option decides
  value.<key>.<value>    what one value does (true/false for the yes/no options)
"""

from __future__ import annotations

import dataclasses

from narrator.roles import CARDS
from narrator.packs import OFFICES, PackError, VoicePack, default_value, missing_keys, option_values, required_keys
from narrator.rules.options import Options
from narrator.rules.roles import Role, Side, Team

_TEAM_SIDE = {Team.VILLAGE: Side.VILLAGE, Team.WOLVES: Side.WEREWOLVES,
              Team.PIED_PIPER: Side.PIED_PIPER, Team.WHITE_WEREWOLF: Side.WHITE_WEREWOLF}


def pending_keys(pack: VoicePack) -> list[str]:
    """Texts of roles and options the packs describe but the engine does not play yet (the rest of
    docs/rules-spec.md's roles, the Pyromaniac for good): shown apart, under `pending`."""
    required = set(required_keys())
    return [k for k in pack.rules if k not in required and k.startswith(("role.", "option.", "value."))]


def render_rules(pack: VoicePack) -> str:
    """The reference as Markdown, in the pack's language."""
    missing = missing_keys(pack)
    if missing:
        raise PackError("the {language} pack ({path}) has no [rules] text for: {missing}; add them (see 'narrator "
                        "voices check')", language=pack.language, path=pack.path, missing=', '.join(missing))
    t = pack.rules
    out: list[str] = [f"# {t['title']}", "", t["intro"], "", f"## {t['roles']}", ""]
    for role in Role:
        team_side = _TEAM_SIDE[role.team] if role.team in _TEAM_SIDE else Side(role.team.value)  # a loner's own side
        side = pack.sides.get(team_side.value, role.team.value)
        moons = CARDS[role].moons  # docs/rules-spec.md#moons
        out += [f"### {pack.role_name(role.value)} (`{role.value}`)", "",
                f"*{t['team']}: {side}. {t['moons']}: {'☾' * moons} ({moons}).*", "", t[f"role.{role.value}"], ""]
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
    out += _presets(pack)
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


def _presets(pack: VoicePack) -> list[str]:
    """The shipped presets (docs/rules-spec.md#presets): what each is, and the options it sets."""
    from narrator.presets import as_text, shipped

    t = pack.rules
    out = [f"## {t['presets']}", ""]
    for preset in shipped():
        out += [f"### `{preset.name}`", "", t[f"preset.{preset.name}"], ""]
        out += [f"- `{key}={as_text(value)}`" for key, value in preset.options.items()]
        out.append("")
    return out


def option_help() -> str:
    """The help of `--option`: every key, from the engine, and where the values are explained."""
    # 'narrator rules' first: a long list of keys must not wrap it onto two lines. The {options} slot is
    # filled when the command line translates its help pages (narrator.cli), so the template stays
    # the same when an option is added.
    return ("a rule option ('narrator rules' explains every value), repeatable (e.g. vote_procedure=runoff); "
            "KEY is one of: {options}")


def option_keys() -> str:
    """Every rule option's key, for the help of `--option`."""
    return ", ".join(f.name for f in dataclasses.fields(Options))
