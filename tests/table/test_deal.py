"""Deal mode (a): each seat sees exactly its own card, and no card stays on the screen after Enter."""

from __future__ import annotations

import io
import random
from typing import Callable

import pytest
from rich.console import Console

from narrator.errors import UsageError
from narrator.fakes import Timeline, TimelineDisplay
from narrator.clock import VirtualClock
from narrator.packs import load_pack
from narrator.ports import Heard, Prompt
from narrator.rules import Deal, Options, Role, deal
from narrator.table.deal import deal_on_screen
from narrator.table.screen import ScreenDisplay

ROLE_NAMES = ("Villager", "Werewolf", "Seer", "Witch", "Hunter", "Cupid", "Little Girl", "Thief")


class Keys:
    """Answers prompts in order; calls `look` before each answer, as a player would glance."""

    def __init__(self, answers: list[Heard], look: Callable[[Prompt], None] = lambda p: None) -> None:
        self.answers = answers
        self.look = look
        self.closed = False

    def listen(self, prompt: Prompt) -> Heard | None:
        self.look(prompt)
        if not self.answers:
            self.closed = True
            return None
        return self.answers.pop(0)


def keys_for(players: int, slips: dict[int, int] | None = None) -> list[Heard]:
    out: list[Heard] = []
    for seat in range(1, players + 1):
        if slips and seat in slips:
            out.append(Heard(slips[seat], "keypad", str(slips[seat])))  # a neighbour's number first
        out += [Heard(seat, "keypad", str(seat)), Heard("enter", "keypad", "")]
    return out


def a_deal(players: int = 9, seed: int = 3) -> Deal:
    deck = {Role.WEREWOLF: 2, Role.SEER: 1, Role.WITCH: 1, Role.HUNTER: 1, Role.VILLAGER: players - 5}
    return deal(players, deck, random.Random(seed), Options())


def test_every_seat_sees_its_own_card_and_only_it() -> None:
    d = a_deal()
    pack = load_pack("en")
    timeline = Timeline(VirtualClock())
    display = TimelineDisplay(pack, timeline)
    deal_on_screen(d, display, Keys(keys_for(9, slips={3: 4, 7: 1})))
    shown = [e for e in timeline.entries if e.get("key") == "deal.card"]
    assert [e["text"] for e in shown] == [
        f"Seat {seat}: you are the {pack.role_name(d.seats[seat - 1].value)}. Press Enter to hide.\n"
        + pack.panel_text(f"reminder.{d.seats[seat - 1].value}", {}) for seat in range(1, 10)
    ]
    # Each card is followed by a clear before the next seat is called.
    actions = [e["action"] for e in timeline.entries if e["kind"] == "private" and e["action"] != "feedback"]
    assert actions == ["show", "show", "clear"] * 9
    refused = [e["text"] for e in timeline.entries if e.get("action") == "feedback"]
    assert refused == [
        "Not possible: 4. Choose again.",
        "Not possible: 1. Choose again.",
    ]
    assert display.private is None


def test_the_full_screen_holds_no_card_after_enter() -> None:
    d = a_deal(players=8, seed=11)
    pack = load_pack("en")
    console = Console(file=io.StringIO(), width=100, height=40, color_system=None)
    screen = ScreenDisplay(pack, VirtualClock(), console)
    seen: list[tuple[str, str]] = []

    def look(prompt: Prompt) -> None:
        with console.capture() as cap:
            console.print(screen.render())
        seen.append((prompt.name, cap.get()))

    deal_on_screen(d, screen, Keys(keys_for(8), look))
    with console.capture() as cap:
        console.print(screen.render())
    seen.append(("after", cap.get()))
    for i, (name, text) in enumerate(seen):
        cards = [r for r in ROLE_NAMES if r in text]
        if name == "deal.hide":
            seat = i // 2 + 1
            assert cards == [pack.role_name(d.seats[seat - 1].value)], text
            assert f"Seat {seat}: you are the" in text
        else:
            assert cards == [], f"a card is on the screen at {name}:\n{text}"


def test_a_deal_stopped_midway_leaves_no_card() -> None:
    pack = load_pack("en")
    timeline = Timeline(VirtualClock())
    display = TimelineDisplay(pack, timeline)
    with pytest.raises(UsageError, match="the deal stopped: the input ended"):
        deal_on_screen(a_deal(), display, Keys([Heard(1), Heard("enter"), Heard(2)]))
    assert display.private is None and timeline.entries[-1]["action"] == "clear"


def test_the_card_shows_a_reminder_of_its_power_and_keys() -> None:
    """Before: only "Seat 3: you are the Scapegoat. Press Enter to hide."; the Scapegoat's list and the
    Devoted Servant's claim are day-time powers whose keys are on the card, before they are needed."""
    from narrator.rules import Deal, Role

    d = Deal((Role.SCAPEGOAT, Role.WEREWOLF, Role.DEVOTED_SERVANT, Role.SEER, Role.WEREWOLF, Role.VILLAGER,
              Role.VILLAGER, Role.VILLAGER))
    pack = load_pack("en")
    timeline = Timeline(VirtualClock())
    deal_on_screen(d, TimelineDisplay(pack, timeline), Keys(keys_for(8)))
    shown = [e["text"] for e in timeline.entries if e.get("key") == "deal.card"]
    assert shown[0] == ("Seat 1: you are the Scapegoat. Press Enter to hide.\nOn a tie you are eliminated instead; "
                        "then type who may vote tomorrow, seat by seat: - takes back, + ends.")
    assert shown[2].endswith("\nWhen a player is voted out, press + before their card is shown to take their card.")
    # Every role of the catalogue has its reminder in every pack (one line each).
    from narrator.packs import load_pack as load

    for language in ("en", "fr", "es", "it", "ko"):
        other = load(language)
        for role in Role:
            text = other.panel_text(f"reminder.{role.value}", {})
            assert text and "\n" not in text, (language, role)


def test_the_judges_reminder_follows_his_signal_option() -> None:
    from narrator.rules import Deal, Options, Role

    d = Deal((Role.STUTTERING_JUDGE, Role.WEREWOLF, Role.SEER, Role.VILLAGER, Role.VILLAGER, Role.WEREWOLF,
              Role.VILLAGER, Role.VILLAGER))
    pack = load_pack("en")
    shown = {}
    for signal in ("sign_during_vote", "night_arm"):
        timeline = Timeline(VirtualClock())
        deal_on_screen(d, TimelineDisplay(pack, timeline), Keys(keys_for(8)), Options(judge_signal=signal))
        shown[signal] = next(e["text"] for e in timeline.entries if e.get("key") == "deal.card").split("\n")[1]
    assert shown["sign_during_vote"] == "Once a game, press + before your vote: a second vote follows the same day."
    assert shown["night_arm"] == "Once a game, at night: + asks for a second vote the next day, - does not."



def test_a_mixed_table_the_screen_deals_only_the_seats_without_a_phone() -> None:
    from narrator.flow.script import Setup
    from narrator.flow.timing import Timing
    from narrator.headless import TimelineSpeaker
    from narrator.table.play import deal_at_table

    d = a_deal(players=8, seed=5)
    pack = load_pack("en")
    timeline = Timeline(VirtualClock())
    display = TimelineDisplay(pack, timeline)
    setup = Setup(8, "en", d, None, Options(), Timing())
    # Seats 2, 5 and 7 hold their card on their phone: the screen calls only 1, 3, 4, 6, 8; a phone
    # seat's number typed at the screen is refused.
    keys = [Heard(2, "keypad", "2")] + [h for seat in (1, 3, 4, 6, 8)
                                          for h in (Heard(seat, "keypad", str(seat)), Heard("enter", "keypad", ""))]
    listener = Keys(keys)
    deal_at_table(setup, "program", TimelineSpeaker(pack, timeline), listener, display, timeline.clock, (2, 5, 7))
    assert not listener.answers and not listener.closed
    called = [e["text"] for e in timeline.entries if e.get("key") == "deal.next"]
    assert called == [pack.panel_text("deal.next", {"seat": s}) for s in (1, 3, 4, 6, 8)]
    shown = [e["text"] for e in timeline.entries if e.get("key") == "deal.card"]
    assert [t.split(":")[0] for t in shown] == [f"Seat {s}" for s in (1, 3, 4, 6, 8)]
    assert [e["text"] for e in timeline.entries if e.get("action") == "feedback"] == ["Not possible: 2. Choose again."]
    # Every seat on a phone: nothing on the screen at all.
    quiet = Timeline(VirtualClock())
    deal_at_table(setup, "program", TimelineSpeaker(pack, quiet), Keys([]), TimelineDisplay(pack, quiet), quiet.clock,
                  range(1, 9))
    assert [e for e in quiet.entries if e["kind"] == "private"] == []
