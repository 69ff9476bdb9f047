"""Raw keys from the terminal for the full-screen board, behind the Listener port.

A small reader for this screen only: the full keypad reader (NumLock, key repeat, device
hot-plug) belongs to `narrator.listening`, which can replace it through the same port.
"""

from __future__ import annotations

import os
import select
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from narrator.flow.text import parse_entry
from narrator.ports import Clock, Heard, Prompt

ENTER = "\n"
BACKSPACE = ("\x7f", "\b")
SINGLE = "+-*/"  # keys that are an answer by themselves, without Enter


class KeySource(Protocol):
    """Keys as they are typed: one or more characters, or None after `timeout` seconds."""

    def read(self, timeout: float | None) -> str | None: ...


class TerminalKeys:
    """The terminal in cbreak mode (no echo, no line editing) for as long as it is open."""

    def __init__(self, fd: int | None = None) -> None:
        self.fd = sys.stdin.fileno() if fd is None else fd
        self.saved: Any = None
        self.closed = False

    def __enter__(self) -> TerminalKeys:
        import termios
        import tty

        if os.isatty(self.fd):
            self.saved = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)
        return self

    def __exit__(self, *exc: object) -> None:
        import termios

        if self.saved is not None:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)
            self.saved = None

    def read(self, timeout: float | None) -> str | None:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return None
        data = os.read(self.fd, 64)
        if not data:
            self.closed = True
            return None
        return _strip_escapes(data.decode("utf-8", "replace")).replace("\r", ENTER)


def _strip_escapes(text: str) -> str:
    """Drop terminal escape sequences (arrows, NumLock-off keypad keys): they are not answers."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == "\x1b":
            i += 1
            if i < len(text) and text[i] in "[O":
                i += 1
                while i < len(text) and not text[i].isalpha() and text[i] != "~":
                    i += 1
            i += 1
            continue
        out.append(text[i])
        i += 1
    return "".join(out)


@dataclass
class ScriptedKeys:
    """The fake twin: keys that arrive at given clock times (a virtual clock jumps to them)."""

    clock: Clock
    keys: list[tuple[float, str]] = field(default_factory=list)
    closed: bool = False

    def read(self, timeout: float | None) -> str | None:
        now = self.clock.now()
        if self.keys and (timeout is None or self.keys[0][0] <= now + timeout):
            at, key = self.keys.pop(0)
            self.clock.sleep_until(at)
            return key
        if timeout is None:
            self.closed = True
            return None
        self.clock.sleep_until(now + timeout)
        return None


class KeyListener:
    """Digits then Enter make a seat; +, -, *, / answer at once; Backspace corrects.

    `echo` shows what is being typed (on the private panel at night, where only the awake role
    looks).
    """

    def __init__(self, clock: Clock, keys: KeySource, echo: Callable[[str], None] | None = None) -> None:
        self.clock = clock
        self.keys = keys
        self.echo = echo or (lambda text: None)
        self.pending = ""  # keys that came in with an answer, kept for the next prompt

    @property
    def closed(self) -> bool:
        return bool(getattr(self.keys, "closed", False))

    def listen(self, prompt: Prompt) -> Heard | None:
        typed = ""
        while True:
            wait = None if prompt.deadline is None else prompt.deadline - self.clock.now()
            if wait is not None and wait <= 0:
                self.echo("")
                return None
            chunk = self.pending or self.keys.read(0.25 if wait is None else min(wait, 0.25))
            self.pending = ""
            if chunk is None:
                if self.closed:
                    if prompt.deadline is not None:
                        self.clock.sleep_until(prompt.deadline)
                    return None
                continue
            for i, ch in enumerate(chunk):
                if ch == ENTER:
                    if typed:
                        self.pending = chunk[i + 1 :]
                        self.echo("")
                        return parse_entry(typed)
                    if "enter" in prompt.words:
                        self.pending = chunk[i + 1 :]
                        return Heard("enter", "keypad", "")
                elif ch in BACKSPACE:
                    typed = typed[:-1]
                elif ch in SINGLE and not typed:
                    self.pending = chunk[i + 1 :]
                    self.echo("")
                    return parse_entry(ch)
                elif ch.isprintable():
                    typed += ch
                self.echo(typed)
