"""The laptop's web server over real sockets on 127.0.0.1: only the game's links and the package's
own files are served, and a WebSocket that is refused is closed with its reason's code."""

from __future__ import annotations

import asyncio
import json
from typing import Any, Iterator

import aiohttp
import pytest

from narrator.phones.hub import CLOSE_REFUSED, CLOSE_TAKEN, PhoneHub
from narrator.phones.server import PhoneServer

from tests.phones.phone_helpers import PhoneSide


_servers: list[PhoneServer] = []  # the fixture's server, for a test that changes its page's words


@pytest.fixture
def served() -> Iterator[tuple[PhoneHub, str]]:
    hub = PhoneHub(8)
    server = PhoneServer(hub)
    _servers[:] = [server]
    base = server.start()
    try:
        yield hub, base
    finally:
        server.stop()


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def fetch(url: str) -> tuple[int, str, Any]:
    async with aiohttp.ClientSession() as session:
        async with session.get(url) as response:
            return response.status, (await response.read()).decode("utf-8", "replace"), response.headers


def test_the_server_listens_on_loopback_and_serves_only_its_own_files(served: tuple[PhoneHub, str]) -> None:
    hub, base = served
    assert base.startswith("http://127.0.0.1:")
    status, page, headers = run(fetch(hub.link(1, base).split("#")[0]))
    assert status == 200 and "/static/nacl-fast.min.js" in page and "http" not in page.replace('http-equiv', '')
    assert headers["Referrer-Policy"] == "no-referrer"
    for name in ("phone.js", "nacl-fast.min.js", "phone.css", "tweetnacl-LICENSE.txt", "awake.webm", "awake.mp4",
                 "NoSleep-LICENSE.txt"):
        assert run(fetch(f"{base}/static/{name}"))[0] == 200
    assert run(fetch(f"{base}/p/not-a-token"))[0] == 404
    for path in ("/static/hub.py", "/static/..%2Fhub.py", "/static/phone.html/../../hub.py", "/"):
        assert run(fetch(base + path))[0] == 404


def test_the_page_may_not_be_framed_and_connects_to_its_own_origin_only(served: tuple[PhoneHub, str]) -> None:
    hub, base = served
    for url in (hub.link(1, base).split("#")[0], f"{base}/static/phone.js"):
        headers = run(fetch(url))[2]
        policy = dict(part.strip().split(" ", 1) for part in headers["Content-Security-Policy"].split(";"))
        assert policy["frame-ancestors"] == "'none'" and headers["X-Frame-Options"] == "DENY"
        assert policy["connect-src"] == "'self' " + base.replace("http://", "ws://")  # this origin, nothing else
        assert policy["default-src"] == "'none'" and policy["script-src"] == "'self'"


def test_a_request_for_another_host_or_a_socket_from_another_origin_is_refused(served: tuple[PhoneHub, str]) -> None:
    hub, base = served
    page = hub.link(1, base).split("#")[0]
    evil = "http://evil.example:8080"

    async def get(url: str, **headers: str) -> int:
        async with aiohttp.ClientSession() as session:
            async with session.get(url, headers=headers) as response:
                return response.status

    async def socket(origin: str | None, host: str | None = None) -> Any:
        async with aiohttp.ClientSession() as session:
            try:
                async with session.ws_connect(f"{base.replace('http', 'ws')}/ws/{hub.seats[1].token}", origin=origin,
                                              headers={"Host": host} if host else None) as ws:
                    return (await ws.receive()).type
            except aiohttp.WSServerHandshakeError as exc:
                return exc.status

    assert run(get(page)) == 200
    assert run(get(page, Host="evil.example:8080")) == 403  # a DNS rebinding's page
    assert run(get(f"{base}/static/phone.js", Host="evil.example")) == 403
    assert run(socket(base)) == aiohttp.WSMsgType.TEXT  # the page's own origin: its challenge
    assert run(socket(evil)) == 403 and run(socket(None)) == 403
    assert run(socket(base, host="evil.example:8080")) == 403
    assert not hub.joined()


async def phone(base: str, hub: PhoneHub, seat: int, device: str, key: bytes | None = None,
                token: str | None = None, then: Any = None) -> tuple[list[dict[str, Any]], int | None]:
    """Connect as seat's phone, say hello, prove the device, run `then(ws, side)`, return the views
    and the close code."""
    side = PhoneSide(key if key is not None else hub.seats[seat].key, device)
    url = f"{base.replace('http', 'ws')}/ws/{token if token is not None else hub.seats[seat].token}"
    views: list[dict[str, Any]] = []
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(url, origin=base) as ws:
            first = await ws.receive()
            if first.type != aiohttp.WSMsgType.TEXT:
                return views, ws.close_code
            await ws.send_bytes(side.hello(first.data))
            msg = await ws.receive()
            if msg.type == aiohttp.WSMsgType.BINARY:
                views.append(side.open(msg.data)["view"])
                await ws.send_bytes(side.seal({"t": "idle"}))
                if then is not None:
                    await then(ws, side)
                msg = await ws.receive()
            return views, ws.close_code


def test_refused_connections_are_closed_with_their_code(served: tuple[PhoneHub, str]) -> None:
    hub, base = served
    assert run(phone(base, hub, 1, "device-one", token="wrong"))[1] == CLOSE_REFUSED
    assert run(phone(base, hub, 2, "device-two", key=hub.seats[1].key))[1] == CLOSE_REFUSED
    assert not hub.joined()

    async def tamper(ws: Any, side: PhoneSide) -> None:
        data = side.seal({"t": "answer", "v": 0, "choice": 3})
        await ws.send_bytes(data[:50] + bytes([data[50] ^ 1]) + data[51:])

    views, code = run(phone(base, hub, 3, "device-three", then=tamper))
    assert views and code == CLOSE_REFUSED and "does not open" in hub.refusals[-1]

    async def second(ws: Any, side: PhoneSide) -> None:
        # While this phone holds seat 4, another device asks for it.
        assert (await phone(base, hub, 4, "another-device"))[1] == CLOSE_TAKEN
        await ws.close()

    run(phone(base, hub, 4, "device-four", then=second))
    assert hub.moves_asked() == (4,)


def test_the_page_speaks_the_tables_language(served: tuple[PhoneHub, str]) -> None:
    from narrator.packs import load_pack
    from narrator.phones.table import phone_labels

    hub, base = served
    link = hub.link(1, base).split("#")[0]
    assert '<html lang="en">' in run(fetch(link))[1]
    server_page = run(fetch(link))[1]
    assert '"hold": "Press and hold to see your card"' in server_page
    for srv in _servers:
        srv.set_labels(phone_labels(load_pack("fr")), "fr")
    page = run(fetch(link))[1]
    assert '<html lang="fr">' in page and '"hold": "Appuie longuement pour voir ta carte"' in page
    assert "<title>Narrateur</title>" in page and "Press and hold" not in page
    # The page's script takes every word it shows from those labels.
    script = run(fetch(f"{base}/static/phone.js"))[1]
    assert "Press and hold" not in script and "Reconnecting" not in script and "Seat " not in script
