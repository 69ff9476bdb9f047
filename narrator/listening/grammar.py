"""Per-prompt grammars: the phrases legal right now, and recognised words mapped back to a choice.

Pure: no model, no audio. The recogniser is restricted to these phrases (that is what makes a
small model reliable at a table), and its answer is checked against the shape of what was asked
(one seat or one word) with per-word confidences, because noise at the start of an utterance can
come back as an extra grammar word.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from narrator.errors import UsageError
from narrator.packs import VoicePack
from narrator.ports import WORDS, Choice, Prompt

# Below this per-word confidence a word is not taken (measured on the Korean model: right words
# score 0.85–1.0, forced out-of-grammar words often 0.45–0.65).
MIN_CONFIDENCE = 0.65

# Answers whose only cost when wrong is one more question (a read-back "no" asks the vote
# again): for them only an alternative reading naming another choice makes the answer
# uncertain, not one that is no choice at all (a filler, or a filler after a word). A hum taken as
# "yes" is what the filler rule still prevents for every other answer. Measured:
# bench/results/robustness-voice2-tuning.md.
SAFE_ANSWERS: tuple[Choice, ...] = ("no",)

# Vosk's out-of-vocabulary token: in the grammar (when the model has it) it soaks up speech that
# is no choice at all, instead of forcing it onto the nearest legal word.
UNK = "[unk]"


def normalise(phrase: str) -> str:
    return " ".join(phrase.lower().split())


@dataclass(frozen=True)
class Interpretation:
    """What an utterance means for the prompt: a choice, or None with the reason."""

    choice: Choice | None
    confidence: float
    reason: str = ""  # why no choice: "silence", "low confidence", "not a choice", "ambiguous", "confusable"...
    # A "confusable" refusal: the seat the grammar took before the look-alike table refused it
    # (a day prompt may ask it back: "4? Yes or no."; docs/voice.md).
    candidate: Choice | None = None


@dataclass(frozen=True)
class Grammar:
    """The phrases one prompt accepts, each mapped to its choice."""

    phrases: Mapping[str, Choice]
    # Phrases dropped because the model cannot hear them, or because two choices share them.
    unavailable: Mapping[str, Choice] = field(default_factory=dict)
    ambiguous: tuple[str, ...] = ()
    # Words that mean "not a choice" (the out-of-grammar class of a model without [unk]).
    rejects: tuple[str, ...] = ()
    # Calibrated confusions: heard phrase → phrases of other seats it is often heard for. A
    # heard phrase is refused while one of those is legal too (the keypad, or another form).
    confusions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not self.phrases

    def vosk_words(self, with_unk: bool = False) -> list[str]:
        words = sorted(self.phrases) + list(self.rejects)
        return words + [UNK] if with_unk else words

    def choices(self) -> set[Choice]:
        return set(self.phrases.values())

    def interpret(self, words: Sequence[tuple[str, float]], min_confidence: float = MIN_CONFIDENCE) -> Interpretation:
        """Recognised (word, confidence) pairs → a choice of this grammar, or why not."""
        if not words:
            return Interpretation(None, 0.0, "silence")
        if any(normalise(w) in self.rejects or normalise(w) == UNK for w, _ in words):
            # Part of it was heard as no choice at all: that answer cannot be trusted. (Letting a
            # trailing one pass was measured: it turns 삼 heard as "사 음" into a wrong seat.)
            return Interpretation(None, max(c for _, c in words), "not a choice")
        segments = self._segments(words)
        matched = [s for s in segments if s[0] is not None]
        if not matched:
            return Interpretation(None, max(c for _, c in segments), "not a choice")
        sure = [s for s in matched if s[1] >= min_confidence]
        if not sure:
            return Interpretation(None, max(c for _, c in matched), "low confidence")
        distinct = {s[0] for s in sure}
        if len(distinct) == 1:
            return Interpretation(sure[-1][0], max(c for _, c in sure))
        # Several choices in one breath: noise at the onset comes back as an extra word as often
        # as a player corrects themselves, so neither is taken; ask again.
        return Interpretation(None, max(c for _, c in sure), "ambiguous")

    def decide(self, words: Sequence[tuple[str, float]], alternatives: Sequence[tuple[str, float]] = (),
               min_confidence: float = MIN_CONFIDENCE, margin: float = 0.0) -> Interpretation:
        """`interpret`, and refused when another reading of the utterance scored within `margin`
        of the best one and means something else (the recogniser is unsure between them)."""
        meaning = self.interpret(words, min_confidence)
        if meaning.choice is None:
            return meaning
        # A heard word often heard for another legal seat's word ("이" for 일 or 십) is refused,
        # alone or in a longer form ("이 번"): the keypad, or another way to say it, answers.
        lookalikes = [p for w, _ in words for p in self.confusions.get(normalise(w), ())]
        if any(p in self.phrases and self.phrases[p] != meaning.choice for p in lookalikes):
            return Interpretation(None, meaning.confidence, "confusable", candidate=meaning.choice)
        if len(alternatives) < 2:
            return meaning
        best = alternatives[0][1]
        for text, score in alternatives[1:]:
            if best - score > margin:
                break
            tokens = text.split()
            if not tokens:
                continue  # "maybe nothing at all" names no other choice
            core = [t for t in tokens if t not in self.rejects]
            if core and len(core) < len(tokens):
                # The same choice with a breath or a hum around it does not contradict it.
                if self.interpret(tuple((w, 1.0) for w in core), min_confidence).choice == meaning.choice:
                    continue
            other = self.interpret(tuple((w, 1.0) for w in tokens), min_confidence)
            if other.choice is None and meaning.choice in SAFE_ANSWERS:
                continue  # names no other choice, and a wrong "no" only asks again
            if other.choice != meaning.choice:
                return Interpretation(None, meaning.confidence, "uncertain")
        return meaning

    def _segments(self, words: Sequence[tuple[str, float]]) -> list[tuple[Choice | None, float]]:
        """Longest-match the words onto phrases; a phrase's confidence is its weakest word's."""
        longest = max((len(p.split()) for p in self.phrases), default=1)
        tokens = [(normalise(w), c) for w, c in words]
        out: list[tuple[Choice | None, float]] = []
        i = 0
        while i < len(tokens):
            for n in range(min(longest, len(tokens) - i), 0, -1):
                phrase = " ".join(t for t, _ in tokens[i:i + n])
                if phrase in self.phrases:
                    out.append((self.phrases[phrase], min(c for _, c in tokens[i:i + n])))
                    i += n
                    break
            else:
                out.append((None, tokens[i][1]))
                i += 1
        return out


def phrases_for(choice: Choice, pack: VoicePack) -> tuple[str, ...]:
    """Every phrase that says `choice` in the pack's language."""
    if isinstance(choice, int):
        numbers = [normalise(p) for p in pack.number_words(choice)]
        return tuple(dict.fromkeys(normalise(f.replace("{seat}", n)) for f in pack.seat_forms for n in numbers))
    return tuple(normalise(p) for p in pack.words.get(choice, ()))


def build_grammar(
    prompt: Prompt,
    pack: VoicePack,
    missing_words: Iterable[str] = (),
    rejects: Iterable[str] = (),
    confusions: Mapping[str, Sequence[str]] | None = None,
) -> Grammar:
    """The grammar of a prompt: its seats and words, in the pack's language.

    `missing_words` are words the loaded model does not know: phrases using them are left out
    (the keypad still takes those choices) and listed in `unavailable`.
    """
    missing = {normalise(w) for w in missing_words}
    choices: list[Choice] = [s for s in prompt.seats if isinstance(s, int) and not isinstance(s, bool)]
    choices += [w for w in prompt.words if w in WORDS]
    owners: dict[str, set[Choice]] = {}
    for choice in choices:
        for phrase in phrases_for(choice, pack):
            if phrase:
                owners.setdefault(phrase, set()).add(choice)
    phrases: dict[str, Choice] = {}
    unavailable: dict[str, Choice] = {}
    ambiguous: list[str] = []
    for phrase, who in owners.items():
        if len(who) > 1:
            ambiguous.append(phrase)
            continue
        (choice,) = who
        if any(w in missing for w in phrase.split()):
            unavailable[phrase] = choice
        else:
            phrases[phrase] = choice
    used = {w for phrase in owners for w in phrase.split()}
    return Grammar(phrases, unavailable, tuple(sorted(ambiguous)),
                   tuple(dict.fromkeys(w for w in map(normalise, rejects) if w and w not in used)),
                   {normalise(h): tuple(normalise(p) for p in ps) for h, ps in (confusions or {}).items()})


def pack_vocabulary(pack: VoicePack) -> dict[str, list[str]]:
    """Every single word a grammar of this pack may use → the phrases it appears in."""
    vocab: dict[str, list[str]] = {}
    phrases = [p for n in sorted(pack.number_variants or pack.numbers) for p in phrases_for(n, pack)]
    phrases += [p for w in WORDS for p in pack.words.get(w, ())]
    for phrase in phrases:
        for word in normalise(phrase).split():
            vocab.setdefault(word, []).append(normalise(phrase))
    return vocab


class ChoicesError(UsageError, ValueError):
    """A `--choices` spec that names no seat or word the listener knows (a ValueError too)."""


def parse_choices(spec: str) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """`"1-12,nobody,yes,no"` → seats (1..12) and words. Raises ValueError quoting the bad part."""
    seats: list[int] = []
    words: list[str] = []
    for raw in spec.split(","):
        part = raw.strip()
        if not part:
            continue
        if part[0].isdigit():
            lo_text, _, hi_text = part.partition("-")
            try:
                lo = int(lo_text)
                hi = int(hi_text) if hi_text else lo
            except ValueError:
                raise ChoicesError("{part!r} is not a seat or a range of seats like 1-12", part=part) from None
            if not 1 <= lo <= hi <= 30:
                raise ChoicesError("seats {part!r} must lie within 1-30, low to high", part=part)
            seats += [s for s in range(lo, hi + 1) if s not in seats]
        else:
            word = part.replace(" ", "_").replace("-", "_").lower()
            if word not in WORDS:
                raise ChoicesError("{part!r} is not a seat or one of: {words}", part=part, words=", ".join(WORDS))
            if word not in words:
                words.append(word)
    if not seats and not words:
        raise ChoicesError("{spec!r} names no choice", spec=spec)
    return tuple(seats), tuple(words)
