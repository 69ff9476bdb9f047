"""The page in Debian's Chromium, its wire captured by a TCP proxy in the path (tests/phones/wire.py):
no compression (every frame one length), no other origin may frame the page or open its socket,
the page kept awake by a silent video once touched, a page replaced by the same device's other
page takes its seat back when it is in front, and what a page in the background does to the wire
(measured, docs/phones.md). The server keeps its real-time beat. Slow: Chromium."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from aiohttp import web

from narrator.phones.crypto import SEALED_BYTES, SEALED_UP_BYTES
from narrator.phones.hub import PhoneHub
from narrator.phones.server import PhoneServer

from tests.phones.browser import Browser
from tests.phones.wire import Connection, Proxy

pytestmark = pytest.mark.slow
BEAT = 0.1


def until(test: Callable[[], Any], what: str, deadline: float = 120.0) -> Any:
    end = time.monotonic() + deadline
    while True:
        value = test()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"never: {what}")
        time.sleep(0.05)


class Table:
    """A hub of four seats, its server with a real-time beat, a proxy in front of it."""

    def __init__(self, tmp_path: Path) -> None:
        self.hub = PhoneHub(4)
        for seat in range(1, 5):
            self.hub.show(seat, {"id": 1, "seat": seat, "mode": "rest", "lines": ["Eyes closed. Sleep."], "note": "",
                                 "choices": [], "card": "Villager", "night": True})
        self.proxy = Proxy()
        self.base = self.proxy.start()
        self.server = PhoneServer(self.hub, beat=BEAT, public=self.base, log=tmp_path / "wire.log")
        self.server.start()
        self.proxy.target = self.server.address

    def link(self, seat: int) -> str:
        return self.hub.link(seat, self.base)

    def socket_of(self, seat: int) -> Connection:
        token = self.hub.seats[seat].token
        return [c for c in self.proxy.sockets() if f"/ws/{token} " in c.handshake()[0]][-1]

    def close(self) -> None:
        self.server.stop()
        self.proxy.stop()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    try:
        yield t
    finally:
        t.close()


def answered(connection: Connection) -> tuple[int, int]:
    """Sealed frames down and answers up on a connection so far."""
    down = [f for f in connection.frames("down") if f.opcode == 2]
    up = [f for f in connection.frames("up") if f.opcode == 2][1:]  # after the hello
    return len(down), len(up)


def test_chromium_gets_no_compression_and_frames_of_one_length_each_way(table: Table) -> None:
    browser = Browser()
    try:
        browser.open(1, table.link(1))
        until(lambda: 1 in table.hub.joined(), "the page holds its seat")
        until(lambda: answered(table.socket_of(1))[1] >= 40, "40 beats answered")
    finally:
        browser.quit()
    connection = table.socket_of(1)
    request, response = connection.handshake()
    assert "permessage-deflate" in request.lower()  # Chromium offers it...
    assert "sec-websocket-extensions" not in response.lower()  # ...the laptop never takes it
    down = [f for f in connection.frames("down") if f.opcode == 2]
    up = [f for f in connection.frames("up") if f.opcode == 2]
    assert {(f.payload, f.compressed) for f in down} == {(SEALED_BYTES, False)}
    assert {(f.payload, f.compressed) for f in up} == {(SEALED_UP_BYTES, False)}
    assert len({f.wire for f in down}) == 1 and len({f.wire for f in up}) == 1


EVIL = """<!doctype html><html><body>
<iframe id="framed" src="{page}"></iframe><div id="socket">waiting</div>
<script>
var ws = new WebSocket("{socket}");
ws.onmessage = function () {{ document.getElementById("socket").textContent = "message"; }};
ws.onerror = function () {{ document.getElementById("socket").textContent = "refused"; }};
</script></body></html>"""


def test_a_page_of_another_origin_can_neither_frame_the_phone_page_nor_open_its_socket(table: Table) -> None:
    from selenium.webdriver.common.by import By

    import asyncio
    import threading

    page = table.link(1).split("#")[0]
    evil_page = EVIL.format(page=table.link(1), socket=page.replace("http://", "ws://").replace("/p/", "/ws/"))
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()

    async def serve() -> tuple[web.AppRunner, int]:
        app = web.Application()
        async def front(request: web.Request) -> web.Response:
            return web.Response(text=evil_page, content_type="text/html")

        app.router.add_get("/", front)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        return runner, site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    runner, port = asyncio.run_coroutine_threadsafe(serve(), loop).result(timeout=600)
    browser = Browser()
    try:
        browser.open(1, f"http://127.0.0.1:{port}/")
        until(lambda: browser.text(1, "socket") != "waiting", "the other origin's socket settles")
        assert browser.text(1, "socket") == "refused"
        frame = browser.tab(1).find_element(By.ID, "framed")
        browser.driver.switch_to.frame(frame)
        assert browser.driver.find_elements(By.ID, "card") == []  # the phone page refused to be framed
        browser.driver.switch_to.default_content()
    finally:
        browser.quit()
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(timeout=600)
        loop.call_soon_threadsafe(loop.stop)
    assert table.hub.joined() == ()


def test_the_page_is_kept_awake_once_touched_and_a_replaced_page_in_front_takes_its_seat_back(table: Table) -> None:
    from selenium.webdriver.common.by import By

    def videos() -> int:
        return sum(bytes(c.up.data).count(b"GET /static/awake.") for c in table.proxy.connections)

    browser = Browser()
    try:
        browser.open(1, table.link(1))
        until(lambda: 1 in table.hub.joined(), "the page holds its seat")
        first = table.hub.seats[1].link
        assert browser.tab(1).execute_script("return document.body.dataset.awake") is None  # no touch yet
        until(lambda: videos() == 1, "the video fetched with the page")
        browser.tab(1).find_element(By.ID, "status").click()
        until(lambda: browser.tab(1).execute_script("return document.body.dataset.awake") == "yes",
              "the silent video plays")
        assert videos() == 1  # nothing crossed the Wi-Fi at the touch
        # The same device opens the seat again in another tab (as a reload would): it takes the
        # seat, the first page is told 4410 and, in the background, waits.
        browser.open(2, table.link(1))
        until(lambda: table.hub.seats[1].link not in (None, first), "the second page holds the seat")
        second = table.hub.seats[1].link
        until(lambda: browser.text(1, "status") == "This seat is open on another page.", "the first page is told")
        browser.tab(1)  # in front again: it takes its seat back
        until(lambda: table.hub.seats[1].link not in (None, second), "the first page takes its seat back")
        assert browser.text(1, "status") == "Connected"
    finally:
        browser.quit()


def test_a_page_in_the_background_keeps_its_beat_and_a_frozen_one_shows(table: Table) -> None:
    """Measured in Chromium as a phone's browser runs it (pages in the background throttled): a
    page hidden behind another keeps answering every frame; a page frozen for 5 s (as a locked
    phone's) answers none, then all of them at once when it thaws (docs/phones.md says so)."""
    browser = Browser(background=True)
    try:
        browser.open(1, table.link(1))
        until(lambda: 1 in table.hub.joined(), "the page holds its seat")
        browser.open(2, table.link(2))  # seat 1's page is now in the background (WebDriver stays on tab 2)
        until(lambda: 2 in table.hub.joined(), "the second page holds its seat")
        hidden_from = answered(table.socket_of(1))
        until(lambda: answered(table.socket_of(1))[0] >= hidden_from[0] + 50, "50 beats in the background")
        down, up = answered(table.socket_of(1))
        assert up >= down - 1  # every frame answered (one may be on its way)
        tab = browser.tab(1)
        tab.execute_cdp_cmd("Page.enable", {})
        tab.execute_cdp_cmd("Page.setWebLifecycleState", {"state": "frozen"})
        frozen_at = answered(table.socket_of(1))
        browser.tab(2)  # seat 1's page back in the background, frozen
        time.sleep(5.0)  # the freeze itself (not a bound on anything)
        during = answered(table.socket_of(1))
        browser.tab(1).execute_cdp_cmd("Page.setWebLifecycleState", {"state": "active"})
        until(lambda: answered(table.socket_of(1))[1] >= answered(table.socket_of(1))[0] - 1, "the thawed page answers")
    finally:
        browser.quit()
    assert during[0] - frozen_at[0] >= 30  # the beat went on
    assert during[1] - frozen_at[1] <= 1  # frozen: no answer (one may have been on its way)
