"""`narrator models ...` (the speech model store) and `narrator listen` (a microphone test)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

from narrator.errors import NarratorError, UsageError, marked
from narrator.i18n import tr


def register(sub: Any) -> None:
    m = sub.add_parser("models", help="list, fetch, verify and remove speech models")
    msub = m.add_subparsers(dest="models_command", metavar="ACTION", parser_class=type(m))
    p = msub.add_parser("list", help="known models and where each is installed")
    p.set_defaults(func=cmd_list)
    p = msub.add_parser("fetch", help="download, verify and install a model")
    p.add_argument("lang", metavar="LANG")
    p.add_argument("--force", action="store_true", help="download again even if installed")
    p.set_defaults(func=cmd_fetch)
    p = msub.add_parser("verify", help="check installed models (all, or one language)")
    p.add_argument("lang", metavar="LANG", nargs="?")
    p.set_defaults(func=cmd_verify)
    p = msub.add_parser("path", help="where models are looked for, and where fetch installs")
    p.set_defaults(func=cmd_path)
    p = msub.add_parser("remove", help="remove a model that fetch installed")
    p.add_argument("lang", metavar="LANG")
    p.set_defaults(func=cmd_remove)
    m.set_defaults(func=lambda args: _usage(m))

    p = sub.add_parser("listen", help="test the microphone (or a WAV file): print what is heard, as JSON")
    p.add_argument("--lang", default=os.environ.get("NARRATOR_LANG",
                                                    "en"), metavar="L", help="voice pack and model language: {languages} (default: en, or $NARRATOR_LANG)")
    p.add_argument("--wav", type=Path, metavar="FILE", help="read this WAV file instead of the microphone")
    p.add_argument("--choices", default="1-12,nobody,yes,no,repeat,pause,more_time,vote_now", metavar="SPEC",
                   help="seat ranges and words, e.g. 1-12,nobody,yes,no")
    p.add_argument("--device", metavar="DEV", help="input device (number or name) for sounddevice")
    p.add_argument("--keypad", action="store_true", help="test the keypad instead: print each key's choice")
    p.add_argument("--check", action="store_true",
                   help="the voice check: players each say three seat numbers shown here; prints the score and "
                        "the mode it picks (voice / yes_no / keypad)")
    p.add_argument("--players", type=int, default=12, metavar="N", help="--check: seats at the table (default 12)")
    p.add_argument("--speakers", type=int, default=3, metavar="K", help="--check: players who take the check (default 3)")
    p.add_argument("--said", metavar="SEATS", help="--check with --wav: the seats said in the file, in order (e.g. 4,6,8)")
    p.add_argument("--no-save", action="store_true", help="--check: do not save the mode in the table's config")
    p.set_defaults(func=cmd_listen)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


# --- models -----------------------------------------------------------------------------------

def cmd_list(args: argparse.Namespace) -> int:
    from narrator.listening import models

    pins = models.read_pins()
    for lang, info in models.CATALOG.items():
        path = models.find_model(lang)
        where = tr("installed at {folder}", folder=path) if path else tr("not installed")
        if info.package:
            check = tr("from the {package} package", package=info.package)
        elif info.sha256:
            check = tr("sha256 published")
        elif info.name in pins:
            check = tr("sha256 pinned")
        else:
            check = tr("sha256 unknown (pinned on first fetch)")
        print(f"{lang:3} {info.name:30} {info.size_mb:4d} MB  {check:38} {where}")
    return 0


def cmd_fetch(args: argparse.Namespace) -> int:
    from narrator.listening import models

    info = models.info(args.lang)
    target = models.user_models_dir() / args.lang
    if not info.package and target.is_dir() and not args.force:
        print(tr("the {lang} model is already installed at {folder} ({flag} fetches it again)", lang=args.lang,
                 folder=target, flag="--force"))
        return 0
    result = _fetch_with_progress(args.lang)
    for note in result.notes:
        print(tr("note: {warning}", warning=note))
    if result.sha256:
        print(tr("installed {name} at {folder}", name=info.name, folder=result.path))
    return 0


def _fetch_with_progress(lang: str) -> Any:
    from narrator.listening import models

    if not sys.stderr.isatty():
        return models.fetch(lang)
    from rich.progress import BarColumn, DownloadColumn, Progress, TransferSpeedColumn

    with Progress("[progress.description]{task.description}", BarColumn(), DownloadColumn(),
                  TransferSpeedColumn(), transient=True) as progress:
        task = progress.add_task(f"{models.info(lang).name}.zip", total=None)

        def update(done: int, total: int | None) -> None:
            progress.update(task, completed=done, total=total)

        return models.fetch(lang, progress=update)


def cmd_verify(args: argparse.Namespace) -> int:
    from narrator.listening import models

    langs = [args.lang] if args.lang else list(models.CATALOG)
    if args.lang:
        models.info(args.lang)
    checked = 0
    bad = 0
    for lang in langs:
        for path in _candidates(lang):
            checked += 1
            problems = models.verify(path)
            if problems:
                bad += 1
                print(f"{lang}: {path}: " + tr("BROKEN: {problems} (fetch it again: {command})",
                                                   problems="; ".join(problems),
                                                   command=f"narrator models fetch {lang} --force"))
            else:
                how = (tr("ok, files match the install manifest") if models.has_manifest(path)
                       else tr("ok, complete (no install manifest)"))
                print(f"{lang}: {path}: {how}")
    if checked == 0:
        if args.lang:
            raise NarratorError("no {lang} model installed; {hint}", lang=args.lang, hint=models.missing_model_hint(args.lang))
        raise NarratorError("no speech model installed; run 'narrator models fetch LANG'")
    return 1 if bad else 0


def _candidates(lang: str) -> list[Path]:
    from narrator.listening import models

    out = [d / lang for d in models.search_dirs() if (d / lang).is_dir()]
    known = models.CATALOG[lang]
    if known.package:
        p = models.package_model_path(known.package)
        if p is not None:
            out.append(p)
    return out


def cmd_path(args: argparse.Namespace) -> int:
    from narrator.listening import models

    print(tr("speech models are looked for, in this order, in:"))
    for d in models.search_dirs():
        print(f"  {d}" + ("" if d.is_dir() else "  " + tr("(does not exist)")))
    print(tr("{command} installs into: {folder}", command="'narrator models fetch'", folder=models.user_models_dir()))
    return 0


def cmd_remove(args: argparse.Namespace) -> int:
    from narrator.listening import models

    path = models.remove(args.lang)
    print(tr("removed {path}", path=path))
    return 0


# --- listen -----------------------------------------------------------------------------------

def cmd_listen(args: argparse.Namespace) -> int:
    from narrator.listening.grammar import parse_choices
    from narrator.ports import Prompt

    try:
        seats, words = parse_choices(args.choices)
    except ValueError as exc:
        raise UsageError("--choices: {exc}", exc=exc) from None
    prompt = Prompt("listen", seats=seats, words=words)
    if args.wav is not None and not args.wav.is_file():
        raise UsageError("--wav {wav!r}: no such file", wav=str(args.wav))
    if args.keypad:
        return _listen_keypad(prompt)
    if args.wav is not None:
        probe_wav(args.wav)  # an unreadable file is refused before the model loads
    from narrator.listening.models import info, require_model
    from narrator.listening.vosk_listener import describe_missing, load_model, missing_words
    from narrator.packs import load_pack

    pack = load_pack(args.lang)
    path = require_model(args.lang)
    model = load_model(path, info(args.lang).name if _known(args.lang) else path.name)
    missing = missing_words(model, pack)
    if missing:
        print(tr("note: {warning}", warning=describe_missing(missing, pack, model.name)), file=sys.stderr)
    if args.check:
        return _check(args, model, pack, missing)
    if args.wav is not None:
        return _listen_wav(args.wav, model, pack, prompt, missing)
    return _listen_microphone(model, pack, prompt, missing, args.device)


def _check_plan(args: argparse.Namespace) -> list[tuple[int, ...]]:
    import random

    from narrator.listening.check import SEATS_EACH, check_plan

    if not 3 <= args.players <= 30:
        raise UsageError("--players {players}: a table has 3 to 30 seats", players=args.players)
    if args.said is not None:
        if args.wav is None:
            raise UsageError("--said goes with --wav (the seats said in the file); live, the seats are drawn")
        try:
            seats = [int(s) for s in args.said.split(",")]
        except ValueError:
            raise UsageError("--said {said!r}: seat numbers separated by commas, e.g. 4,6,8", said=args.said) from None
        if not seats or any(not 1 <= s <= args.players for s in seats):
            raise UsageError("--said {said!r}: seats from 1 to {players} (--players)", said=args.said, players=args.players)
        return [tuple(seats[i:i + SEATS_EACH]) for i in range(0, len(seats), SEATS_EACH)]
    if args.wav is not None:
        raise UsageError("--check --wav needs --said: the seats said in the file, in order")
    if not 1 <= args.speakers <= args.players:
        raise UsageError("--speakers {speakers}: from 1 to {players} (--players)", speakers=args.speakers, players=args.players)
    return check_plan(args.players, args.speakers, random.Random())


def _check(args: argparse.Namespace, model: Any, pack: Any, missing: Any) -> int:
    """`narrator listen --check`: the table measures its own voices (narrator/listening/check.py)."""
    from narrator.listening.check import run_check
    from narrator.ports import Heard, Prompt

    plan = _check_plan(args)

    def show(line: str) -> None:
        print(line, flush=True)

    if args.wav is not None:
        from narrator.listening.audio import read_wav
        from narrator.listening.rejection import alternative_margin
        from narrator.listening.vosk_listener import decide_stream, listening_grammar

        probe_wav(args.wav)
        grammar = listening_grammar(Prompt("check", seats=tuple(range(1, args.players + 1))), pack, model, missing)
        # Each utterance of the recording answers the next seat shown (refused: nothing heard).
        utterances = iter(list(decide_stream(model, grammar, read_wav(args.wav), margin=alternative_margin(pack.language))))

        def from_file(prompt: Prompt) -> Heard | None:
            d = next(utterances, None)
            return None if d is None or d.choice is None else Heard(d.choice, "voice", d.heard)

        args.check_mode = run_check(from_file, show, plan, args.players).mode  # saved by narrator.table.cli
        return 0
    from narrator.listening.check import live_check

    dev: int | str | None = int(args.device) if args.device and args.device.isdigit() else args.device
    # A missing microphone raises MicrophoneError: one line, exit 1.
    args.check_mode = live_check(args.lang, args.players, show, len(plan), dev).mode  # saved by narrator.table.cli
    return 0


def _known(lang: str) -> bool:
    from narrator.listening.models import CATALOG

    return lang in CATALOG


def _emit(line: dict[str, Any]) -> None:
    print(json.dumps(line, ensure_ascii=False), flush=True)


def listen_line(r: Any) -> dict[str, Any]:
    """A line of `listen`: what was heard and its choice, and why there is none when there is none."""
    line: dict[str, Any] = r.to_json()
    if line.get("choice") is None:
        line["reason"] = r.reason or "not one of the choices"  # JSON: kept in English
    return line


def probe_wav(wav: Path) -> tuple[int, int, int, int]:
    """(channels, sample bytes, rate, frames) of a WAV file, or one line saying why it cannot be read."""
    import wave

    name = str(wav)
    try:
        size = wav.stat().st_size
    except OSError as exc:
        raise UsageError("--wav {wav!r}: cannot be read ({reason})", wav=name, reason=exc.strerror or exc) from None
    if size == 0:
        raise UsageError("--wav {wav!r} is an empty file (0 bytes), not a WAV recording", wav=name)
    with wav.open("rb") as f:
        head = f.read(12)
    # Each refusal is one whole sentence (docs/languages.md), the sox command to convert the file at its end.
    cut_off = marked("--wav {wav!r} cannot be read: it ends ({size} bytes) before its WAV header is complete: a cut-off "
                     "or unfinished recording; convert it with: sox {wav} -r 16000 -c 1 -b 16 out.wav")
    if not head.startswith(b"RIFF"):
        raise UsageError("--wav {wav!r} is not a WAV file: it starts with {head!r}, not b'RIFF'; "
                         "convert it with: sox {wav} -r 16000 -c 1 -b 16 out.wav", wav=name, head=head)
    if len(head) < 12:
        raise UsageError(cut_off, wav=name, size=size)
    if head[8:12] != b"WAVE":
        raise UsageError("--wav {wav!r} is a RIFF file of type {head!r}, not WAVE audio; "
                         "convert it with: sox {wav} -r 16000 -c 1 -b 16 out.wav", wav=name, head=head[8:12])
    try:
        with wave.open(str(wav), "rb") as w:
            return w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes()
    except EOFError:
        raise UsageError(cut_off, wav=name, size=size) from None
    except wave.Error as exc:
        text = str(exc)
        if text.startswith("unknown format: 3"):
            raise UsageError("--wav {wav!r} cannot be read: its samples are floating point; narrator reads 16-bit PCM; "
                             "convert it with: sox {wav} -r 16000 -c 1 -b 16 out.wav", wav=name) from None
        if text.startswith("unknown format"):
            raise UsageError("--wav {wav!r} cannot be read: its sample encoding is not PCM ({reason}); "
                             "convert it with: sox {wav} -r 16000 -c 1 -b 16 out.wav", wav=name, reason=text) from None
        reason = text or type(exc).__name__
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
    raise UsageError("--wav {wav!r} cannot be read: {reason}; convert it with: sox {wav} -r 16000 -c 1 -b 16 out.wav",
                     wav=name, reason=reason)


def _listen_wav(wav: Path, model: Any, pack: Any, prompt: Any, missing: Any) -> int:
    from narrator.listening.audio import RATE, read_wav
    from narrator.listening.rejection import alternative_margin
    from narrator.listening.vosk_listener import listening_grammar, recognise_pcm

    channels, width, rate, frames = probe_wav(wav)
    if width == 2 and (rate != RATE or channels != 1):
        print(tr("note: {warning}", warning=tr("{wav} is {rate} Hz, channels: {channels}; converted to {target} Hz mono "
                                               "for the speech model", wav=wav, rate=rate, channels=channels,
                                               target=RATE)), file=sys.stderr)
    grammar = listening_grammar(prompt, pack, model, missing)
    heard = 0
    for r in recognise_pcm(model, grammar, read_wav(wav), margin=alternative_margin(pack.language)):
        heard += 1
        _emit(listen_line(r))
    if heard == 0:
        print(tr("note: {warning}", warning=tr("nothing was heard in {wav} ({seconds} s): silence, or too quiet", wav=wav,
                                               seconds=f"{frames / max(rate, 1):.1f}")), file=sys.stderr)
    return 0


def _listen_microphone(model: Any, pack: Any, prompt: Any, missing: Any, device: str | None) -> int:
    from narrator.listening.audio import MicrophoneSource
    from narrator.listening.vosk_listener import VoiceListener

    dev: int | str | None = int(device) if device and device.isdigit() else device
    listener = VoiceListener(model, pack, MicrophoneSource(dev), missing=missing,
                             observer=lambda r: _emit(listen_line(r)))
    listener.start()  # a missing microphone raises MicrophoneError: one line, exit 1
    print(tr("listening ({lang}); speak, Ctrl-C to stop", lang=pack.language), file=sys.stderr)
    try:
        while True:
            listener.listen(prompt)
    finally:
        listener.close()


def _listen_keypad(prompt: Any) -> int:
    from narrator.listening.keypad import KeypadListener

    if not os.isatty(sys.stdin.fileno()):
        raise UsageError("--keypad needs a terminal on stdin (the keypad types into it)")
    print(tr("type on the keypad; Ctrl-C to stop"), file=sys.stderr)
    stop = threading.Event()
    with KeypadListener() as keypad:
        while not stop.is_set():
            heard = keypad.listen(prompt)
            if heard is not None:
                sys.stderr.write("\r\x1b[K")
                _emit({"heard": heard.text, "choice": heard.choice, "allowed": prompt.allows(heard.choice)})
    return 0
