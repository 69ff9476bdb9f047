"""The TV page on the phones' server, over real sockets on 127.0.0.1 (docs/tv.md): no token, read-only,
the server's hardening kept (Host and Origin, the page's policy, a bounded number of TVs), the
board on the beat and nothing else."""

from __future__ import annotations

import asyncio
from typing import Any, Iterator

import aiohttp
import pytest

from narrator.packs import load_pack
from narrator.phones.hub import PhoneHub
from narrator.phones.server import Limits, PhoneServer
from narrator.phones.table import phone_labels

from tests.phones.phone_helpers import MemoryConn

FRAME = b'{"mode":"night","t":"tv","title":"Night 1"}'


@pytest.fixture
def served() -> Iterator[tuple[PhoneHub, PhoneServer, str]]:
    hub = PhoneHub(8)
    server = PhoneServer(hub, limits=Limits(viewers=3))
    base = server.start()
    try:
        yield hub, server, base
    finally:
        server.stop()


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def get(url: str, **headers: str) -> tuple[int, str, Any]:
    async with aiohttp.ClientSession() as session:
        async with session.get(url, headers=headers) as response:
            return response.status, (await response.read()).decode("utf-8", "replace"), response.headers


def test_the_tv_page_is_there_only_when_served_and_needs_no_token(served: tuple[PhoneHub, PhoneServer, str]) -> None:
    hub, server, base = served
    assert run(get(f"{base}/tv"))[0] == 404
    server.serve_tv(lambda: FRAME, {**phone_labels(load_pack("en")), "title": "</script><b>x"}, "en")
    status, page, headers = run(get(f"{base}/tv"))
    assert status == 200 and "/static/tv.js" in page and "<b>x" not in page  # the words as JSON, never as markup
    for name in ("tv.js", "tv.css"):
        assert run(get(f"{base}/static/{name}"))[0] == 200
    policy = dict(part.strip().split(" ", 1) for part in headers["Content-Security-Policy"].split(";"))
    assert policy["default-src"] == "'none'" and policy["script-src"] == "'self'" and policy["frame-ancestors"] == "'none'"
    assert policy["connect-src"] == "'self' " + base.replace("http://", "ws://")
    assert run(get(f"{base}/tv", Host="evil.example:8080"))[0] == 403  # a DNS rebinding's page


async def tv(base: str, origin: str | None, frames: int, say: bytes | None = None) -> tuple[list[bytes], int | None]:
    """A TV's socket: the first `frames` frames it gets (after sending `say`, if given)."""
    got: list[bytes] = []
    async with aiohttp.ClientSession() as session:
        try:
            async with session.ws_connect(f"{base.replace('http', 'ws')}/tv/ws", origin=origin) as ws:
                if say is not None:
                    await ws.send_bytes(say)
                while len(got) < frames:
                    msg = await ws.receive(timeout=120)
                    if msg.type != aiohttp.WSMsgType.BINARY:
                        break
                    got.append(msg.data)
                return got, ws.close_code
        except aiohttp.WSServerHandshakeError as exc:
            return got, exc.status


def test_a_tv_gets_the_board_on_every_beat_and_may_not_speak(served: tuple[PhoneHub, PhoneServer, str]) -> None:
    hub, server, base = served
    server.serve_tv(lambda: FRAME, phone_labels(load_pack("en")), "en")

    async def watch() -> tuple[list[bytes], int | None]:
        task = asyncio.ensure_future(tv(base, base, 3))
        while not server.viewers:
            await asyncio.sleep(0.01)
        for k in range(3):
            hub.beat(float(k))
        return await task

    frames, _ = run(watch())
    assert frames == [FRAME] * 3 and server.tv_frames == 3
    assert run(tv(base, "http://evil.example:8080", 1)) == ([], 403) and run(tv(base, None, 1)) == ([], 403)
    # Read-only: a TV that sends anything is closed.
    _, code = run(tv(base, base, 1, say=b"x"))
    assert code is not None and not server.viewers


def test_tvs_are_bounded_the_oldest_goes_and_a_phone_still_joins(served: tuple[PhoneHub, PhoneServer, str]) -> None:
    hub, server, base = served
    beats = iter(range(10**6))
    server.serve_tv(lambda: b"%d" % next(beats), phone_labels(load_pack("en")), "en")  # each beat's frame its own

    async def many() -> list[bool]:
        """Five TVs, one after the other (each waits for its first frame); then whether each is still open."""
        async with aiohttp.ClientSession() as session:
            sockets = []
            for _ in range(5):
                ws = await session.ws_connect(f"{base.replace('http', 'ws')}/tv/ws", origin=base)
                sockets.append(ws)
                while True:  # until the server counts it: it gets the next beat's frame
                    hub.beat(0.0)
                    try:
                        assert (await ws.receive(timeout=0.2)).type == aiohttp.WSMsgType.BINARY
                        break
                    except asyncio.TimeoutError:
                        continue
            hub.beat(1.0)
            last = b"%d" % (next(beats) - 1)
            still = []
            for ws in sockets:
                while (msg := await ws.receive(timeout=120)).type == aiohttp.WSMsgType.BINARY and msg.data != last:
                    pass
                still.append(msg.type == aiohttp.WSMsgType.BINARY)
            for ws in sockets:
                await ws.close()
            return still

    assert run(many()) == [False, False, True, True, True]  # the two oldest were closed
    assert len(server.viewers) <= 3
    conn = MemoryConn()
    link = hub.connect(hub.seats[1].token)
    assert link.seat == 1 and conn.closed is None  # the seats' links are untouched
