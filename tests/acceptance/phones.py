"""Every seat's phone, played by a person who knows the cards: Debian's Chromium at a phone's size
(390x844), one tab a seat, in the phones' own network namespace; each state a phone meets is
photographed once and checked against what it should show."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from tests.phones.browser import Browser

SNAPSHOT = """
var q = function (id) { var e = document.getElementById(id); return e ? e.textContent : null; };
var card = document.getElementById("card");
return JSON.stringify({mode: document.body.getAttribute("data-mode"), view: document.body.getAttribute("data-view"),
  status: q("status"), seat: q("seat"), card: card ? card.textContent : null, refused: q("refused"),
  cardShown: !!card && card.offsetParent !== null,
  lines: Array.prototype.map.call(document.querySelectorAll("#lines div"), function (d) { return d.textContent; }),
  choices: Array.prototype.map.call(document.querySelectorAll("#choices button"),
                                    function (b) { return [b.getAttribute("data-choice"), b.textContent]; }),
  note: q("note"), echo: q("echo"), text: document.body.innerText});
"""
ASLEEP, DAY, OVER = "Eyes closed. Sleep.", "Day. Listen to the narrator.", "The game is over."
VOTE, ELECT = "Your turn to vote", "Your turn to vote: who will be the Sheriff?"
GONE, OTHER = "This link is not one of this game's, or the game is over.", "This seat is open on another page."
WAIT = 120.0


class Phones:
    """The phones of a game: `join` opens each seat's link, `deal` presses and holds every card,
    `play_until(done)` answers every question each phone is asked, as that seat's player would."""

    def __init__(self, shots: Path) -> None:
        self.links: dict[int, str] = {}
        self.shots = shots
        self.browser = Browser()
        self.cards: dict[int, str] = {}
        self.answered: dict[int, str] = {}  # seat -> the view it last answered
        self.taken: set[int] = set()  # seats known dead (their phone is asked nothing more)
        self.shot: dict[str, dict[str, Any]] = {}  # state -> the snapshot taken with its screenshot
        self.votes = 0

    # ---- looking and tapping ----------------------------------------------------------------

    def look(self, seat: int) -> dict[str, Any]:
        return dict(json.loads(self.browser.tab(seat).execute_script(SNAPSHOT)))

    def photo(self, state: str, seat: int, snap: dict[str, Any] | None = None) -> dict[str, Any]:
        """The screenshot of `state` (once), kept with what the page showed then."""
        snap = snap or self.look(seat)
        if state not in self.shot:
            self.browser.screenshot(seat, self.shots / f"{state}.png")
            self.shot[state] = {**snap, "seat_number": seat}
            (self.shots / f"{state}.json").write_text(json.dumps(self.shot[state], indent=1, ensure_ascii=False))
        return snap

    def tap(self, seat: int, choice: str) -> None:
        self.browser.tab(seat).execute_script(
            "var b = document.querySelector('#choices button[data-choice=\"' + arguments[0] + '\"]'); if (b) b.click();",
            choice)

    def wait(self, seat: int, test: Any, what: str) -> dict[str, Any]:
        end = time.monotonic() + WAIT
        while True:
            snap = self.look(seat)
            if test(snap):
                return snap
            if time.monotonic() > end:
                raise AssertionError(f"seat {seat}'s phone never showed {what}; it shows {snap}")
            time.sleep(0.1)

    # ---- the game ---------------------------------------------------------------------------

    def phone_size(self) -> None:
        """The tab at a phone's size (390x844 CSS pixels): a headless window is not made smaller than 500."""
        self.browser.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                            {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})

    def open(self, key: int, link: str) -> None:
        self.browser.open(key, link)
        self.phone_size()

    def join(self, seat: int, link: str) -> None:
        """The seat's player opens the link its QR code holds; the page says it is connected."""
        self.links[seat] = link
        self.open(seat, link)
        snap = self.wait(seat, lambda s: s["status"] == "Connected", "Connected")
        assert "undefined" not in snap["text"], snap
        if seat == 1:
            self.photo("joined", 1, snap)

    def deal(self) -> None:
        """Every phone shows its seat and its card from the start of the deal; each player presses,
        reads, lets go."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By

        for seat in sorted(self.links):
            snap = self.wait(seat, lambda s: s["mode"] == "deal", "the deal")
            assert snap["seat"] == f"Seat {seat}" and snap["choices"] == [] and snap["cardShown"], snap
            if seat == 1:
                self.photo("deal", seat, snap)
            driver = self.browser.tab(seat)
            card = driver.find_element(By.ID, "card")
            ActionChains(driver).click_and_hold(card).perform()
            held = self.look(seat)
            self.cards[seat] = held["card"]
            if seat == 1:
                self.photo("card-held", seat, held)
            ActionChains(driver).release(card).perform()
            assert self.look(seat)["card"] == "Press and hold to see your card"
        assert len(set(self.cards.values())) >= 3, self.cards

    def wolves(self) -> set[int]:
        return {seat for seat, card in self.cards.items() if card == "Werewolf"}

    def choose(self, seat: int, snap: dict[str, Any]) -> str | None:
        """What this seat's player taps on the question shown (None: nothing to answer)."""
        choices = [c for c, _ in snap["choices"]]
        seats = sorted(int(c) for c in choices if c.isdigit())
        words = [c for c in choices if not c.isdigit()]
        title = snap["lines"][0] if snap["lines"] else ""
        wolves = self.wolves() - self.taken
        if not seats and words == ["no"]:
            return None  # answered: only Change (-) is left
        if title == ELECT:
            return str(min(seats))
        if title == VOTE or title == "Choose a seat":
            targets = [s for s in seats if s in wolves and s != seat] or [s for s in seats if s != seat]
            return str(targets[0]) if targets else ("nobody" if "nobody" in words else None)
        card = self.cards[seat]
        if card == "Werewolf":
            prey = [s for s in seats if s not in self.wolves()]
            return str(prey[0]) if prey else None
        if "yes" in words and "no" in words and not seats:
            return "no"  # the Witch keeps her healing potion
        if "nobody" in words:
            return "nobody"
        others = [s for s in seats if s != seat]
        return str(others[0]) if others else None

    def play_until(self, done: Any, limit: float = 1800.0) -> None:
        """Round after round every phone is looked at, and its question answered, until `done()` (a
        game stuck for `limit` real seconds fails: far beyond any game's length)."""
        end = time.monotonic() + limit
        while not done():
            assert time.monotonic() < end, f"the game did not end in {limit} s; the phones show {self.shot.keys()}"
            for seat in sorted(self.links):
                if done():
                    return
                snap = self.look(seat)
                self.check(seat, snap)
                if not snap["choices"] or snap["view"] == self.answered.get(seat):
                    continue
                choice = self.choose(seat, snap)
                if choice is None:
                    continue
                self.record(seat, snap)
                self.tap(seat, choice)
                self.answered[seat] = snap["view"]
                if snap["lines"][:1] in ([VOTE], [ELECT]) and choice.isdigit():
                    self.votes += 1

    def check(self, seat: int, snap: dict[str, Any]) -> None:
        """Whatever the moment: the seat's own number, no card unless held, buttons only on a panel."""
        if snap["mode"] in ("rest", "panel", "over", "deal"):
            assert snap["seat"] == f"Seat {seat}", snap
            assert snap["card"] == "Press and hold to see your card", snap
        if snap["mode"] != "panel":
            assert snap["choices"] == [], snap
        title = snap["lines"][0] if snap["lines"] else ""
        if snap["choices"] and title not in (VOTE, ELECT, "Choose a seat"):
            # A night panel only on the phones of a role that is called: never a Villager's or the Hunter's.
            assert self.cards[seat] in ("Seer", "Werewolf", "Witch"), (self.cards[seat], snap)
        if snap["mode"] == "rest" and snap["lines"] == [ASLEEP]:
            self.photo("night-asleep", seat, snap)
        if snap["mode"] == "rest" and snap["lines"] == [DAY]:
            self.photo("day", seat, snap)
        if snap["mode"] == "panel" and self.cards.get(seat) == "Seer" and any(" is the " in line for line in snap["lines"]):
            assert not [c for c, _ in snap["choices"] if c.isdigit()], snap  # her look is final: no seat to tap
            self.photo("night-seer-answered", seat, snap)
        if snap["mode"] == "over":
            assert snap["lines"] == [OVER], snap
            self.photo("over", seat, snap)
        if snap["status"] == GONE:  # the game is over: its links died with it
            assert snap["seat"] == "" and not snap["cardShown"] and snap["choices"] == [], snap
            self.photo("closed", seat, snap)

    def record(self, seat: int, snap: dict[str, Any]) -> None:
        """The question a phone is asked, photographed the first time each kind comes."""
        title = snap["lines"][0] if snap["lines"] else ""
        if title == ELECT:
            self.photo("election", seat, snap)
        elif title == VOTE:
            self.photo("vote", seat, snap)
        elif title == "Choose a seat":
            self.photo("hunter", seat, snap)
        elif self.cards[seat] == "Seer":
            self.photo("night-seer-asked", seat, snap)
        elif self.cards[seat] == "Werewolf":
            self.photo("night-werewolves-asked", seat, snap)
        elif self.cards[seat] == "Witch":
            self.photo("night-witch-asked", seat, snap)

    def quit(self) -> None:
        self.browser.quit()
