"""The laptop's side of the phones: seats' tokens and keys, connections, sealed frames.

Transport-free: the web server (narrator/phones/server.py) hands each WebSocket in as a `Conn`
and passes its text frames to `connect`, `hello`, `receive`, `gone`. Every frame that goes out is
recorded by the transport hook `on_frame` (seat, characters, clock time, night): the secrecy
tests read it instead of a packet capture.

Who may see what (docs/phones.md):
- a seat's link carries its token (256 bits) and, in the fragment, its key; a phone only ever
  gets its own seat's view;
- a connection must open with a sealed hello naming its device; a second device on a seat that
  has one is refused until the laptop confirms the move (`allow_move`);
- every message is sealed (narrator/phones/crypto.py); a tampered, forged or replayed one is
  refused and closes the connection; `close()` kills every token with the game.
"""

from __future__ import annotations

import base64
import json
import os
import queue
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol

from narrator.errors import UsageError

from narrator.phones.crypto import Channel, Refused, key_text, new_key, new_token
from narrator.phones.port import PhoneAnswer, View

# Close codes a refused phone sees (the page says each in a line).
CLOSE_REFUSED = 4401  # unknown or dead token, a message that does not open, a replay
CLOSE_TAKEN = 4409  # the seat has another device (the laptop may confirm the move)
CLOSE_REPLACED = 4410  # this device reconnected elsewhere (a reload): the old connection ends


class Conn(Protocol):
    """One WebSocket, as the hub sees it (thread-safe: the server hops to its own loop)."""

    def send_text(self, text: str) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


@dataclass(frozen=True, slots=True)
class Frame:
    """One message the hub sent: to which seat, how long, when (the transport hook's record)."""

    seat: int
    chars: int
    at: float
    night: bool


@dataclass
class _Seat:
    token: str
    key: bytes
    view: View = field(default_factory=dict)
    conn: Conn | None = None
    channel: Channel | None = None
    device: str | None = None
    move: bool = False  # the laptop confirmed a move to another device


class PhoneHub:
    """The real `SeatChannels`: one token and key per seat, sealed frames over `Conn`s."""

    def __init__(self, players: int, now: Callable[[], float] = time.monotonic,
                 links: Mapping[str, Any] | None = None) -> None:
        self.players = players
        self.now = now
        self.seats = {seat: _Seat(new_token(), new_key()) for seat in range(1, players + 1)}
        if links is not None:
            self._restore(links)
        self.by_token = {s.token: seat for seat, s in self.seats.items()}
        self.on_frame: Callable[[Frame], None] | None = None
        self.on_join: Callable[[], None] | None = None  # a seat took a (new) device: save the links
        self.refusals: list[str] = []  # one line each, for the laptop's screen and the tests
        self.moves: list[int] = []  # seats where a second device asked to take over (not yet confirmed)
        self.inbox: queue.Queue[PhoneAnswer] = queue.Queue()
        self.lock = threading.RLock()
        self.is_night = False
        self.closed = False

    # ---- links ---------------------------------------------------------------------------

    def link(self, seat: int, base: str) -> str:
        s = self.seats[seat]
        return f"{base.rstrip('/')}/p/{s.token}#{key_text(s.key)}"

    def seat_of(self, token: str) -> int:
        with self.lock:
            seat = self.by_token.get(token)
            if seat is None or self.closed:
                raise self._refuse("a link that is not one of this game's (wrong token, or the game is over)")
            return seat

    def allow_move(self, seat: int) -> None:
        """The laptop confirms that seat's phone may change (a new device may take it over)."""
        with self.lock:
            self.seats[seat].move = True
            if seat in self.moves:
                self.moves.remove(seat)

    def moves_asked(self) -> tuple[int, ...]:
        with self.lock:
            return tuple(self.moves)

    def close(self) -> None:
        """The game is over: every token dies, every phone is disconnected."""
        with self.lock:
            self.closed = True
            for s in self.seats.values():
                if s.conn is not None:
                    s.conn.close(CLOSE_REFUSED, "the game is over")
                s.conn = s.channel = None

    def links(self) -> dict[str, Any]:
        """What `narrator resume` needs to bring the phones back on the same links (tokens, keys,
        devices): written beside the journal, readable by the laptop's user only (`save_links`)."""
        with self.lock:
            return {str(seat): {"token": s.token, "key": key_text(s.key), "device": s.device}
                    for seat, s in self.seats.items()}

    def _restore(self, links: Mapping[str, Any]) -> None:
        try:
            for seat, s in self.seats.items():
                entry = links[str(seat)]
                key = base64.urlsafe_b64decode(str(entry["key"]) + "==")
                if len(key) != len(s.key) or len(str(entry["token"])) < 22:
                    raise ValueError(f"seat {seat}'s key or token is too short")
                s.token, s.key = str(entry["token"]), key
                s.device = None if entry.get("device") is None else str(entry["device"])
        except (KeyError, TypeError, ValueError) as exc:
            raise UsageError("the phones' links of this game cannot be read ({error_type}: {exc}); the phones must "
                             "join again with new links", error_type=type(exc).__name__, exc=exc) from None
        self.by_token = {s.token: seat for seat, s in self.seats.items()}

    # ---- connections (called by the server) ----------------------------------------------

    def connect(self, token: str) -> tuple[int, Channel]:
        """A new connection on `token`'s link: its seat and a fresh channel (its challenge goes
        out in the clear; everything after it is sealed)."""
        seat = self.seat_of(token)
        return seat, Channel(self.seats[seat].key)

    def hello(self, seat: int, channel: Channel, conn: Conn, text: str) -> None:
        """The connection's first sealed message names its device: it takes the seat, or is refused."""
        with self.lock:
            message = self._open(channel, text)
            device = message.get("device")
            if message.get("t") != "hello" or not isinstance(device, str) or not 8 <= len(device) <= 64:
                raise self._refuse(f"seat {seat}: a first message that is not a hello")
            s = self.seats[seat]
            if s.device is not None and device != s.device and not s.move:
                if seat not in self.moves:
                    self.moves.append(seat)
                raise self._refuse(f"seat {seat} already has a phone; a second device is refused until the "
                                   "laptop confirms the move", taken=True)
            old = s.conn
            new_device = device != s.device
            s.device, s.conn, s.channel, s.move = device, conn, channel, False
            if new_device and self.on_join is not None:
                self.on_join()
            if old is not None and old is not conn:
                old.close(CLOSE_REPLACED, "this seat reconnected")
            self._send(seat, s)

    def receive(self, seat: int, channel: Channel, text: str) -> None:
        """A sealed message on a connection that took its seat."""
        with self.lock:
            s = self.seats[seat]
            if s.channel is not channel:
                raise self._refuse(f"seat {seat}: a message on a connection that no longer holds the seat")
            message = self._open(channel, text)
            kind = message.get("t")
            if kind == "answer":
                view, choice = message.get("v"), message.get("choice")
                allowed = [c[0] for c in s.view.get("choices", ())]
                if view != s.view.get("id") or choice not in allowed or isinstance(choice, bool):
                    self.refusals.append(f"seat {seat}: an answer {choice!r} to view {view!r}, not open (ignored)")
                    return
                assert isinstance(view, int) and isinstance(choice, (int, str))
                self.inbox.put(PhoneAnswer(seat, view, choice))
            elif kind == "state":
                if message.get("seat", seat) != seat:
                    self.refusals.append(f"seat {seat}: asked for seat {message.get('seat')!r}'s state (refused)")
                    return
                if not self.is_night:  # at night a view goes out on the beat only
                    self._send(seat, s)
            # "idle" (the phone's beat at night) carries nothing

    def gone(self, seat: int, channel: Channel) -> None:
        with self.lock:
            s = self.seats[seat]
            if s.channel is channel:
                s.conn = s.channel = None

    # ---- SeatChannels --------------------------------------------------------------------

    def joined(self) -> tuple[int, ...]:
        with self.lock:
            return tuple(seat for seat, s in self.seats.items() if s.conn is not None)

    def show(self, seat: int, view: View) -> None:
        with self.lock:
            s = self.seats[seat]
            s.view = dict(view)
            if not self.is_night:
                self._send(seat, s)

    def night(self, on: bool) -> None:
        with self.lock:
            self.is_night = on

    def beat(self, at: float) -> None:
        with self.lock:
            for seat, s in self.seats.items():
                self._send(seat, s, at)

    def take(self) -> PhoneAnswer | None:
        try:
            return self.inbox.get_nowait()
        except queue.Empty:
            return None

    def wait(self, timeout: float) -> bool:
        try:
            answer = self.inbox.get(timeout=timeout)
        except queue.Empty:
            return False
        # Put it back in front: `take` returns it.
        with self.inbox.mutex:
            self.inbox.queue.appendleft(answer)
        return True

    # ---- inside ----------------------------------------------------------------------------

    def _send(self, seat: int, s: _Seat, at: float | None = None) -> None:
        if s.conn is None or s.channel is None:
            return
        text = s.channel.seal({"t": "view", "view": dict(s.view)})
        s.conn.send_text(text)
        if self.on_frame is not None:
            self.on_frame(Frame(seat, len(text), self.now() if at is None else at, self.is_night))

    def _open(self, channel: Channel, text: str) -> dict[str, Any]:
        try:
            return channel.unseal(text)
        except Refused as exc:
            raise self._refuse(str(exc)) from None

    def _refuse(self, reason: str, taken: bool = False) -> Refused:
        self.refusals.append(reason)
        return Refused(reason, CLOSE_TAKEN if taken else CLOSE_REFUSED)


def save_links(hub: PhoneHub, path: Path, server: Mapping[str, Any] | None = None) -> None:
    """The hub's links in `path` (and where the server listens, `server`), created readable by its
    owner only (it holds the seats' keys)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump({**hub.links(), **({"server": dict(server)} if server is not None else {})}, f)
        f.flush()
        os.fsync(f.fileno())


def load_links(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError("the phones' links {path} cannot be read ({exc}); the phones must join again",
                         path=path, exc=exc) from None
    if not isinstance(data, dict):
        raise UsageError("the phones' links {path} are not a table; the phones must join again", path=path)
    return data
