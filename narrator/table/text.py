"""Text mode, the terminal's adapters: a real game without audio. Lines are printed; the keypad is typed."""

from __future__ import annotations

import os
import select
import sys
from typing import Any, Callable, Mapping, TextIO

from narrator.errors import UsageError
from narrator.packs import VoicePack
from narrator.ports import Clock, Cue, Heard, PanelLines, Prompt, SlotValue, drops_stale_keys
from narrator.speech.estimated import EstimatedSpeaker

CLEAR = "\x1b[2J\x1b[3J\x1b[H"  # the screen and its scrollback

# Keypad keys as they arrive from a terminal, NumLock on or off.
KEY_WORDS = {"0": "nobody", "+": "yes", "-": "no", "*": "repeat", "/": "pause"}


def parse_entry(text: str) -> Heard | None:
    """One typed entry: digits are a seat, 0 nobody, + yes, - no, * repeat, / pause."""
    entry = text.strip()
    if not entry:
        return None
    if entry in KEY_WORDS:
        return Heard(KEY_WORDS[entry], "keypad", entry)
    if entry.isdigit():
        seat = int(entry)
        return Heard("nobody" if seat == 0 else seat, "keypad", entry)
    words = {"m": "more_time", "v": "vote_now"}
    if entry.lower() in words:
        return Heard(words[entry.lower()], "keypad", entry)
    return Heard(entry, "keypad", entry)  # refused by the sequencer, with feedback


def text_speaker(pack: VoicePack, clock: Clock, out: TextIO = sys.stdout, pace: float = 1.0) -> EstimatedSpeaker:
    """Prints each line; the line 'lasts' as long as it would take to say calmly."""

    def show(cue: Cue, text: str, start: float) -> None:
        out.write(f"  » {text}\n")
        out.flush()

    return EstimatedSpeaker(pack, clock, pace, show)


class TextDisplay:
    """The public board as a line after each step; the private panel framed, wiped when cleared."""

    def __init__(self, pack: VoicePack, out: TextIO = sys.stdout) -> None:
        self.pack = pack
        self.out = out
        self.panel_open = False
        self.last: dict[str, Any] = {}

    def board(self, state: Mapping[str, Any]) -> None:
        if dict(state) == self.last:
            return
        self.last = dict(state)
        alive = list(state.get("alive", []))
        revealed = sorted((int(seat), str(role)) for seat, role in state.get("revealed", {}).items())
        dead = [f"{seat}:{self.pack.role_name(role)}" for seat, role in revealed if seat not in alive]
        cards = [f"{seat}:{self.pack.role_name(role)}" for seat, role in revealed if seat in alive]
        captain = state.get("captain")
        # Only night or day (the board follows a step, so a step's name would lag: no "election"
        # during the debate); the morning after night k is day k. Every word from the pack.
        p = self.pack
        if state.get("phase") == "night":
            when = p.panel_text("board.night", {"count": int(state.get("night") or 0)})
        else:
            # Day 0: the Angel's, before the first night (the history calls it so too).
            when = p.panel_text("board.day", {"count": max(int(state.get("day") or 0), int(state.get("night") or 0))})
        parts = [f"[{when}]", f"{p.panel_text('board.alive', {})}: {' '.join(map(str, alive))}"]
        if captain:
            parts.append(f"{p.role_name('captain')}: {captain}")
        if dead:
            parts.append(f"{p.panel_text('board.dead', {})}: {', '.join(dead)}")
        if cards:
            parts.append(f"{p.panel_text('board.cards', {})}: {', '.join(cards)}")
        for key, slots in state.get("public", []):  # public by design (the Sectarian's groups...)
            parts.append(p.text(Cue(str(key), dict(slots))))
        self.out.write("  ".join(parts) + "\n")
        self.out.flush()

    def show_private(self, key: str, slots: Mapping[str, SlotValue], more: PanelLines = ()) -> None:
        self.panel_open = True
        for k, s in ((key, slots), *more):
            self.out.write(f"  ┃ {self.pack.panel_text(k, s)}\n")
        self.out.flush()

    def clear_private(self) -> None:
        if self.panel_open and self.out.isatty():
            self.out.write(CLEAR)  # wipe what the awake role saw before anyone opens their eyes
        self.panel_open = False
        self.out.flush()

    def feedback(self, key: str, slots: Mapping[str, SlotValue]) -> None:
        self.out.write(f"  ┃ {self.pack.panel_text(key, slots)}\n")
        self.out.flush()


class LineListener:
    """Reads entries (a seat number, 0, +, -, *, /, then Enter) from the terminal until the deadline.

    Lines are read from the file descriptor into a buffer of our own: `select` on a buffered
    TextIO misses lines that arrived together with the previous one (keys typed quickly).
    """

    def __init__(self, clock: Clock, stream: TextIO = sys.stdin) -> None:
        self.clock = clock
        self.stream = stream
        self.closed = False
        self.buffer = ""
        self.eof = False
        self.previous: Prompt | None = None
        self.on_prompt: Callable[[Prompt], None] | None = None  # e.g. a hint printed before day prompts
        try:
            self.interactive = os.isatty(stream.fileno())
        except (AttributeError, OSError, ValueError):
            self.interactive = False

    def _drop_pending(self) -> None:
        self.buffer = ""
        fd = self.stream.fileno()
        while not self.eof and select.select([fd], [], [], 0)[0]:
            if not os.read(fd, 4096):
                self.eof = True

    def listen(self, prompt: Prompt) -> Heard | None:
        # Typed-ahead lines from another turn are dropped at a real terminal; piped input (a
        # script, a test) is read in order.
        if self.interactive and drops_stale_keys(self.previous, prompt):
            self._drop_pending()
        self.previous = prompt
        if prompt.idle and not self.interactive and prompt.deadline is not None:
            # Piped input is a script of answers, one a question: none is meant for a pause.
            self.clock.sleep_until(prompt.deadline)
            return None
        if self.on_prompt is not None:
            self.on_prompt(prompt)
        while True:
            if self.closed:
                if prompt.deadline is None:
                    # Nothing can ever answer a prompt that waits for ever: stop cleanly.
                    raise UsageError("the input ended while the game waited for an answer")
                self.clock.sleep_until(prompt.deadline)
                return None
            line = self.read_line(prompt.deadline)
            if line is None:
                return None
            if line == "":
                self.closed = True  # end of input: nobody answers any more
                continue
            if not line.strip() and "enter" in prompt.words:
                return Heard("enter", "keypad", "")
            heard = parse_entry(line)
            if heard is not None:
                return heard

    def read_line(self, deadline: float | None = None) -> str | None:
        """The next line with its newline; "" at the end of input; None when the deadline passed."""
        try:
            fd = self.stream.fileno()
        except (AttributeError, OSError, ValueError):
            return self.stream.readline()  # an in-memory stream: everything is there already
        while "\n" not in self.buffer:
            if self.eof:
                line, self.buffer = self.buffer, ""
                return line
            wait = None if deadline is None else deadline - self.clock.now()
            if wait is not None and wait <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], wait)
            if not ready:
                continue
            data = os.read(fd, 4096)
            if data:
                self.buffer += data.decode("utf-8", "replace")
            else:
                self.eof = True
        line, _, self.buffer = self.buffer.partition("\n")
        return line + "\n"


def seat_hint(pack: VoicePack, out: TextIO = sys.stdout) -> Callable[[Prompt], None]:
    """Before each day prompt that asks for a seat: how to answer (never at night: silent and identical)."""

    def hint(prompt: Prompt) -> None:
        if not prompt.night and prompt.seats and not prompt.name.startswith("deal.") and not prompt.name.endswith(".confirm"):
            out.write(f"  ({pack.panel_text('prompt.seat_hint', {})})\n")
            out.flush()

    return hint
