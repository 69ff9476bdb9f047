"""A whole short game in a real terminal (tmux), typed key by key, reading the screen like a player.

Both screens: `--screen text` (printed lines) and `--screen full` (the Rich board). On every
screen read, a private panel may only be visible while its role is awake: the last line said is
that role's wake line, never a sleep line.

The game runs on the real clock, so a night turn must outlast what a loaded machine takes to
read the screen and type (a few tmux calls): the turns are 10-12 s (turns of 4-5 s
raced the load: a test bounded by the real clock must leave a loaded machine room).
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.table.tmux import Tmux, deal, needs_tmux, start, table_config

pytestmark = [
    pytest.mark.slow,
    pytest.mark.xdist_group("terminal"),  # real time: one at a time (docs/testing.md)
    needs_tmux,
]

CONFIG = table_config(seer=10, werewolves=10, witch=12)

PRIVATE_HINTS = ("Enter a seat number", "is the Werewolf", "is the Villager", "is the Witch", "Enter your victim",
                 "Tonight's victim", "Nobody is the Werewolves' victim", "you are the", "press your seat number")


class Player:
    """Everyone at the table, on one keyboard: reads the screen and types."""

    def __init__(self, t: Tmux, full: bool) -> None:
        self.t = t
        self.full = full

    def last_said(self, screen: str) -> str:
        if self.full:
            # The caption: centred plain text at night, the bottom box by day (at column 0);
            # the private panel is an indented box.
            said = [ln.strip(" │") for ln in screen.splitlines()
                    if re.search(r"[.?!]\s*(│\s*)?$", ln) and (ln.startswith("│ ") or "│" not in ln)]
            return said[-1] if said else ""
        said = [ln for ln in screen.splitlines() if ln.startswith("  » ")]
        return said[-1][4:] if said else ""

    def wait_said(self, line: str, timeout: float = 60.0) -> str:
        return self.t.wait(lambda s: line in self.last_said(s), timeout)

    def wait_passed(self, line: str, timeout: float = 60.0) -> str:
        """A line said once in the game that the next line may follow within ms: in text mode,
        on screen among the printed lines, last or not; the full screen shows only the last."""
        if self.full:
            return self.wait_said(line, timeout)
        return self.t.wait(lambda s: any(line in ln for ln in s.splitlines() if ln.startswith("  » ")), timeout)

    def check_secrecy(self) -> None:
        """On every screen read so far: private text only under a wake line."""
        for screen in self.t.history:
            private = [h for h in PRIVATE_HINTS if h in screen]
            if not private:
                continue
            said = self.last_said(screen)
            assert said == "" or "wake up" in said, f"private {private} shown after {said!r}:\n{screen}"


def _start(tmp_path: Path, full: bool) -> Tmux:
    return start(tmp_path, CONFIG, "--screen", "full" if full else "text", *(["--no-audio"] if full else []))


@pytest.mark.parametrize("full", [False, True], ids=["text", "full"])
def test_a_whole_game_in_a_terminal(tmp_path: Path, full: bool) -> None:
    """A whole game typed as a table would; private text only under its wake line.

    The end of a full-screen game says which key ends it (and `*` for a rematch):
    `play_to_the_end` waits for that hint before pressing Enter."""
    t = _start(tmp_path, full)
    p = Player(t, full)
    try:
        play_to_the_end(t, p, full)
        t.send("Enter")  # no rematch (`*` would deal again)
        assert t.exit_code() == 0
        p.check_secrecy()
        assert len(t.history) > 30  # the invariant was checked on many screens, not a handful
    finally:
        t.close()


def play_to_the_end(t: Tmux, p: Player, full: bool) -> None:
    """The whole game, typed as a table would, up to its last line."""
    if True:
        roles = deal(t)
        wolf = next(s for s, r in roles.items() if r == "Werewolf")
        seer = next(s for s, r in roles.items() if r == "Seer")
        victim = next(s for s, r in roles.items() if r == "Villager")

        p.wait_said("Seer, wake up")
        t.wait("Enter a seat number.")
        t.type(str(wolf))
        screen = t.wait(f"Seat {wolf} is the Werewolf.")
        assert "Seer, go back to sleep" not in screen
        screen = p.wait_passed("Seer, go back to sleep")
        assert f"Seat {wolf} is the Werewolf." not in screen

        p.wait_said("Werewolves, wake up")
        t.wait("Enter your victim's seat")
        t.type(str(victim))
        p.wait_said("Witch, wake up")
        t.wait(f"Tonight's victim: seat {victim}.")
        t.type("-")
        t.type("0")
        screen = p.wait_passed("Witch, go back to sleep")
        assert "Tonight's victim" not in screen

        living = [s for s in range(1, 6) if s != victim]
        # The morning's lines pass quickly (speech_scale): the next line may follow within a few
        # ms, before a screen read, so the death line is looked for where it stays (the printed
        # lines of text mode), once the game waits for the first vote.
        p.wait_said(f"Seat {living[0]}, your vote?")
        if not full:
            said = [ln[4:] for ln in t.scrollback().splitlines() if ln.startswith("  » ")]
            assert [f"Seat {victim}.", "Their card: Villager."] in [said[i:i + 2] for i in range(len(said))], "\n".join(said)
        for voter in living:
            p.wait_said(f"Seat {voter}, your vote?")
            t.type(str(seer))
        p.wait_said("to debate.")  # the Sheriff's line before it may pass unread (see above)
        if not full:
            said = [ln[4:] for ln in t.scrollback().splitlines() if ln.startswith("  » ")]
            assert any(f"Seat {seer} is the Sheriff." in ln for ln in said), "\n".join(said)
        t.type("+")  # ready to vote
        for voter in living:
            p.wait_said(f"Seat {voter}, your vote?")
            t.type(str(wolf))
        # The last lines pass quickly (the roll of cards): read what stays, not the passing caption.
        t.wait("Victory for the village." if not full else "Enter alone finishes.")
