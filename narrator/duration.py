"""How long a line takes to say, estimated from its text (no audio): for timelines and text mode."""

from __future__ import annotations


def estimated_duration(text: str, rate_wpm: int = 150) -> float:
    """How long a line takes to say: words at the pack's rate, plus a breath per pause.

    A rough model of espeak-ng (within about 20% on the English pack), enough for timelines.
    """
    words = max(1, len(text.split()))
    pauses = sum(text.count(p) for p in ".,?!:;…")
    return round(words * 60.0 / rate_wpm + 0.12 * pauses + 0.2, 3)
