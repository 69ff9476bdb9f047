"""`TimelineSpeaker`: the fake twin of `AudioSpeaker`, recording (cue, text, start, end) with no audio."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable

from narrator.packs import VoicePack
from narrator.ports import Cue


@dataclass(frozen=True, slots=True)
class TimedLine:
    cue: Cue
    text: str
    start: float
    end: float


def estimate_seconds(text: str, rate_wpm: int = 150) -> float:
    """How long a line takes to say: words at the pack's rate, plus a breath per sentence.

    A rough model of espeak-ng (within about 20% on the English pack), enough for timelines.
    """
    words = max(1, len(text.split()))
    pauses = sum(text.count(p) for p in ".,?!:;…")
    return words * 60.0 / rate_wpm + 0.12 * pauses + 0.2


@dataclass
class TimelineSpeaker:
    """Speaks nothing; `say` returns when the line would end, lines never overlap.

    `now` is the clock to read (a fake clock's `now` in tests). Without a pack the text is the key.
    """

    pack: VoicePack | None = None
    now: Callable[[], float] = time.monotonic
    lines: list[TimedLine] = field(default_factory=list)
    prepared: list[Cue] = field(default_factory=list)
    bed: str | None = None
    _turns: dict[str, int] = field(default_factory=dict)

    def say(self, cue: Cue) -> float:
        if self.pack is not None:
            turn = self._turns.get(cue.key, 0)
            self._turns[cue.key] = turn + 1
            text = self.pack.text(cue, turn)
            rate = self.pack.rate
        else:
            text, rate = cue.key, 150
        start = max(self.now(), self.lines[-1].end if self.lines else float("-inf"))
        end = start + estimate_seconds(text, rate)
        self.lines.append(TimedLine(cue, text, start, end))
        return end

    def prepare(self, cues: Iterable[Cue]) -> None:
        self.prepared.extend(cues)

    def set_ambience(self, bed: str | None) -> None:
        self.bed = bed

    def close(self) -> None:
        pass

    def timeline(self) -> list[tuple[str, float, float]]:
        """(key, start, end) per line: what a differential test compares."""
        return [(line.cue.key, line.start, line.end) for line in self.lines]


if TYPE_CHECKING:
    from narrator.ports import Speaker

    def _is_a_speaker(s: TimelineSpeaker) -> Speaker:  # mypy proves the port is implemented
        return s
