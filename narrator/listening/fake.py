"""Fake twins for listening: a scripted Listener, a recording Speaker, a scripted speech model."""

from __future__ import annotations

import collections
import json
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Sequence

from narrator.ports import Cue, Heard, Prompt


class ScriptedListener:
    """Answers prompts from a script: per prompt name a queue of `Heard` (or None = no answer),
    or a function of the prompt. A prompt with nothing scripted gets None.

    Never blocks: the deadline is the caller's clock's business (a virtual clock in tests).
    """

    def __init__(
        self,
        script: Mapping[str, Iterable[Heard | None]] | Callable[[Prompt], Heard | None] | None = None,
    ) -> None:
        self._fn: Callable[[Prompt], Heard | None] | None = None
        self._queues: dict[str, collections.deque[Heard | None]] = {}
        if callable(script):
            self._fn = script
        elif script is not None:
            self._queues = {name: collections.deque(answers) for name, answers in script.items()}
        self.prompts: list[Prompt] = []

    def add(self, name: str, *answers: Heard | None) -> None:
        self._queues.setdefault(name, collections.deque()).extend(answers)

    def listen(self, prompt: Prompt, cancel: threading.Event | None = None) -> Heard | None:
        self.prompts.append(prompt)
        if self._fn is not None:
            return self._fn(prompt)
        answers = self._queues.get(prompt.name)
        if not answers:
            return None
        return answers.popleft()

    def unused(self) -> dict[str, list[Heard | None]]:
        """Scripted answers nobody asked for (a test can assert this is empty)."""
        return {k: list(v) for k, v in self._queues.items() if v}


@dataclass
class RecordingSpeaker:
    """A Speaker that says nothing and records each cue with its (monotonic) start and end."""

    seconds_per_line: float = 0.0
    said: list[tuple[Cue, float, float]] = field(default_factory=list)
    # A function called on each cue (a test can inject a spoken "no" at the right moment).
    on_say: Callable[[Cue], None] | None = None

    def say(self, cue: Cue, at: float | None = None) -> float:
        start = time.monotonic() if at is None else max(at, time.monotonic())
        end = start + self.seconds_per_line
        self.said.append((cue, start, end))
        if self.on_say is not None:
            self.on_say(cue)
        return end

    def prepare(self, cues: Iterable[Cue]) -> None:
        return None

    def close(self) -> None:
        return None

    def keys(self) -> list[str]:
        return [cue.key for cue, _, _ in self.said]

    def speaking_until(self) -> float:
        """For a listener's `mute_until`: when the last line ends."""
        return max((end for _, _, end in self.said), default=0.0)


class ScriptedRecognizer:
    """Answers each utterance with the next scripted word list, whatever the audio."""

    def __init__(self, model: ScriptedModel, phrases: Sequence[str]) -> None:
        self.model = model
        self.phrases = list(phrases)

    def AcceptWaveform(self, data: bytes) -> bool:  # noqa: N802 - Vosk's name
        return False

    def Result(self) -> str:  # noqa: N802
        return self.FinalResult()

    def FinalResult(self) -> str:  # noqa: N802
        words = self.model.answers.popleft() if self.model.answers else []
        return json.dumps({"result": [{"word": w, "conf": c} for w, c in words],
                           "text": " ".join(w for w, _ in words)}, ensure_ascii=False)


class ScriptedModel:
    """The twin of `VoskModel`: a vocabulary, and a queue of (word, confidence) answers, one per
    utterance the listener's detector cuts from the audio."""

    def __init__(self, vocabulary: Iterable[str], answers: Iterable[Sequence[tuple[str, float]]] = (),
                 name: str = "scripted") -> None:
        self.name = name
        self.vocabulary = set(vocabulary)
        self.answers: collections.deque[Sequence[tuple[str, float]]] = collections.deque(answers)
        self.grammars: list[list[str]] = []

    def knows(self, word: str) -> bool:
        return word in self.vocabulary

    def recognizer(self, phrases: Sequence[str]) -> ScriptedRecognizer:
        self.grammars.append(list(phrases))
        return ScriptedRecognizer(self, phrases)
