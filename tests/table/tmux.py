"""Drive a program in a real terminal (tmux): send keys, read the screen.

Waits give up after 60 s: they return as soon as the screen shows what they wait for, so only a
failing test waits that long, and a loaded machine does not make a passing one fail (a 20 s limit did).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Callable

import pytest

# How long to wait for what a test expects: far, since a loaded machine (load 30 on 2 cores) can take
# minutes; a wait ends as soon as the text is there, so a passing test never waits it out.
WAIT = 300.0
# Terminal escape sequences (CSI, OSC, and two-byte ESC ones), taken out of the raw output.
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[^[\]()]")
REPO = Path(__file__).resolve().parents[2]
# The mark of every test that drives a real terminal.
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (scripts/setup.sh installs it)")


def table_config(seer: float, werewolves: float, witch: float) -> str:
    """The five-seat keypad table of the terminal tests (Werewolf, Seer, Witch), with these turns."""
    return f"""
players = 5
language = "en"
inputs = "keypad"
deal = "program"
speech_scale = 0.02
[roles]
werewolf = 1
seer = 1
witch = 1
[timing]
seer = {seer:g}
werewolves = {werewolves:g}
witch = {witch:g}
gap = 0.1
suspense = 0.1
debate = 30
vote = 10
chain = 4
"""


class Tmux:
    def __init__(self, command: list[str], cwd: Path, env: dict[str, str], width: int = 100, height: int = 40) -> None:
        self.name = f"narrator-test-{uuid.uuid4().hex[:8]}"
        self.status = cwd / f"{self.name}.rc"
        self.log = cwd / f"{self.name}.out"
        # The program starts once everything it writes to the terminal is copied to `log`
        # (pipe-pane): a line that stays on the screen for a few ms is found there, whatever
        # the load (see `wait_output`).
        go = f"{self.name}-go"
        # After the program, the shell writes `end` to the terminal, then the exit code: what the
        # program wrote reaches `log` before `end` does (pipe-pane copies in order, but later).
        self.end = f"{self.name} ended."
        shell = (f"tmux -L {shlex.quote(self.name)} wait-for {shlex.quote(go)}; "
                 f"{shlex.join(command)}; code=$?; printf '\\n%s\\n' {shlex.quote(self.end)}; "
                 f"echo $code > {shlex.quote(str(self.status))}; sleep 600")
        full_env = {**os.environ, **env, "TERM": "xterm-256color"}
        subprocess.run(
            ["tmux", "-L", self.name, "new-session", "-d", "-x", str(width), "-y", str(height), "-s", self.name,
             "-c", str(cwd), "bash", "-c", shell],
            check=True, env=full_env,
        )
        subprocess.run(["tmux", "-L", self.name, "pipe-pane", "-t", self.name, "-o",
                        f"cat >> {shlex.quote(str(self.log))}"], check=True)
        subprocess.run(["tmux", "-L", self.name, "wait-for", "-S", go], check=True)
        self.history: list[str] = []

    def send(self, *keys: str) -> None:
        subprocess.run(["tmux", "-L", self.name, "send-keys", "-t", self.name, *keys], check=True)

    def type(self, text: str) -> None:
        """Literal text, then Enter."""
        subprocess.run(["tmux", "-L", self.name, "send-keys", "-t", self.name, "-l", text], check=True)
        self.send("Enter")

    def screen(self) -> str:
        out = subprocess.run(["tmux", "-L", self.name, "capture-pane", "-p", "-t", self.name],
                             capture_output=True, text=True, check=True).stdout
        self.history.append(out)
        return out

    def scrollback(self, join: bool = False) -> str:
        """The screen and everything scrolled off it; with `join`, a line the terminal wrapped is
        one line again (a line naming a temp path wraps where the path's length puts it)."""
        return subprocess.run(["tmux", "-L", self.name, "capture-pane", "-p", *(["-J"] if join else []), "-S", "-",
                               "-t", self.name], capture_output=True, text=True, check=True).stdout

    def wait(self, check: Callable[[str], bool] | str, timeout: float = WAIT) -> str:
        test = (lambda s: check in s) if isinstance(check, str) else check
        end = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if test(screen):
                return screen
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {check!r}; the screen shows:\n{screen}")
            time.sleep(0.05)

    def _written(self) -> str:
        raw = self.log.read_bytes().decode("utf-8", errors="replace") if self.log.exists() else ""
        return ANSI.sub("", raw)

    def output(self) -> str:
        """Everything the program wrote to the terminal so far, escape sequences taken out: each
        line ever shown, however briefly, in the order written."""
        return self._written().replace(self.end, "")

    def wait_output(self, text: str, timeout: float = WAIT) -> str:
        """Wait until the program has written `text` to the terminal, even if the screen showed it
        only between two reads; returns the output so far."""
        end = time.monotonic() + timeout
        while True:
            if text in self._written():
                return self.output()
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {text!r} in the output; the screen shows:\n{self.screen()}")
            time.sleep(0.05)

    def exit_code(self, timeout: float = WAIT) -> int:
        """The program's exit code, once it ended and all it wrote is in `output()`."""
        end = time.monotonic() + timeout
        while not self.status.exists() or not self.status.read_text().strip():
            if time.monotonic() > end:
                raise AssertionError(f"the program did not end; the screen shows:\n{self.screen()}")
            time.sleep(0.05)
        self.wait_output(self.end, timeout)
        return int(self.status.read_text())

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.name, "kill-server"], capture_output=True)


def narrator(tmp_path: Path, *args: str) -> Tmux:
    """`python -m narrator ARGS` in a terminal, with its data folder under `tmp_path`."""
    return Tmux([sys.executable, "-m", "narrator", *args], tmp_path,
                {"NARRATOR_DATA": str(tmp_path / "data"), "PYTHONPATH": str(REPO)})


def start(tmp_path: Path, config: str, *args: str) -> Tmux:
    """`narrator play` on the table `config` (written to tmp_path/config.toml), seed 7, then ARGS."""
    (tmp_path / "config.toml").write_text(config)
    return narrator(tmp_path, "play", "--config", str(tmp_path / "config.toml"), "--seed", "7", *args)


def card_names() -> dict[str, str]:
    """Each card's name on the English screen -> its role value."""
    from narrator.packs import load_pack
    from narrator.rules import Role

    pack = load_pack("en")
    return {pack.role_name(r.value): r.value for r in Role}


def deal(t: Tmux, players: int = 5) -> dict[int, str]:
    """Take the remembered table, then the program's deal seat by seat: each seat's card, by its
    name on the screen ("Werewolf"; card_names() gives its role)."""
    names = card_names()
    t.wait("Enter = play with it")
    t.send("Enter")
    roles: dict[int, str] = {}
    for seat in range(1, players + 1):
        card = f"Seat {seat}: you are the"
        t.wait(f"Seat {seat}: press your seat number")
        t.type(str(seat))
        shown = t.wait(card).split(f"{card} ", 1)[1]
        # The card's name, the longest that fits ("Villager" is in "Villager-Villager").
        roles[seat] = max((n for n in names if shown.startswith(n + ".")), key=len)
        t.type("")
        t.wait(lambda s, card=card: card not in s)
    return roles
