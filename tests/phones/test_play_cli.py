"""`narrator play --phones` in a real terminal (tmux), phones over real WebSockets on 127.0.0.1:
the links and QR codes before the screen starts, the cards on the phones (no deal on the screen),
the Seer's turn on her phone only, her tap journaled as a phone's answer, the links file beside
the journal. Slow: a real-time game."""

from __future__ import annotations

import asyncio
import base64
import json
import re
import stat
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from narrator.phones.crypto import seal, unseal
from tests.table.tmux import start, table_config

pytestmark = pytest.mark.slow
WAIT = 60.0


class Phones:
    """Phones speaking the page's protocol, on an event loop in a thread of their own."""

    def __init__(self, links: dict[int, str]) -> None:
        self.links = links
        self.views: dict[int, list[dict[str, Any]]] = {seat: [] for seat in links}
        self.pending: dict[int, Any] = {}
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.running = [asyncio.run_coroutine_threadsafe(self._run(seat), self.loop) for seat in links]

    async def _run(self, seat: int) -> None:
        import aiohttp

        path, fragment = self.links[seat].split("#")
        key = base64.urlsafe_b64decode(fragment + "==")
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(path.replace("http://", "ws://").replace("/p/", "/ws/")) as ws:
                challenge = json.loads((await ws.receive()).data)["c"]
                n = 0

                async def send(message: dict[str, Any]) -> None:
                    nonlocal n
                    n += 1
                    await ws.send_str(seal(key, {**message, "c": challenge, "n": n}))

                await send({"t": "hello", "device": f"phone-of-seat-{seat}"})
                async for msg in ws:
                    view = unseal(key, msg.data)["view"]
                    self.views[seat].append(view)
                    if view.get("mode") == "deal":  # pressed, read, let go: the page sends its seat
                        await send({"t": "answer", "v": view["id"], "choice": seat})
                    if view.get("night"):  # the page answers every night frame with one of its own
                        choice = self.pending.pop(seat, None)
                        await send({"t": "answer", "v": view["id"], "choice": choice} if choice is not None
                                   else {"t": "idle"})

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


def test_play_with_phones_in_a_terminal(tmp_path: Path) -> None:
    t = start(tmp_path, table_config(seer=6, werewolves=6, witch=6), "--screen", "full", "--no-audio",
              "--phones", "--phones-host", "127.0.0.1")
    phones: Phones | None = None
    try:
        t.wait("Enter = play with it")
        t.send("Enter")
        out = t.wait_output("Press Enter to start the game.")
        links = {int(seat): link for seat, link in
                 re.findall(r"Seat (\d+): scan with the phone of seat \d+, or open (http://127\.0\.0\.1:\d+/p/\S+)", out)}
        assert sorted(links) == [1, 2, 3, 4, 5]
        assert "▀" in out or "▄" in out  # the QR codes are drawn
        phones = Phones(links)
        for seat in links:
            phones.wait(seat, lambda v: True)  # joined: its hello was answered
        t.send("Enter")
        cards = {seat: phones.wait(seat, lambda v: "card" in v)["card"] for seat in links}
        assert "Seat 1: press your seat number" not in t.output()  # no deal on the screen
        seer = next(s for s, c in cards.items() if c == "Seer")
        wolf = next(s for s, c in cards.items() if c == "Werewolf")
        phones.wait(seer, lambda v: v.get("night") and any(c[0] == wolf for c in v.get("choices", ())))
        phones.pending[seer] = wolf
        phones.wait(seer, lambda v: f"Seat {wolf} is the Werewolf." in v.get("lines", []))
        # Nobody else's phone ever showed a panel while the Seer was awake.
        for seat in links:
            if seat not in (seer, wolf):
                assert all(v.get("mode") != "panel" for v in phones.views[seat] if v.get("night"))
        journal = next(p for p in (tmp_path / "data").rglob("*.jsonl"))
        end = time.monotonic() + WAIT
        while '"source": "phone"' not in journal.read_text() and time.monotonic() < end:
            time.sleep(0.05)
        records = [json.loads(line) for line in journal.read_text().splitlines() if line.strip()]
        assert {"kind": "input", "prompt": "night.seer", "choice": wolf, "source": "phone"}.items() <= \
            next(r for r in records if r.get("prompt") == "night.seer").items()
        assert records[0].get("phones") is True
        saved = journal.with_name(journal.name + ".phones.json")
        assert stat.S_IMODE(saved.stat().st_mode) == 0o600
        assert json.loads(saved.read_text())[str(seer)]["device"] == f"phone-of-seat-{seer}"
    finally:
        if phones is not None:
            phones.close()
        t.close()
