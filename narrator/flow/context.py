"""What every step of the table works with: the game, the ports, and the few things the steps share.

A step (narrator/flow/night.py, morning.py, day.py) is a small object whose `run(context)` says its
lines, asks its prompts and hands the answers to the engine, all through this context. It does not
know whether the game is being played or replayed from a journal: the sequencer gives it the ports
it should use (narrator/flow/resume.py).
"""

from __future__ import annotations

import random
from typing import Any, Iterable

from narrator.flow.asking import Asker
from narrator.flow.board import Board, public
from narrator.flow.timing import Timing
from narrator.flow.voice import Voice
from narrator.packs import VoicePack
from narrator.ports import Clock, Cue, Display, Heard, Journal, Prompt
from narrator.roles.base import PanelLine
from narrator.rules import Game


class Context:
    """The game at the table: the engine, the ports, and what the steps share."""

    def __init__(self, game: Game, pack: VoicePack, voice: Voice, asker: Asker, display: Display, clock: Clock,
                 journal: Journal, rng: random.Random, timing: Timing) -> None:
        self.game = game
        self.pack = pack
        self.voice = voice
        self.asker = asker
        self.display = display
        self.clock = clock
        self.journal = journal
        self.rng = rng
        self.timing = timing
        self.narrated = len(game.events)  # the engine's events said to the table so far
        self.morning_lines: list[PanelLine] = []  # this day's public morning lines, on the public board
        self.step = "setup"  # the table's step now (narrator/flow/machine.py)
        self.board = Board()

    # ---- speaking and waiting -------------------------------------------------------------

    def say(self, cue: Cue) -> None:
        self.voice.say(cue)

    def wait_until(self, t: float) -> None:
        self.voice.wait_until(t)

    def reveal(self, seat: int, phase: str, role: str | None = None) -> None:
        """A card shown to the table: the seat, then its card, as two lines ("Seat 3." "Their card:
        Werewolf."). Said as one line, every seat and role would be a line of its own to render
        (576 for 18 seats and 32 roles, twice); as two, 18 and 32. espeak-ng ends each line with
        the pause it makes between two sentences, so the table hears the same rhythm
        (docs/voice.md, "Lines made to be joined")."""
        self.say(Cue("day.death", {"seat": seat}, phase=phase))
        self.say(Cue("day.card", {"role": role if role is not None else self.game.role(seat).value}, phase=phase))

    # ---- the screen -----------------------------------------------------------------------

    def show_board(self) -> None:
        """Draw the public board as it stands now (a Day 0 opens with the day's board)."""
        self.display.board(public(self.game, self.step, self.morning_lines))

    def panel(self, key: str, **slots: Any) -> None:
        self.display.show_private(key, slots)

    def note(self, key: str, **slots: Any) -> None:
        self.display.feedback(key, slots)

    def refuse_until(self, prompt: Prompt) -> None:
        """Listen until `prompt`'s deadline and take nothing: keys typed while a wake line is said
        (a key then may be the previous role's, late)."""
        while self.asker.listener.listen(prompt) is not None:
            pass

    # ---- asking by day --------------------------------------------------------------------

    def ask(self, prompt: Prompt) -> Heard | None:
        return self.asker.ask(prompt)

    def day_number(self) -> int:
        """The day a day prompt belongs to: the morning after night k is day k already."""
        return max(self.game.state.day, self.game.state.night)

    def day_prompt(self, name: str, seats: Iterable[int], seconds: float, words: Iterable[str] = (),
                   risky: bool = False, ask_back: bool = False) -> Prompt:
        return Prompt(name, tuple(seats), tuple(words) + ("repeat", "pause"), deadline=self.clock.now() + seconds,
                      risky=risky, number=self.day_number(), ask_back=ask_back)
