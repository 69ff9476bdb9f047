"""`narrator play --screen --phones` in a real terminal (tmux): the TV page's address said before the
game with its QR code, the page and its board on the phones' server; the names from the setup and
from a phone on the phones, the TV, the journal and the history; the TV at night shows the night's
number only. Slow: a real-time game."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.acceptance.test_play_phones_terminal import WAIT, Phones
from tests.table.tmux import start, table_config

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("terminal")]


class Tv:
    """The TV's page on its socket (a thread of its own): every frame it gets, as JSON."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.frames: list[dict[str, Any]] = []
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._run(), self.loop)

    async def _run(self) -> None:
        import aiohttp

        origin = self.address.rsplit("/tv", 1)[0]
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(origin.replace("http://", "ws://") + "/tv/ws", origin=origin) as ws:
                async for msg in ws:
                    self.frames.append(json.loads(msg.data))

    def close(self) -> None:
        async def stop() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(timeout=WAIT)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=WAIT)


def test_play_with_the_tv_page_and_names_from_the_setup_and_a_phone(tmp_path: Path) -> None:
    import urllib.request

    config = table_config(seer=6, werewolves=6, witch=6) + '\n[names]\n"1" = "Ann"\n"2" = "Bo"\n'
    t = start(tmp_path, config, "--screen", "--no-audio", "--phones", "--phones-host", "127.0.0.1")
    phones: Phones | None = None
    tv: Tv | None = None
    try:
        t.wait("Enter = play with it")
        t.send("Enter")
        links: dict[int, str] = {}
        for seat in range(1, 6):
            out = t.wait_output(f"Seat {seat}: scan with the phone of seat {seat}, or open ")
            links[seat] = re.findall(rf"or open (http://127\.0\.0\.1:\d+/p/\S+)", out)[-1]
            t.wait(lambda text: "leave it open, screen on, face down" in text)
            t.send("Enter")
        out = t.wait_output("Press Enter to start the game.")
        address = re.findall(r"TV: open (http://127\.0\.0\.1:\d+/tv) in the TV's browser", out)[-1]
        assert "▀" in t.screen() or "▄" in t.screen()  # its QR code is drawn
        with urllib.request.urlopen(address, timeout=WAIT) as page:
            assert page.status == 200 and b"/static/tv.js" in page.read()
        tv = Tv(address)
        cards: dict[int, str] = {}

        def choose(seat: int, view: dict[str, Any]) -> Any:
            cards[seat] = view["card"]
            wolf = next((s for s, c in cards.items() if c == "Werewolf"), None)
            seats = [c[0] for c in view["choices"] if isinstance(c[0], int)]
            if view["night"]:
                if cards[seat] == "Werewolf":
                    return next(s for s in seats if cards.get(s) not in ("Seer", "Witch"))
                return None
            return wolf if wolf in seats else "nobody"

        # Seat 5's player types a name with markup and an escape sequence; seat 1 already has one.
        phones = Phones(links, choose, names={5: "<i>Eve</i>\x1b[2J", 1: "Not asked"})
        for seat in links:
            phones.wait(seat, lambda v: True)
        end = time.monotonic() + WAIT
        while phones.shown.get(3, {}).get("5") is None and time.monotonic() < end:
            time.sleep(0.05)  # seat 5's name reached every phone (on a beat): the table may start
        t.send("Enter")
        for seat in links:
            cards[seat] = phones.wait(seat, lambda v: "card" in v)["card"]
        assert phones.shown[3].get("5") == "<i>Eve</i>[2J" and phones.shown[3]["1"] == "Ann", (phones.shown, phones.names)
        t.wait(lambda screen: "Press Enter to leave" in screen or "Enter alone finishes" in screen, timeout=600)
        frames = list(tv.frames)
        t.send("Enter")
        assert t.exit_code() == 0
        assert "Traceback" not in t.output() and "\x1b[2JEve" not in t.output()
    finally:
        for closing in (phones, tv):
            if closing is not None:
                closing.close()
    nights = [f for f in frames if f["mode"] == "night"]
    assert nights and {json.dumps(f, sort_keys=True) for f in nights} <= {
        json.dumps({"t": "tv", "mode": "night", "title": title}, sort_keys=True)
        for title in ("Narrator", "Night 1", "Night 2", "Night 3", "Night 4")}
    days = [f for f in frames if f["mode"] in ("day", "over")]
    names = {s["n"]: s["name"] for s in days[-1]["seats"]}
    assert names == {1: "Ann", 2: "Bo", 3: "", 4: "", 5: "<i>Eve</i>[2J"}
    assert frames[-1]["mode"] == "over" and all(s["role"] for s in frames[-1]["seats"])
    journal = next(p for p in (tmp_path / "data").rglob("*.jsonl"))
    head = json.loads(journal.read_text().splitlines()[0])
    assert head["names"] == {"1": "Ann", "2": "Bo", "5": "<i>Eve</i>[2J"} and head["tv"] is True
    from narrator.history import db

    conn = db.connect(tmp_path / "data" / "history.sqlite3")
    (row,) = db.games(conn)
    named = dict(conn.execute("SELECT seat, name FROM seats WHERE game_id = ? AND name IS NOT NULL", (row.id,)))
    assert named == {1: "Ann", 2: "Bo", 5: "<i>Eve</i>[2J"}
