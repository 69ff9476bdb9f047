"""Every spoken line of a pack read back through espeak-ng's own phonemes (docs/languages.md, "Reading
the lines back"): what the voice would say, checked for letters spelled out, digits or kanji reaching
a Japanese or Chinese voice, words read as English, and the pack's known misreadings.

All of a pack's lines go to espeak-ng in one call (`-X`: phonemes and the trace of how each word was
read); only when that call finds something are the lines split in halves until each finding is
pinned to its line. Nothing is cached: every run reads the packs as they are.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from narrator.packs import VoicePack, every_cue, texts_of

SEATS = 30
# What a game can put in the numeric slots: minutes of a debate up to an hour, any defence time up
# to two minutes and the usual ones beyond, the Raven's votes and the seconds left in a debate.
DOMAINS = {
    "minutes": tuple(range(1, 61)),
    "seconds": (*range(1, 121), 150, 180, 240, 300),
    "count": (*range(0, SEATS + 1), 40, 50),
}
# Languages whose espeak-ng voice reads no digit (Japanese: no kanji either).
NO_DIGITS = ("ja", "zh")
_KANJI = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
# A digit in the text, not a tone number of a pinyin respelling (zhang3).
_DIGIT = re.compile(r"(?<![a-z])[0-9０-９]")
_LATIN = re.compile(r"[A-Za-z]")
# A word espeak-ng cannot say, then read letter by letter: "Unpronouncable? 'grrr'" and a letter's name.
_SPELLED = re.compile(r"^Unpronouncable\? '([^']+)'\n(?:Found: '_?(\w)' )", re.M)
_DIGIT_READ = re.compile(r"^Found: '_(\d)", re.M)
_SWITCH = re.compile(r"\((en)\)")


@dataclass(frozen=True)
class Finding:
    language: str
    line: str
    what: str

    def __str__(self) -> str:
        return f"{self.language}: {self.what}: {self.line!r}"


def spoken_lines(pack: VoicePack) -> list[str]:
    """Every line the pack's voice can be given in a game, seats 1-30, every count and minute.

    A line with two seats ("{seat} votes {other}.") is read with every seat in each place, each
    paired with the next seat, not with all 900 pairs: espeak-ng reads each number word alone."""
    cues = [c for c in every_cue(pack, SEATS, domains=DOMAINS)
            if not {"seat", "other"} <= set(c.slots) or c.slots["other"] == int(c.slots["seat"]) % SEATS + 1]
    return texts_of(pack, cues, engine="espeak")


# espeak-ng synthesises the whole waveform even when told to be quiet (`-q`), and that, not reading the
# words, is nearly all of its time: its harmonic loop runs once per sample, over every harmonic under
# the voice's top frequency. The fastest rate short of the time-stretcher (from 450 words a minute on,
# which costs more) and the highest pitch (fewest harmonics) make the waveform thrown away cheap: the
# pitch -p 99 reaches is raised further by a voice variant of our own, whose base pitch and range are
# far above any voice's (about half of what is left). Rate, pitch and a variant that sets only the
# pitch shape the prosody espeak-ng applies after it has chosen the phonemes: the phonemes and the
# trace it prints are the same bytes as at its defaults (tests/speech/test_readback.py compares them).
UNHEARD_PROSODY = ("-s", "400", "-p", "99")
UNHEARD_VARIANT = "language variant\nname unheard\npitch 1000 1000\n"
_data: tempfile.TemporaryDirectory[str] | None = None


def _unheard_data() -> str:
    """espeak-ng's data folder as installed, plus the variant `unheard` (links, made once a process):
    what `--path` is given so that `-v VOICE+unheard` finds the variant."""
    global _data
    if _data is None:
        version = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True, check=True).stdout
        installed = Path(version.split("Data at:")[1].strip())
        data = tempfile.TemporaryDirectory(prefix="readback-espeak-")
        root = Path(data.name) / "espeak-ng-data"
        variants = root / "voices" / "!v"
        variants.mkdir(parents=True)
        for entry in installed.iterdir():
            if entry.name != "voices":
                (root / entry.name).symlink_to(entry)
        for entry in (installed / "voices").iterdir():
            if entry.name != "!v":
                (root / "voices" / entry.name).symlink_to(entry)
        for entry in (installed / "voices" / "!v").glob("*"):  # none in a data folder without variants
            (variants / entry.name).symlink_to(entry)
        (variants / "unheard").write_text(UNHEARD_VARIANT)
        _data = data
    return _data.name


def espeak(voice: str, lines: list[str]) -> str:
    """espeak-ng's phonemes of the lines (`-x`), each word's reading traced before them (`-X`)."""
    done = subprocess.run(["espeak-ng", f"--path={_unheard_data()}", "-q", "-X", *UNHEARD_PROSODY, "-v", f"{voice}+unheard"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True, check=True)
    return done.stdout


def _findings(pack: VoicePack, lines: list[str]) -> list[str]:
    """What is wrong in these lines together (empty: nothing)."""
    found: list[str] = []
    trace = espeak(pack.voice, lines)
    phonemes = trace  # the phoneme lines are in the trace; the patterns below match nothing else in it
    found += [f"spelled out letter by letter: {m.group(1)!r}" for m in _SPELLED.finditer(trace)]
    if pack.language != "en" and pack.language not in NO_DIGITS and _SWITCH.search(phonemes):
        found.append("a word read as English")
    if pack.language in NO_DIGITS:
        text = "\n".join(lines)
        found += [f"digit read by the voice: {m.group(1)}" for m in _DIGIT_READ.finditer(trace)]
        found += [f"digit in the spoken text: {m.group(0)}" for m in _DIGIT.finditer(text)]
        if pack.language == "ja":
            found += [f"kanji in the spoken text: {m.group(0)}" for m in _KANJI.finditer(text)]
            found += [f"Latin letters in the spoken text: {m.group(0)}" for m in _LATIN.finditer(text)]
    for pattern, why in pack.misreadings.items():
        if re.search(pattern, phonemes):
            found.append(f"known misreading {pattern!r} ({why})")
    return found


def read_back(pack: VoicePack, lines: list[str]) -> list[Finding]:
    """Every finding in `lines`, pinned to its line (halving the batch only where something was found)."""
    found = _findings(pack, lines)
    if not found:
        return []
    if len(lines) == 1:
        return [Finding(pack.language, lines[0], what) for what in dict.fromkeys(found)]
    half = len(lines) // 2
    pinned = read_back(pack, lines[:half]) + read_back(pack, lines[half:])
    # A finding only the whole batch shows (a reading across two lines) is still reported.
    return pinned or [Finding(pack.language, f"{len(lines)} lines", what) for what in dict.fromkeys(found)]
