"""The laptop's web server over real sockets on 127.0.0.1: only the game's links and the package's
own files are served, and a WebSocket that is refused is closed with its reason's code."""

from __future__ import annotations

import asyncio
import json
from typing import Any, Iterator

import aiohttp
import pytest

from narrator.phones.crypto import seal, unseal
from narrator.phones.hub import CLOSE_REFUSED, CLOSE_TAKEN, PhoneHub
from narrator.phones.server import PhoneServer


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
            return response.status, await response.text(), response.headers


def test_the_server_listens_on_loopback_and_serves_only_its_own_files(served: tuple[PhoneHub, str]) -> None:
    hub, base = served
    assert base.startswith("http://127.0.0.1:")
    status, page, headers = run(fetch(hub.link(1, base).split("#")[0]))
    assert status == 200 and "/static/nacl-fast.min.js" in page and "http" not in page.replace('http-equiv', '')
    assert headers["Referrer-Policy"] == "no-referrer" and "default-src 'self'" in headers["Content-Security-Policy"]
    for name in ("phone.js", "nacl-fast.min.js", "phone.css", "tweetnacl-LICENSE.txt"):
        assert run(fetch(f"{base}/static/{name}"))[0] == 200
    assert run(fetch(f"{base}/p/not-a-token"))[0] == 404
    for path in ("/static/hub.py", "/static/..%2Fhub.py", "/static/phone.html/../../hub.py", "/"):
        assert run(fetch(base + path))[0] == 404


async def phone(base: str, hub: PhoneHub, seat: int, device: str, key: bytes | None = None,
                token: str | None = None, then: Any = None) -> tuple[list[dict[str, Any]], int | None]:
    """Connect as seat's phone, say hello, run `then(ws, seal_next)`, return the views and the close code."""
    key = key if key is not None else hub.seats[seat].key
    url = f"{base.replace('http', 'ws')}/ws/{token if token is not None else hub.seats[seat].token}"
    views: list[dict[str, Any]] = []
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(url) as ws:
            first = await ws.receive()
            if first.type != aiohttp.WSMsgType.TEXT:
                return views, ws.close_code
            challenge = json.loads(first.data)["c"]
            n = {"n": 0}

            def seal_next(message: dict[str, Any]) -> str:
                n["n"] += 1
                return seal(key, {**message, "c": challenge, "n": n["n"]})

            await ws.send_str(seal_next({"t": "hello", "device": device}))
            msg = await ws.receive()
            if msg.type == aiohttp.WSMsgType.TEXT:
                views.append(unseal(key, msg.data)["view"])
                if then is not None:
                    await then(ws, seal_next)
                msg = await ws.receive()
            return views, ws.close_code


def test_refused_connections_are_closed_with_their_code(served: tuple[PhoneHub, str]) -> None:
    hub, base = served
    assert run(phone(base, hub, 1, "device-one", token="wrong"))[1] == CLOSE_REFUSED
    assert run(phone(base, hub, 2, "device-two", key=hub.seats[1].key))[1] == CLOSE_REFUSED
    assert not hub.joined()

    async def tamper(ws: Any, seal_next: Any) -> None:
        text = seal_next({"t": "answer", "v": 0, "choice": 3})
        await ws.send_str(text[:50] + ("A" if text[50] != "A" else "B") + text[51:])

    views, code = run(phone(base, hub, 3, "device-three", then=tamper))
    assert views and code == CLOSE_REFUSED and "does not open" in hub.refusals[-1]

    async def second(ws: Any, seal_next: Any) -> None:
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
