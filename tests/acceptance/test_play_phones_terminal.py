"""`narrator play --phones` in a real terminal (tmux), phones over real WebSockets on 127.0.0.1:
the links and QR codes before the screen starts, the cards on the phones (no deal on the screen),
the Seer's turn on her phone only, her tap journaled as a phone's answer, the links file beside
the journal. Slow: a real-time game."""

from __future__ import annotations

import asyncio
import json
import re
import stat
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from narrator.phones.crypto import key_bytes
from tests.phones.phone_helpers import PhoneSide
from tests.table.tmux import start, table_config

pytestmark = pytest.mark.slow
WAIT = 300.0  # far: the game starts after its first lines are rendered, slow on a loaded machine


class Phones:
    """Phones speaking the page's protocol, on an event loop in a thread of their own: one answer
    for every frame, the tap `choose(seat, view)` picks when a view first shows its buttons."""

    def __init__(self, links: dict[int, str], choose: Any, names: dict[int, str] | None = None) -> None:
        self.links = links
        self.choose = choose
        self.names = dict(names or {})  # the name each phone gives when it is asked ("Your name?")
        self.shown: dict[int, dict[str, str]] = {}  # the table's names as each phone last got them
        self.views: dict[int, list[dict[str, Any]]] = {seat: [] for seat in links}
        self.answered: set[tuple[Any, ...]] = set()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.running = [asyncio.run_coroutine_threadsafe(self._run(seat), self.loop) for seat in links]

    async def _run(self, seat: int) -> None:
        import aiohttp

        path, fragment = self.links[seat].split("#")
        side = PhoneSide(key_bytes(fragment), f"phone-of-seat-{seat}")
        origin = path.split("/p/")[0]
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(path.replace("http://", "ws://").replace("/p/", "/ws/"), origin=origin) as ws:
                await ws.send_bytes(side.hello((await ws.receive()).data))
                async for msg in ws:
                    message = side.open(msg.data)
                    if message["t"] == "names":  # the table's names: answered like any frame
                        self.shown[seat] = message["names"]
                        # As the page: asked only while the names are open, for a seat without one.
                        asked = message["open"] and not message["names"].get(str(seat))
                        give = self.names.pop(seat, None) if asked else None
                        await ws.send_bytes(side.seal({"t": "name", "name": give} if give else {"t": "idle"}))
                        continue
                    view = message["view"]
                    self.views[seat].append(view)
                    answer: dict[str, Any] = {"t": "idle"}
                    if view.get("mode") == "deal" and (seat, view.get("id")) not in self.answered:
                        # Pressed, read, let go (a beat later, as a player does): the page sends its seat.
                        if (seat, "read", view.get("id")) in self.answered:
                            self.answered.add((seat, view.get("id")))
                            answer = {"t": "answer", "v": view["id"], "choice": seat}
                        else:
                            self.answered.add((seat, "read", view.get("id")))
                    elif view.get("choices") and (seat, view.get("id")) not in self.answered:
                        choice = self.choose(seat, view)
                        if choice is not None:
                            self.answered.add((seat, view.get("id")))
                            answer = {"t": "answer", "v": view["id"], "choice": choice}
                    await ws.send_bytes(side.seal(answer))

    def wait(self, seat: int, test: Any) -> dict[str, Any]:
        end = time.monotonic() + WAIT
        while time.monotonic() < end:
            for view in list(self.views[seat]):
                if test(view):
                    return view
            time.sleep(0.05)
        raise AssertionError(f"seat {seat}'s phone never showed it; it got {self.views[seat][-3:]}")

    def close(self) -> None:
        async def stop() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(timeout=WAIT)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=WAIT)
        self.loop.close()


async def close_code(link: str) -> int | None:
    """What a connection on `link` gets now: the challenge (None) or its close code."""
    import aiohttp

    path = link.split("#")[0]
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(path.replace("http://", "ws://").replace("/p/", "/ws/"),
                                      origin=path.split("/p/")[0]) as ws:
            msg = await ws.receive()
            return None if msg.type == aiohttp.WSMsgType.TEXT else ws.close_code


def test_play_with_phones_in_a_terminal(tmp_path: Path) -> None:
    t = start(tmp_path, table_config(seer=6, werewolves=6, witch=6), "--screen", "full", "--no-audio",
              "--phones", "--phones-host", "127.0.0.1")
    phones: Phones | None = None
    try:
        t.wait("Enter = play with it")
        t.send("Enter")
        # One seat's link at a time; Enter clears it, with the terminal's scrollback.
        links: dict[int, str] = {}
        for seat in range(1, 6):
            out = t.wait_output(f"Seat {seat}: scan with the phone of seat {seat}, or open ")
            found = re.findall(rf"Seat {seat}: scan with the phone of seat {seat}, or open (http://127\.0\.0\.1:\d+/p/\S+)",
                               out)
            links[seat] = found[-1]
            screen = t.wait(lambda text: "leave it open, screen on, face down" in text)
            assert "▀" in screen or "▄" in screen  # its QR code is drawn
            assert not any(f"Seat {other}: scan" in screen for other in range(1, 6) if other != seat)
            t.send("Enter")
        t.wait_output("Press Enter to start the game.")
        history = t.scrollback()
        assert "/p/" not in history and not any(link.split("#")[1] in history for link in links.values())
        cards: dict[int, str] = {}

        def choose(seat: int, view: dict[str, Any]) -> Any:
            cards[seat] = view["card"]
            wolf = next((s for s, c in cards.items() if c == "Werewolf"), None)
            seats = [c[0] for c in view["choices"] if isinstance(c[0], int)]
            if view["night"]:
                if cards[seat] == "Seer" and wolf in seats:
                    return wolf
                if cards[seat] == "Werewolf":
                    return next(s for s in seats if cards.get(s) not in ("Seer", "Witch"))
                return None
            return wolf if wolf in seats else "nobody"  # every vote goes to the Werewolf

        phones = Phones(links, choose)
        for seat in links:
            phones.wait(seat, lambda v: True)  # joined: its hello was answered
        t.send("Enter")
        for seat in links:
            cards[seat] = phones.wait(seat, lambda v: "card" in v)["card"]  # its card, on the beat
        assert "Seat 1: press your seat number" not in t.output()  # no deal on the screen
        seer = next(s for s, c in cards.items() if c == "Seer")
        wolf = next(s for s, c in cards.items() if c == "Werewolf")
        phones.wait(seer, lambda v: f"Seat {wolf} is the Werewolf." in v.get("lines", []))
        # Nobody else's phone ever showed a panel while the Seer was awake.
        for seat in links:
            if seat not in (seer, wolf):
                assert all(v.get("mode") != "panel" or v.get("lines") != phones.views[seer][-1].get("lines")
                           for v in phones.views[seat] if v.get("night"))
        journal = next(p for p in (tmp_path / "data").rglob("*.jsonl"))
        records = [json.loads(line) for line in journal.read_text().splitlines() if line.strip()]
        assert {"kind": "input", "prompt": "night.seer", "choice": wolf, "source": "phone"}.items() <= \
            next(r for r in records if r.get("prompt") == "night.seer").items()
        assert records[0].get("phones") is True
        saved = journal.with_name(journal.name + ".phones.json")
        assert stat.S_IMODE(saved.stat().st_mode) == 0o600
        # The village votes the Werewolf out: game over. The links die then, before Enter leaves.
        t.wait(lambda screen: "Press Enter to leave" in screen or "Enter alone finishes" in screen, timeout=600)
        for seat in links:
            assert asyncio.run(close_code(links[seat])) == 4401, t.screen()  # refused: the game is over
        assert not t.status.exists()  # the game-over screen still waits for its Enter
        t.send("Enter")
        assert t.exit_code() == 0
        assert "Traceback" not in t.output() and not saved.exists()
    finally:
        if phones is not None:
            phones.close()
        t.close()
