"""What the acceptance tier shares: a fresh clone of this repository's HEAD, installed by the
README's own first step, its commands driven in a real terminal (tmux), and the QR codes the
laptop draws read back (zbar)."""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path
from typing import Callable

from tests.table.tmux import REPO, Tmux

# Screenshots and logs the tier keeps (NARRATOR_ARTIFACTS, else artifacts/acceptance in the checkout).
ARTIFACTS = Path(os.environ.get("NARRATOR_ARTIFACTS") or REPO / "artifacts" / "acceptance")
INSTALL_WAIT = 1200.0  # a first install on a loaded machine (pip's cache warm: about a minute)
# The ALSA file device of the speech tests: a table with a speaker (what it plays goes to a file).
SPEAKER = {"ALSA_CONFIG_PATH": f"/usr/share/alsa/alsa.conf:{REPO / 'tests' / 'speech' / 'alsa_file_devices.conf'}"}


def fresh_clone(where: Path) -> Path:
    """`git clone` of this checkout's HEAD, then the install `./play` starts with (scripts/setup.sh
    voice,phones), here rather than inside a test's own network, which reaches no package registry."""
    clone = where / "narrator"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(REPO), str(clone)], check=True, timeout=600)
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    subprocess.run(["git", "-C", str(clone), "checkout", "-q", head], check=True, timeout=120)
    play = (clone / "play").read_text()
    step = re.search(r"^bash scripts/setup\.sh .*$", play, re.M)
    assert step is not None, play
    subprocess.run(["bash", "-c", step.group(0)], cwd=clone, check=True, timeout=INSTALL_WAIT)
    return clone


def table_env(home: Path, **more: str) -> dict[str, str]:
    """A table's own folders (config, data, cache) under `home`."""
    return {"NARRATOR_DATA": str(home / "data"), "NARRATOR_CONFIG": str(home / "config"),
            "NARRATOR_CACHE": str(home / "cache"), **more}


def command(clone: Path, home: Path, words: str, prefix: tuple[str, ...] = (), width: int = 120, height: int = 50,
            **env: str) -> Tmux:
    """A README command (`./play --phones`...) typed in a terminal in the clone."""
    return Tmux([*prefix, "bash", "-c", words], clone, table_env(home, **env), width=width, height=height)


def last_line(screen: str) -> str:
    return next((line for line in reversed(screen.splitlines()) if line.strip()), "")


def asking(t: Tmux) -> bool:
    """Whether the program waits at a question: the cursor right after the ":" that ends the last line
    (a heading such as "Rules:" is followed by more lines, and the cursor is not on it)."""
    x, y = (int(v) for v in subprocess.run(["tmux", "-L", t.name, "display", "-p", "-t", t.name,
                                            "#{cursor_x} #{cursor_y}"], capture_output=True, text=True,
                                           check=True).stdout.split())
    rows = t.screen().splitlines()
    row = rows[y] if y < len(rows) else ""
    return row[:x].rstrip().endswith(":") and not row[x:].strip()


def answer_every_question(t: Tmux, until: str, answer: Callable[[str], str | None] = lambda q: None) -> None:
    """Each setup question answered as it comes (`answer(question)`, Enter when it gives None), one at a
    time (the next is awaited before anything more is typed), until `until` is printed."""
    t.wait(lambda s: "How many players" in s or "Enter = play with it" in s or until in t.output(), timeout=600)
    end = time.monotonic() + 900  # far: the setup takes seconds
    while until not in t.output():
        assert time.monotonic() < end, f"{until!r} never came; the screen shows:\n{t.screen()}"
        if not asking(t):  # a question still being printed, or a summary line: nothing to type yet
            time.sleep(0.1)
            continue
        typed = answer(last_line(t.screen())) or ""
        printed = len(t.output()) + len(typed) + 2  # what was printed, and the echo of what is typed
        if typed:
            t.type(typed)
        else:
            t.send("Enter")
        # The program's answer to it: more than the echo (the same question again, after a turn's change).
        t.wait(lambda s: len(t.output()) > printed or until in t.output(), timeout=300)


def no_traceback(t: Tmux) -> None:
    out = t.output()
    assert "Traceback" not in out, out[out.index("Traceback") - 500:]


# ---- the QR codes the laptop draws ------------------------------------------------------------

# The terminal draws two modules a cell, light modules in the glyph (qr.terminal): glyph -> (top dark, bottom dark).
GLYPHS = {"█": (False, False), "▀": (False, True), "▄": (True, False), " ": (True, True)}


def qr_codes(output: str) -> dict[int, tuple[str, str]]:
    """Each seat's printed link and what its QR code, as drawn, decodes to (zbar)."""
    lines = output.replace("\r", "").split("\n")
    found: dict[int, tuple[str, str]] = {}
    for i, line in enumerate(lines):
        match = re.search(r"Seat (\d+): scan with the phone of seat \d+, or open (\S+)", line)
        if match is None:
            continue
        rows = []
        for drawn in lines[i + 1:]:
            if not drawn or any(ch not in GLYPHS for ch in drawn) or not set(drawn) & {"█", "▀", "▄"}:
                break
            rows.append(drawn)
        found[int(match.group(1))] = (match.group(2), decode(rows))
    return found


def decode(rows: list[str]) -> str:
    from pyzbar import pyzbar

    width = max(len(r) for r in rows)
    modules: list[list[bool]] = []
    for row in rows:
        cells = [GLYPHS[ch] for ch in row.ljust(width, "█")]
        modules.append([top for top, _ in cells])
        modules.append([bottom for _, bottom in cells])
    scale, margin = 6, 24
    w, h = width * scale + 2 * margin, len(modules) * scale + 2 * margin
    pixels = bytearray(b"\xff" * (w * h))
    for y, row in enumerate(modules):
        for x, dark in enumerate(row):
            if dark:
                for dy in range(scale):
                    start = (margin + y * scale + dy) * w + margin + x * scale
                    pixels[start:start + scale] = b"\x00" * scale
    decoded = pyzbar.decode((bytes(pixels), w, h))
    assert len(decoded) == 1, f"{len(decoded)} codes read in {len(rows)} rows"
    return decoded[0].data.decode("utf-8")
