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

from narrator.packs import available_languages, load_pack


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""
    optional: bool = False  # only voice answers need it: a warning, not a failure

    @property
    def status(self) -> str:
        return "pass" if self.ok else "warn" if self.optional else "FAIL"

    def line(self) -> str:
        if self.ok:
            return f"pass  {self.name}: {self.detail}"
        return f"{self.status}  {self.name}: {self.detail}" + (f" -> fix: {self.fix}" if self.fix else "")


def _module(name: str) -> tuple[Any, str]:
    """The module, or None and why it cannot be imported."""
    try:
        return importlib.import_module(name), ""
    except ImportError as exc:
        return None, f"not installed ({exc})"
    except OSError as exc:  # sounddevice without the PortAudio library
        return None, f"not available ({exc})"


def _devices(kind: str) -> tuple[list[str] | None, str]:
    sd, why = _module("sounddevice")
    if sd is None:
        return None, why
    try:
        devices = sd.query_devices()
    except Exception as exc:  # PortAudio reports host errors as its own exception type
        return None, f"cannot list devices ({exc})"
    key = "max_output_channels" if kind == "output" else "max_input_channels"
    return [str(d["name"]) for d in devices if d.get(key, 0) > 0], ""


def check_audio_output() -> list[Check]:
    out: list[Check] = []
    names, why = _devices("output")
    if names is None:
        out.append(Check("audio output", False, why, "sudo apt-get install libportaudio2, then pip install sounddevice"))
    elif not names:
        out.append(Check("audio output", False, "no output device found",
                         "plug in speakers or headphones; 'aplay -l' lists what ALSA sees"))
    else:
        out.append(Check("audio output", True, f"{len(names)} device(s): {', '.join(names[:3])}"))
    speech, why = _module("narrator.speech")
    out.append(Check("speech engine", speech is not None, "narrator.speech is installed" if speech else why,
                     "install narrator with its speech module (pip install -e .)"))
    return out


def check_microphone(voice_wanted: bool = True) -> list[Check]:
    names, why = _devices("input")
    fix = "plug in a USB microphone; 'arecord -l' lists what ALSA sees" if voice_wanted else ""
    if names is None:
        return [Check("microphone", False, why, "sudo apt-get install libportaudio2, then pip install sounddevice",
                      optional=True)]
    if not names:
        return [Check("microphone", False, "no input device found (the keypad still works)", fix, optional=True)]
    return [Check("microphone", True, f"{len(names)} device(s): {', '.join(names[:3])}")]


def check_voices() -> list[Check]:
    """Each voice pack's TTS voice exists in espeak-ng (through pyttsx3)."""
    pyttsx3, why = _module("pyttsx3")
    if pyttsx3 is None:
        return [Check("TTS voices", False, why, "pip install pyttsx3>=2.99")]
    try:
        engine = pyttsx3.init()
        voices = engine.getProperty("voices")
    except Exception as exc:  # pyttsx3 raises plain RuntimeError/OSError when espeak-ng is missing
        return [Check("TTS voices", False, f"the speech synthesizer does not start ({exc})",
                      "sudo apt-get install libespeak-ng1 espeak-ng-data")]
    known: set[str] = set()
    for v in voices:
        known.add(str(v.id))
        known.add(str(v.id).rsplit("/", 1)[-1])
        known.update(str(lang) for lang in (v.languages or []))
    out: list[Check] = []
    langs = available_languages()
    if not langs:
        return [Check("TTS voices", False, "no voice pack found", "run from the repository, or set NARRATOR_VOICES")]
    for lang in langs:
        try:
            pack = load_pack(lang)
        except Exception as exc:  # a broken pack is reported, the other packs still checked
            out.append(Check(f"TTS voice ({lang})", False, f"the pack cannot be read: {exc}", f"fix voices/{lang}/pack.toml"))
            continue
        ok = pack.voice in known
        out.append(Check(f"TTS voice ({lang})", ok, f"voice {pack.voice!r}" + (" found" if ok else " not found"),
                         "" if ok else f"sudo apt-get install espeak-ng-data, or set another voice in {pack.path}"))
    if any(c.ok for c in out):
        # A missing voice only stops games in that language: the others can be played.
        out = [c if c.ok else Check(c.name, False, c.detail + " (games in this language cannot be spoken)", c.fix,
                                    optional=True) for c in out]
    return out


def check_models() -> list[Check]:
    """A speech model for each language with a voice pack (voice input is optional)."""
    vosk, why = _module("vosk")
    if vosk is None:
        return [Check("speech models", False, f"vosk {why}; the keypad works without it",
                      "pip install 'narrator[voice]' for voice input", optional=True)]
    from narrator.listening.models import find_model, missing_model_hint

    out: list[Check] = []
    for lang in available_languages():
        found = find_model(lang)
        out.append(Check(f"speech model ({lang})", found is not None, str(found) if found else "none installed",
                         "" if found else missing_model_hint(lang), optional=True))
    return out


def check_keypad(read_key: Callable[[float], str | None] | None, out: TextIO, wait: float = 10.0) -> list[Check]:
    if read_key is None:
        return [Check("keypad", False, "not checked: this is not a terminal",
                      "run 'narrator doctor' in the terminal the keypad types into")]
    out.write(f"Press a key on the keypad (within {wait:g} seconds)... ")
    out.flush()
    key = read_key(wait)
    out.write("\n")
    if not key:
        return [Check("keypad", False, "no key came in", "plug the keypad in (USB), switch NumLock on, and try again")]
    shown = " ".join(repr(ch) if not ch.isprintable() else ch for ch in key)
    return [Check("keypad", True, f"got {shown}")]


CHECKS: tuple[Callable[[], list[Check]], ...] = (check_audio_output, check_microphone, check_voices, check_models)


def run_doctor(out: TextIO = sys.stdout, keypad: bool = True,
               checks_to_run: Sequence[Callable[[], list[Check]]] = CHECKS) -> int:
    """Exit 0 when keypad play works (with sound), whatever the optional items say."""
    checks: list[Check] = []
    for check in checks_to_run:
        checks += check()
    if keypad:
        checks += _keypad(out)
    for c in checks:
        out.write(c.line() + "\n")
    failed = sum(c.status == "FAIL" for c in checks)
    warned = sum(c.status == "warn" for c in checks)
    out.write(f"{len(checks) - failed - warned} passed, {warned} warnings, {failed} failed\n")
    for line in verdict(checks):
        out.write(line + "\n")
    return 1 if failed else 0


def verdict(checks: list[Check]) -> list[str]:
    """What works on this machine, in a few lines: keypad play, voice answers, and what to do."""
    by_name = {c.name: c for c in checks}
    failed = [c for c in checks if c.status == "FAIL"]
    lines: list[str] = []
    if not failed:
        lines.append("keypad play: ready (narrator play; silent: narrator play --no-audio, or --text for printed lines)")
    else:
        names = ", ".join(c.name for c in failed)
        lines.append(f"keypad play with sound: not ready ({names}); play silently with 'narrator play --no-audio' "
                     "(full screen) or 'narrator play --text' (printed lines)")
    models = [c for c in checks if c.name.startswith("speech model")]
    mic = by_name.get("microphone")
    have = [c.name[len("speech model ("):-1] for c in models if c.ok and c.name.startswith("speech model (")]
    if mic is not None and not mic.ok:
        lines.append("voice answers: no microphone; the keypad is enough")
    elif not any(c.ok for c in models):
        lines.append("voice answers: no model; get one with 'narrator models fetch en' (or fr, es, it, ko); "
                     "the keypad is enough")
    else:
        lines.append(f"voice answers: ready ({', '.join(have)})")
    return lines


def _keypad(out: TextIO) -> list[Check]:
    if not sys.stdin.isatty():
        return check_keypad(None, out)
    from narrator.table.keys import TerminalKeys

    with TerminalKeys() as keys:
        return check_keypad(keys.read, out)
