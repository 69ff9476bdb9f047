"""A whole game of the `wherewolf` preset (docs/rules-spec.md#presets) on every seat's phone in
Debian's headless Chromium: the secret accusation vote taken on each voter's own page, the others'
pages at rest meanwhile, the ballot and the end checked at dawn. The screenshots of the vote go to
NARRATOR_PHONE_SHOTS=DIR when given (docs/phones/accusation*.png were taken so). Slow: one browser."""

from __future__ import annotations

import os
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
from narrator.rules import Options, Side
from narrator.table.presets import expand

from tests.phones.browser import Browser
from tests.phones.phone_helpers import FAST, Lockstep

pytestmark = pytest.mark.slow
SHOTS = os.environ.get("NARRATOR_PHONE_SHOTS")

ROLES = {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch"}
# No devouring on night 1 (the preset); day 1 accuses 2 and 5 (three each), the ballot burns 2;
# night 2 the pack eats 8; day 2 burns 3, the last wolf: the game ends at the next dawn.
SCRIPT = {"nights": [{"seer": 2, "witch": {"heal": False, "poison": 0}},
                     {"werewolves": 8, "seer": 3, "witch": {"heal": False, "poison": 0}}, {"seer": 5}],
          "days": [{"votes": {1: 2, 4: 2, 5: 2, 2: 5, 3: 5, 8: 5, 6: 0, 7: 0},
                    "revote": {1: 2, 3: 5, 4: 2, 6: 2, 7: 2, 8: 2}, "vote_now": True},
                   {"votes": {1: 3, 4: 3, 5: 3, 6: 3, 7: 3, 3: 1}, "revote": {4: 3, 5: 3, 6: 3, 7: 3},
                    "vote_now": True}]}


def test_a_wherewolf_preset_game_with_the_secret_accusation_vote_on_every_phone_in_chromium(tmp_path: Path) -> None:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    shots = Path(SHOTS) if SHOTS else tmp_path
    preset = Options.parse(expand(["preset=wherewolf"]))
    options = {k: v for k, v in preset.to_dict().items() if v != Options().to_dict()[k]}
    s = parse_setup({"language": "en", "players": 8, "roles": ROLES, "possible": ["cupid", "hunter"],
                     "options": {**options, "captain_election": "never"}, "timing": dict(FAST)}, "SETUP")
    script = parse_script(SCRIPT, s.players, "SCRIPT")
    pack = load_pack("en")
    clock = VirtualClock()
    hub = PhoneHub(s.players, now=clock.now)
    server = PhoneServer(hub, limits=Limits(per_address=Limits.total))
    base = server.start()
    browser = Browser()
    timeline = Timeline(clock)
    journal = MemoryJournal()
    seen: dict[str, Any] = {"resting": []}
    try:
        for seat in range(1, s.players + 1):
            browser.open(seat, hub.link(seat, base))
        for seat in range(1, s.players + 1):
            browser.wait(seat, lambda d: d.find_element(By.ID, "status").text == "Connected")

        def clicked(driver: Any, button: str) -> bool:
            try:
                driver.find_element(By.CSS_SELECTOR, button).click()
            except StaleElementReferenceException:
                return False
            return True

        def tap(prompt: Prompt) -> bool:
            heard = script.answer(prompt)
            if heard is None or not prompt.allows(heard.choice):
                return False
            for seat in table.route(prompt):
                button = f'#choices button[data-choice="{heard.choice}"]'
                browser.wait(seat, lambda d: d.find_elements(By.CSS_SELECTOR, button))
                if prompt.name == "day.vote.accusation.4" and prompt.number == 1:
                    # The called voter's page, and another's at the same moment, eyes closed.
                    browser.screenshot(seat, shots / "accusation.png")
                    browser.screenshot(7, shots / "accusation-others.png")
                    seen["resting"] = [browser.text(o, "lines") for o in (6, 7)]
                    seen["choices"] = browser.text(seat, "choices")
                    seen["title"] = browser.text(seat, "lines")
                browser.wait(seat, lambda d: clicked(d, button))
                return True
            return False

        def keypad(prompt: Prompt) -> Heard | None:
            return None if table.route(prompt) else script.answer(prompt)

        table = PhoneTable(Lockstep(hub), TimelineDisplay(pack, timeline), FakeListener(clock, keypad, delay=1.0), pack,
                           clock, hold=tap)
        game = play_with_phones(s, pack, table, TimelineSpeaker(pack, timeline), clock, journal, 0)
    finally:
        browser.quit()
        server.stop()
    assert game.outcome is not None and game.outcome.winner is Side.VILLAGE
    phone = [(r["prompt"], r["choice"]) for r in journal.records() if r["kind"] == "input" and r["source"] == "phone"]
    # Every accusation of day 1 from the voter's own page.
    assert [c for p, c in phone if p.startswith("day.vote.accusation.")][:6] == [2, 5, 5, 2, 2, "nobody"]
    said = [e["text"] for e in timeline.entries if e["kind"] == "say"]
    assert "Everyone, close your eyes. When I call your seat, accuse one player on your phone." in said
    assert said.count("3 accusations.") >= 2 and not any("Their card" in line for line in said[:-16])
    # The game ended at the dawn after the last wolf was burned, after a night of calls.
    assert said.index("The day is over.", len(said) - 40) < said.index("The game is over. Victory for the village.")
    assert seen["resting"] == ["Day. Listen to the narrator.", "Day. Listen to the narrator."]
    assert "1" in seen["choices"] and "Nobody" in seen["choices"]
    assert seen["title"] == "Eyes closed: accuse one player"
    assert not hub.refusals, hub.refusals
