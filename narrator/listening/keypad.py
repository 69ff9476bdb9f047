"""The USB numeric keypad: keystrokes → keys → choices, and a raw-mode terminal reader.

A USB keypad is an ordinary keyboard to the system, so its keys arrive as terminal input. With
NumLock on they are digits and symbols; with NumLock off the digit keys become cursor keys
(Home, Up, PgUp, ...) and arrive as escape sequences; in "application keypad" mode every key
is an `ESC O x` sequence. `KeyDecoder` turns all of these into the same key names, and the pure
`KeypadParser` turns keys into `Heard` choices.
"""

from __future__ import annotations

import atexit
import os
import select
import signal
import sys
import threading
import time
from types import FrameType
from typing import Any, Callable

from narrator.errors import UsageError
from narrator.i18n import tr
from narrator.ports import Heard, Prompt, drops_stale_keys

# Key names the parser understands. Anything else the decoder meets is dropped.
DIGITS = frozenset("0123456789")
ENTER, CLEAR, INTERRUPT = "enter", "clear", "interrupt"
SYMBOL_WORDS = {"+": "yes", "-": "no", "*": "repeat", "/": "pause"}
KEYS = DIGITS | {ENTER, CLEAR, INTERRUPT} | set(SYMBOL_WORDS)

_PLAIN = {
    "\r": ENTER, "\n": ENTER,
    "+": "+", "-": "-", "*": "*", "/": "/",
    # The keypad's decimal key is "." or "," depending on the keyboard layout.
    ".": CLEAR, ",": CLEAR, "\x7f": CLEAR, "\x08": CLEAR,
    # In raw mode Ctrl-C is a byte, not a signal: the reader turns it back into an interrupt.
    "\x03": INTERRUPT,
}
# `ESC O x` (SS3): application keypad mode, and cursor keys in application cursor mode.
_SS3 = {
    "p": "0", "q": "1", "r": "2", "s": "3", "t": "4", "u": "5", "v": "6", "w": "7", "x": "8", "y": "9",
    "M": ENTER, "k": "+", "m": "-", "j": "*", "o": "/", "n": CLEAR, "l": CLEAR,
    "A": "8", "B": "2", "C": "6", "D": "4", "E": "5", "F": "1", "H": "7",
}
# `ESC [ ... final` (CSI): NumLock off, the digit keys are the navigation keys printed under them.
_CSI_FINAL = {"A": "8", "B": "2", "C": "6", "D": "4", "E": "5", "G": "5", "F": "1", "H": "7"}
_CSI_TILDE = {"1": "7", "7": "7", "4": "1", "8": "1", "2": "0", "3": CLEAR, "5": "9", "6": "3"}

_ESC = "\x1b"
# Prompts named `<prompt>.confirm` ask to confirm a choice just made (see listening.table).
CONFIRM_SUFFIX = ".confirm"


class KeyDecoder:
    """Terminal input text → key names. Keeps an escape sequence split across two reads."""

    def __init__(self) -> None:
        self._pending = ""

    def feed(self, text: str) -> list[str]:
        data = self._pending + text
        self._pending = ""
        keys: list[str] = []
        i = 0
        while i < len(data):
            ch = data[i]
            if ch != _ESC:
                key = _PLAIN.get(ch, ch if ch in DIGITS else None)
                if key is not None:
                    keys.append(key)
                i += 1
                continue
            end = _sequence_end(data, i)
            if end is None:  # incomplete: wait for the rest
                self._pending = data[i:]
                break
            key = _decode_sequence(data[i:end])
            if key is not None:
                keys.append(key)
            i = end
        return keys

    def flush(self) -> list[str]:
        """Drop a lone Escape left pending after a pause in the input."""
        self._pending = ""
        return []


def _sequence_end(data: str, start: int) -> int | None:
    """Index just past the escape sequence at `start`, or None if it is not complete yet."""
    if start + 1 >= len(data):
        return None
    kind = data[start + 1]
    if kind == "O":
        return start + 3 if start + 2 < len(data) else None
    if kind == "[":
        j = start + 2
        while j < len(data):
            if "\x40" <= data[j] <= "\x7e":
                return j + 1
            if not ("\x20" <= data[j] <= "\x3f"):
                return j  # a broken sequence ends at the first byte that cannot belong to it
            j += 1
        # A runaway sequence (garbage) must not swallow the input forever.
        return None if len(data) - start < 16 else len(data)
    return start + 2  # ESC + one character (Alt+key): nothing a keypad sends


def _decode_sequence(seq: str) -> str | None:
    if len(seq) == 3 and seq[1] == "O":
        return _SS3.get(seq[2])
    if len(seq) >= 3 and seq[1] == "[":
        final, params = seq[-1], seq[2:-1]
        if final == "~":
            return _CSI_TILDE.get(params.split(";")[0])
        # Modifier parameters (`ESC [ 1 ; 2 A`) do not change which key it is.
        return _CSI_FINAL.get(final)
    return None


class KeypadParser:
    """Keys → choices. Digits then Enter name a seat, `0` Enter is nobody, `+` yes, `-` no,
    `*` repeat, `/` pause, `.` or Backspace clears. Pure: no I/O, no clock.

    It never yields anything but a number (at most two digits) or a word of `ports.WORDS`. Whether
    the prompt allows that choice (a seat at the table) is the sequencer's business.
    """

    MAX_DIGITS = 2

    def __init__(self) -> None:
        self.entry = ""
        # What the screen shows after the last key: the entry being typed, or a short verdict.
        self.echo = ""

    def reset(self) -> None:
        self.entry = ""
        self.echo = ""

    def feed(self, key: str) -> Heard | None:
        if key in DIGITS:
            if len(self.entry) >= self.MAX_DIGITS:
                # A third digit cannot be a seat: start over from it rather than guess.
                self.entry = ""
            self.entry += key
            self.echo = self.entry
            return None
        if key == CLEAR:
            self.reset()
            return None
        if key in SYMBOL_WORDS:
            self.entry = ""
            self.echo = key
            return Heard(SYMBOL_WORDS[key], source="keypad", text=key)
        if key == ENTER:
            return self._enter()
        return None  # unknown keys (and INTERRUPT, handled by the reader) change nothing

    def _enter(self) -> Heard | None:
        typed, self.entry = self.entry, ""
        if not typed:
            self.echo = ""
            return None
        n = int(typed)
        if n == 0:
            self.echo = "0"
            return Heard("nobody", source="keypad", text=typed)
        # A number beyond the table's seats is handed on as typed: the sequencer refuses it in one line
        # ("Not possible: 40"), as it does any seat that is not at the table.
        self.echo = str(n)
        return Heard(n, source="keypad", text=typed)


Echo = Callable[[str], None]


def echo_to_stderr(text: str) -> None:
    """The default echo: rewrite one status line on the terminal (never spoken)."""
    sys.stderr.write("\r\x1b[K" + tr("keypad: {text}", text=text))
    sys.stderr.flush()


class RawTerminal:
    """Puts a terminal in raw input mode and restores it on every way out.

    Re-entrant. Restores on leaving the `with`, on an exception, at interpreter exit, and on
    SIGTERM/SIGHUP (turned into SystemExit so `finally` blocks run). Output processing stays on,
    so other text printed meanwhile still starts on a fresh line.
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._depth = 0
        self._saved: list[Any] | None = None
        self._old_handlers: dict[int, Any] = {}
        self._lock = threading.Lock()

    def __enter__(self) -> RawTerminal:
        with self._lock:
            self._depth += 1
            if self._depth == 1:
                self._enter_raw()
        return self

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._depth -= 1
            if self._depth == 0:
                self.restore()

    def _enter_raw(self) -> None:
        if not os.isatty(self.fd):
            return
        import termios

        saved = termios.tcgetattr(self.fd)
        mode = termios.tcgetattr(self.fd)
        mode[0] &= ~(termios.ICRNL | termios.IXON | termios.INLCR | termios.IGNCR | termios.ISTRIP)
        # ISIG stays on: Ctrl-C is a SIGINT at once, even while nobody reads the keypad (a night
        # turn running out its time), not a byte found only at the next prompt.
        mode[3] &= ~(termios.ECHO | termios.ICANON | termios.IEXTEN)
        mode[6][termios.VMIN] = 0
        mode[6][termios.VTIME] = 0
        self._saved = saved
        atexit.register(self.restore)
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGTERM, signal.SIGHUP):
                self._old_handlers[sig] = signal.signal(sig, self._on_signal)
        termios.tcsetattr(self.fd, termios.TCSANOW, mode)

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        self.restore()
        raise SystemExit(128 + signum)

    def restore(self) -> None:
        saved, self._saved = self._saved, None
        if saved is None:
            return
        import termios

        try:
            termios.tcsetattr(self.fd, termios.TCSAFLUSH, saved)
        except termios.error:
            pass  # the terminal is gone (keypad unplugged, window closed): nothing to restore
        atexit.unregister(self.restore)
        for sig, old in self._old_handlers.items():
            if threading.current_thread() is threading.main_thread():
                signal.signal(sig, old)
        self._old_handlers.clear()


class KeypadListener:
    """The `Listener` port over a keypad on a terminal (stdin by default).

    Keys typed before a prompt opens are dropped when a new night turn begins or the day
    follows the night (`drops_stale_keys`): a late answer must not answer another question.
    """

    POLL = 0.05  # seconds between checks of the deadline and of a cancel request

    def __init__(self, fd: int | None = None, echo: Echo | None = None) -> None:
        self.fd = sys.stdin.fileno() if fd is None else fd
        self.echo = echo or echo_to_stderr
        self.parser = KeypadParser()
        self.decoder = KeyDecoder()
        self.terminal = RawTerminal(self.fd)
        self.closed = False  # the input ended (stdin closed, keypad unplugged)
        self.previous: Prompt | None = None  # the last prompt: whether typed-ahead keys still count
        self.pending: list[str] = []  # keys read after an answer, not yet used

    def __enter__(self) -> KeypadListener:
        self.terminal.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.terminal.__exit__(*exc)

    def listen(self, prompt: Prompt, cancel: threading.Event | None = None) -> Heard | None:
        with self.terminal:
            # A confirmation follows its choice at once: a "-" typed during the read-back counts.
            if not prompt.name.endswith(CONFIRM_SUFFIX):
                stale = drops_stale_keys(self.previous, prompt)
                if stale:
                    self._drop_stale_input()
                # Digits typed while a turn only watched for keys (its wake line) are the start
                # of this question's answer: keep them.
                if stale or self.previous is None or not self.previous.idle:
                    self.parser.reset()
                self.previous = prompt
            while True:
                remaining = _remaining(prompt.deadline)
                if remaining is not None and remaining <= 0:
                    return None
                if cancel is not None and cancel.is_set():
                    return None
                wait = self.POLL if remaining is None else min(self.POLL, remaining)
                if self.closed:
                    if prompt.deadline is None:
                        # Nothing can ever answer a prompt that waits for ever: stop cleanly.
                        raise UsageError("the input ended while the game waited for an answer")
                    time.sleep(wait)
                    continue
                heard = self._read(wait, "enter" in prompt.words)
                if heard is not None:
                    return heard

    def _read(self, wait: float, bare_enter: bool = False) -> Heard | None:
        """Keys until a choice; `bare_enter`: Enter with nothing typed answers "enter" (hide a card).

        Keys that came in the same read after an answer are kept for the next prompt.
        """
        if not self.pending:
            ready, _, _ = select.select([self.fd], [], [], wait)
            if not ready:
                self.decoder.flush()
                return None
            data = self._read_bytes()
            if data is None:
                return None
            self.pending.extend(self.decoder.feed(data.decode("latin-1")))
        while self.pending:
            key = self.pending.pop(0)
            if key == INTERRUPT:
                raise KeyboardInterrupt
            if bare_enter and key == ENTER and not self.parser.entry:
                return Heard("enter", source="keypad", text="")
            heard = self.parser.feed(key)
            self.echo(self.parser.echo)
            if heard is not None:
                return heard
        return None

    def _read_bytes(self) -> bytes | None:
        """What the terminal has ready; None once the input has ended (stdin closed, unplugged)."""
        try:
            data = os.read(self.fd, 256)
        except OSError:
            data = b""
        if not data:
            self.closed = True
            return None
        return data

    def _drop_stale_input(self) -> None:
        """Discard keys typed before this prompt, but not a Ctrl-C."""
        self.pending.clear()
        self.decoder.flush()
        if self.closed:
            return
        while select.select([self.fd], [], [], 0)[0]:
            data = self._read_bytes()
            if data is None:
                return
            if b"\x03" in data:
                raise KeyboardInterrupt
        self.decoder.flush()


def _remaining(deadline: float | None) -> float | None:
    return None if deadline is None else deadline - time.monotonic()
