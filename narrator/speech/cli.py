"""`narrator say` and `narrator voices list|check|render`, and the audio options shared with `play`."""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from narrator.argtypes import decimal, integer, languages
from narrator.errors import UsageError
from narrator.i18n import message_of, tr
from narrator.packs import VoicePack, available_languages, check_packs, check_voice_ids, load_pack, packs_root, summary
from narrator.ports import Cue, SlotValue

DEFAULT_PLAYERS = 18


def register(sub: Any) -> None:
    p = sub.add_parser("say", help="speak a line (or write it to a WAV file)")
    p.add_argument("text", nargs="*", metavar="TEXT", help="the words to say")
    p.add_argument("--lang", default="en", metavar="L", help="voice pack language: {languages} (default: en)")
    p.add_argument("--to", metavar="FILE.wav", help="write the speech to this WAV file instead of playing it")
    p.add_argument("--key", metavar="KEY", help="say a line of the pack instead of TEXT, e.g. seer.wake")
    p.add_argument("--slot", action="append", default=[], metavar="NAME=VALUE", help="a slot of --key, e.g. seat=3")
    p.add_argument("--ambience", choices=("night", "day"), help="play the line over this ambience bed")
    add_audio_arguments(p, ambience_flag=False)
    p.set_defaults(func=run_say)

    v = sub.add_parser("voices", help="voice packs: list, check, render ahead")
    vsub = v.add_subparsers(dest="voices_command", metavar="ACTION", parser_class=type(v))
    vl = vsub.add_parser("list", help="the packs, their voice ids, and which voices are installed here")
    vl.set_defaults(func=run_list)
    vc = vsub.add_parser("check", help="every pack complete and consistent with the English one")
    vc.set_defaults(func=run_check)
    vn = vsub.add_parser("new", help="start a pack for a new language: every English line, marked untranslated")
    vn.add_argument("lang", metavar="LANG", help="language tag of the new pack, e.g. de, nl, pt-br")
    vn.set_defaults(func=run_new)
    vfill = vsub.add_parser("fill", help="add to a pack every line the English pack has and it lacks, marked untranslated")
    vfill.add_argument("lang", metavar="LANG", help="pack language, e.g. de")
    vfill.set_defaults(func=run_fill)
    vpo = vsub.add_parser("po", help="a language's printed messages to or from a gettext .po file (Poedit, Weblate)")
    vpo.add_argument("action", choices=("export", "import"), help="export: write the .po file; import: read it back")
    vpo.add_argument("lang", metavar="LANG", help="pack language, e.g. de")
    vpo.add_argument("file", metavar="FILE", help="the .po file to write or read")
    vpo.set_defaults(func=run_po)
    vr = vsub.add_parser("render", help="render every line a game can say into the cache")
    vr.add_argument("--lang", default="en", metavar="L", help="pack language: {languages}, or 'all' (default: en)")
    vr.add_argument("--players", type=integer("--players",
                                              1, 30), default=DEFAULT_PLAYERS, metavar="N", help=f"seats 1..N (default {DEFAULT_PLAYERS})")
    vr.add_argument("--engine", choices=("espeak", "piper"), help="speech engine (default: the pack's, espeak)")
    vr.add_argument("--jobs", type=integer("--jobs", 1, 256), default=None, metavar="N",
                    help="render on N worker processes (default: every core)")
    vr.set_defaults(func=run_render)
    vf = vsub.add_parser("fetch", help="download and install a Piper neural voice for a language")
    vf.add_argument("lang", metavar="LANG", help="pack language with a Piper voice (listed by 'narrator voices list')")
    vf.add_argument("--force", action="store_true", help="download again even if installed")
    vf.set_defaults(func=run_fetch)
    vrec = vsub.add_parser("record", help="record your own voice for every line of a pack")
    vrec.add_argument("--lang", default="en", metavar="L", help="pack language (default en)")
    vrec.add_argument("--name", default="mine", metavar="NAME", help="name of the recorded pack (default mine)")
    vrec.add_argument("--only", metavar="PREFIX", help="only the lines whose name starts with PREFIX, e.g. seer. or number.")
    vrec.add_argument("--again", action="store_true", help="record lines already recorded again")
    vrec.add_argument("--list", action="store_true", help="list the line names and texts to record, and stop")
    vrec.add_argument("--input-device", metavar="DEV", help="microphone: index or name (default: the system's)")
    vrec.set_defaults(func=run_record)
    vimp = vsub.add_parser("import", help="take a folder of WAV files named by line (seer.wake.wav, number.3.wav)")
    vimp.add_argument("folder", metavar="DIR", help="folder of WAV files")
    vimp.add_argument("--lang", default="en", metavar="L", help="pack language (default en)")
    vimp.add_argument("--name", default="mine", metavar="NAME", help="name of the recorded pack (default mine)")
    vimp.set_defaults(func=run_import)
    v.set_defaults(func=lambda args: _usage(v))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def add_audio_arguments(p: argparse.ArgumentParser, ambience_flag: bool = True) -> None:
    """The options of every command that plays sound (`say`, and `play` through the lead's CLI)."""
    p.add_argument("--output-device", metavar="DEV", help="output device: index or part of its name (default: the system's)")
    if ambience_flag:
        p.add_argument("--no-ambience", action="store_true", help="no ambience bed under the voice")
    p.add_argument("--voice-volume", type=decimal("--voice-volume",
                                                  0.0, 1.0), default=1.0, metavar="V", help="voice gain, 0..1 (default 1)")
    p.add_argument("--ambience-volume", type=decimal("--ambience-volume",
                                                     0.0, 1.0), default=0.35, metavar="V", help="ambience gain, 0..1 (default 0.35)")
    p.add_argument("--duck-db", type=decimal("--duck-db",
                                             0.0, 40.0), default=14.0, metavar="DB", help="how far the ambience dips under the voice, 0..40 dB (default 14)")
    add_voice_arguments(p)


def add_voice_arguments(p: argparse.ArgumentParser) -> None:
    """Which voice says the lines: the engine, and a recorded pack over it."""
    p.add_argument("--engine", choices=("espeak", "piper"), help="speech engine (default: the pack's, espeak)")
    p.add_argument("--recorded", metavar="NAME", help="say the lines in a recorded voice (narrator voices record); "
                   "lines it lacks are said by the engine")


def mix_settings(args: argparse.Namespace) -> Any:
    from narrator.speech.player import MixSettings

    for name, value, lo, hi in (
        ("--voice-volume", args.voice_volume, 0.0, 1.0),
        ("--ambience-volume", args.ambience_volume, 0.0, 1.0),
        ("--duck-db", args.duck_db, 0.0, 40.0),
    ):
        if not lo <= value <= hi:
            raise UsageError("{name} {value}: give a value from {lo:g} to {hi:g}", name=name, value=value, lo=lo, hi=hi)
    return MixSettings(voice_volume=args.voice_volume, ambience_volume=args.ambience_volume, duck_db=args.duck_db)


def open_from_args(pack: VoicePack, args: argparse.Namespace) -> Any:
    """An `AudioSpeaker` as the options ask; no device → one line naming `--text` and `narrator doctor`."""
    from narrator.speech.player import DeviceOpenError, NoOutputDevice
    from narrator.speech.speaker import open_speaker

    try:
        return open_speaker(pack, device=args.output_device, ambience=not getattr(args, "no_ambience", False), mix=mix_settings(args),
                            engine=getattr(args, "engine", None), recorded=_recorded(pack, args))
    except NoOutputDevice as exc:
        raise NoOutputDevice("{exc}; play without sound with --text or --no-audio, or run 'narrator doctor'", exc=exc) from None
    except DeviceOpenError as exc:
        raise DeviceOpenError("{exc}; choose another with --output-device, play with --text, or run 'narrator doctor'",
                              exc=exc) from None


def _recorded(pack: VoicePack, args: argparse.Namespace) -> Any:
    name = getattr(args, "recorded", None)
    if not name:
        return None
    from narrator.speech.recorded import RecordedPack

    return RecordedPack.open(pack.language, name)


def _slots(specs: list[str]) -> dict[str, SlotValue]:
    out: dict[str, SlotValue] = {}
    for spec in specs:
        name, sep, value = spec.partition("=")
        if not sep or not name:
            raise UsageError("--slot {spec!r}: write NAME=VALUE, e.g. seat=3", spec=spec)
        out[name] = int(value) if value.isdigit() else value
    return out


def _key_slots(pack: VoicePack, key: str, specs: list[str]) -> dict[str, SlotValue]:
    """The --slot values of a line, refused in one line when the line has no such slot or lacks one."""
    from narrator.packs import slots_of

    given = _slots(specs)
    wanted = slots_of(pack.template(key))
    listed = ", ".join(sorted(wanted))
    for name in given:
        if name not in wanted:
            has = f"its slots are: {listed}" if wanted else "it has no slots, drop --slot"
            raise UsageError("--slot {name}=...: line {key!r} has no slot {name!r}; {has}", name=name, key=key, has=has)
    missing = sorted(wanted - set(given))
    if missing:
        example = " ".join(f"--slot {name}=..." for name in missing)
        raise UsageError("--key {key}: line {key!r} needs a value for {missing}; add {example}",
                         key=key, missing=', '.join(missing), example=example)
    for name, value in given.items():
        _check_slot_value(pack, name, value)
    return given


def _check_slot_value(pack: VoicePack, name: str, value: SlotValue) -> None:
    """A seat within 1..30, a role or side the pack names, a count not below 0."""
    from narrator.packs import ROLE_SLOTS, SEAT_NUMBERS, SEAT_SLOTS, SIDE_SLOTS

    if name in SEAT_SLOTS:
        if not isinstance(value, int) or value not in SEAT_NUMBERS:
            raise UsageError("--slot {name}={value}: give a seat from {first} to {last}",
                             name=name, value=value, first=SEAT_NUMBERS[0], last=SEAT_NUMBERS[-1])
    elif name in ROLE_SLOTS:
        if str(value) not in pack.roles:
            raise UsageError("--slot {name}={value}: not a role; one of: {roles}",
                             name=name, value=value, roles=', '.join(pack.roles))
    elif name in SIDE_SLOTS:
        if str(value) not in pack.sides:
            raise UsageError("--slot {name}={value}: not a side; one of: {sides}",
                             name=name, value=value, sides=', '.join(pack.sides))
    elif not isinstance(value, int):
        raise UsageError("--slot {name}={value}: give a whole number of 0 or more", name=name, value=value)


def run_say(args: argparse.Namespace) -> int:
    from narrator.speech.player import DeviceOpenError, NoOutputDevice
    from narrator.speech.render import Renderer
    from narrator.speech.speaker import AudioSpeaker, make_engine, open_speaker

    pack = load_pack(args.lang)
    if args.key:
        if args.key not in pack.lines:
            raise UsageError("--key {key!r} is not a line of the {language} pack; see {path}",
                             key=args.key, language=pack.language, path=pack.path)
        text = pack.spoken(Cue(args.key, _key_slots(pack, args.key, args.slot)), engine=args.engine)
    else:
        text = " ".join(args.text).strip()
    if not text:
        raise UsageError("nothing to say: give TEXT, e.g. narrator say \"Night falls.\"")
    recorded = _recorded(pack, args)
    if args.to:
        target = Path(args.to)
        if target.suffix.lower() != ".wav":
            raise UsageError("--to {to!r}: the file must end in .wav", to=args.to)
        if not target.parent.is_dir():
            raise UsageError("--to {to!r}: folder {parent!r} does not exist", to=args.to, parent=str(target.parent))
        synth, settings = make_engine(pack, args.engine)
        try:
            renderer = Renderer(synth)
            source = renderer.ensure(text, settings)
            if args.key and recorded is not None:
                from narrator.speech.speaker import LineSource

                source = LineSource(pack, renderer, settings, recorded).audio(Cue(args.key, _slots(args.slot)), 0)[1]
            shutil.copyfile(source, target)
        finally:
            synth.close()
        return 0
    try:
        speaker: AudioSpeaker = open_speaker(pack, device=args.output_device, ambience=args.ambience is not None,
                                             mix=mix_settings(args), engine=args.engine, recorded=recorded)
    except (NoOutputDevice, DeviceOpenError) as exc:
        raise type(exc)(f"{exc}; write the line to a file with --to FILE.wav, or run 'narrator doctor'") from None
    try:
        if args.ambience:
            speaker.set_ambience(args.ambience)
            time.sleep(0.6)  # let the bed rise before the voice
        if args.key:
            speaker.say(Cue(args.key, _slots(args.slot)))
        else:
            speaker.say_text(text)
        speaker.wait()
        if args.ambience:
            time.sleep(0.4)
    finally:
        speaker.close()
    return 0


def _installed_voices() -> tuple[set[str], str]:
    """The espeak-ng voice ids (with aliases), or an empty set and why."""
    from narrator.speech.render import Pyttsx3Synth, SpeechError, voice_aliases

    try:
        synth = Pyttsx3Synth()
    except SpeechError as exc:
        return set(), message_of(exc)
    try:
        return voice_aliases(synth.voices()), ""
    finally:
        synth.close()


def _packs() -> list[VoicePack]:
    langs = available_languages()
    if not langs:
        raise UsageError("no voice packs under {folder}; set NARRATOR_VOICES or reinstall narrator", folder=packs_root())
    return [load_pack(lang) for lang in langs]


def run_list(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    installed, why = _installed_voices()
    table = Table(title=tr("voice packs in {folder}", folder=packs_root()))
    for col in (tr("lang"), tr("name"), tr("voice id"), tr("speech rate"), tr("volume"), tr("lines"), tr("installed here")):
        table.add_column(col)
    for lang in available_languages():
        try:
            pack = load_pack(lang)
        except Exception as exc:  # noqa: BLE001 - a broken pack is listed, not fatal
            table.add_row(lang, f"[red]{tr('broken')}[/red]", message_of(exc), "", "", "", "")
            continue
        ok = pack.voice.lower() in installed
        table.add_row(pack.language, pack.name, pack.voice, str(pack.rate), f"{pack.volume:g}", str(len(pack.lines)),
                      tr("yes") if ok else f"[red]{tr('no')}[/red]")
    Console().print(table)
    _list_engines()
    if why:
        print(f"narrator: {why}", file=sys.stderr)
    return 0


def _list_engines() -> None:
    from narrator.speech import piper
    from narrator.speech.recorded import recorded_root, units

    if piper.available():
        print(tr("engines: espeak (default, every language), piper (installed)"))
    else:
        print(tr("engines: espeak (default, every language), piper (not installed: {command})",
                 command="pip install 'narrator[neural]'"))
    voices = piper.installed()
    for v in voices:
        print("  " + tr("piper voice {voice} ({how}) at {folder}", voice=v.name, how=_how(v.how), folder=v.model.parent))
    fetchable = [f"{lang} ({v.name})" for lang, v in piper.CATALOG.items() if piper.find_voice(v.name) is None]
    if fetchable:
        print("  " + tr("fetchable with {command}: {voices}", command="'narrator voices fetch LANG'",
                        voices=", ".join(fetchable)))
    root = recorded_root()
    packs = sorted(p for p in root.glob("*/*") if p.is_dir() and not p.name.startswith(".")) if root.is_dir() else []
    for folder in packs:
        lang = folder.parent.name
        try:
            total = len(units(load_pack(lang)))
        except Exception:  # noqa: BLE001 - a recorded pack for a pack that is gone
            total = 0
        have = len(list(folder.glob("*.wav")))
        print("  " + tr("recorded {lang} pack {name!r}: {have} of {total} lines, at {folder}", lang=lang,
                        name=folder.name, have=have, total=total, folder=folder))


def run_check(args: argparse.Namespace) -> int:
    problems = check_packs()
    packs: list[VoicePack] = []
    for lang in available_languages():
        try:
            packs.append(load_pack(lang))
        except Exception:  # noqa: BLE001 - already reported by check_packs
            pass
    installed, why = _installed_voices()
    problems += [why] if why else check_voice_ids(packs, installed)
    if problems:
        for problem in problems:
            print("narrator: " + shown(problem), file=sys.stderr)
        for pack in packs:
            print("narrator: " + shown(summary(pack, problems)), file=sys.stderr)
        print("narrator: " + tr("problems in the voice packs under {folder}: {count}", folder=packs_root(),
                                count=len(problems)), file=sys.stderr)
        return 1
    print(tr("voice packs: {count} ({languages}): every key, every slot, every voice installed", count=len(packs),
             languages=", ".join(p.language for p in packs)))
    return 0


def shown(text: object) -> str:
    """A text in the language printed in: one that keeps its template and slots (narrator.packs.Text, an
    error) translated, its slots too; any other as it is."""
    template, slots = getattr(text, "template", None), getattr(text, "slots", None)
    if isinstance(template, str) and isinstance(slots, dict):
        return tr(template, **{name: shown(value) if hasattr(value, "template") else value
                               for name, value in slots.items()})
    return str(text)


def run_new(args: argparse.Namespace) -> int:
    from narrator.packkit import create_pack

    path = create_pack(args.lang)
    print(tr("wrote {path}: every line of the en pack, each marked untranslated. Translate them ({doc}), "
             "then run {command}; list the pack under {section} in {file}", path=path, doc="docs/languages.md",
             command="'narrator voices check'", section="[tool.setuptools.data-files]", file="pyproject.toml"))
    return 0


def run_fill(args: argparse.Namespace) -> int:
    from narrator.packkit import fill_pack

    path, added = fill_pack(args.lang)
    print(tr("{path}: lines added from the en pack, marked untranslated: {count}", path=path, count=added) if added
          else tr("{path}: no line missing", path=path))
    return 0


def run_po(args: argparse.Namespace) -> int:
    from narrator.messages import export_po, import_po
    from narrator.packs import catalogue_problems

    target = Path(args.file)
    if args.action == "export":
        try:
            target.write_text(export_po(args.lang), encoding="utf-8")
        except OSError as exc:
            raise UsageError("cannot write {path}: {reason}", path=target, reason=exc.strerror or exc) from None
        print(tr("wrote {path}: open it in Poedit or Weblate, then 'narrator voices po import {lang} {path}'",
                 path=target, lang=args.lang))
        return 0
    path, translated, stale = import_po(args.lang, target)
    print(tr("{path}: translated messages: {count}; left out, no longer in English: {stale}", path=path,
             count=translated, stale=len(stale)))
    problems = catalogue_problems(args.lang)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


def run_render(args: argparse.Namespace) -> int:
    from narrator.packs import every_cue, texts_of
    from narrator.speech.pool import render_with_progress
    from narrator.speech.render import Renderer
    from narrator.speech.speaker import make_engine, pack_engine

    if not 1 <= args.players <= 30:
        raise UsageError("--players {players}: give a table size from 1 to 30", players=args.players)
    from narrator.speech.pool import default_jobs

    jobs = args.jobs or default_jobs()
    packs = _packs() if args.lang == "all" else [load_pack(args.lang)]
    for pack in packs:
        synth, settings = make_engine(pack, args.engine)
        try:
            renderer = Renderer(synth)
            texts = texts_of(pack, every_cue(pack, args.players), pack_engine(synth.engine))
            t0 = time.perf_counter()
            rendered = render_with_progress(renderer, texts, settings, tr("rendering {pack}", pack=pack.name), jobs)
            print(tr("{lang}: lines for {players} seats with {engine} ({voice}): {lines}; rendered: {rendered}; "
                     "already cached: {cached}; {seconds} s; workers: {jobs}", lang=pack.language, lines=len(texts),
                     players=args.players, engine=synth.engine, voice=settings.voice, rendered=rendered,
                     cached=len(texts) - rendered, seconds=f"{time.perf_counter() - t0:.1f}", jobs=jobs))
        finally:
            synth.close()
    print(tr("cache: {folder}", folder=renderer.root))
    return 0


def run_fetch(args: argparse.Namespace) -> int:
    from narrator.speech import piper

    voice = piper.info(args.lang)
    if not args.force:
        have = piper.find_voice(voice.name)
        if have is not None:
            print(tr("{voice} is already installed ({how}) at {folder}; {flag} fetches it again", voice=voice.name,
                     how=_how(have.how), folder=have.model.parent, flag="--force"))
            return 0
    progress = _progress_printer()
    fetched = piper.fetch(args.lang, progress)
    progress("", 0, None)
    for note in fetched.notes:
        print(tr("note: {warning}", warning=note))
    print(tr("installed {name} at {folder}", name=fetched.voice.name, folder=fetched.voice.model.parent))
    if not piper.available():
        print(tr("note: {warning}", warning=tr("the Piper engine itself is not installed: {command}",
                                               command="pip install 'narrator[neural]'")))
    return 0


def _how(how: str) -> str:
    """How a Piper voice came here ("fetched" or "package NAME"), in the language printed in."""
    if how.startswith("package "):
        return tr("package {name}", name=how.removeprefix("package "))
    return tr("fetched") if how == "fetched" else how


def _progress_printer() -> Any:
    """Download progress on stderr: a running count on a terminal, one line per file otherwise."""
    current = [""]
    tty = sys.stderr.isatty()

    def show(name: str, done: int, total: int | None) -> None:
        if name != current[0]:
            if current[0] and tty:
                print(file=sys.stderr)
            current[0] = name
            if name and not tty:
                print(tr("downloading {file} ({size} MB)", file=name, size=f"{total / 1e6:.1f}") if total
                      else tr("downloading {file}", file=name), file=sys.stderr)
        if name and tty:
            line = (tr("{file}: {done} of {size} MB", file=name, done=f"{done / 1e6:.1f}", size=f"{total / 1e6:.1f}")
                    if total else tr("{file}: {done} MB", file=name, done=f"{done / 1e6:.1f}"))
            print(f"\r  {line}", end="", file=sys.stderr, flush=True)

    return show


def run_record(args: argparse.Namespace) -> int:
    from narrator.speech.recorded import Microphone, RecordedPack, pack_dir, record_session, units
    from narrator.speech.render import VoiceSettings

    pack = load_pack(args.lang)
    if args.list:
        for unit in units(pack):
            if args.only is None or unit.name.startswith(args.only):
                print(f"{unit.name}\t{unit.text}")
        return 0
    if not args.name or not all(c.isalnum() or c in "-_" for c in args.name):
        raise UsageError("--name {name!r}: use letters, digits, - and _ only", name=args.name)
    recorded = RecordedPack(pack.language, args.name, pack_dir(pack.language, args.name))
    target = VoiceSettings(pack.voice, pack.rate, pack.volume).target_lufs
    mic = Microphone(args.input_device)

    def ask(prompt: str) -> str:
        try:
            return input(prompt)
        except EOFError:
            return "q"

    saved, missing = record_session(pack, recorded, mic.take, ask, print, target, args.only, args.again)
    print(tr("lines recorded into {folder}: {saved}; still to record (said by the engine until then): {missing}. "
             "Play with {flag}", folder=recorded.folder, saved=saved, missing=missing, flag=f"--recorded {args.name}"))
    return 0


def run_import(args: argparse.Namespace) -> int:
    from narrator.speech.recorded import import_folder
    from narrator.speech.render import VoiceSettings

    pack = load_pack(args.lang)
    if not args.name or not all(c.isalnum() or c in "-_" for c in args.name):
        raise UsageError("--name {name!r}: use letters, digits, - and _ only", name=args.name)
    target = VoiceSettings(pack.voice, pack.rate, pack.volume).target_lufs
    folder, taken, missing = import_folder(pack, Path(args.folder), args.name, target)
    print(tr("files imported into {folder}: {taken}; lines still missing (said by the engine): {missing}",
             folder=folder, taken=taken, missing=len(missing)))
    return 0
