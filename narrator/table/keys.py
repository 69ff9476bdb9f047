"""Raw key commands from the terminal for `narrator assist` and the doctor's keypad check.

Game answers (seats, yes/no) go through the keypad reader of `narrator.listening`; these are
single-key commands (next, back, pause, repeat) read as they are typed.
"""

from __future__ import annotations

import os
import select
import sys
from typing import Any, Protocol

from narrator.ports import Clock

ENTER = "\n"

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
