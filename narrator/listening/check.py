"""The table measures its own voices (docs/voice.md): a few players each say three seat
numbers shown on the screen, in the room as it is; what was heard is shown with its score
("voice: 8 of 9 right"), and from it a mode is picked:

  - "voice": voice for seats and for yes/no (at least 8 of 9 right, and no seat heard wrong);
  - "yes_no": voice for yes/no only, the keypad for seats (the microphone hears the table, at
    least a third right, but a seat heard wrong, or too few right, makes a vote by voice a risk);
  - "keypad": keypad only.

This is the one measure that holds for every language and every real voice, including the ones
the repository's corpus cannot test. Run with `narrator listen --check`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from narrator.i18n import tr
from narrator.ports import Choice, Clock, Heard, Prompt

MODES = ("voice", "yes_no", "keypad")
SEATS_EACH = 3
SECONDS_EACH = 8.0  # to say one seat number


def check_plan(players: int, speakers: int, rng: random.Random) -> list[tuple[int, ...]]:
    """Three different seat numbers for each speaker, out of the table's seats."""
    if players < SEATS_EACH:
        raise ValueError(f"a voice check needs at least {SEATS_EACH} seats, not {players}")
    return [tuple(rng.sample(range(1, players + 1), SEATS_EACH)) for _ in range(speakers)]


def pick_mode(right: int, wrong: int, total: int) -> str:
    if total and not wrong and right * 9 >= total * 8:
        return "voice"
    if total and right * 3 >= total:
        return "yes_no"
    return "keypad"


def voice_mode_label(mode: str) -> str:
    """A voice mode (`voice_mode` in the config) as the table reads it."""
    if mode == "voice":
        return tr("voice")
    if mode == "keypad":
        return tr("keypad")
    return mode  # yes_no: the config's own word


@dataclass(frozen=True)
class CheckResult:
    said: tuple[int, ...]  # the seats shown, in order
    heard: tuple[Choice | None, ...]  # what was taken for each (None: nothing in time)

    @property
    def total(self) -> int:
        return len(self.said)

    @property
    def right(self) -> int:
        return sum(1 for s, h in zip(self.said, self.heard) if h == s)

    @property
    def wrong(self) -> int:
        return sum(1 for s, h in zip(self.said, self.heard) if h is not None and h != s)

    @property
    def mode(self) -> str:
        return pick_mode(self.right, self.wrong, self.total)

    def score(self) -> str:
        """The score and the mode it picks, one line in the table's language."""
        slots = dict(right=self.right, total=self.total, wrong=self.wrong, mode=voice_mode_label(self.mode))
        if self.wrong:
            return tr("voice: {right} of {total} right, {wrong} wrong; mode: {mode}", **slots)
        return tr("voice: {right} of {total} right; mode: {mode}", **slots)


def run_check(listen: Callable[[Prompt], Heard | None], show: Callable[[str], None], plan: Sequence[Iterable[int]],
              players: int, clock: Clock | None = None, seconds: float = SECONDS_EACH) -> CheckResult:
    """Show each seat to say, listen for it (any seat of the table may come back), show what was
    heard; then the score and the mode."""
    said: list[int] = []
    heard: list[Choice | None] = []
    for n, seats in enumerate(plan, start=1):
        for seat in seats:
            show(tr("player {player}: say {seat}", player=n, seat=seat))
            deadline = None if clock is None else clock.now() + seconds
            answer = listen(Prompt(f"check.{n}.{len(said) + 1}", seats=tuple(range(1, players + 1)), deadline=deadline))
            said.append(seat)
            heard.append(None if answer is None else answer.choice)
            if answer is None:
                show(tr("  heard nothing"))
            elif answer.choice == seat:
                show(tr("  heard {heard}", heard=answer.choice))
            else:
                show(tr("  heard {heard} (not {seat})", heard=answer.choice, seat=seat))
    result = CheckResult(tuple(said), tuple(heard))
    show(result.score())
    return result


def live_check(language: str, players: int, show: Callable[[str], None], speakers: int = 3,
               device: int | str | None = None) -> CheckResult:
    """The check in the room: the table's speech model and microphone (a missing model or
    microphone raises NarratorError: one line)."""
    from narrator.clock import RealClock
    from narrator.listening.audio import MicrophoneSource
    from narrator.listening.models import require_model
    from narrator.listening.vosk_listener import VoiceListener, load_model, missing_words
    from narrator.packs import load_pack

    pack = load_pack(language)
    model = load_model(require_model(language))
    listener = VoiceListener(model, pack, MicrophoneSource(device), missing=missing_words(model, pack))
    listener.start()
    try:
        return run_check(listener.listen, show, check_plan(players, speakers, random.Random()), players, RealClock())
    finally:
        listener.close()
