"""A whole game played on real phones' pages: Debian's headless Chromium, one tab per seat, driven
through the page's DOM; the laptop's server on 127.0.0.1. Slow: one browser, few games."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from narrator.fakes import FakeListener, MemoryJournal, Timeline, TimelineDisplay, TimelineSpeaker, VirtualClock
from narrator.flow.script import parse_script, parse_setup
from narrator.packs import load_pack
from narrator.phones.hub import PhoneHub
from narrator.phones.run import play_with_phones
from narrator.phones.server import Limits, PhoneServer
from narrator.phones.table import PhoneTable
from narrator.ports import Heard, Prompt

from tests.phones.browser import Browser
from tests.phones.phone_helpers import BASIC, FAST, SCRIPT, Lockstep, play_keypad

pytestmark = pytest.mark.slow
# NARRATOR_PHONE_SHOTS=DIR keeps the screenshots (docs/phones/ holds the ones taken so).
SHOTS = os.environ.get("NARRATOR_PHONE_SHOTS")


# Eight seats, on the loopback and the virtual clock, every phone's state checked in the DOM; whole
# games of 8 and 18 seats with the laptop and the phones on a network of the test's own are in
# test_phones_network.py.
@pytest.mark.parametrize("players", [8])
def test_a_whole_game_on_every_seats_phone_in_chromium(players: int, tmp_path: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    shots = Path(SHOTS) if SHOTS and players == 8 else tmp_path
    setup = {**BASIC, "players": players}
    s = parse_setup({"language": "en", **setup, "timing": dict(FAST)}, "SETUP")
    script = parse_script(SCRIPT, s.players, "SCRIPT")
    pack = load_pack("en")
    clock = VirtualClock()
    hub = PhoneHub(s.players, now=clock.now)
    server = PhoneServer(hub, limits=Limits(per_address=Limits.total))  # every tab comes from 127.0.0.1
    base = server.start()
    assert base.startswith("http://127.0.0.1:")
    browser = Browser()
    timeline = Timeline(clock)
    journal = MemoryJournal()
    seen: dict[str, Any] = {"shots": set(), "asleep": []}
    try:
        for seat in range(1, s.players + 1):
            browser.open(seat, hub.link(seat, base))
        for seat in range(1, s.players + 1):
            browser.wait(seat, lambda d: d.find_element(By.ID, "status").text == "Connected")

        def tap(prompt: Prompt) -> bool:
            heard = script.answer(prompt)
            if heard is None or not prompt.allows(heard.choice):
                return False
            for seat in table.route(prompt):
                button = f'#choices button[data-choice="{heard.choice}"]'
                if players == 8 and prompt.name == "night.seer" and "drop" not in seen:
                    seen["drop"] = drop_network(seat)
                browser.wait(seat, lambda d: d.find_elements(By.CSS_SELECTOR, button))
                if prompt.night and "night" not in seen["shots"]:
                    seen["shots"].add("night")
                    browser.screenshot(seat, shots / "night.png")
                    # Every other phone shows the same neutral screen meanwhile.
                    others = [o for o in range(1, s.players + 1) if o not in table.route(prompt)]
                    seen["asleep"] = [browser.text(o, "lines") for o in others[:2]]
                if prompt.name.startswith("day.vote") and "vote" not in seen["shots"]:
                    seen["shots"].add("vote")
                    browser.screenshot(seat, shots / "vote.png")
                browser.wait(seat, lambda d: clicked(d, button))
                return True
            return False

        def clicked(driver: Any, button: str) -> bool:
            """Click the answer's button; False (and again) when the page redrew its panel between
            the find and the click: a stale button is detached, so the click did not reach the page."""
            from selenium.common.exceptions import StaleElementReferenceException

            try:
                driver.find_element(By.CSS_SELECTOR, button).click()
            except StaleElementReferenceException:
                return False
            return True

        def drop_network(seat: int) -> list[str]:
            """The seer's phone off the network for 5 s mid-turn: DevTools' offline
            emulation, and its socket stopped at the laptop; it comes back by itself."""
            tab = browser.tab(seat)
            tab.execute_cdp_cmd("Network.enable", {})
            tab.execute_cdp_cmd("Network.emulateNetworkConditions",
                                {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
            conn = hub.seats[seat].conn
            assert conn is not None
            conn.close(1012, "the network dropped")
            browser.wait(seat, lambda d: d.find_element(By.ID, "status").text == "Reconnecting…")
            time.sleep(5.0)  # the drop itself (not a bound on anything)
            statuses = [browser.text(seat, "status")]
            tab.execute_cdp_cmd("Network.emulateNetworkConditions",
                                {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
            browser.wait(seat, lambda d: d.find_element(By.ID, "status").text == "Connected")
            return statuses

        def keypad(prompt: Prompt) -> Heard | None:
            return None if table.route(prompt) else script.answer(prompt)

        table = PhoneTable(Lockstep(hub), TimelineDisplay(pack, timeline), FakeListener(clock, keypad, delay=1.0), pack,
                           clock, hold=tap)
        # The deal: each phone holds its card, seen only while pressed.
        from narrator.flow.run import start_game

        game_preview = start_game(s)
        table.attach(game_preview)
        browser.wait(1, lambda d: d.find_element(By.ID, "seat").text == "Seat 1")
        card = browser.tab(1).find_element(By.ID, "card")
        assert "Seer" not in card.text
        ActionChains(browser.driver).click_and_hold(card).perform()
        assert card.text == "Seer"
        browser.screenshot(1, shots / "deal.png")
        ActionChains(browser.driver).release(card).perform()
        assert "Seer" not in card.text and "hold" in card.text
        assert browser.tab(2).find_element(By.ID, "card").text != "Werewolf"

        game = play_with_phones(s, pack, table, TimelineSpeaker(pack, timeline), clock, journal, 0)
    finally:
        browser.quit()
        server.stop()
    keypad_game = play_keypad(setup, SCRIPT)
    assert game.outcome is not None and keypad_game.game.outcome is not None
    assert game.outcome.winner == keypad_game.game.outcome.winner
    phone = [(r["prompt"], r["choice"]) for r in journal.records() if r["kind"] == "input" and r["source"] == "phone"]
    assert ("night.seer", 2) in phone and ("night.werewolves", 6) in phone
    assert sum(1 for name, _ in phone if name.startswith("day.vote")) >= players
    assert seen["asleep"] and all(text == "Eyes closed. Sleep." for text in seen["asleep"])
    assert not hub.refusals, hub.refusals
    if players == 8:
        # The 5 s drop: still off the network at its end, then back; its answer counted, once.
        assert seen["drop"] == ["Reconnecting…"]
        assert [c for name, c in phone if name == "night.seer"] == [2]
