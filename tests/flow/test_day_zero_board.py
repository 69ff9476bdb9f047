"""The Angel's Day 0 on the table's screens: a day from its first line, named
"Day 0" as the history names it; before, no board was shown until the step ended, so the full
screen kept the night layout ("Night 1", no seats, no hint for the first voter)."""

from __future__ import annotations

import io
import re

from rich.console import Console

from narrator.clock import VirtualClock
from narrator.flow.script import parse_script, parse_setup
from narrator.headless import run_game, until_run_out
from narrator.history.record import from_events
from narrator.history.stats import story
from narrator.listening.automatic import ScriptPlayers
from narrator.packs import load_pack
from narrator.ports import Prompt
from narrator.table.screen import ScreenDisplay
from narrator.table.text import TextDisplay, text_speaker

SETUP = {"players": 8, "language": "en", "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 8: "angel"},
         "options": {"captain_election": "never"}, "timing": {"debate": 120, "defence": 5}}
SCRIPT = {"day_zero": {"eliminate": 5}, "nights": [{"werewolves": 4}], "days": [{"eliminate": 2}, {"eliminate": 3}]}


def played_in_text() -> tuple[str, object]:
    setup = parse_setup(SETUP, "SETUP")
    script = parse_script(SCRIPT, setup.players, "SCRIPT")
    clock = VirtualClock()
    pack = load_pack("en")
    out = io.StringIO()
    players = ScriptPlayers(clock, until_run_out(script), delay=script.answer_delay)
    result = run_game(setup, players, 0, clock, speaker=text_speaker(pack, clock, out),
                      display=TextDisplay(pack, out))
    return out.getvalue(), result.game


def test_the_text_board_says_day_0_before_its_debate_and_vote() -> None:
    text, game = played_in_text()
    first_vote = text.index("your vote?")
    boards = re.findall(r"^\[([^\]]+)\]", text[:first_vote], re.M)
    assert boards and boards[0] == "Day 0", text[:first_vote]
    assert text.index("[Day 0]") < text.index("» Before the first night, the village meets.") < first_vote or \
        text.index("[Day 0]") < text.index("to debate.")
    # The same name in the history's story of the same game.
    assert "Day 0" in story(from_events({"language": "en"}, game.events).events, load_pack("en"))  # type: ignore[attr-defined]


def test_the_full_screen_shows_day_0_with_its_seats_and_the_voters_hint() -> None:
    pack = load_pack("en")
    clock = VirtualClock()
    screen = ScreenDisplay(pack, clock)
    screen.board({"phase": "debate", "night": 0, "day": 0, "alive": list(range(1, 9)), "revealed": {}, "captain": None,
                  "public": []})
    from narrator.ports import Cue

    screen.said(Cue("vote.start", phase="day.vote"), "Time to vote.", 1.0)
    screen.listening(Prompt("vote.1", tuple(range(1, 9)), (), deadline=30.0, number=0))
    console = Console(record=True, width=100, height=40, file=io.StringIO())
    console.print(screen.render())
    drawn = console.export_text()
    assert "Day 0" in drawn and "Night" not in drawn, drawn
    assert pack.panel_text("prompt.seat_hint", {}) in drawn and re.search(r"\b8\b", drawn), drawn
