"""The table's own web server for the phones: the page, its scripts, one WebSocket per phone.

aiohttp (HTTP and WebSockets in one well-kept package, one thread, one event loop; see the
commit that added it for the measurements). Only files of narrator/phones/static are served: no
CDN, nothing from the internet. The server runs in a thread of its own; `PhoneHub` does the rest.
"""

from __future__ import annotations

import asyncio
import html
import json
import threading
from importlib import resources
from typing import Any, Mapping

from aiohttp import WSMsgType, web

from narrator.phones.crypto import Refused
from narrator.phones.hub import CLOSE_REFUSED, PhoneHub
from narrator.phones.table import LABELS

STATIC = ("phone.js", "nacl-fast.min.js", "phone.css", "tweetnacl-LICENSE.txt")  # and phone.html at /p/TOKEN
_TYPES = {"js": "text/javascript", "css": "text/css", "txt": "text/plain", "html": "text/html"}
_HEADERS = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff",
            "Content-Security-Policy": "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:"}


def _static(name: str) -> bytes:
    return resources.files("narrator.phones").joinpath("static").joinpath(name).read_bytes()


class _WsConn:
    """A `Conn` over one aiohttp WebSocket: sends in order on the server's loop, from any thread."""

    def __init__(self, ws: web.WebSocketResponse, loop: asyncio.AbstractEventLoop) -> None:
        self.ws = ws
        self.loop = loop
        self.out: asyncio.Queue[tuple[str, int, str] | None] = asyncio.Queue()
        self.writer = loop.create_task(self._write())

    def send_text(self, text: str) -> None:
        self.loop.call_soon_threadsafe(self.out.put_nowait, ("text", 0, text))

    def close(self, code: int, reason: str) -> None:
        self.loop.call_soon_threadsafe(self.out.put_nowait, ("close", code, reason))

    async def _write(self) -> None:
        while True:
            item = await self.out.get()
            if item is None:
                return
            kind, code, text = item
            try:
                if kind == "text":
                    await self.ws.send_str(text)
                else:
                    await self.ws.close(code=code, message=text.encode("utf-8"))
                    return
            except (ConnectionError, RuntimeError):
                return


class PhoneServer:
    """`start()` serves the hub's phones on host:port (port 0: any free one) and returns the base URL."""

    def __init__(self, hub: PhoneHub, host: str = "127.0.0.1", port: int = 0, beat: float | None = None) -> None:
        self.hub = hub
        self.host = host
        self.port = port
        self.beat = beat  # real-time beats from the server's loop (None: PhoneTable keeps the schedule)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="phones-server", daemon=True)
        self.runner: web.AppRunner | None = None
        self.base = ""
        self.beating: asyncio.Task[None] | None = None
        self.page = b""
        self.set_labels(LABELS, "en")

    def set_labels(self, labels: Mapping[str, str], language: str) -> None:
        """The page's own words in the table's language (`phone_labels`), put in the page itself."""
        data = json.dumps(dict(labels), ensure_ascii=True).replace("<", "\\u003c").replace(">", "\\u003e")
        page = _static("phone.html").decode("utf-8")
        page = (page.replace("__LANG__", html.escape(language)).replace("__TITLE__", html.escape(labels["title"]))
                .replace("__LABELS__", data))
        self.page = page.encode("utf-8")
        # A link that is not this game's: the page's own dark style, one line in the table's language.
        self.refused = (f'<!doctype html><html lang="{html.escape(language)}"><head><meta charset="utf-8">'
                        '<meta name="viewport" content="width=device-width, initial-scale=1">'
                        f'<title>{html.escape(labels["title"])}</title><link rel="stylesheet" href="/static/phone.css">'
                        f'</head><body><div id="refused">{html.escape(labels["refused_link"])}</div></body></html>'
                        ).encode("utf-8")

    def start(self) -> str:
        self.thread.start()
        try:
            asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(timeout=30)
        except BaseException:
            self.stop()  # the address cannot be had: nothing left running
            raise
        return self.base

    def stop(self) -> None:
        if self.beating is not None:
            self.loop.call_soon_threadsafe(self.beating.cancel)
        if self.runner is not None:
            asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(timeout=30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=30)

    async def _start(self) -> None:
        app = web.Application()
        app.router.add_get("/p/{token}", self._page)
        app.router.add_get("/static/{name}", self._file)
        app.router.add_get("/ws/{token}", self._socket)
        self.runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self.runner.setup()
        site = web.TCPSite(self.runner, self.host, self.port)
        await site.start()
        server = site._server
        assert server is not None
        sockets: Any = getattr(server, "sockets", ())
        port = sockets[0].getsockname()[1]
        self.base = f"http://{self.host}:{port}"
        if self.beat is not None:
            self.beating = self.loop.create_task(self._beats(self.beat))

    async def _beats(self, every: float) -> None:
        """The night's fixed schedule in real time: every `every` seconds, every phone its view."""
        start = self.loop.time()
        k = 0
        while True:
            k += 1
            await asyncio.sleep(max(0.0, start + k * every - self.loop.time()))
            if self.hub.is_night:
                self.hub.beat(self.loop.time())

    async def _page(self, request: web.Request) -> web.Response:
        try:
            self.hub.seat_of(request.match_info["token"])
        except Refused:
            return web.Response(status=404, body=self.refused, content_type="text/html", charset="utf-8",
                                headers=_HEADERS)
        return web.Response(body=self.page, content_type="text/html", charset="utf-8", headers=_HEADERS)

    async def _file(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            return web.Response(status=404, text="no such file", headers=_HEADERS)
        kind = _TYPES[name.rsplit(".", 1)[1]]
        return web.Response(body=_static(name), content_type=kind, charset="utf-8", headers=_HEADERS)

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=20.0, max_msg_size=16384)
        await ws.prepare(request)
        try:
            seat, channel = self.hub.connect(request.match_info["token"])
        except Refused as exc:
            await ws.close(code=exc.code, message=str(exc)[:100].encode("utf-8"))
            return ws
        conn = _WsConn(ws, self.loop)
        await ws.send_str(json.dumps({"t": "challenge", "c": channel.challenge}))
        greeted = False
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    break
                if not greeted:
                    self.hub.hello(seat, channel, conn, msg.data)
                    greeted = True
                else:
                    self.hub.receive(seat, channel, msg.data)
        except Refused as exc:
            conn.close(exc.code, str(exc)[:100])
            await conn.writer
        finally:
            self.hub.gone(seat, channel)
            if not conn.writer.done():
                conn.out.put_nowait(None)
        if not ws.closed:
            await ws.close(code=CLOSE_REFUSED if not greeted else 1000)
        return ws
