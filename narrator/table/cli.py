"""`narrator assist`, `narrator demo`, `narrator doctor` and `narrator rules`."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from narrator.errors import UsageError
from narrator.i18n import tr
from narrator.table.sound import add_sound_arguments


def register(sub: Any) -> None:
    _save_checked_mode(sub)
    a = sub.add_parser("assist", help="for a human narrator: night ambience and the calls, the day timer")
    a.add_argument("--config", type=Path, metavar="FILE", help="the table's config (roles and turn lengths)")
    a.add_argument("--roles", metavar="SPEC", help='roles to call, e.g. "werewolf,seer,witch" (default: the config\'s)')
    a.add_argument("--lang", default=None, metavar="L", help="language of the calls: {languages} (default: the config's)")
    a.add_argument("--pace", type=float, default=None, metavar="F", help="scale every turn by F")
    a.add_argument("--text", action="store_true", help="print the calls instead of saying them, never any sound "
                   "(--no-audio adds nothing to it)")
    add_sound_arguments(a)
    a.set_defaults(func=run_assist)

    d = sub.add_parser("demo", help="automatic players play a whole short game, fully narrated")
    d.add_argument("--lang", default="en", metavar="L", help="language of the voice pack: {languages} (default: en)")
    d.add_argument("--text", action="store_true", help="print the lines instead of the full screen, never any sound "
                   "(--no-audio adds nothing to it)")
    d.add_argument("--seed", type=int, default=None, metavar="S", help="which game to play (default: a short, eventful one)")
    d.add_argument("--pace", type=float, default=1.0, metavar="F", help="scale every wait by F (0.1: ten times faster)")
    d.add_argument("--roles", metavar="SPEC", help='the deck to watch, extension roles too, e.g. '
                   '"werewolf=2,seer,savior,fox,elder,scapegoat" (roles not named are Villagers; default: the '
                   'default composition for 8 players)')
    d.add_argument("--players", type=int, metavar="N", help="players (default: 8, or one more than the cards named)")
    add_sound_arguments(d)
    d.set_defaults(func=run_demo)

    c = sub.add_parser("doctor", help="check audio, microphone, voices, speech models and the keypad")
    c.add_argument("--no-keypad", action="store_true", help="skip the keypad check (it waits for a key)")
    c.set_defaults(func=run_doctor)

    register_rules(sub)


def _pace(value: float | None) -> float | None:
    if value is not None and not 0 < value <= 10:
        raise UsageError("--pace {value!r}: give a factor above 0, at most 10 (0.1 is ten times faster)", value=value)
    return value


def run_demo(args: argparse.Namespace) -> int:
    import sys

    from narrator.table.demo import DEMO_SEED, demo_deck
    from narrator.table.demo import run_demo as demo

    from narrator.table.play_cli import known_language

    known_language(args.lang)
    pace = _pace(args.pace) or 1.0
    _, deck = demo_deck(args.roles, args.players)  # a bad deck: one line, before anything is shown
    text = args.text or not sys.stdout.isatty()
    demo(args.lang, DEMO_SEED if args.seed is None else args.seed, text, pace, sound=args, deck=deck)
    return 0


def run_assist(args: argparse.Namespace) -> int:
    import sys

    from narrator.rules import Role, RulesError, parse_roles
    from narrator.table.assist import run_assist as assist
    from narrator.table.config import adopt_language, config_path, load_config
    from narrator.table.keys import TerminalKeys
    from narrator.table.play import scaled

    loaded = load_config(args.config or config_path())
    if loaded.exists and args.lang is None and adopt_language(loaded.config.language):
        # Without --lang, the calls in the remembered table's language: the config's problems and every line in it.
        loaded = load_config(args.config or config_path())
    for problem in loaded.problems:
        print(f"! {problem}")
    config = loaded.config
    try:
        roles = set(parse_roles(args.roles)) if args.roles else set(config.composition())
        options = config.rule_options()
    except RulesError as exc:
        raise UsageError(exc.template, **exc.slots) from None
    roles.add(Role.WEREWOLF)
    timing = config.timings()
    pace = _pace(args.pace)
    if pace is not None:
        timing = scaled(timing, pace)
    if not sys.stdin.isatty():
        raise UsageError("assist reads keys from the terminal; run it in a terminal")
    from narrator.table.sound import open_table_speaker

    def aloud(pack: Any, clock: Any) -> Any:
        return open_table_speaker(pack, clock, args, pace or 1.0)

    with TerminalKeys() as keys:
        assist(args.lang or config.language, roles, timing, options, keys, None if args.text else aloud,
               pace=config.speech_scale * (pace or 1.0))
    return 0


def run_doctor(args: argparse.Namespace) -> int:
    from narrator.table.doctor import run_doctor as doctor

    return doctor(keypad=not args.no_keypad)


# ---- `narrator rules` (the reference itself is narrator/reference.py) ----------------------

def register_rules(sub: Any) -> None:

    p = sub.add_parser(
        "rules", help="every role and every rule option, with its values and what they mean",
        description="Print the rules reference: every role, and every rule option with its values, its default "
                    "and what each value does, in the language of a voice pack (the English one is docs/rules.md). "
                    "Set an option with --option KEY=VALUE, in the setup questions, or under [options] in config.toml.")
    p.add_argument("--lang", default=None, metavar="L",
                   help="language of the reference: {languages} (default: the remembered table's language, else en)")
    p.add_argument("--presets", action="store_true",
                   help="list the presets (rule options set at once, --option preset=NAME) and where they are")
    p.add_argument("--save-preset", metavar="NAME", default=None,
                   help="save the remembered table's rule options (and any --option given) as a preset: NAME goes "
                        "into this table's presets folder, a path ending in .toml where it says; share the file")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="with --save-preset: an option to save on top of the table's (preset=NAME too)")
    p.set_defaults(func=run_rules)


def _table_language() -> str:
    """The language of the table's remembered setup (`narrator play` asks for it), else English."""
    from narrator.table.config import config_path, load_config

    loaded = load_config(config_path())
    return loaded.config.language if loaded.exists and not loaded.problems else "en"


def run_rules(args: argparse.Namespace) -> int:
    from narrator.packs import load_pack
    from narrator.reference import render_rules

    lang = args.lang or _table_language()
    from narrator.table.config import adopt_language

    adopt_language(lang)  # the reference's own words (not the pack's) in its language too
    if args.save_preset is not None:
        return _save_preset(args)
    if args.presets:
        return _list_presets()
    if args.option:
        raise UsageError("--option goes with --save-preset (the options to save); the reference lists them all")
    print(render_rules(load_pack(lang)), end="")
    return 0


def _list_presets() -> int:
    from narrator.table.presets import as_text, presets, user_folder

    print(tr("Presets (play one with --option preset=NAME, or choose it in the setup questions); "
             "this table's own are in {folder}:", folder=user_folder()))
    for preset in presets():
        options = ", ".join(f"{k}={as_text(v)}" for k, v in preset.options.items()) or "-"
        print(f"  {preset.name}: {options}" + ("" if preset.built_in else f" ({preset.path})")
              + (f"; {preset.description}" if preset.description and not preset.built_in else ""))
    return 0


def _save_preset(args: argparse.Namespace) -> int:
    from narrator.i18n import message_of
    from narrator.rules import Options, RulesError
    from narrator.table.config import config_path, load_config
    from narrator.table.presets import expand, save_preset, user_folder

    loaded = load_config(config_path())
    pairs = expand(args.option)
    try:
        table = Options().with_values(loaded.config.options if loaded.exists else {}).to_dict()
        given = Options.parse(pairs).to_dict()
    except RulesError as exc:
        raise UsageError("{problem}", problem=message_of(exc)) from None
    named = {pair.partition("=")[0].strip().replace("-", "_") for pair in pairs}
    defaults = Options().to_dict()
    chosen = {**table, **{k: given[k] for k in named}}
    path = save_preset(args.save_preset, {k: v for k, v in chosen.items() if v != defaults[k]})
    name = path.stem if path.parent == user_folder() else str(path)
    print(tr("Saved the preset in {path}. Play it with --option preset={name}; another table plays the file with "
             "--option preset=PATH, or keeps it in its own presets folder ('narrator rules --presets').",
             path=path, name=name))
    return 0


def _save_checked_mode(sub: Any) -> None:
    """`narrator listen --check` (registered by narrator.listening.cli, which knows no config):
    the mode the check picked goes into the table's config (`voice_mode`), which `narrator play`
    follows, unless --no-save."""
    listen = sub.choices.get("listen")
    if listen is None:
        return
    inner = listen.get_default("func")

    def listen_then_save(args: Any) -> int:
        code = int(inner(args))
        mode = getattr(args, "check_mode", None)
        if code == 0 and mode is not None and not args.no_save:
            from narrator.table.config import config_path, load_config, save_config

            path = config_path()
            loaded = load_config(path)
            loaded.config.voice_mode = mode
            kept = save_config(loaded.config, path, keep_old=bool(loaded.problems))
            print(tr("saved in {path}: voice_mode = {mode} (the old file, which had problems, kept as {kept})",
                     path=path, mode=mode, kept=kept) if kept
                  else tr("saved in {path}: voice_mode = {mode}", path=path, mode=mode), flush=True)
        return code

    listen.set_defaults(func=listen_then_save)
