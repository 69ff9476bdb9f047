"""A whole game in Debian's headless Chromium with the players' names typed on their phones, the TV
page open in a window of its own, and the view for the dead: the TV and the phones photographed by
day, at night and at the end (NARRATOR_TV_SHOTS=docs/tv keeps them: docs/tv.md shows them)."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from narrator.fakes import FakeListener, MemoryJournal, Timeline, TimelineSpeaker, VirtualClock
from narrator.flow.script import parse_script, parse_setup
from narrator.names import People
from narrator.packs import load_pack
from narrator.phones.hub import PhoneHub
from narrator.phones.names import close_names, take_names
from narrator.phones.run import play_with_phones
from narrator.phones.server import Limits, PhoneServer
from narrator.phones.table import PhoneTable
from narrator.table.tv_page import serve_tv
from narrator.ports import Heard, Prompt
from narrator.table.screen import ScreenDisplay, ScreenListener, ScreenSpeaker
from narrator.table.tv import TvBoard, TvJournal, TvSpeaker

from tests.phones.browser import Browser
from tests.phones.phone_helpers import Lockstep
from tests.table.test_tv_board import SCRIPT, SEER_FIRST

pytestmark = pytest.mark.slow
SHOTS = os.environ.get("NARRATOR_TV_SHOTS")
TV = 0  # the TV's window, beside the seats' tabs
TYPED = {1: "Ann", 2: "Bo", 3: "<b>Cleo</b>", 4: "Dmitri", 5: "Eve", 6: "Fay \U0001F43A", 8: "Ann",
         7: "Gus\x07\x1b[2J" + "x" * 10_000}  # a bell, an escape sequence and a paste of 10,000 characters
KEPT = {**TYPED, 7: "Gus[2J" + "x" * 16}  # cut to 24 characters on the page, the control characters dropped


def test_a_whole_game_with_names_from_the_phones_and_the_tv_page_in_chromium(tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    shots = Path(SHOTS) if SHOTS else tmp_path
    s = parse_setup({"language": "en", "players": 8, "roles": SEER_FIRST, "timing": {"debate": 60, "defence": 5}},
                    "SETUP")
    script = parse_script(SCRIPT, s.players, "SCRIPT")
    people = People()
    pack = load_pack("en").with_people(people)
    clock = VirtualClock()
    hub = PhoneHub(s.players, now=clock.now)
    server = PhoneServer(hub, limits=Limits(per_address=Limits.total))  # every tab comes from 127.0.0.1
    base = server.start()
    screen = ScreenDisplay(pack, clock, Console(file=io.StringIO(), width=120, height=40), s.timing)
    tv = TvBoard(screen, pack, s.players)
    address = serve_tv(server, tv, pack)
    take_names(hub, people)
    browser = Browser()
    seen: dict[str, Any] = {}
    try:
        for seat in range(1, s.players + 1):
            browser.open(seat, hub.link(seat, base))
        # Each player types their name on their phone ("Your name?"), once; the page sends it.
        def asked(d: Any) -> bool:
            hub.beat(0.0)  # the names, and that they are open, go out on the beat
            return bool(d.find_element(By.ID, "name").is_displayed())

        for seat, name in TYPED.items():
            browser.wait(seat, asked)
            browser.tab(seat).execute_script("document.getElementById('name-input').value = arguments[0];", name)
            browser.tab(seat).find_element(By.ID, "name-ok").click()
        end = time.monotonic() + 120
        while len(people.names()) < 8 and time.monotonic() < end:
            hub.beat(0.0)  # the names ride with the pages' answers to the beat
            time.sleep(0.05)
        assert people.names() == KEPT
        close_names(hub, people)  # the game starts: the names are fixed
        browser.driver.switch_to.new_window("window")
        browser.driver.set_window_size(1280, 720)
        browser.driver.get(address)
        browser.tabs[TV] = browser.driver.current_window_handle

        def on_tv(mode: str, name: str, also: str = "") -> None:
            """Wait (beat by beat) until the TV draws `mode` (and the element `also`), then photograph it."""
            def drawn(d: Any) -> bool:
                hub.beat(clock.now())
                return bool(d.find_element(By.TAG_NAME, "body").get_attribute("data-mode") == mode
                            and (not also or d.find_elements(By.CSS_SELECTOR, also)))

            browser.wait(TV, drawn, timeout=120)
            browser.screenshot(TV, shots / name)
            seen.setdefault("tv", []).append(mode)

        def tap(prompt: Prompt) -> bool:
            heard = script.answer(prompt)
            if heard is None or not prompt.allows(heard.choice):
                return False
            screen.listening(prompt)  # the day's countdown, as the table's listener shows every prompt's
            for seat in table.route(prompt):
                button = f'#choices button[data-choice="{heard.choice}"]'
                browser.wait(seat, lambda d: d.find_elements(By.CSS_SELECTOR, button))
                if prompt.name == "night.werewolves" and prompt.number == 2 and "night" not in seen:
                    seen["night"] = True
                    on_tv("night", "night.png")
                    browser.screenshot(6, shots / "dead.png")  # seat 6, eaten the first night, sees the wolves
                    seen["dead"] = browser.text(6, "dead")
                if prompt.name.startswith("day.vote") and "buttons" not in seen:
                    seen["buttons"] = [" ".join(b.text.split())
                                       for b in browser.tab(seat).find_elements(By.CSS_SELECTOR, "#choices button")]
                    browser.screenshot(seat, shots / "phone-names.png")
                if prompt.name.startswith("day.vote") and len(tv.votes) >= 4 and "day" not in seen:
                    seen["day"] = True
                    on_tv("day", "day.png", "#votes .tally")
                browser.wait(seat, lambda d: clicked(d, button))
                return True
            return False

        def clicked(driver: Any, button: str) -> bool:
            from selenium.common.exceptions import StaleElementReferenceException

            try:
                driver.find_element(By.CSS_SELECTOR, button).click()
            except StaleElementReferenceException:
                return False
            return True

        def keypad(prompt: Prompt) -> Heard | None:
            return None if table.route(prompt) else script.answer(prompt)

        table = PhoneTable(Lockstep(hub), screen, ScreenListener(FakeListener(clock, keypad, delay=1.0), screen), pack,
                           clock, hold=tap, dead_view=True)
        speaker = TvSpeaker(ScreenSpeaker(TimelineSpeaker(pack, Timeline(clock)), pack, screen), tv)
        game = play_with_phones(s, pack, table, speaker, clock, TvJournal(MemoryJournal(), tv), 0)
        on_tv("over", "end.png", "svg")
        end_cards = [e.text for e in browser.tab(TV).find_elements(By.CSS_SELECTOR, ".seat")]
        # No seat's card is wider than its box, and the page has no horizontal scroll.
        overflow = browser.tab(TV).execute_script(
            "var out = []; document.querySelectorAll('.seat').forEach(function (e) {"
            " if (e.scrollWidth > e.clientWidth + 1) { out.push(e.textContent); } });"
            " if (document.documentElement.scrollWidth > window.innerWidth) { out.push('page'); } return out;")
        tv_text = browser.text(TV, "table")
    finally:
        browser.quit()
        server.stop()
    assert game.outcome is not None and seen["tv"] == ["day", "night", "over"]
    # The names from the phones: on the voter's buttons ("6 Fay 🐺"), twins told apart, markup as text.
    assert "1 Ann (1)" in seen["buttons"] and "8 Ann (8)" in seen["buttons"] and "3 <b>Cleo</b>" in seen["buttons"]
    assert "6 Fay \U0001F43A" not in seen["buttons"] and "Fay \U0001F43A" in tv_text  # eaten the first night
    # The TV at the end: every seat's card, with its name.
    assert len(end_cards) == 8 and "Seer" in end_cards[0] and "Ann (1)" in end_cards[0]
    assert "<b>Cleo</b>" in tv_text and "Werewolf" in tv_text
    # The pasted name: its 24 characters as text, cut to its card; nothing else on the page moved.
    assert "Gus[2J" in tv_text and "\x1b" not in tv_text and "\x07" not in tv_text and "x" * 17 not in tv_text
    assert overflow == [], overflow
    # The dead seat's phone at night: the warning and every card.
    assert "Keep a straight face" in seen["dead"] and "1 Ann (1): Seer" in seen["dead"]
