"""Whether the table's voice can say each player's name (docs/names.md, "Said").

A name the voice cannot say is not said: the lines name that seat by its number, as without a
name (`People.unsay`). It cannot be said when
- it holds a character that is not a letter, a mark, a space or `-'’.` (an emoji, a symbol, a
  digit: the voice would read the symbol's description, or a number a seat could be taken for);
- espeak-ng reads a character of it by that character's name ("cyrillic a", "Chinese letter",
  an accent, an apostrophe), or spells a word letter by letter (a Japanese voice given Latin
  letters): espeak-ng's own trace (`-X`) says so. Piper reads through espeak-ng's phonemes, so
  the same trace answers for it;
- its rendered line, in the table's voice (the engine of the game, cached like every line), has
  no voice in it, or lasts longer than `MAX_SECONDS`.
"""

from __future__ import annotations

import re
import subprocess
import unicodedata
from typing import Callable, Mapping

from narrator.names import People
from narrator.packs import VoicePack
from narrator.ports import Cue

MAX_SECONDS = 2.5  # the name's line ("Ann.") in the voice: a longer one is not a name to call out
SILENCE = 10 ** (-40 / 20)  # samples below -40 dBFS are not voice
_PUNCTUATION = frozenset(" -'’.")
# espeak-ng's trace: a character read by its name ("Found: '_cyr'", "Found: '_zh'", "Found: '_''"),
# and a word taken apart into single letters ("Translate 'e'" inside "ed").
_NAMED = re.compile(r"^Found: '_", re.M)
_LETTER = re.compile(r"^Translate '(.)'$", re.M)


def unreadable_characters(name: str) -> str | None:
    """The first character of `name` no voice should be given (not a letter, mark, space or -'’.), or None."""
    for ch in name:
        if ch not in _PUNCTUATION and unicodedata.category(ch)[0] not in "LM":
            return ch
    return None


def espeak_trace(voice: str, text: str) -> str | None:
    """espeak-ng's trace of how it reads `text` (`-X`), or None without the espeak-ng command."""
    try:
        done = subprocess.run(["espeak-ng", "-q", "-X", "-v", voice], input=text + "\n", capture_output=True,
                              text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def misread(name: str, trace: str) -> str | None:
    """What espeak-ng's trace of a name shows it cannot read, or None."""
    if _NAMED.search(trace):
        return "read character by character"
    words = [w for w in re.split(r"[\s\-'’.]+", name.casefold()) if len(w) > 1]
    if any(letter in word for letter in _LETTER.findall(trace) for word in words):
        return "spelled letter by letter"
    return None


def voiced_seconds(samples: "object", rate: int) -> float:
    """How long the voice sounds in a clip: from its first to its last sample above -40 dBFS."""
    import numpy as np

    x = np.abs(np.asarray(samples, dtype=np.float32))
    loud = np.flatnonzero(x > SILENCE)
    return 0.0 if len(loud) == 0 else float(loud[-1] - loud[0] + 1) / rate


def check_names(people: People, pack: VoicePack, seconds: Callable[[Cue], float] | None = None,
                trace: Callable[[str], str | None] | None = None, limit: float = MAX_SECONDS) -> Mapping[int, str]:
    """Mark every name the voice cannot say (`People.unsay`) and return why, by seat. `seconds`
    says how long a line's voice lasts in the table's voice (None: no voice, the characters alone
    decide); `trace` is espeak-ng's reading of a text (default: the espeak-ng command)."""
    read = trace if trace is not None else (lambda text: espeak_trace(pack.voice, text))
    for seat, name in people.names().items():
        why: str | None = None
        odd = unreadable_characters(name)
        if odd is not None:
            why = f"{odd!r} is not a letter"
        elif seconds is not None:
            how = read(name)
            why = misread(name, how) if how is not None else None
            if why is None:
                try:
                    voiced = seconds(Cue("day.death", {"seat": seat}, phase="day.morning"))
                except Exception as exc:  # an engine that cannot say it at all (espeak-ng: no audio)
                    voiced, why = 0.0, f"the voice failed: {exc}"
                if why is None and voiced <= 0.0:
                    why = "no audio"
                elif why is None and voiced > limit:
                    why = f"{voiced:.1f} s long"
        if why is not None:
            people.unsay(seat, why)
    return people.unsaid()
