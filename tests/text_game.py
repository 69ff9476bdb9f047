"""The five-seat game the command-line tests play in text mode: its setup, and the keys typed;
the same game as a headless script, and how the tests run `narrator` on it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# Short turns: the [timing] table of the game's setup (and of a config.toml playing it).
TIMING = """[timing]
seer = 0.6
werewolves = 0.6
witch = 0.8
gap = 0.05
suspense = 0.05
debate = 5
vote = 2
chain = 2
"""

# Seer at 1, Werewolf at 2, Witch at 3; short lines.
SETUP = f"""
players = 5
roles = {{ 1 = "seer", 2 = "werewolf", 3 = "witch" }}
speech_scale = 0.01
{TIMING}"""

# The deal (seat, Enter) x5; Seer 2; Werewolves 4; Witch: no heal, no poison; Captain votes;
# "v" ends the debate; everyone votes 2.
DEAL = ["1", "", "2", "", "3", "", "4", "", "5", ""]
KEYS = [*DEAL, "2", "4", "-", "0", "1", "1", "1", "1", "v", "2", "2", "2", "2"]
# The keys typed after the Werewolves' turn: a game stopped in that turn and resumed types these.
AFTER_WEREWOLVES = KEYS[len(DEAL) + 2:]

# The same game played headless (`narrator play --headless --script`), answering as KEYS do.
SCRIPT = """
answer_delay = 0.1
[[nights]]
seer = 2
werewolves = 4
witch = { heal = false, poison = 0 }
[[days]]
captain = 1
eliminate = 2
"""


def narrator(*args: str, stdin: str = "", data: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m narrator ARGS` on this checkout, `stdin` typed; NARRATOR_DATA = `data` if given."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    if data is not None:
        env["NARRATOR_DATA"] = str(data)
    return subprocess.run([sys.executable, "-m", "narrator", *args], input=stdin, capture_output=True, text=True,
                          timeout=300, env=env)


def headless_journal(tmp_path: Path, name: str = "game.jsonl") -> Path:
    """The game played headless (SETUP, SCRIPT) into the journal tmp_path/name."""
    (tmp_path / "setup.toml").write_text(SETUP)
    (tmp_path / "script.toml").write_text(SCRIPT)
    path = tmp_path / name
    proc = narrator("play", "--headless", "--setup", str(tmp_path / "setup.toml"), "--script",
                    str(tmp_path / "script.toml"), "--journal", str(path))
    assert proc.returncode == 0, proc.stderr
    return path


def cut_at(path: Path, prompt: str) -> None:
    """Keep the journal up to (and with) the first input of `prompt`: a game stopped in that turn."""
    lines = path.read_text().splitlines(keepends=True)
    n = next(i for i, line in enumerate(lines) if json.loads(line).get("prompt") == prompt)
    path.write_text("".join(lines[: n + 1]))
