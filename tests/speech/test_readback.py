"""Every spoken line of every pack, with the slots a game fills (seats 1-30, every count and minute),
read back through espeak-ng's phonemes (tests/speech/readback.py; docs/languages.md, "Reading the
lines back"): no letter spelled out, no digit or kanji reaching a Japanese or Chinese voice, no word
read as English in another language, and none of the pack's known misreadings ([misreadings])."""

from __future__ import annotations

import subprocess

import pytest
from readback import espeak, read_back, spoken_lines

from narrator.packs import available_languages, load_pack


@pytest.mark.slow  # espeak-ng -x reads every line back, in child processes
@pytest.mark.parametrize("lang", available_languages())
def test_every_spoken_line_reads_back_right(lang: str) -> None:
    pack = load_pack(lang)
    lines = spoken_lines(pack)
    assert len(lines) > 1500, "every seat 1-30 of every line, every count and minute"
    findings = read_back(pack, lines)
    assert not findings, "\n".join(map(str, findings[:40]))


@pytest.mark.slow  # espeak-ng, in child processes
def test_the_unheard_prosody_leaves_what_espeak_reads_unchanged() -> None:
    """readback.espeak runs espeak-ng at a rate and pitch (and with a pitch-only voice variant) that make the
    waveform it throws away cheap; the phonemes and trace must be byte for byte those of espeak-ng's defaults, or the checks above would be
    checking something else. A sample of every pack's lines (every 25th), one call each way a pack."""
    for lang in available_languages():
        pack = load_pack(lang)
        sample = spoken_lines(pack)[::25]
        default = subprocess.run(["espeak-ng", "-q", "-X", "-v", pack.voice], input="\n".join(sample) + "\n",
                                 capture_output=True, text=True, check=True).stdout
        assert len(default) > 10_000, lang  # a trace worth comparing, not an empty or failed run
        assert espeak(pack.voice, sample) == default, lang
