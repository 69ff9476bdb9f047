"""`narrator demo --text` plays a whole game with automatic players, every line printed."""

from __future__ import annotations

import subprocess
import sys

from narrator.packs import load_pack


def test_demo_text_finishes_a_whole_game() -> None:
    proc = subprocess.run([sys.executable, "-m", "narrator", "demo", "--text", "--pace", "0.03"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    said = [line[4:] for line in out if line.startswith("  » ")]
    pack = load_pack("en")
    assert said[0] == pack.template("game.welcome")
    assert any(s.startswith("The game is over.") for s in said)
    assert out[-1].startswith("Demo over: the winner is")
    # Fully narrated: night calls, the morning, a vote, the end, each role revealed.
    for line in ("Night falls on the village.", "Seer, wake up.", "Werewolves, go back to sleep.", "The sun rises.",
                 "Time to vote.", "Hunter, seat"):
        assert any(s.startswith(line) for s in said), line
    assert sum(s.endswith(("was the Villager.", "was the Werewolf.", "was the Seer.", "was the Witch.",
                           "was the Hunter.", "was the Cupid.")) for s in said[-6:]) == 6
