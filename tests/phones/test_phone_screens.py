"""Every screen a phone shows follows the game (docs/phones.md, "What a phone shows"): its card from
the start of the deal, the night waiting until every phone's card was seen, `Change (-)` after an
answer, no note of the last voter's, the election labelled, night and day as they are said, the
game's end; and what is private to a phone seat is on that phone only."""

from __future__ import annotations

import threading
from typing import Any

from narrator.fakes import FakeListener, FakePhones, MemoryJournal, Timeline, TimelineDisplay, TimelineSpeaker, VirtualClock
from narrator.flow.run import start_game
from narrator.flow.script import parse_script, parse_setup
from narrator.packs import load_pack
from narrator.phones.run import play_with_phones
from narrator.phones.table import PhoneTable
from narrator.ports import Cue, Heard, Prompt

from tests.phones.phone_helpers import BASIC, FAST, SCRIPT, phone_players, play_phones

WOLVES = (2, 3)


def night_views(phones: FakePhones, seat: int) -> list[dict[str, Any]]:
    return [view for s, view, _ in phones.sent if s == seat and view.get("night")]


def test_a_joined_phone_holds_its_seat_and_card_from_the_start_of_the_deal_and_the_night_waits_until_each_was_seen() -> None:
    setup = parse_setup({"language": "en", **BASIC, "timing": dict(FAST)}, "SETUP")
    pack = load_pack("en")
    clock = VirtualClock()
    phones = FakePhones(setup.players)
    display = TimelineDisplay(pack, Timeline(clock))
    table = PhoneTable(phones, display, FakeListener(clock, lambda p: None), pack, clock)
    game = start_game(setup)
    table.deal(game)
    for seat in range(1, setup.players + 1):
        view = phones.views[seat]
        assert view["seat"] == seat and view["card"] == pack.role_name(game.role(seat).value) and view["mode"] == "deal"
    done = threading.Event()
    dealt_here: list[int] = []
    waiting = threading.Thread(target=lambda: (table.cards_seen((1, 2, 3), table.source(), dealt_here.append),
                                               done.set()), daemon=True)
    waiting.start()
    for seat in (1, 2):  # a player pressed, saw, let go: the page sends its seat on its deal view
        phones.tap(seat, seat)
    assert not done.wait(1.0)  # seat 3 has not looked yet: the game does not go on
    assert display.private is not None and "seats 3," in display.private
    phones.tap(3, 3)
    assert done.wait(60.0)
    assert table.seen == {1, 2, 3} and not dealt_here
    assert all(phones.views[seat]["mode"] == "rest" for seat in (1, 2, 3))


def test_a_phone_keeps_a_change_button_after_its_answer_while_minus_may_take_it_back() -> None:
    phones = FakePhones(8)
    play_phones(BASIC, SCRIPT, phones)
    wolf = night_views(phones, WOLVES[0])
    answered = [v for v in wolf if v["mode"] == "panel" and any("Victim" in line or "6" in line for line in v["lines"][1:])]
    assert answered, [v["lines"] for v in wolf if v["mode"] == "panel"]
    assert any(v["choices"] == [["no", "Change (-)"]] for v in answered), [v["choices"] for v in answered]


def test_the_next_voters_phone_opens_with_no_note_of_the_last_voters_answer() -> None:
    phones = FakePhones(8)
    play_phones(BASIC, SCRIPT, phones)
    firsts: dict[tuple[int, str], dict[str, Any]] = {}
    for seat, view, _ in phones.sent:
        if not view.get("night") and view["mode"] == "panel":
            firsts.setdefault((seat, view["lines"][0]), view)
    assert len(firsts) >= 8
    assert all(view["note"] == "" for view in firsts.values()), [v["note"] for v in firsts.values()]


def test_the_sheriffs_election_is_labelled_on_the_phone() -> None:
    phones = FakePhones(8)
    play_phones(BASIC, SCRIPT, phones)
    titles = {view["lines"][0] for _, view, _ in phones.sent if not view.get("night") and view["mode"] == "panel"}
    assert "Your turn to vote: who will be the Sheriff?" in titles and "Your turn to vote" in titles


def test_no_phone_shows_the_keypads_words_about_keys_typed_early() -> None:
    phones = FakePhones(8)
    play_phones(BASIC, SCRIPT, phones)
    assert not [view for _, view, _ in phones.sent if "Keys typed" in view.get("note", "")]


def test_every_phone_says_the_game_is_over_with_nothing_left_to_tap() -> None:
    phones = FakePhones(8)
    g = play_phones(BASIC, SCRIPT, phones)
    assert g.game.outcome is not None
    for seat in range(1, 9):
        assert phones.views[seat]["mode"] == "over" and phones.views[seat]["choices"] == []
        assert phones.views[seat]["lines"] == ["The game is over."]


class Seen(TimelineSpeaker):
    """Notes, as each line starts, what every phone shows (the lines before it have been said)."""

    def __init__(self, *args: Any, phones: FakePhones) -> None:
        super().__init__(*args)
        self.phones = phones
        self.shown: list[tuple[str, set[str]]] = []

    def say(self, cue: Cue, at: float | None = None) -> float:
        self.shown.append((cue.key, {" ".join(v.get("lines", [])) for v in self.phones.views.values()}))
        return super().say(cue, at)


def test_every_phone_goes_to_night_when_night_falls_and_to_day_with_the_first_line_of_the_morning() -> None:
    setup = parse_setup({"language": "en", **BASIC, "timing": dict(FAST)}, "SETUP")
    script = parse_script(SCRIPT, setup.players, "SCRIPT")
    pack = load_pack("en")
    clock = VirtualClock()
    timeline = Timeline(clock)
    phones = FakePhones(setup.players)
    table = PhoneTable(phones, TimelineDisplay(pack, timeline), FakeListener(clock, lambda p: None if table.route(p) else
                       script.answer(p), delay=1.0), pack, clock)
    table.hold = phone_players(script, phones, table, [])
    speaker = Seen(pack, timeline, phones=phones)
    play_with_phones(setup, pack, table, speaker, clock, MemoryJournal(), 0)
    keys = [key for key, _ in speaker.shown]
    after_nightfall = speaker.shown[keys.index("night.falls") + 1]
    assert after_nightfall[1] == {"Eyes closed. Sleep."}, after_nightfall
    dawn = next(i for i, key in enumerate(keys) if i > keys.index("night.falls") and key.startswith("day."))
    assert speaker.shown[dawn + 1][1] == {"Day. Listen to the narrator."}, speaker.shown[dawn + 1]


def laptop_panels(g: Any) -> str:
    return "\n".join(str(e.get("text", "")) for e in g.timeline.entries if e.get("kind") == "private")


def test_a_phone_seats_private_answer_is_on_its_phone_only_and_on_the_screen_when_it_has_no_phone() -> None:
    answer = "Seat 2 is the Werewolf."
    on_phones = play_phones(BASIC, SCRIPT, FakePhones(8))
    seer_views = night_views(on_phones.table.phones, 1)  # type: ignore[arg-type]
    assert any(answer in v["lines"] for v in seer_views)
    assert answer not in laptop_panels(on_phones)
    keypad_seer = play_phones(BASIC, SCRIPT, FakePhones(8, away=frozenset({1})))
    assert answer in laptop_panels(keypad_seer)


def test_the_witchs_save_question_offers_yes_and_no_not_change() -> None:
    phones = FakePhones(8)
    play_phones(BASIC, SCRIPT, phones)
    witch = [v for v in night_views(phones, 4) if v["mode"] == "panel" and v["choices"]]
    assert any(v["choices"] == [["yes", "Yes"], ["no", "No"]] for v in witch), [v["choices"] for v in witch]
