"""`narrator play --phones`: the hub and the web server for a game at the table, its links and
QR codes, and the links file beside the journal that `narrator resume` reads (docs/phones.md)."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Callable, TextIO

from narrator.errors import UsageError
from narrator.i18n import tr
from narrator.packs import VoicePack
from narrator.phones.hub import PhoneHub, load_links, save_links
from narrator.phones.qr import terminal
from narrator.phones.server import PhoneServer
from narrator.phones.table import PhoneTable, phone_labels
from narrator.ports import Clock, Display, Heard, Listener, Prompt

BEAT = 0.25  # seconds between the frames to every phone, day and night
# Home, clear the screen, clear the scrollback: a seat's link (its key) stays on no screen.
CLEAR = "\x1b[H\x1b[2J\x1b[3J"


def links_path(journal: Path) -> Path:
    """Where a game's phone links are kept: beside its journal."""
    return journal.with_name(journal.name + ".phones.json")


def log_path(journal: Path) -> Path:
    """Where what the phones' server hears from the network is written (bounded): beside the journal."""
    return journal.with_name(journal.name + ".phones.log")


# Addresses in the private ranges a table's network uses: a UDP socket "connected" to one of them
# learns which of the laptop's addresses routes there, without sending anything.
PROBES = ("10.254.254.254", "192.168.254.254", "172.31.254.254")


def table_address(probes: tuple[str, ...] = PROBES) -> str:
    """The laptop's address on the table's network (what the phones reach): the one the route to a
    private address leaves from. A machine with only the loopback gets one line saying how to fix it."""
    for probe in probes:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            try:
                udp.connect((probe, 9))  # UDP: the kernel picks the route; no packet leaves
            except OSError:
                continue
            host = str(udp.getsockname()[0])
        if not host.startswith("127.") and host != "0.0.0.0":
            return host
    raise UsageError("the phones cannot reach this laptop: it has no network but its own loopback (127.0.0.1); "
                     "join the table's Wi-Fi (or share a hotspot) and start again, or give the address the phones "
                     "reach with --phones-host ADDRESS")


class TablePhones:
    """The phones of one game: `start()` serves them, `codes()` shows their links, `close()` ends them."""

    def __init__(self, players: int, journal: Path, host: str | None = None, port: int = 0,
                 resuming: bool = False) -> None:
        self.path = links_path(journal)
        links = load_links(self.path) if resuming and self.path.exists() else None
        self.hub = PhoneHub(players, links=links)
        self.hub.on_join = self._save_quietly
        # A resumed game listens where it did: the phones' pages reconnect to the same links.
        served = links.get("server", {}) if links is not None else {}
        if not isinstance(served, dict):
            served = {}
        self.host = host or str(served.get("host") or "") or table_address()
        self.port = port or int(served.get("port") or 0)
        self.server = PhoneServer(self.hub, host=self.host, port=self.port, beat=BEAT, log=log_path(journal))
        self.base = ""

    def start(self) -> None:
        try:
            self.base = self.server.start()
        except OSError as exc:
            raise UsageError("the phones' server cannot listen on {host} port {port} ({reason}); choose another "
                             "address with --phones-host or another port with --phones-port",
                             host=self.host, port=self.port, reason=exc.strerror or exc) from None
        self.port = int(self.base.rsplit(":", 1)[1])
        self.save()

    def save(self) -> None:
        try:
            save_links(self.hub, self.path, self._where())
        except OSError as exc:
            raise UsageError("the phones' links cannot be saved in {path} ({reason})",
                             path=self.path, reason=exc.strerror or exc) from None

    def _save_quietly(self) -> None:
        """A seat took a device (on the server's thread): save the links; a failure is a refusal line."""
        try:
            save_links(self.hub, self.path, self._where())
        except OSError as exc:
            self.hub.refusals.append(f"the phones' links could not be saved in {self.path} ({exc})")

    def _where(self) -> dict[str, object]:
        return {"host": self.host, "port": self.port}

    def codes(self, out: TextIO, wait: Callable[[], None]) -> None:
        """Where the phones reach the laptop, then each seat's link and QR code, one seat at a time
        (before the full screen starts): `wait` returns when that seat's phone has it (Enter); then the
        screen and its scrollback are cleared, so no seat's link stays where the next player (or the
        terminal's history) sees it."""
        where = tr("Phones: this laptop listens on {host} port {port} (another address: --phones-host ADDRESS)",
                   host=self.host, port=self.port)
        for seat in sorted(self.hub.seats):
            link = self.hub.link(seat, self.base)
            out.write(CLEAR + where + "\n" + tr("Seat {seat}: scan with the phone of seat {seat}, or open {link}",
                                                 seat=seat, link=link))
            out.write("\n" + terminal(link) + "\n")
            out.write(tr("Enter when this phone shows its page (leave it open, screen on, face down): the link leaves "
                         "the screen.") + "\n")
            out.flush()
            try:
                wait()
            finally:
                out.write(CLEAR)
                out.flush()

    def table(self, display: Display, pack: VoicePack, clock: Clock, listener: Listener | None = None,
              dead_view: bool = False) -> PhoneTable:
        """The game's display and listener with the phones (the server keeps the night's schedule);
        the table's own listener may be set later (`PhoneTable.listener`): its keypad listens for
        the phones too (`PhoneTable.source`)."""
        self.server.set_labels(phone_labels(pack), pack.language)  # the page in the table's language
        return PhoneTable(self.hub, display, listener or _NotYet(), pack, clock, beat=None, dead_view=dead_view)

    def close(self) -> None:
        self.hub.close()
        self.server.stop()

    def forget(self) -> None:
        """The game is over: its links file goes (a stopped game keeps it, for `narrator resume`)."""
        try:
            self.path.unlink(missing_ok=True)
        except OSError:
            pass


class _NotYet:
    """The table's listener before it is opened."""

    def listen(self, prompt: Prompt) -> Heard | None:
        raise RuntimeError("the table's listener is not open yet")
