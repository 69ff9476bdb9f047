"""Phones over a real network, not the loopback: the laptop in a network namespace of the test's own,
Debian's Chromium at a phone's size in another, a veth pair between them (tests/netns.py). The
laptop prints each seat's link and QR code; the phones open what the QR code itself says (zbar).
Whole games of 8 and 18 seats; every phone state photographed (artifacts/acceptance/phones-N/)
and checked against what it should show."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.acceptance.phones import ASLEEP, DAY, ELECT, GONE, OTHER, VOTE, Phones
from tests.acceptance.table import ARTIFACTS, answer_every_question, command, fresh_clone, no_traceback, qr_codes
from tests.netns import Network
from tests.table.tmux import Tmux

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fresh_clone(tmp_path_factory.mktemp("clone"))


def config(players: int) -> str:
    """The table's remembered setup (`--config FILE`), its turns short: the phones answer at once."""
    wolves = 2 if players < 12 else 4
    return f"""players = {players}
language = "en"
inputs = "keypad"
deal = "program"
phones = true
speech_scale = 0.05
[roles]
werewolf = {wolves}
seer = 1
witch = 1
hunter = 1
[timing]
seer = 10
werewolves = 12
witch = 12
gap = 0.3
suspense = 0.3
debate = 5
vote = 15
chain = 15
defence = 5
"""


def written_after(t: Tmux, first: str, then: str) -> str:
    """The terminal's output once `then` is written after the last `first` (far deadline)."""
    end = time.monotonic() + 600
    while True:
        out = t.output()
        at = out.rfind(first)
        if at >= 0 and then in out[at:]:
            return out
        if time.monotonic() > end:
            raise AssertionError(f"{then!r} never followed {first!r}; the screen shows:\n{t.screen()}")
        time.sleep(0.05)


def join_one_by_one(t: Tmux, net: Network, phones: Phones, players: int) -> None:
    """The laptop shows one seat's link and QR code at a time: that seat's player opens what the code
    holds (read back from the terminal as drawn), then Enter shows the next seat's."""
    for seat in range(1, players + 1):
        t.wait_output(f"Seat {seat}: scan with the phone of seat {seat}", timeout=600)
        # Its code is drawn whole once the line under it is printed: read in the output log itself,
        # which can lag behind the screen on a loaded machine.
        out = written_after(t, f"Seat {seat}: scan", "leave it open, screen on, face down")
        assert f"Phones: this laptop listens on {net.laptop_ip} port " in out, out[-3000:]
        printed, decoded = qr_codes(out)[seat]
        assert decoded == printed and re.fullmatch(rf"http://{re.escape(net.laptop_ip)}:\d+/p/[\w-]+#[\w-]+", decoded)
        phones.join(seat, decoded)
        t.send("Enter")  # the link leaves the screen
    t.wait_output("Press Enter to start the game.")
    assert "Play with phones" not in t.output()


@pytest.mark.parametrize("players", [8, 18])
def test_a_whole_game_on_every_seats_phone_over_the_tables_own_network(clone: Path, tmp_path: Path, players: int) -> None:
    net = Network()
    home = tmp_path / "home"
    (home / "config").mkdir(parents=True)
    (home / "config" / "config.toml").write_text(config(players))
    shots = ARTIFACTS / f"phones-{players}"
    shots.mkdir(parents=True, exist_ok=True)
    t = command(clone, home, ".venv/bin/narrator play --phones --no-audio", prefix=tuple(net.run_in(net.laptop)))
    phones: Phones | None = None
    try:
        t.wait("Enter = play with it", timeout=600)
        t.send("Enter")
        with net.inside(net.phone):
            phones = Phones(shots)
            try:
                join_one_by_one(t, net, phones, players)
                the_same_phone_elsewhere(phones, phones.links[1])
                t.send("Enter")  # the laptop starts the game: the deal
                phones.deal()
                phones.play_until(lambda: "closed" in phones.shot if phones else True)
                for seat in phones.links:  # every page: the game is over, nothing of its seat left
                    phones.wait(seat, lambda s: s["status"] == GONE, "the end of its link")
                a_wrong_link(phones, phones.links[1].split("/p/")[0])
            finally:
                phones.quit()
        t.wait("Enter alone finishes")  # the game-over screen (a rematch: *)
        t.send("Enter")  # the table leaves the game-over screen
        assert t.exit_code() == 0
        assert re.search(r"game over: the winner is (village|werewolves)", t.output())
        no_traceback(t)
    finally:
        t.close()
        net.close()
        (shots / "laptop.txt").write_text(t.output())
    states = set(phones.shot)
    assert {"joined", "deal", "card-held", "night-asleep", "night-seer-asked", "night-seer-answered",
            "night-werewolves-asked", "day", "election", "vote", "replaced", "wrong-link", "closed"} <= states, states
    shot = phones.shot
    assert shot["card-held"]["card"] == phones.cards[1] and shot["deal"]["seat"] == "Seat 1"
    assert shot["night-asleep"]["lines"] == [ASLEEP] and shot["day"]["lines"] == [DAY]
    assert shot["election"]["lines"] == [ELECT] and shot["vote"]["lines"] == [VOTE]
    assert ["nobody", "Nobody"] in shot["vote"]["choices"]
    assert phones.votes >= players  # the election's votes at least, each on the voter's own phone


def the_same_phone_elsewhere(phones: Phones, link: str) -> None:
    """Seat 1's link opened again on another page of the same phone: the old page keeps nothing of the
    seat; the new page closed, the old one takes its seat back."""
    old = phones.browser.tabs.pop(1)
    phones.open(1, link)
    phones.wait(1, lambda s: s["status"] == "Connected", "the seat on the new page")
    new = phones.browser.tabs[1]
    phones.browser.tabs[0] = old
    gone = phones.wait(0, lambda s: s["status"] == OTHER, "the seat taken elsewhere")
    phones.photo("replaced", 0, gone)
    assert gone["seat"] == "" and not gone["cardShown"] and gone["choices"] == [] and gone["lines"] == []
    phones.browser.driver.switch_to.window(new)
    phones.browser.driver.close()
    phones.browser.tabs[1] = phones.browser.tabs.pop(0)
    phones.wait(1, lambda s: s["status"] == "Connected", "its seat back on the old page")


def a_wrong_link(phones: Phones, base: str) -> None:
    phones.open(-1, f"{base}/p/not-a-link-of-this-game")
    driver = phones.browser.tab(-1)
    page = phones.look(-1)
    assert page["refused"] == GONE, page
    assert driver.execute_script("return getComputedStyle(document.body).backgroundColor") == "rgb(0, 0, 0)"
    phones.photo("wrong-link", -1, page)


def test_play_phones_from_a_fresh_clone_to_the_first_night_over_the_tables_own_network(
        clone: Path, tmp_path: Path) -> None:
    """The README's `./play --phones` as written, Enter at every setup question: the links on the
    laptop's address on the network, every phone's card, the Seer's turn on her phone."""
    net = Network()
    shots = ARTIFACTS / "play-phones"
    shots.mkdir(parents=True, exist_ok=True)
    t = command(clone, tmp_path / "home", "./play --phones", prefix=tuple(net.run_in(net.laptop)))
    try:
        t.wait("Play without sound?", timeout=600)  # no sound card here: the table chooses the silent screen
        t.type("1")
        answer_every_question(t, "Seat 1: scan with the phone of seat 1")
        with net.inside(net.phone):
            phones = Phones(shots)
            try:
                join_one_by_one(t, net, phones, 8)
                t.send("Enter")
                phones.deal()
                phones.play_until(lambda: "night-seer-answered" in phones.shot)
            finally:
                phones.quit()
        t.send("C-c")
        assert t.exit_code() == 130
        no_traceback(t)
    finally:
        t.close()
        net.close()
        (shots / "laptop.txt").write_text(t.output())
