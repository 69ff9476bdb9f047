"""A link that is not one of the game's gets the phone's own dark page and one line, in the table's
language, never a bright unstyled page in a dark room."""

from __future__ import annotations

import asyncio

import aiohttp

from narrator.packs import load_pack
from narrator.phones.hub import PhoneHub
from narrator.phones.server import PhoneServer
from narrator.phones.table import phone_labels


async def fetch(url: str) -> tuple[int, str, str]:
    async with aiohttp.ClientSession() as session:
        async with session.get(url) as response:
            return response.status, await response.text(), response.headers.get("Content-Type", "")


def test_a_wrong_link_gets_the_phones_dark_page_with_one_line_in_the_tables_language() -> None:
    server = PhoneServer(PhoneHub(4))
    server.set_labels(phone_labels(load_pack("fr")), "fr")
    base = server.start()
    try:
        status, page, kind = asyncio.run(fetch(f"{base}/p/not-a-token-of-this-game"))
        css = asyncio.run(fetch(f"{base}/static/phone.css"))[1]
    finally:
        server.stop()
    assert status == 404 and kind.startswith("text/html")
    assert '<link rel="stylesheet" href="/static/phone.css">' in page and '<html lang="fr">' in page
    assert load_pack("fr").phone["refused_link"].replace("'", "&#x27;") in page
    assert "background: #000" in css and "#refused" in css
