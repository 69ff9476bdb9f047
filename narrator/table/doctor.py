"""`narrator doctor`: is this machine ready for a game? One line per check, pass, warn or fail with
the fix, then a verdict saying what works.

Only what keypad play needs (the speaker, the speech engine, a TTS voice, the keypad) can fail;
the microphone and the speech models are for voice answers, optional: they warn.

Each check is a small function returning `Check`s. Heavy or optional modules (sounddevice,
pyttsx3, vosk, narrator.speech, narrator.listening) are imported inside the checks, and a
missing one is a clean failure with its fix, never a traceback.
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass
from typing import Any, Callable, Sequence, TextIO

from narrator.i18n import message_of, tr
from narrator.packs import available_languages, load_pack


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""
    optional: bool = False  # only voice answers need it: a warning, not a failure
    label: str = ""  # the name as the table reads it (in its language); `name` is the check's English id

    @property
    def status(self) -> str:
        return "pass" if self.ok else "warn" if self.optional else "FAIL"

    def line(self) -> str:
        slots = dict(name=self.label or self.name, detail=self.detail, fix=self.fix)
        if self.ok:
            return tr("pass  {name}: {detail}", **slots)
        if self.status == "warn":
            return tr("warn  {name}: {detail} -> fix: {fix}", **slots) if self.fix else tr("warn  {name}: {detail}", **slots)
        return tr("FAIL  {name}: {detail} -> fix: {fix}", **slots) if self.fix else tr("FAIL  {name}: {detail}", **slots)


def _module(name: str) -> tuple[Any, str]:
    """The module, or None and why it cannot be imported."""
    try:
        return importlib.import_module(name), ""
    except ImportError as exc:
        return None, tr("not installed ({error})", error=exc)
    except OSError as exc:  # sounddevice without the PortAudio library
        return None, tr("not available ({error})", error=exc)


def _devices(kind: str) -> tuple[list[str] | None, str]:
    sd, why = _module("sounddevice")
    if sd is None:
        return None, why
    try:
        devices = sd.query_devices()
    except Exception as exc:  # PortAudio reports host errors as its own exception type
        return None, tr("cannot list devices ({error})", error=exc)
    key = "max_output_channels" if kind == "output" else "max_input_channels"
    return [str(d["name"]) for d in devices if d.get(key, 0) > 0], ""


def check_audio_output() -> list[Check]:
    out: list[Check] = []
    names, why = _devices("output")
    label = tr("audio output")
    if names is None:
        out.append(Check("audio output", False, why, tr("sudo apt-get install libportaudio2, then pip install sounddevice"),
                         label=label))
    elif not names:
        out.append(Check("audio output", False, tr("no output device found"),
                         tr("plug in speakers or headphones; 'aplay -l' lists what ALSA sees"), label=label))
    else:
        out.append(Check("audio output", True, _found(names), label=label))
    speech, why = _module("narrator.speech")
    out.append(Check("speech engine", speech is not None, tr("narrator.speech is installed") if speech else why,
                     tr("install narrator with its speech module (pip install -e .)"), label=tr("speech engine")))
    return out


def check_microphone(voice_wanted: bool = True) -> list[Check]:
    names, why = _devices("input")
    fix = tr("plug in a USB microphone; 'arecord -l' lists what ALSA sees") if voice_wanted else ""
    label = tr("microphone")
    if names is None:
        return [Check("microphone", False, why, tr("sudo apt-get install libportaudio2, then pip install sounddevice"),
                      optional=True, label=label)]
    if not names:
        return [Check("microphone", False, tr("no input device found (the keypad still works)"), fix, optional=True,
                      label=label)]
    return [Check("microphone", True, _found(names), label=label)]


def _found(names: list[str]) -> str:
    """The devices found: how many, and the first three by name."""
    return tr("{count} device(s): {names}", count=len(names), names=", ".join(names[:3]))


def check_voices() -> list[Check]:
    """Each voice pack's TTS voice exists in espeak-ng (through pyttsx3)."""
    pyttsx3, why = _module("pyttsx3")
    if pyttsx3 is None:
        return [Check("TTS voices", False, why, "pip install pyttsx3>=2.99", label=tr("TTS voices"))]
    try:
        engine = pyttsx3.init()
        voices = engine.getProperty("voices")
    except Exception as exc:  # pyttsx3 raises plain RuntimeError/OSError when espeak-ng is missing
        return [Check("TTS voices", False, tr("the speech synthesizer does not start ({error})", error=exc),
                      "sudo apt-get install libespeak-ng1 espeak-ng-data", label=tr("TTS voices"))]
    known: set[str] = set()
    for v in voices:
        known.add(str(v.id))
        known.add(str(v.id).rsplit("/", 1)[-1])
        known.update(str(lang) for lang in (v.languages or []))
    out: list[Check] = []
    langs = available_languages()
    if not langs:
        return [Check("TTS voices", False, tr("no voice pack found"), tr("run from the repository, or set NARRATOR_VOICES"),
                      label=tr("TTS voices"))]
    for lang in langs:
        try:
            pack = load_pack(lang)
        except Exception as exc:  # a broken pack is reported, the other packs still checked
            out.append(Check(f"TTS voice ({lang})", False, tr("the pack cannot be read: {problem}", problem=message_of(exc)),
                             tr("fix {path}", path=f"voices/{lang}/pack.toml"), label=tr("TTS voice ({lang})", lang=lang)))
            continue
        ok = pack.voice in known
        out.append(Check(f"TTS voice ({lang})", ok,
                         tr("voice {voice!r} found", voice=pack.voice) if ok else tr("voice {voice!r} not found", voice=pack.voice),
                         "" if ok else tr("sudo apt-get install espeak-ng-data, or set another voice in {path}", path=pack.path),
                         label=tr("TTS voice ({lang})", lang=lang)))
    if any(c.ok for c in out):
        # A missing voice only stops games in that language: the others can be played.
        out = [c if c.ok else Check(c.name, False, tr("{problem} (games in this language cannot be spoken)", problem=c.detail),
                                    c.fix, optional=True, label=c.label) for c in out]
    return out


def check_models() -> list[Check]:
    """A speech model for each language with a voice pack (voice input is optional)."""
    vosk, why = _module("vosk")
    if vosk is None:
        return [Check("speech models", False, tr("vosk {problem}; the keypad works without it", problem=why),
                      tr("pip install 'narrator[voice]' for voice input"), optional=True, label=tr("speech models"))]
    from narrator.listening.models import find_model, missing_model_hint

    out: list[Check] = []
    for lang in available_languages():
        found = find_model(lang)
        out.append(Check(f"speech model ({lang})", found is not None, str(found) if found else tr("none installed"),
                         "" if found else missing_model_hint(lang), optional=True, label=tr("speech model ({lang})", lang=lang)))
    return out


def check_keypad(read_key: Callable[[float], str | None] | None, out: TextIO, wait: float = 10.0) -> list[Check]:
    if read_key is None:
        return [Check("keypad", False, tr("not checked: this is not a terminal"),
                      tr("run 'narrator doctor' in the terminal the keypad types into"), label=tr("keypad"))]
    out.write(tr("Press a key on the keypad (within {seconds} seconds)...", seconds=f"{wait:g}") + " ")
    out.flush()
    key = read_key(wait)
    out.write("\n")
    if not key:
        return [Check("keypad", False, tr("no key came in"), tr("plug the keypad in (USB), switch NumLock on, and try again"),
                      label=tr("keypad"))]
    shown = " ".join(repr(ch) if not ch.isprintable() else ch for ch in key)
    return [Check("keypad", True, tr("got {keys}", keys=shown), label=tr("keypad"))]


CHECKS: tuple[Callable[[], list[Check]], ...] = (check_audio_output, check_microphone, check_voices, check_models)


def run_doctor(out: TextIO | None = None, keypad: bool = True,
               checks_to_run: Sequence[Callable[[], list[Check]]] = CHECKS) -> int:
    """Exit 0 when keypad play works (with sound), whatever the optional items say. It prints on
    `out`, by default the standard output of the moment it runs (not of the moment it was imported)."""
    out = out if out is not None else sys.stdout
    checks: list[Check] = []
    for check in checks_to_run:
        checks += check()
    if keypad:
        checks += _keypad(out)
    for c in checks:
        out.write(c.line() + "\n")
    failed = sum(c.status == "FAIL" for c in checks)
    warned = sum(c.status == "warn" for c in checks)
    out.write(tr("{passed} passed, {warned} warnings, {failed} failed", passed=len(checks) - failed - warned,
                 warned=warned, failed=failed) + "\n")
    for line in verdict(checks):
        out.write(line + "\n")
    return 1 if failed else 0


def verdict(checks: list[Check]) -> list[str]:
    """What works on this machine, in a few lines: keypad play, voice answers, and what to do."""
    by_name = {c.name: c for c in checks}
    failed = [c for c in checks if c.status == "FAIL"]
    lines: list[str] = []
    if not failed:
        lines.append(tr("keypad play: ready (narrator play; silent: narrator play --no-audio, or --text for printed lines)"))
    else:
        names = ", ".join(c.label or c.name for c in failed)
        lines.append(tr("keypad play with sound: not ready ({checks}); play silently with 'narrator play --no-audio' "
                        "(full screen) or 'narrator play --text' (printed lines)", checks=names))
    models = [c for c in checks if c.name.startswith("speech model")]
    mic = by_name.get("microphone")
    have = [c.name[len("speech model ("):-1] for c in models if c.ok and c.name.startswith("speech model (")]
    if mic is not None and not mic.ok:
        lines.append(tr("voice answers: no microphone; the keypad is enough"))
    elif not any(c.ok for c in models):
        lines.append(tr("voice answers: no model; get one with 'narrator models fetch en' (or fr, es, it, ko); "
                        "the keypad is enough"))
    else:
        lines.append(tr("voice answers: ready ({languages})", languages=", ".join(have)))
    return lines


def _keypad(out: TextIO) -> list[Check]:
    if not sys.stdin.isatty():
        return check_keypad(None, out)
    from narrator.table.keys import TerminalKeys

    with TerminalKeys() as keys:
        return check_keypad(keys.read, out)
