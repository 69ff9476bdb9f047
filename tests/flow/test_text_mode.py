"""`narrator play --text`: a real game in a terminal, typed on the keypad, lines printed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from narrator.ports import Cue
from tests.text_game import KEYS, SETUP


@pytest.mark.slow
@pytest.mark.xdist_group("clock")  # waits on the real clock: docs/testing.md, in parallel
def test_text_mode_plays_a_whole_game(tmp_path: Path) -> None:
    (tmp_path / "setup.toml").write_text(SETUP)
    journal = tmp_path / "game.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "narrator", "play", "--text", "--setup", str(tmp_path / "setup.toml"),
         "--journal", str(journal), "--seed", "1"],
        input="\n".join(KEYS) + "\n", capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    seer_wake = out.index("  » Seer, wake up. Choose a player whose card you want to see.")
    seer_sleep = out.index("  » Seer, go back to sleep.")
    assert "  ┃ Seat 2 is the Werewolf." in out[seer_wake:seer_sleep]
    assert "  ┃ Seat 2 is the Werewolf." not in out[seer_sleep:]
    assert "  ┃ Tonight's victim: seat 4." in out
    assert ("  » Seat 4.", "  » Their card: Villager.") in zip(out, out[1:])
    assert "  » Seat 1 is the Sheriff. Their vote counts double." in out
    assert "  » Seat 2 is eliminated." in out
    assert "  » The game is over. Victory for the village." in out
    assert journal.read_text().count('"kind":"input"') == len([k for k in KEYS[10:] if k])


def test_text_mode_prints_no_board_change_at_night() -> None:
    """`play --text` prints the public board once at nightfall, as the day left
    it, and no other board line before dawn. The Knight's diseased wolf (seat 4) dies at nightfall
    and the Actor's cards change in the night: the table learns both at dawn only."""
    import io

    from narrator.clock import VirtualClock
    from narrator.flow.script import parse_script, parse_setup
    from narrator.headless import ScriptPlayers, run_game, until_run_out
    from narrator.packs import load_pack
    from narrator.table.text import TextDisplay, text_speaker

    setup = parse_setup({"players": 8, "language": "en", "possible": ["actor"],
                         "roles": {1: "werewolf", 3: "knight_rusty_sword", 4: "werewolf", 7: "seer", 8: "actor"},
                         "options": {"captain_election": "never", "actor_cards": "seer,savior,raven"},
                         "timing": {"debate": 120, "defence": 5}}, "SETUP")
    script = parse_script({"nights": [{"werewolves": 3, "actor": 1}, {"werewolves": 5, "actor": 1},
                                      {"werewolves": 6}], "days": [{"eliminate": 0}, {"eliminate": 1}]}, 8, "SCRIPT")
    out = io.StringIO()
    pack = load_pack("en")
    clock = VirtualClock()
    run_game(setup, ScriptPlayers(clock, until_run_out(script), delay=1.0), 0, clock,
             speaker=text_speaker(pack, clock, out), display=TextDisplay(pack, out))
    lines = out.getvalue().splitlines()
    falls = f"  » {pack.text(Cue('night.falls'))}"
    dawn = f"  » {pack.text(Cue('day.dawn'))}"
    boards = [i for i, line in enumerate(lines) if line.startswith("[")]
    nights = 0
    for start, line in enumerate(lines):
        if line != falls:
            continue
        end = next(i for i in range(start, len(lines)) if lines[i] == dawn)
        at_night = [i for i in boards if start < i < end]
        assert len(at_night) <= 1, f"the board changed at night: {[lines[i] for i in at_night]}"
        day_before = [lines[i] for i in boards if i < start]
        if at_night and day_before:  # the seats, cards and words the day left, but that day's morning lines
            assert day_before[-1].split("]", 1)[1].startswith(lines[at_night[0]].split("]", 1)[1]), lines[at_night[0]]
        nights += 1
    assert nights >= 2
