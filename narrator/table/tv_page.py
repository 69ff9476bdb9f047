"""`narrator play --screen`: the table's board as a web page for a TV, on the phones' server
(docs/tv.md). With phones, the same server and beat; without, a server of its own whose hub no
phone ever joins (its links are never shown)."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from narrator.errors import UsageError
from narrator.i18n import tr
from narrator.packs import VoicePack
from narrator.phones.hub import PhoneHub
from narrator.phones.qr import terminal
from narrator.phones.server import PhoneServer
from narrator.phones.table import phone_labels
from narrator.table.tv import TvBoard


def tv_server(players: int, journal: Path, host: str | None, port: int) -> PhoneServer:
    """A server for the TV page alone (no phones), listening where phones would."""
    from narrator.phones.play import BEAT, log_path, table_address

    where = host or table_address()
    server = PhoneServer(PhoneHub(players), host=where, port=port, beat=BEAT, log=log_path(journal))
    try:
        server.start()
    except OSError as exc:
        raise UsageError("the TV page's server cannot listen on {host} port {port} ({reason}); choose another "
                         "address with --phones-host or another port with --phones-port",
                         host=where, port=port, reason=exc.strerror or exc) from None
    return server


def serve_tv(server: PhoneServer, board: TvBoard, pack: VoicePack) -> str:
    """The board on `server`'s TV page; its address."""
    server.serve_tv(board.frame, phone_labels(pack), pack.language)
    return f"{server.base.rstrip('/')}/tv"


def show_address(out: TextIO, address: str) -> None:
    """Where the TV opens the board, with a QR code (a TV's browser, or a phone cast to it)."""
    out.write(tr("TV: open {address} in the TV's browser (the board only: nothing private is on it).",
                 address=address) + "\n")
    out.write(terminal(address) + "\n")
    out.flush()
