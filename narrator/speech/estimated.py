"""The silent speaker: each line lasts as long as it would take to say, estimated from its text.

One speaker for every place that says nothing aloud: headless timelines, text mode (which prints
each line), the full screen with `--no-audio`, and tests. What differs is a parameter: `pace`
scales the lengths, and `show`, when given, receives each line as it starts.
"""

from __future__ import annotations

import functools
import re
from typing import Callable, Iterable

from narrator.packs import VoicePack
from narrator.ports import Clock, Cue

# Receives each line said: the cue, its text, and the clock time it starts.
ShowLine = Callable[[Cue, str, float], None]


# Chinese and Japanese are written without spaces between words: espeak-ng takes about 0.28 s a
# Chinese character and 0.15 s a kana at rate 150 (fitted on the zh and ja packs), that is 0.7 and
# 0.36 of a 0.4 s word, and its pause at a full-width stop or comma is longer than at a Latin one.
_HAN = re.compile(r"[\u3400-\u9fff]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]+")
_WORDS_PER_HAN = 0.7
_WORDS_PER_KANA = 0.36


@functools.lru_cache(maxsize=8192)  # a game says the same few hundred lines again and again
def estimated_duration(text: str, rate_wpm: int = 150) -> float:
    """How long a line takes to say: words at the pack's rate, plus a breath per pause.

    A rough model of espeak-ng (within about 20% on the English pack), enough for timelines.
    """
    han = len(_HAN.findall(text))
    kana = len(_KANA.findall(text))
    words = max(1.0, len(_CJK.sub(" ", text).split()) + _WORDS_PER_HAN * han + _WORDS_PER_KANA * kana)
    pauses = sum(text.count(p) for p in ".,?!:;…")
    cjk_pauses = sum(text.count(p) for p in "。，、？！：；")
    return round(words * 60.0 / rate_wpm + 0.12 * pauses + 0.35 * cjk_pauses + 0.2, 3)


class EstimatedSpeaker:
    """Says nothing aloud; a line lasts its estimated duration times `pace`, from `at` (or now)."""

    def __init__(self, pack: VoicePack, clock: Clock, pace: float = 1.0, show: ShowLine | None = None) -> None:
        self.pack = pack
        self.clock = clock
        self.pace = pace
        self.show = show

    def say(self, cue: Cue, at: float | None = None) -> float:
        text = self.pack.text(cue)
        start = self.clock.now() if at is None else max(at, self.clock.now())
        if self.show is not None:
            self.show(cue, text, start)
        return start + estimated_duration(text, self.pack.rate) * self.pace

    def prepare(self, cues: Iterable[Cue]) -> None:
        self.pack.check_lines(cues)  # every cue must have its line; nothing to render

    def close(self) -> None:
        """Nothing to release."""
