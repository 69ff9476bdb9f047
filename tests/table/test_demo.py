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
    assert out[-1].startswith("Demo over: victory for")
    # Fully narrated: night calls, the morning, a vote, the end, each role revealed.
    for line in ("Night falls on the village.", "Seer, wake up.", "Werewolves, go back to sleep.", "The sun rises.",
                 "Time to vote.", "Hunter, seat"):
        assert any(s.startswith(line) for s in said), line
    assert sum(s.endswith(("card: Villager.", "card: Werewolf.", "card: Seer.", "card: Witch.",
                           "card: Hunter.", "card: Cupid.")) for s in said[-6:]) == 6


def test_the_demo_shows_what_everyone_did() -> None:
    """After the game: each night answer by its role, and who voted for whom."""
    proc = subprocess.run([sys.executable, "-m", "narrator", "demo", "--text", "--pace", "0.03"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    done = out.index("What everyone did:")
    did = out[done + 1:-1]
    assert any(line.startswith("  Night 1, Seer: seat ") for line in did), did
    assert any(line.startswith("  Night 1, Werewolf: seat ") for line in did), did
    assert any(line.startswith("  Night 1, Witch: heal: ") for line in did), did
    assert any(line.startswith("  Seat ") and " voted for seat " in line for line in did), did


def test_the_demo_status_lines_come_from_the_pack() -> None:
    """With --lang fr, no English status line: the cards, the board, the summary, the end."""
    proc = subprocess.run([sys.executable, "-m", "narrator", "demo", "--text", "--pace", "0.03", "--lang", "fr"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    for english in ("Demo:", "cards:", "Demo over", "the winner is", "alive:", "dead:", "What everyone did", "voted for",
                    "[night", "[day"):
        assert english not in text, english
    assert text.splitlines()[0].startswith("Démo : 6 joueurs automatiques.")
    assert "Ce que chacun a fait :" in text and "[Nuit 1]" in text and "en vie:" in text
    assert text.splitlines()[-1].startswith("Fin de la démo : victoire pour")
