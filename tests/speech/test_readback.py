"""Every spoken line of every pack, with the slots a game fills (seats 1-30, every count and minute),
read back through espeak-ng's phonemes (tests/speech/readback.py; docs/languages.md, "Reading the
lines back"): no letter spelled out, no digit or kanji reaching a Japanese or Chinese voice, no word
read as English in another language, and none of the pack's known misreadings ([misreadings])."""

from __future__ import annotations

import pytest
from readback import read_back, spoken_lines

from narrator.packs import available_languages, load_pack


@pytest.mark.slow  # espeak-ng -x reads every line back, in child processes
@pytest.mark.parametrize("lang", available_languages())
def test_every_spoken_line_reads_back_right(lang: str) -> None:
    pack = load_pack(lang)
    lines = spoken_lines(pack)
    assert len(lines) > 1500, "every seat 1-30 of every line, every count and minute"
    findings = read_back(pack, lines)
    assert not findings, "\n".join(map(str, findings[:40]))
