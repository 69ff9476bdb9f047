"""Automatic players at the `Listener` port: nobody at the table, answers from a script or from
chance, on the clock (headless play, the demo, soak and secrecy runs)."""

from __future__ import annotations

import random
from typing import Any, Callable

from narrator.ports import Clock, Heard, Prompt


class ScriptPlayers:
    """Answers prompts from a function of the prompt; the answer comes `delay` seconds after asking.

    The function returns a choice, or None for no answer (the prompt then runs to its deadline).
    """

    def __init__(self, clock: Clock, answer: Callable[[Prompt], Heard | None], delay: float = 2.0) -> None:
        self.clock = clock
        self.answer = answer
        self.delay = delay
        self.asked: list[Prompt] = []

    def listen(self, prompt: Prompt) -> Heard | None:
        self.asked.append(prompt)
        heard = self.answer(prompt)
        at = self.clock.now() + self.delay
        if heard is None or (prompt.deadline is not None and at > prompt.deadline):
            if prompt.deadline is not None:
                self.clock.sleep_until(prompt.deadline)
            return None
        self.clock.sleep_until(at)
        return heard


class RandomPlayers:
    """A random legal answer, early, late or never.

    Night answers come at a random moment of the turn, or after it (late), or not at all; day
    answers are quick. Now and then a key the prompt does not allow comes first (`illegal`): a
    seat nobody holds, a word out of place, a key typed during a wake line. Its own random source
    keeps a game reproducible.
    """

    ILLEGAL: tuple[Any, ...] = (99, 0, "nobody", "yes", "no", "repeat", "pause", "more_time", "9")

    def __init__(self, clock: Clock, rng: random.Random, silence: float = 0.2, late: float = 0.1,
                 illegal: float = 0.0, change: float = 0.1) -> None:
        self.clock = clock
        self.rng = rng
        self.silence = silence
        self.late = late
        self.illegal = illegal
        self.change = change  # how often a night answer, once shown, is taken back with `-`

    def listen(self, prompt: Prompt) -> Heard | None:
        rng = self.rng
        if self.illegal and prompt.deadline is not None and rng.random() < self.illegal:
            wrong = [c for c in self.ILLEGAL if not prompt.allows(c)]
            left = prompt.deadline - self.clock.now()
            if wrong and left > 0:
                self.clock.sleep_until(self.clock.now() + rng.uniform(0, left) * 0.5)
                choice = rng.choice(wrong)
                return Heard(choice, "script", str(choice))
        if prompt.idle and prompt.deadline is not None:
            # Nothing asked (a wake line, or an answer already shown): now and then take it back.
            left = prompt.deadline - self.clock.now()
            if "no" in prompt.words and rng.random() < self.change and left > 0:
                self.clock.sleep_until(self.clock.now() + rng.uniform(0, left) * 0.5)
                return Heard("no", "script", "-")
            self.clock.sleep_until(prompt.deadline)
            return None
        options: list[Any] = [*prompt.seats, *[w for w in prompt.words if w in ("nobody", "yes", "no")]]
        roll = rng.random()
        if not options or roll < self.silence or prompt.deadline is None:
            if prompt.deadline is not None:
                self.clock.sleep_until(prompt.deadline)
            return None
        left = prompt.deadline - self.clock.now()
        if roll < self.silence + self.late:
            self.clock.sleep_until(prompt.deadline)  # the answer comes after the turn: not taken
            return None
        self.clock.sleep_until(self.clock.now() + rng.uniform(0, max(0.0, left) * 0.9))
        return Heard(rng.choice(options), "script")
