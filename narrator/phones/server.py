"""The table's own web server for the phones: the page, its scripts, one WebSocket per phone.

aiohttp (HTTP and WebSockets in one well-kept package, one thread, one event loop; see the
commit that added it for the measurements). Only files of narrator/phones/static are served: no
CDN, nothing from the internet. The server runs in a thread of its own; `PhoneHub` does the rest.

What a stranger on the Wi-Fi can do to it is bounded (docs/phones.md, Security):
- connections that do not hold a seat are few per address and few in all (`Limits`): past
  either bound the oldest of them is closed, so a flood never takes the descriptors the game
  needs, and a phone joining always gets in; each must hold its seat within `Limits.hello`
  seconds; a phone that owes an answer for `Limits.idle` seconds (it answers every frame) or does
  not read what it is sent (`Limits.queue` frames waiting) is closed;
- a request whose Host is not the table's address, or a WebSocket whose Origin is not the
  page's, is refused; the page may not be framed and may connect only to its own origin;
- messages are never compressed (every frame the same length on the wire);
- nothing that arrives from the network reaches the laptop's terminal: aiohttp's and the hub's
  lines go to a bounded log file (`wire_log`), or nowhere;
- the beat cannot die: a failed beat is logged and the next one goes on.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import logging.handlers
import os
import threading
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Mapping
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from narrator.phones.crypto import SEALED_UP_BYTES, Refused
from narrator.phones.hub import CLOSE_REFUSED, WIRE, Link, PhoneHub
from narrator.phones.table import LABELS

STATIC = ("phone.js", "nacl-fast.min.js", "phone.css", "tweetnacl-LICENSE.txt", "awake.mp4", "awake.webm",
          "NoSleep-LICENSE.txt", "tv.js", "tv.css")  # and phone.html at /p/TOKEN, tv.html at /tv
_TYPES = {"js": "text/javascript", "css": "text/css", "txt": "text/plain", "html": "text/html",
          "mp4": "video/mp4", "webm": "video/webm"}


@dataclass(frozen=True)
class Limits:
    """What the server allows a connection (seconds, counts). A connection that does not hold a
    seat yet (a page or a script being fetched, a socket before its hello) is "waiting"."""

    per_address: int = 16  # waiting connections from one address (a phone opens three or four)
    total: int = 256  # waiting connections in all (far under the descriptors the laptop has)
    hello: float = 20.0  # seconds a waiting connection may stay (a page loads, its socket says hello)
    idle: float = 20.0  # seconds a phone that owes an answer may stay silent (it answers every frame)
    queue: int = 80  # frames waiting for a phone that does not read them (20 s of beats)
    viewers: int = 8  # TV pages watching the board at once (past it, the oldest is closed)
    log_bytes: int = 512 * 1024  # the log file's size before it is rotated (two files at most)


class _Printable(logging.Formatter):
    """A log line as text that cannot move a terminal's cursor (every control character escaped),
    cut to `MAX` characters: what a stranger sends may be in it."""

    MAX = 2000

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        if len(text) > self.MAX:
            text = text[: self.MAX] + f"... ({len(text) - self.MAX} more characters)"
        return "".join(c if c.isprintable() or c == "\n" else c.encode("unicode_escape").decode("ascii") for c in text)


_QUIET = ("aiohttp", "asyncio")  # their lines about the server's loop go to the wire's log too


def wire_log(path: Path | None, max_bytes: int = Limits.log_bytes) -> logging.Handler:
    """Where what arrives from the network is written: `path` (two files of `max_bytes` at most,
    readable by the laptop's user only), or nowhere. Never the terminal."""
    handler: logging.Handler
    if path is None:
        handler = logging.NullHandler()
    else:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
        handler = logging.handlers.RotatingFileHandler(path, maxBytes=max_bytes, backupCount=1, encoding="utf-8")
        handler.setFormatter(_Printable("%(asctime)s %(name)s %(levelname)s %(message)s"))
    WIRE.addHandler(handler)
    WIRE.setLevel(logging.INFO)
    aio = logging.getLogger("aiohttp")
    aio.addHandler(handler)
    aio.propagate = False
    return handler


def _static(name: str) -> bytes:
    return resources.files("narrator.phones").joinpath("static").joinpath(name).read_bytes()


def _filled_page(name: str, labels: Mapping[str, str], language: str) -> bytes:
    """A static page with the table's words put in it (as JSON no `</script>` can end early)."""
    data = json.dumps(dict(labels), ensure_ascii=True).replace("<", "\\u003c").replace(">", "\\u003e")
    page = _static(name).decode("utf-8")
    return (page.replace("__LANG__", html.escape(language)).replace("__TITLE__", html.escape(labels["title"]))
            .replace("__LABELS__", data)).encode("utf-8")


class _WsConn:
    """A `Conn` over one aiohttp WebSocket: sends in order on the server's loop, from any thread;
    a phone that lets `limit` frames wait (it does not read) is closed."""

    def __init__(self, ws: web.WebSocketResponse, loop: asyncio.AbstractEventLoop, limit: int,
                 seat: int, transport: asyncio.BaseTransport | None) -> None:
        self.ws = ws
        self.loop = loop
        self.limit = limit
        self.seat = seat
        self.transport = transport
        self.out: asyncio.Queue[tuple[bytes | None, int, str] | None] = asyncio.Queue()
        self.writer = loop.create_task(self._write())

    def send(self, data: bytes) -> None:
        self.loop.call_soon_threadsafe(self._put, (data, 0, ""))

    def close(self, code: int, reason: str) -> None:
        self.loop.call_soon_threadsafe(self._put, (None, code, reason))

    def _put(self, item: tuple[bytes | None, int, str]) -> None:
        if self.out.qsize() >= self.limit:
            WIRE.warning("seat %d: %d frames wait for a phone that does not read them: closed", self.seat, self.limit)
            if isinstance(self.transport, asyncio.Transport):
                self.transport.abort()
            self.writer.cancel()
            return
        self.out.put_nowait(item)

    async def _write(self) -> None:
        while True:
            item = await self.out.get()
            if item is None:
                return
            data, code, reason = item
            try:
                if data is not None:
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.close(code=code, message=reason.encode("utf-8")[:120])
                    return
            except (ConnectionError, RuntimeError):
                return


class _Tracked(asyncio.Protocol):
    """One TCP connection, as the server counts it: its address, when it came, when it last said
    something, whether it holds a seat; everything else goes to aiohttp's own handler."""

    def __init__(self, server: PhoneServer, inner: Any) -> None:
        self.server = server
        self.inner = inner
        self.address = "?"
        self.opened = self.last = 0.0
        self.phone: Link | None = None  # the seat's connection it became
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        self.opened = self.last = self.server.clock()
        self.inner.connection_made(transport)
        self.server._admit(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.server._forget(self)
        self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self.last = self.server.clock()
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        result: bool | None = self.inner.eof_received()
        return result

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def abort(self) -> None:
        """Closed now, and counted no more (its descriptor goes when the loop next turns)."""
        self.server._forget(self)
        if self.transport is not None:
            self.transport.abort()


class PhoneServer:
    """`start()` serves the hub's phones on host:port (port 0: any free one) and returns the base
    URL (`public`, when the phones reach it at another address, e.g. through a forwarded port)."""

    def __init__(self, hub: PhoneHub, host: str = "127.0.0.1", port: int = 0, beat: float | None = None,
                 limits: Limits = Limits(), log: Path | None = None, public: str | None = None) -> None:
        self.hub = hub
        self.host = host
        self.port = port
        self.beat = beat  # real-time beats from the server's loop (None: PhoneTable keeps the schedule)
        self.limits = limits
        self.log = log
        self.public = public
        self.loop = asyncio.new_event_loop()
        self.clock: Callable[[], float] = self.loop.time
        self.thread = threading.Thread(target=self.loop.run_forever, name="phones-server", daemon=True)
        self.runner: web.AppRunner | None = None
        self.listening: asyncio.base_events.Server | None = None
        self.base = ""
        self.address: tuple[str, int] = (host, port)  # where it listens (the base may be another's)
        self.origin = ""
        self.headers: dict[str, str] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.waiting: dict[_Tracked, None] = {}  # connections not holding a seat, oldest first
        self.phones: set[_Tracked] = set()
        self.by_transport: dict[asyncio.BaseTransport, _Tracked] = {}
        self.beats = 0  # beats sent (for the tests and the bench)
        self.tv_frames = 0  # beats that reached at least one TV
        self.handler: logging.Handler | None = None
        self.page = b""
        self.set_labels(LABELS, "en")
        # The TV page (docs/tv.md): the public board, read-only, no token; off until `serve_tv`.
        self.tv: Callable[[], bytes] | None = None
        self.tv_page = b""
        self.viewers: dict[_Tracked, _WsConn] = {}  # oldest first
        hub.watchers.append(self._tv_beat)

    def set_labels(self, labels: Mapping[str, str], language: str) -> None:
        """The page's own words in the table's language (`phone_labels`), put in the page itself."""
        self.page = _filled_page("phone.html", labels, language)
        # A link that is not this game's: the page's own dark style, one line in the table's language.
        self.refused = (f'<!doctype html><html lang="{html.escape(language)}"><head><meta charset="utf-8">'
                        '<meta name="viewport" content="width=device-width, initial-scale=1">'
                        f'<title>{html.escape(labels["title"])}</title><link rel="stylesheet" href="/static/phone.css">'
                        f'</head><body><div id="refused">{html.escape(labels["refused_link"])}</div></body></html>'
                        ).encode("utf-8")

    def serve_tv(self, frame: Callable[[], bytes], labels: Mapping[str, str], language: str) -> None:
        """Serve the TV page at /tv: every TV gets `frame()` at each beat, as every phone its view."""
        self.tv_page = _filled_page("tv.html", labels, language)
        self.tv = frame

    def start(self) -> str:
        self.handler = wire_log(self.log, self.limits.log_bytes)
        self.loop.set_exception_handler(_loop_errors)
        self.thread.start()
        try:
            asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(timeout=30)
        except BaseException:
            self.stop()  # the address cannot be had: nothing left running
            raise
        return self.base

    def stop(self) -> None:
        if self.thread.is_alive():
            for task in self.tasks:
                self.loop.call_soon_threadsafe(task.cancel)
            asyncio.run_coroutine_threadsafe(self._stop(), self.loop).result(timeout=30)
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=30)
        if self.handler is not None:
            WIRE.removeHandler(self.handler)
            logging.getLogger("aiohttp").removeHandler(self.handler)
            self.handler.close()
            self.handler = None

    async def _stop(self) -> None:
        if self.listening is not None:
            self.listening.close()
        for tracked in [*self.waiting, *self.phones, *self.viewers]:
            tracked.abort()
        if self.runner is not None:
            await self.runner.cleanup()

    async def _start(self) -> None:
        app = web.Application()
        app.router.add_get("/p/{token}", self._page)
        app.router.add_get("/static/{name}", self._file)
        app.router.add_get("/ws/{token}", self._socket)
        app.router.add_get("/tv", self._tv_page)
        app.router.add_get("/tv/ws", self._tv_socket)
        self.runner = web.AppRunner(app, access_log=None, handle_signals=False, logger=logging.getLogger("aiohttp.server"),
                                    keepalive_timeout=self.limits.hello)
        await self.runner.setup()
        handlers = self.runner.server
        assert handlers is not None
        self.listening = await self.loop.create_server(lambda: _Tracked(self, handlers()), self.host, self.port,
                                                       backlog=128)
        port = self.listening.sockets[0].getsockname()[1]
        self.address = (self.host, port)
        self.base = self.public or f"http://{self.host}:{port}"
        where = urlsplit(self.base)
        self.origin = f"{where.scheme}://{where.netloc}".lower()
        ws = "wss" if where.scheme == "https" else "ws"
        self.headers = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
                        "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
                        "Content-Security-Policy": (
                            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                            f"media-src blob:; connect-src 'self' {ws}://{where.netloc}; frame-ancestors 'none'; "
                            "base-uri 'none'; form-action 'none'")}
        self.tasks.append(self.loop.create_task(self._sweep()))
        if self.beat is not None:
            self._beat_task()

    # ---- connections --------------------------------------------------------------------

    def _admit(self, tracked: _Tracked) -> None:
        """A new connection: past a bound, the oldest waiting one (of its address, or of all) goes."""
        self.waiting[tracked] = None
        if tracked.transport is not None:
            self.by_transport[tracked.transport] = tracked
        same = [t for t in self.waiting if t.address == tracked.address]
        if len(same) > self.limits.per_address:
            WIRE.info("%s: more than %d connections waiting: the oldest closed", tracked.address,
                      self.limits.per_address)
            same[0].abort()
        if len(self.waiting) > self.limits.total:
            WIRE.info("more than %d connections waiting: the oldest closed", self.limits.total)
            next(iter(self.waiting)).abort()

    def _forget(self, tracked: _Tracked) -> None:
        self.waiting.pop(tracked, None)
        self.phones.discard(tracked)
        self.viewers.pop(tracked, None)
        if tracked.transport is not None:
            self.by_transport.pop(tracked.transport, None)

    def _settled(self, tracked: _Tracked, link: Link) -> None:
        if tracked in self.waiting:
            del self.waiting[tracked]
            tracked.phone = link
            self.phones.add(tracked)

    async def _sweep(self) -> None:
        """Closes what waited too long and phones gone silent, a few times in each bound."""
        every = min(self.limits.hello, self.limits.idle) / 4
        while True:
            await asyncio.sleep(every)
            now = self.clock()
            for tracked in [t for t in self.waiting if now - t.opened > self.limits.hello]:
                WIRE.info("%s: a connection that did not take a seat within %s s: closed", tracked.address,
                          self.limits.hello)
                tracked.abort()
            # A phone answers every frame: one that owes an answer and has said nothing for a while is gone.
            for tracked in [t for t in self.phones if now - t.last > self.limits.idle
                            and t.phone is not None and t.phone.up <= t.phone.down]:
                WIRE.info("%s: a phone silent for %s s: closed", tracked.address, self.limits.idle)
                tracked.abort()

    # ---- the beat -----------------------------------------------------------------------

    def _beat_task(self) -> None:
        assert self.beat is not None
        task = self.loop.create_task(self._beats(self.beat))
        task.add_done_callback(self._beat_ended)
        self.tasks.append(task)

    def _beat_ended(self, task: asyncio.Task[None]) -> None:
        if task.cancelled() or self.loop.is_closed():
            return
        WIRE.error("the beat stopped (%r): started again", task.exception())
        self._beat_task()

    async def _beats(self, every: float) -> None:
        """The fixed schedule in real time, day and night: every `every` seconds, every phone its
        view. A beat missed (the loop was held) is skipped, never sent late in a burst."""
        start = self.loop.time()
        k = 0
        while True:
            k = max(k + 1, int((self.loop.time() - start) / every))
            await asyncio.sleep(max(0.0, start + k * every - self.loop.time()))
            try:
                self.hub.beat(self.loop.time())
                self.beats += 1
            except Exception:
                WIRE.exception("a beat failed; the next one goes on")

    # ---- requests -----------------------------------------------------------------------

    def _foreign(self, request: web.Request, socket: bool) -> str | None:
        """Why a request is not one of this table's phones' (its Host, a WebSocket's Origin), or None."""
        if (request.host or "").lower() != urlsplit(self.origin).netloc:
            return f"a request for host {request.host!r}"
        if socket and (request.headers.get("Origin") or "").lower() != self.origin:
            return f"a WebSocket from origin {request.headers.get('Origin')!r}"
        return None

    def _refused(self, request: web.Request, why: str) -> web.Response:
        WIRE.info("%s: %s (refused)", request.remote, why)
        return web.Response(status=403, body=self.refused, content_type="text/html", charset="utf-8",
                            headers=self.headers)

    async def _page(self, request: web.Request) -> web.Response:
        why = self._foreign(request, socket=False)
        if why is not None:
            return self._refused(request, why)
        try:
            self.hub.seat_of(request.match_info["token"])
        except Refused:
            return web.Response(status=404, body=self.refused, content_type="text/html", charset="utf-8",
                                headers=self.headers)
        return web.Response(body=self.page, content_type="text/html", charset="utf-8", headers=self.headers)

    async def _file(self, request: web.Request) -> web.Response:
        why = self._foreign(request, socket=False)
        if why is not None:
            return self._refused(request, why)
        name = request.match_info["name"]
        if name not in STATIC:
            return web.Response(status=404, text="no such file", headers=self.headers)
        kind = _TYPES[name.rsplit(".", 1)[1]]
        binary = kind.startswith("video/")
        return web.Response(body=_static(name), content_type=kind, charset=None if binary else "utf-8",
                            headers=self.headers)

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        why = self._foreign(request, socket=True)
        if why is not None:
            return self._refused(request, why)
        ws = web.WebSocketResponse(compress=False, max_msg_size=SEALED_UP_BYTES + 64)
        await ws.prepare(request)
        try:
            link = self.hub.connect(request.match_info["token"])
        except Refused as exc:
            await ws.close(code=exc.code, message=str(exc)[:100].encode("utf-8"))
            return ws
        tracked = self.by_transport.get(request.transport) if request.transport is not None else None
        conn = _WsConn(ws, self.loop, self.limits.queue, link.seat, request.transport)
        await ws.send_str(link.channel.opening())
        try:
            async for msg in ws:
                if msg.type != WSMsgType.BINARY:
                    raise Refused("a message that is not a sealed frame")
                self.hub.hear(link, conn, msg.data)
                if link.proven and tracked is not None and tracked.phone is None:
                    self._settled(tracked, link)
        except Refused as exc:
            conn.close(exc.code, str(exc)[:100])
            await asyncio.wait([conn.writer], timeout=self.limits.hello)
        except Exception:
            WIRE.exception("seat %d: a message that broke its handler: closed", link.seat)
            conn.close(CLOSE_REFUSED, "refused")
        finally:
            self.hub.gone(link)
            if not conn.writer.done():
                conn.out.put_nowait(None)
        if not ws.closed:
            await ws.close(code=CLOSE_REFUSED if not link.proven else 1000)
        return ws

    # ---- the TV page -----------------------------------------------------------------------

    async def _tv_page(self, request: web.Request) -> web.Response:
        why = self._foreign(request, socket=False)
        if why is not None:
            return self._refused(request, why)
        if self.tv is None:
            return web.Response(status=404, text="no such page", headers=self.headers)
        return web.Response(body=self.tv_page, content_type="text/html", charset="utf-8", headers=self.headers)

    async def _tv_socket(self, request: web.Request) -> web.StreamResponse:
        """One TV watching: it gets the board at every beat and says nothing (a message closes it)."""
        why = self._foreign(request, socket=True)
        if why is not None or self.tv is None:
            return self._refused(request, why or "a TV socket with no TV page")
        ws = web.WebSocketResponse(compress=False, max_msg_size=64)
        await ws.prepare(request)
        tracked = self.by_transport.get(request.transport) if request.transport is not None else None
        conn = _WsConn(ws, self.loop, self.limits.queue, 0, request.transport)
        if tracked is not None:
            self.waiting.pop(tracked, None)
            self.viewers[tracked] = conn
            if len(self.viewers) > self.limits.viewers:
                WIRE.info("more than %d TV pages: the oldest closed", self.limits.viewers)
                next(iter(self.viewers)).abort()
        try:
            async for _ in ws:
                WIRE.info("%s: a TV page sent a message (read-only): closed", request.remote)
                break
        finally:
            if tracked is not None:
                self.viewers.pop(tracked, None)
            if not conn.writer.done():
                conn.out.put_nowait(None)
        if not ws.closed:
            await ws.close(code=CLOSE_REFUSED)
        return ws

    def _tv_beat(self, at: float) -> None:
        """Every TV its board, on the phones' beat (called by `PhoneHub.beat`, from any thread)."""
        if self.tv is None or not self.viewers:
            return
        frame = self.tv()
        for conn in list(self.viewers.values()):
            conn.send(frame)
        self.tv_frames += 1


def _loop_errors(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The server loop's errors (a refused accept when descriptors run out, a task that failed) go
    to the wire's log, never to the terminal."""
    error = context.get("exception")
    WIRE.error("%s", context.get("message", "an error in the phones' server"),
               exc_info=(type(error), error, error.__traceback__) if isinstance(error, BaseException) else None)
