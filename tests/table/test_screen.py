"""The full-screen board, drawn to text: big digits by day, a dark screen by night, the day's timer."""

from __future__ import annotations

import io

from rich.console import Console

from narrator.clock import VirtualClock
from narrator.flow.timing import Timing
from narrator.packs import load_pack
from narrator.ports import Cue, Heard, Prompt
from narrator.table.screen import ScreenDisplay, big

BOARD = {"phase": "debate", "night": 1, "day": 1, "alive": [1, 2, 4, 5, 6], "revealed": {3: "werewolf"}, "captain": 5}


def make(clock: VirtualClock | None = None) -> tuple[ScreenDisplay, Console, VirtualClock]:
    clock = clock or VirtualClock()
    console = Console(file=io.StringIO(), width=100, height=40, color_system=None)
    return ScreenDisplay(load_pack("en"), clock, console, Timing(debate=300.0, more_time=120.0)), console, clock


def draw(screen: ScreenDisplay, console: Console) -> str:
    with console.capture() as cap:
        console.print(screen.render())
    return cap.get()


def has_big(text: str, shown: str) -> bool:
    """The big rendering of `shown` appears, row under row, at the same column."""
    rows = big(shown).splitlines()
    lines = text.splitlines()
    for i, line in enumerate(lines[: len(lines) - 4]):
        col = line.find(rows[0])
        while col != -1:
            if all(lines[i + k][col : col + len(rows[k])] == rows[k] for k in range(1, 5)):
                return True
            col = line.find(rows[0], col + 1)
    return False


def test_the_day_board_in_big_digits() -> None:
    screen, console, _ = make()
    screen.board(BOARD)
    screen.said(Cue("vote.start", phase="day.vote"), "Time to vote. Who should be eliminated?", 0.0)
    text = draw(screen, console)
    for seat in (1, 2, 3, 4, 5, 6):
        assert has_big(text, str(seat)), seat
    assert "★ Sheriff" in text and "Werewolf" in text and text.count("dead") == 1
    assert "Vote" in text and "Time to vote." in text


def test_the_debate_timer_counts_down_and_stops_while_paused() -> None:
    screen, console, clock = make()
    screen.board(BOARD)
    screen.said(Cue("debate.start", {"minutes": 5}, phase="day.debate"), "You have 5 minutes to debate.", 2.0)
    assert has_big(draw(screen, console), "5:02")
    clock.sleep_until(62.0)
    assert has_big(draw(screen, console), "4:00")
    screen.said(Cue("game.paused", phase="game.pause"), "The game is paused.", 63.0)
    clock.sleep_until(200.0)
    assert has_big(draw(screen, console), "4:00")
    screen.said(Cue("game.resumed", phase="game.pause"), "The game goes on.", 201.0)
    assert has_big(draw(screen, console), "4:00")
    screen.said(Cue("debate.more_time", {"minutes": 2}, phase="day.debate"), "2 more minutes.", 201.0)
    assert has_big(draw(screen, console), "6:00")
    screen.said(Cue("vote.start", phase="day.vote"), "Time to vote.", 202.0)
    assert not has_big(draw(screen, console), "6:00")


def test_a_vote_prompt_shows_its_own_countdown() -> None:
    screen, console, clock = make()
    screen.board(BOARD)
    screen.said(Cue("vote.voter", {"seat": 2}, phase="day.vote"), "Seat 2, your vote?", 0.0)
    screen.listening(Prompt("day.vote.vote.2", (1, 4), deadline=20.0))
    assert has_big(draw(screen, console), "0:20")
    screen.listening(None)
    assert not has_big(draw(screen, console), "0:20")


def test_the_night_is_dark_and_the_same_for_every_call() -> None:
    screen, console, _ = make()
    screen.board(BOARD)
    screens = []
    for call in ("seer", "werewolves", "witch"):
        screen.said(Cue(f"{call}.sleep", phase=f"night.{call}"), "", 0.0)
        screens.append(draw(screen, console))
    assert screens[0] == screens[1] == screens[2]
    assert "alive" not in screens[0] and "Sheriff" not in screens[0] and not has_big(screens[0], "1")
    screen.show_private("seer.result", {"seat": 3, "role": "werewolf"})
    text = draw(screen, console)
    assert "Seat 3 is the Werewolf." in text and "private" in text
    screen.clear_private()
    assert draw(screen, console) == screens[0]


def test_typed_keys_echo_on_the_panel() -> None:
    from narrator.listening.keypad import KeypadParser

    screen, console, clock = make()
    screen.board(BOARD)
    screen.said(Cue("seer.wake", phase="night.seer"), "Seer, wake up.", 0.0)
    screen.show_private("seer.prompt", {})
    parser = KeypadParser()
    seen: list[str] = []
    answers: list[Heard] = []
    for key in ["1", "2", "clear", "1", "4", "enter"]:
        heard = parser.feed(key)
        screen.echo(parser.echo)
        seen.append(draw(screen, console))
        if heard is not None:
            answers.append(heard)
    assert answers == [Heard(14, "keypad", "14")]
    assert any("> 12" in s for s in seen) and any("> 14" in s for s in seen)


def test_the_first_morning_is_day_1_and_a_vote_death_is_not_morning() -> None:
    screen, console, _ = make()
    # The engine's day counter is 0 on the first morning (it counts from the first vote).
    screen.board({"phase": "dawn", "night": 1, "day": 0, "alive": [1, 2, 4, 5, 6], "revealed": {3: "werewolf"}})
    screen.said(Cue("day.dawn", phase="day.morning"), "The sun rises.", 0.0)
    text = draw(screen, console)
    assert "Day 1" in text and "Day 0" not in text and "Morning" in text
    screen.said(Cue("vote.eliminated", {"seat": 2}, phase="day.vote"), "Seat 2 is eliminated.", 0.0)
    screen.said(Cue("day.death", {"seat": 2}, phase="day.chain"), "Seat 2.", 0.0)
    screen.said(Cue("day.card", {"role": "cupid"}, phase="day.chain"), "Their card: Cupid.", 0.0)
    text = draw(screen, console)
    assert "Morning" not in text and "Vote" in text


def test_day_prompts_say_type_a_seat_number() -> None:
    screen, console, clock = make()
    screen.board(BOARD)
    screen.said(Cue("vote.voter", {"seat": 1}, phase="day.vote"), "Seat 1, your vote?", 0.0)
    screen.listening(Prompt("day.vote.vote.1", (1, 2, 4), deadline=clock.now() + 10))
    assert "Type a seat number, then Enter." in draw(screen, console)
    screen.listening(None)
    assert "Type a seat number" not in draw(screen, console)


def test_the_board_speaks_the_tables_language() -> None:
    clock = VirtualClock()
    console = Console(file=io.StringIO(), width=100, height=40, color_system=None)
    screen = ScreenDisplay(load_pack("fr"), clock, console, Timing())
    screen.board(BOARD)
    screen.said(Cue("vote.start", phase="day.vote"), "C'est l'heure du vote.", 0.0)
    text = draw(screen, console)
    assert "Jour 1" in text and "Capitaine" in text and "mort" in text and "en vie" in text
    assert "Day" not in text and "alive" not in text and "Captain" not in text


def test_the_board_shows_what_is_public_by_design() -> None:
    """The Sectarian's groups and the Actor's cards (board['public']) are drawn under the seats."""
    screen, console, _ = make()
    screen.board({**BOARD, "public": [["abominable_sectarian.group_b", {"seat": 4}], ["actor.card", {"role": "seer"}]]})
    screen.said(Cue("vote.start", phase="day.vote"), "Time to vote. Who should be eliminated?", 0.0)
    text = draw(screen, console)
    assert "Seat 4: group B." in text and "The Seer card." in text


def test_a_card_with_its_reminder_stays_an_indented_panel() -> None:
    """The reminder is longer than the screen is wide: it wraps inside the panel, which never takes
    the whole width (the day's caption box does)."""
    for width, height in ((100, 40), (80, 24)):
        console = Console(file=io.StringIO(), width=width, height=height, color_system=None)
        screen = ScreenDisplay(load_pack("en"), VirtualClock(), console)
        screen.show_private("deal.card", {"seat": 1, "role": "witch"}, (("reminder.witch", {}),))
        text = draw(screen, console)
        box = [line for line in text.splitlines() if "│" in line or "╭" in line]
        assert box and all(line.startswith("     ") for line in box), text
        assert "you are the Witch" in text and "for nobody (once)." in text


def test_the_board_shows_each_seats_name_as_text_whatever_was_typed() -> None:
    from narrator.names import People

    names = {1: "Ann", 2: "[bold red]Bo[/]", 4: "\x1b[2JEve\x07", 5: "🐺" * 3, 6: "X" * 10_000}
    clock = VirtualClock()
    console = Console(file=io.StringIO(), width=100, height=40, color_system="truecolor")
    screen = ScreenDisplay(load_pack("en").with_people(People(names)), clock, console, Timing())
    screen.board(BOARD)
    screen.said(Cue("vote.start", phase="day.vote"), "Time to vote.", 0.0)
    with console.capture() as cap:
        console.print(screen.render())
    text = cap.get()
    assert "Ann" in text and "[bold red]Bo[/]"[:10] in text  # markup shown as the characters typed
    assert "\x1b[2J" not in text and "\x07" not in text and "[2JEve" in text  # no escape reaches the terminal
    assert "🐺🐺🐺" in text
    assert "X" * 10 in text and "X" * 13 not in text and "…" in text  # a long name is cut to its card
    assert all(len(line) <= 100 for line in text.splitlines() if "\x1b" not in line)


def box_of(text: str) -> tuple[int, int, int, int]:
    """The private box's place on the screen: its first and last row, its left and right column."""
    rows = [i for i, line in enumerate(text.splitlines()) if "│" in line or "╭" in line or "╰" in line]
    top = next(i for i in rows if "╭" in text.splitlines()[i])
    bottom = next(i for i in rows if "╰" in text.splitlines()[i])
    line = text.splitlines()[top]
    return top, bottom, line.index("╭"), line.index("╮")


def test_every_deal_card_is_shown_in_a_box_of_the_same_size_whatever_the_role() -> None:
    from narrator.rules import Options, Role
    from narrator.table.deal import reminder

    console = Console(file=io.StringIO(), width=160, height=40, color_system=None)
    boxes = {}
    for role in (Role.SEER, Role.WEREWOLF, Role.FOX, Role.WITCH, Role.VILLAGER):
        screen = ScreenDisplay(load_pack("en"), VirtualClock(), console, Timing())
        screen.show_private("deal.card", {"seat": 3, "role": role.value}, ((reminder(role, Options()), {}),))
        text = draw(screen, console)
        assert "Seat 3: you are the" in text
        boxes[role] = box_of(text)
    assert len(set(boxes.values())) == 1, boxes
