"""In a real terminal (tmux): what a table sees when it stops a game, starts one, resumes one."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.table import tmux
from tests.table.tmux import Tmux, deal, needs_tmux, table_config

pytestmark = [
    pytest.mark.slow,
    pytest.mark.xdist_group("terminal"),  # real time: one at a time (docs/testing.md)
    needs_tmux,
]

# The Seer's turn is ten minutes long: a Ctrl-C that waits for the turn's end never shows in time.
CONFIG = table_config(seer=600, werewolves=4, witch=5)


def start(tmp_path: Path, *args: str, config: str = CONFIG) -> Tmux:
    return tmux.start(tmp_path, config, *args)


def seer_sees_the_wolf_then_ctrl_c(t: Tmux) -> int:
    """Deal, let the Seer see the Werewolf, then press Ctrl-C during her turn; the wolf's seat."""
    roles = deal(t)
    wolf = next(s for s, r in roles.items() if r == "Werewolf")
    t.wait("Seer, wake up")
    t.wait("Enter a seat number.")
    t.type(str(wolf))
    t.wait(f"Seat {wolf} is the Werewolf.")
    t.send("C-c")
    return wolf


@pytest.mark.parametrize("screen", ["text", "full"])
def test_ctrl_c_acts_at_once_and_wipes_the_seers_answer(tmp_path: Path, screen: str) -> None:
    t = start(tmp_path, "--screen", screen, "--no-audio")
    try:
        wolf = seer_sees_the_wolf_then_ctrl_c(t)
        # The turn has ten minutes left: only a Ctrl-C that acts at once ends the program in time.
        assert t.exit_code(timeout=600) == 130
        final = t.scrollback()
        assert "interrupted" in final
        assert f"Seat {wolf} is the Werewolf." not in final, final
    finally:
        t.close()


def test_no_speaker_is_said_before_the_first_question(tmp_path: Path) -> None:
    """No output device: said before any setup question, with --no-audio and --text offered right there."""
    t = start(tmp_path, "--screen", "full", "--output-device", "no-such-device-xyz")
    try:
        screen = t.wait("Play without sound?")
        assert "no sound" in screen and "--no-audio" in screen and "--text" in screen
        assert "Last table" not in screen and "How many players" not in screen
        t.type("1")  # the full screen, silent
        t.wait("Enter = play with it")
        t.send("Enter")
        t.wait("Seat 1: press your seat number")
        t.send("C-c")
        assert t.exit_code() == 130
    finally:
        t.close()


def test_stop_there_names_doctor(tmp_path: Path) -> None:
    t = start(tmp_path, "--screen", "full", "--output-device", "no-such-device-xyz")
    try:
        t.wait("Play without sound?")
        t.type("")
        assert t.exit_code() == 1
        screen = t.screen()
        assert "narrator doctor" in screen and "Traceback" not in screen
        assert "Last table" not in screen
    finally:
        t.close()


def test_no_speech_model_is_said_before_the_game(tmp_path: Path) -> None:
    """Voice answers chosen, no speech model here: the notice comes before the full screen, and waits."""
    t = start(tmp_path, "--screen", "full", "--no-audio", config=CONFIG.replace('inputs = "keypad"', 'inputs = "voice"'))
    try:
        t.wait("Enter = play with it")
        t.send("Enter")
        screen = t.wait("Press Enter to start the game.")
        assert "keypad only" in screen or "keypad" in screen
        assert "Seat 1: press your seat number" not in screen
        t.send("Enter")
        t.wait("Seat 1: press your seat number")
        t.send("C-c")
        assert t.exit_code() == 130
        assert "using the keypad only" not in t.screen().split("interrupted")[-1]  # not left for after the game
    finally:
        t.close()


def test_a_full_screen_game_resumes_on_the_full_screen_eyes_closed_answer_kept(tmp_path: Path) -> None:
    journal = tmp_path / "game.jsonl"
    t = start(tmp_path, "--screen", "full", "--no-audio", "--journal", str(journal))
    try:
        wolf = seer_sees_the_wolf_then_ctrl_c(t)
        assert t.exit_code(timeout=600) == 130
    finally:
        t.close()
    r = tmux.narrator(tmp_path, "resume", str(journal), "--no-audio")
    try:
        # The full screen again (no --screen given), at night: eyes closed first, then the Seer sees her answer.
        # The night line is on the screen only until the Seer's wake line (ms with --no-audio): a
        # screen read may fall before or after it, so it is looked for in all the program wrote.
        r.wait_output("It is night: everyone, close your eyes.")
        # Her kept answer, on her panel under her wake line (the result replaces the "kept" note).
        screen = r.wait(f"Seat {wolf} is the Werewolf.")
        assert "  » " not in screen  # not the text screen
        assert "Seer, wake up" in screen
        out = r.output()
        assert out.index("It is night: everyone, close your eyes.") < out.index(f"Seat {wolf} is the Werewolf.")
        r.send("C-c")
        assert r.exit_code(timeout=600) == 130
        out = r.scrollback(join=True)  # the journal's path makes the line wrap, at a place of its length
        assert f"Resuming {journal}: started " in out and "stopped in night 1" in out
    finally:
        r.close()
