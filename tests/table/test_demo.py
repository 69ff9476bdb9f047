"""`narrator demo --text` plays a whole game with automatic players, every line printed."""

from __future__ import annotations

import subprocess
import sys

import pytest

from narrator.packs import load_pack


@pytest.fixture(scope="module")
def english_demo() -> subprocess.CompletedProcess[str]:
    """`narrator demo --text --pace 0.03`, played once for the two tests that read it: the demo's seed is
    fixed (DEMO_SEED), so a second run of the same command prints the same game again, and would only
    spend its six seconds of real-clock turns once more."""
    return subprocess.run([sys.executable, "-m", "narrator", "demo", "--text", "--pace", "0.03"],
                          capture_output=True, text=True, timeout=600)


@pytest.mark.slow
@pytest.mark.xdist_group("clock")  # waits on the real clock: docs/testing.md, in parallel
def test_demo_text_finishes_a_whole_game(english_demo: subprocess.CompletedProcess[str]) -> None:
    proc = english_demo
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
    # The default composition for 8 players (one the balance advisor rates fair).
    # At the end every seat's card, as two lines: "Seat N." then "Their card: Villager."
    assert said[-16::2] == [f"Seat {n}." for n in range(1, 9)]
    assert sum(s in ("Their card: Villager.", "Their card: Werewolf.", "Their card: Seer.", "Their card: Witch.",
                     "Their card: Hunter.") for s in said[-15::2]) == 8


@pytest.mark.slow
@pytest.mark.xdist_group("clock")  # waits on the real clock: docs/testing.md, in parallel
def test_the_demo_shows_what_everyone_did(english_demo: subprocess.CompletedProcess[str]) -> None:
    """After the game: each night answer by its role, and who voted for whom."""
    proc = english_demo
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    done = out.index("What everyone did:")
    did = out[done + 1:-1]
    assert any(line.startswith("  Night 1, Seer: seat ") for line in did), did
    assert any(line.startswith("  Night 1, Werewolf: seat ") for line in did), did
    assert any(line.startswith("  Night 1, Witch: heal: ") for line in did), did
    assert any(line.startswith("  Seat ") and " voted for seat " in line for line in did), did


@pytest.mark.slow
@pytest.mark.xdist_group("clock")  # waits on the real clock: docs/testing.md, in parallel
def test_the_demo_status_lines_come_from_the_pack() -> None:
    """With --lang fr, no English status line: the cards, the board, the summary, the end."""
    proc = subprocess.run([sys.executable, "-m", "narrator", "demo", "--text", "--pace", "0.03", "--lang", "fr"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    for english in ("Demo:", "cards:", "Demo over", "the winner is", "alive:", "dead:", "What everyone did", "voted for",
                    "[night", "[day"):
        assert english not in text, english
    assert text.splitlines()[0].startswith("Démo : 8 joueurs automatiques.")
    assert "Ce que chacun a fait :" in text and "[Nuit 1]" in text and "en vie:" in text
    assert text.splitlines()[-1].startswith("Fin de la démo : victoire pour")


def test_the_demo_plays_the_default_composition() -> None:
    """Before: 6 players (Werewolf, Seer, Witch, Hunter, Cupid, Villager), the village winning 83% of games."""
    from narrator.rules import default_deck
    from narrator.table.demo import DEMO_DECK, demo_setup

    assert DEMO_DECK == default_deck(8)
    assert sum(demo_setup("en", 2).deal.seats.count(r) for r in set(DEMO_DECK)) == 8


@pytest.mark.slow
@pytest.mark.xdist_group("clock")  # waits on the real clock: docs/testing.md, in parallel
def test_demo_roles_plays_the_extension_roles() -> None:
    proc = subprocess.run([sys.executable, "-m", "narrator", "demo", "--text", "--pace", "0.02",
                           "--roles", "werewolf=2,seer,savior,fox,raven,elder,scapegoat"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert out[0].startswith("Demo: 9 automatic players.")
    for name in ("Savior", "Fox", "Raven", "Elder", "Scapegoat"):
        assert f"= {name}" in out[0], name
    said = [line[4:] for line in out if line.startswith("  » ")]
    for wake in ("Savior, wake up.", "Fox, wake up.", "Raven, wake up."):
        assert any(s.startswith(wake) for s in said), wake
    assert out[-1].startswith("Demo over: victory for")


@pytest.mark.slow
def test_a_bad_demo_deck_is_one_line() -> None:
    proc = subprocess.run([sys.executable, "-m", "narrator", "demo", "--text", "--roles", "werewolf=2,wizard"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.startswith("narrator: unknown role 'wizard'") and len(proc.stderr.splitlines()) == 1
