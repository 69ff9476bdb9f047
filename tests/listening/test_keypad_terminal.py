"""`narrator listen --keypad` on a real pseudo-terminal: keys in, choices out, and the terminal
restored however the program ends (Ctrl-C, SIGTERM, SIGHUP)."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent.parent


def read_until(master: int, needle: bytes, timeout: float = 20.0) -> bytes:
    out = b""
    end = time.monotonic() + timeout
    while needle not in out and time.monotonic() < end:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                out += os.read(master, 4096)
            except OSError:
                break
    return out


def _take_terminal() -> None:
    """In the child: the pty becomes its controlling terminal, as a real terminal is (Ctrl-C is a SIGINT)."""
    import fcntl

    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


@pytest.mark.xdist_group("terminal")
@pytest.mark.slow
@pytest.mark.parametrize("ending", ["ctrl-c", "sigterm", "sighup"])
def test_keypad_listen_restores_the_terminal(ending: str) -> None:
    """Keys are typed once the terminal is raw, not after a fixed sleep that a loaded machine can outlast."""
    master, slave = pty.openpty()
    before = termios.tcgetattr(slave)
    proc = subprocess.Popen([sys.executable, "-m", "narrator", "listen", "--keypad", "--choices", "1-12,nobody"],
                            stdin=slave, stdout=slave, stderr=slave, env={**os.environ, "PYTHONPATH": str(ROOT)},
                            start_new_session=True, preexec_fn=_take_terminal)
    try:
        assert b"type on the keypad" in read_until(master, b"Ctrl-C to stop")
        # The line is printed before the terminal goes raw: type only once it is (a 0.2 s
        # sleep raced a loaded machine and the keys met a cooked, echoing terminal).
        end = time.monotonic() + 30
        while termios.tcgetattr(slave)[3] & termios.ECHO and time.monotonic() < end:
            time.sleep(0.01)
        # NumLock off: "1" is End, "2" is Down; then Enter. And "0" Enter with NumLock on.
        os.write(master, b"\x1b[F\x1b[B\r")
        out = read_until(master, b"}")
        line = out[out.index(b"{"):out.index(b"}") + 1]
        assert json.loads(line) == {"heard": "12", "choice": 12, "allowed": True}
        assert termios.tcgetattr(slave)[3] & termios.ECHO == 0  # raw while listening
        os.write(master, b"0\r")
        out = read_until(master, b"nobody")
        assert b'"choice": "nobody"' in out
        if ending == "ctrl-c":
            os.write(master, b"\x03")
        else:
            proc.send_signal(signal.SIGTERM if ending == "sigterm" else signal.SIGHUP)
        code = proc.wait(20)
        tail = read_until(master, b"interrupted", 1.0) if ending == "ctrl-c" else b""
        after = termios.tcgetattr(slave)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
        os.close(slave)
    assert after == before
    assert b"Traceback" not in tail
    if ending == "ctrl-c":
        assert code == 130 and b"narrator: interrupted" in tail
    else:
        assert code == 128 + (signal.SIGTERM if ending == "sigterm" else signal.SIGHUP)
