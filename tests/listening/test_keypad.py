"""The keypad: decoding keystrokes (NumLock on and off), parsing choices, and the raw terminal."""

from __future__ import annotations

import fcntl
import os
from typing import Any
import pty
import struct
import termios
import threading
import time
from typing import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from narrator.listening import MAX_SEAT
from narrator.listening.keypad import KEYS, KeyDecoder, KeypadListener, KeypadParser
from narrator.ports import WORDS, Heard, Prompt
from tests.hypo import examples


def choices_of(text: str, chunks: list[int] | None = None) -> list[object]:
    decoder, parser = KeyDecoder(), KeypadParser()
    out: list[object] = []
    pieces = [text] if chunks is None else _split(text, chunks)
    for piece in pieces:
        for key in decoder.feed(piece):
            heard = parser.feed(key)
            if heard is not None:
                out.append(heard.choice)
    return out


def _split(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(text) + 1) for c in cuts})
    pieces, last = [], 0
    for p in points:
        pieces.append(text[last:p])
        last = p
    pieces.append(text[last:])
    return pieces


def test_digits_and_enter_name_a_seat() -> None:
    assert choices_of("7\r12\n") == [7, 12]


def test_zero_is_nobody_and_symbols_are_words() -> None:
    assert choices_of("0\r+-*/") == ["nobody", "yes", "no", "repeat", "pause"]


def test_clear_with_dot_or_backspace() -> None:
    assert choices_of("9.3\r") == [3]
    assert choices_of("9\x7f4\r") == [4]
    assert choices_of("1\x085\r") == [5]


def test_a_number_above_the_seats_is_handed_on_for_the_game_to_refuse() -> None:
    parser = KeypadParser()
    for key in "45":
        parser.feed(key)
    heard = parser.feed("enter")
    assert heard is not None and heard.choice == 45 and parser.echo == "45"


def test_a_third_digit_starts_over() -> None:
    assert choices_of("123\r") == [3]


def test_empty_enter_is_nothing() -> None:
    assert choices_of("\r\r\n") == []


def test_numlock_off_cursor_keys_are_digits() -> None:
    # KP1 End, KP2 Down, KP3 PgDn, KP4 Left, KP5 Begin, KP6 Right, KP7 Home, KP8 Up, KP9 PgUp, KP0 Ins
    keys = {"1": "\x1b[F", "2": "\x1b[B", "3": "\x1b[6~", "4": "\x1b[D", "5": "\x1b[E",
            "6": "\x1b[C", "7": "\x1b[H", "8": "\x1b[A", "9": "\x1b[5~", "0": "\x1b[2~"}
    for digit, seq in keys.items():
        assert KeyDecoder().feed(seq) == [digit], (digit, seq)
    # Linux console variants and the Delete key (KP. with NumLock off) clearing the entry.
    assert KeyDecoder().feed("\x1b[1~\x1b[4~\x1b[G\x1bOE") == ["7", "1", "5", "5"]
    assert choices_of("\x1b[F\x1b[3~\x1b[B\r") == [2]


def test_application_keypad_mode() -> None:
    assert choices_of("\x1bOq\x1bOr\x1bOM\x1bOk\x1bOm\x1bOj\x1bOo") == [12, "yes", "no", "repeat", "pause"]
    assert choices_of("\x1bOp\x1bOM") == ["nobody"]


def test_a_sequence_split_across_reads() -> None:
    decoder = KeyDecoder()
    assert decoder.feed("1\x1b") == ["1"]
    assert decoder.feed("[") == []
    assert decoder.feed("6~\r") == ["3", "enter"]


LEGAL_WORDS = set(WORDS)
# Every byte a terminal may send, with the keypad's own sequences made likely.
keystroke = st.one_of(
    st.sampled_from(["0", "1", "2", "3", "9", "\r", "\n", "+", "-", "*", "/", ".", "\x7f", "\x08",
                     "\x1b", "[", "O", "~", "A", "F", "6", "p", "M", ";", "\x1b[", "\x1bO", "\x1b[3~"]),
    st.characters(max_codepoint=0x10FFFF),
)


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(keystroke, max_size=80), st.lists(st.integers(min_value=0, max_value=500), max_size=6))
def test_any_keystroke_stream_yields_only_legal_choices(strokes: list[str], cuts: list[int]) -> None:
    text = "".join(strokes)
    for choice in choices_of(text, cuts):
        if isinstance(choice, int):
            assert not isinstance(choice, bool) and 1 <= choice <= 99  # two digits: the game refuses a seat not there
        else:
            assert choice in LEGAL_WORDS


@settings(max_examples=examples(200), deadline=None)
@given(st.text(alphabet="0123456789", min_size=1, max_size=2))
def test_every_typed_number_round_trips(digits: str) -> None:
    n = int(digits)
    expected = ["nobody" if n == 0 else n]
    assert choices_of(digits + "\r") == expected


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.sampled_from(sorted(KEYS)), max_size=60))
def test_parser_state_stays_bounded(keys: list[str]) -> None:
    parser = KeypadParser()
    for key in keys:
        heard = parser.feed(key)
        assert len(parser.entry) <= KeypadParser.MAX_DIGITS
        assert heard is None or isinstance(heard, Heard)


# --- the terminal reader, on a real pseudo-terminal ---------------------------------------------

# No sleep decides an outcome here, so a loaded machine cannot fail a passing test. A test waits
# for what it needs (the terminal raw, the typed keys arrived), and a prompt that must be answered
# has a far deadline; WAIT bounds only a test that is failing anyway.
WAIT = 30.0
FAR = 60.0


def _attrs(fd: int) -> list[Any]:
    return termios.tcgetattr(fd)


def wait_for(condition: Callable[[], bool], what: str) -> None:
    end = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < end, f"{what}: not within {WAIT:.0f} s"
        time.sleep(0.01)


def unread(fd: int) -> int:
    """Bytes waiting on the terminal (FIONREAD)."""
    return int(struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0])


def typed(master: int, slave: int, keys: bytes) -> None:
    """Type keys while nobody reads, and wait until the (raw) terminal has them all: a pty hands
    them over asynchronously, so without this wait a loaded machine could deliver them late."""
    before = unread(slave)
    os.write(master, keys)
    wait_for(lambda: unread(slave) >= before + len(keys), f"the keys {keys!r} reaching the terminal")


def test_listener_reads_a_pty_and_restores_the_terminal() -> None:
    """Waits for the raw terminal instead of sleeping: a fixed sleep races a loaded machine."""
    master, slave = pty.openpty()
    try:
        before = _attrs(slave)
        echoed: list[str] = []
        listener = KeypadListener(fd=slave, echo=echoed.append)
        result: list[Heard | None] = []
        t = threading.Thread(target=lambda: result.append(listener.listen(Prompt("test", seats=(1, 2, 3, 14)))))
        t.start()
        wait_for(lambda: _attrs(slave) != before, "the listener making the terminal raw")
        os.write(master, b"1")
        os.write(master, b"\x1b[D\r")  # "4" with NumLock off, then Enter
        t.join(WAIT)
        assert result == [Heard(14, source="keypad", text="14")]
        assert echoed[-1] == "14" and "1" in echoed
        assert _attrs(slave) == before
    finally:
        os.close(master)
        os.close(slave)


def test_ctrl_c_interrupts_and_the_terminal_is_restored() -> None:
    """Ctrl-C stays a signal in raw mode (ISIG on): it interrupts at once, and the terminal comes back.

    Waits for the raw terminal instead of asserting it after a fixed sleep, which a loaded machine
    can outlast."""
    import signal

    master, slave = pty.openpty()
    try:
        before = _attrs(slave)
        listener = KeypadListener(fd=slave, echo=lambda s: None)
        seen: list[list[int]] = []

        def ctrl_c() -> None:
            wait_for(lambda: _attrs(slave) != before, "the terminal raw while listening")
            seen.append(_attrs(slave))
            os.kill(os.getpid(), signal.SIGINT)  # what the terminal sends on Ctrl-C

        t = threading.Thread(target=ctrl_c)
        # Python raises KeyboardInterrupt only with its own handler: a test run started as a
        # background job of a non-interactive shell inherits SIGINT ignored (seen in CI runs).
        old = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            t.start()
            with pytest.raises(KeyboardInterrupt):
                listener.listen(Prompt("test", seats=(1,), deadline=time.monotonic() + FAR))
        finally:
            signal.signal(signal.SIGINT, old)
        t.join(WAIT)
        assert seen[0] != before  # raw while listening
        assert seen[0][3] & termios.ISIG  # ... but Ctrl-C still a signal
        assert _attrs(slave) == before
    finally:
        os.close(master)
        os.close(slave)


def test_deadline_and_stale_keys() -> None:
    """Each key is on the terminal before the prompt opens, not typed by a timer a loaded machine
    can fire late."""
    master, slave = pty.openpty()
    try:
        listener = KeypadListener(fd=slave, echo=lambda s: None)
        with listener:
            typed(master, slave, b"5\r")  # typed before a night prompt opens: dropped
            start = time.monotonic()
            assert listener.listen(Prompt("late", seats=(5,), night=True, deadline=start + 0.3)) is None
            assert time.monotonic() - start >= 0.29
            typed(master, slave, b"+")  # typed after the night turn: must not answer the day's first question
            assert listener.listen(Prompt("day.debate", words=("yes",), deadline=time.monotonic() + 0.3)) is None
            typed(master, slave, b"5\r")  # by day, typed while the question is said: kept
            heard = listener.listen(Prompt("day.vote.vote.5", seats=(5,), deadline=time.monotonic() + FAR))
            assert heard is not None and heard.choice == 5
    finally:
        os.close(master)
        os.close(slave)


def test_keys_typed_between_two_prompts_of_one_turn_are_kept() -> None:
    """Cupid's turn begins with a prompt that has already run out (it drops what
    was typed before the turn), so the keys are typed within the turn without a timer racing
    the listener."""
    master, slave = pty.openpty()
    try:
        listener = KeypadListener(fd=slave, echo=lambda s: None)
        with listener:
            turn_begins = time.monotonic()
            assert listener.listen(Prompt("night.cupid", seats=(3, 12), night=True, deadline=turn_begins)) is None
            # Cupid's first Lover and the start of the second, typed once his turn has begun
            typed(master, slave, b"3\r1")
            first = listener.listen(Prompt("night.cupid", seats=(3, 12), night=True, deadline=time.monotonic() + FAR))
            typed(master, slave, b"2\r")
            second = listener.listen(Prompt("night.cupid", seats=(12,), night=True, deadline=time.monotonic() + FAR))
            assert first is not None and first.choice == 3
            assert second is not None and second.choice == 12
            typed(master, slave, b"4\r")  # typed during Cupid's sleep line: not the Seer's answer
            assert listener.listen(Prompt("night.seer", seats=(4,), night=True, deadline=time.monotonic() + 0.3)) is None
    finally:
        os.close(master)
        os.close(slave)


def test_a_key_typed_during_the_read_back_counts_for_the_confirmation() -> None:
    master, slave = pty.openpty()
    try:
        listener = KeypadListener(fd=slave, echo=lambda s: None)
        with listener:
            typed(master, slave, b"-")  # pressed while the choice was being read back
            heard = listener.listen(Prompt("day.vote.confirm", words=("yes", "no"), deadline=time.monotonic() + FAR))
            assert heard == Heard("no", source="keypad", text="-")
    finally:
        os.close(master)
        os.close(slave)
