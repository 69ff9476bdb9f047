"""The laptop's side of the phones: seats' tokens and keys, connections, sealed frames.

Transport-free: the web server (narrator/phones/server.py) hands each WebSocket in as a `Conn`
and passes its messages to `connect`, `hear`, `gone`. Every frame that goes out is recorded by the
transport hook `on_frame` (seat, bytes, clock time, night); the secrecy tests read it, and the real
wire too (tests/phones/test_wire.py).

Who may see what (docs/phones.md):
- a seat's link carries its token (256 bits) and, in the fragment, its key; a phone only ever
  gets its own seat's view;
- a connection opens with a hello sealed with the link key that names the phone's device (an
  X25519 public key); the connection's own key then comes from the device's secret, which never
  leaves the phone, so the link key and a captured hello are not enough to speak for a device;
  the connection takes its seat only once a message sealed with that key proves it;
- a second device on a seat that has one is refused until the laptop confirms the move
  (`allow_move`); the moved seat gets a new link key, and the old one stops working;
- every message is sealed (narrator/phones/crypto.py); a tampered, forged or replayed one is
  refused and closes the connection; `close()` kills every token with the game;
- nothing goes out when something happens: every phone that holds its seat gets its current view
  at each `beat`, day and night, and answers each with one message of its own (a tap or nothing).
"""

from __future__ import annotations

import collections
import json
import logging
import os
import queue
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol

from narrator.errors import UsageError

from narrator.phones.crypto import (DEVICE_BYTES, KEY_BYTES, Channel, Refused, TooLong, encode, key_bytes, key_text,
                                    new_key, new_token)
from narrator.phones.port import PhoneAnswer, View

# Close codes a refused phone sees (the page says each in a line).
CLOSE_REFUSED = 4401  # unknown or dead token, a message that does not open, a replay
CLOSE_TAKEN = 4409  # the seat has another device (the laptop may confirm the move)
CLOSE_REPLACED = 4410  # this device reconnected elsewhere (a reload): the old connection ends
REFUSALS_KEPT = 64  # the last refusals kept for the tests and the log's reader; every one goes to the log

# What arrives from the network is written here, never to the laptop's terminal: the server gives
# it a bounded file (`server.wire_log`); until then it goes nowhere.
WIRE = logging.getLogger("narrator.phones.wire")
WIRE.propagate = False
WIRE.addHandler(logging.NullHandler())


class Conn(Protocol):
    """One WebSocket, as the hub sees it (thread-safe: the server hops to its own loop)."""

    def send(self, data: bytes) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


@dataclass(frozen=True, slots=True)
class Frame:
    """One message the hub sent: to which seat, how long, when (the transport hook's record)."""

    seat: int
    size: int
    at: float
    night: bool


@dataclass(eq=False)
class Link:
    """One connection on a seat's link: its sealing state and where it is in its opening."""

    seat: int
    channel: Channel
    conn: Conn | None = None
    device: bytes | None = None  # named by its hello
    proven: bool = False  # a message sealed with the connection's own key came: it holds the seat
    new_key: bytes | None = None  # a confirmed move: the seat's next link key, handed to this device
    down: int = 0  # sealed messages sent
    up: int = 0  # sealed messages heard
    names: int = 0  # the version of the table's names this connection was sent (0: none were ever set)
    asides: dict[str, int] = field(default_factory=dict)  # the version of each of its seat's asides it was sent
    # The view it is sent on every beat, and that view's message encoded (`crypto.encode`), while
    # the seat's view is that same dict (`show` puts a new one): the beat seals it without encoding it anew.
    encoded: tuple[View, bytes] | None = None


@dataclass
class _Seat:
    token: str
    key: bytes
    view: View = field(default_factory=dict)
    link: Link | None = None  # the connection that holds the seat
    device: bytes | None = None
    move: bool = False  # the laptop confirmed a move to another device
    asides: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)  # kind -> (version, message)

    @property
    def conn(self) -> Conn | None:
        return None if self.link is None else self.link.conn


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
        self.on_join: Callable[[], None] | None = None  # a seat took a (new) device or key: save the links
        # Told at every beat, after the phones (the TV page: narrator/phones/server.py).
        self.watchers: list[Callable[[float], None]] = []
        # The table's names (public): every phone gets them, in a frame of their own on the beat, when
        # they change; `open` while a phone may still give its seat's name (`on_name`, docs/names.md).
        self.names: dict[int, str] = {}
        self.names_open = False
        self.names_version = 0
        self.on_name: Callable[[int, str], None] | None = None
        # The last refusals, one line each (all of them go to the wire's log, `WIRE`).
        self.refusals: collections.deque[str] = collections.deque(maxlen=REFUSALS_KEPT)
        self.refused = 0  # how many in all
        self.moves: list[int] = []  # seats where a second device asked to take over (not yet confirmed)
        self.inbox: queue.Queue[PhoneAnswer] = queue.Queue()
        self.lock = threading.RLock()
        self.is_night = False
        self.closed = False

    # ---- links ---------------------------------------------------------------------------

    def link(self, seat: int, base: str) -> str:
        with self.lock:
            s = self.seats[seat]
            return f"{base.rstrip('/')}/p/{s.token}#{key_text(s.key)}"

    def seat_of(self, token: str) -> int:
        with self.lock:
            seat = self.by_token.get(token)
            if seat is None or self.closed:
                raise self._refuse("a link that is not one of this game's (wrong token, or the game is over)")
            return seat

    def allow_move(self, seat: int) -> None:
        """The laptop confirms that seat's phone may change (a new device may take it over, with a
        new link key)."""
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
                s.link = None

    def links(self) -> dict[str, Any]:
        """What `narrator resume` needs to bring the phones back on the same links (tokens, keys,
        devices): written beside the journal, readable by the laptop's user only (`save_links`)."""
        with self.lock:
            return {str(seat): {"token": s.token, "key": key_text(s.key),
                                "device": None if s.device is None else key_text(s.device)}
                    for seat, s in self.seats.items()}

    def _restore(self, links: Mapping[str, Any]) -> None:
        try:
            for seat, s in self.seats.items():
                entry = links[str(seat)]
                key = key_bytes(str(entry["key"]))
                device = None if entry.get("device") is None else key_bytes(str(entry["device"]))
                if len(key) != KEY_BYTES or len(str(entry["token"])) < 22:
                    raise ValueError(f"seat {seat}'s key or token is too short")
                if device is not None and len(device) != DEVICE_BYTES:
                    raise ValueError(f"seat {seat}'s device is not a device key")
                s.token, s.key, s.device = str(entry["token"]), key, device
        except (KeyError, TypeError, ValueError) as exc:
            raise UsageError("the phones' links of this game cannot be read ({error_type}: {exc}); the phones must "
                             "join again with new links", error_type=type(exc).__name__, exc=exc) from None
        self.by_token = {s.token: seat for seat, s in self.seats.items()}

    # ---- connections (called by the server) ----------------------------------------------

    def connect(self, token: str) -> Link:
        """A new connection on `token`'s link: its seat and a fresh channel (its opening, the
        challenge, goes out in the clear; everything after it is sealed)."""
        with self.lock:
            seat = self.seat_of(token)
            return Link(seat, Channel(self.seats[seat].key))

    def hear(self, link: Link, conn: Conn, data: bytes) -> None:
        """A message on a connection: its hello, then the proof of its device, then answers."""
        with self.lock:
            if self.closed:
                raise self._refuse(f"seat {link.seat}: a message after the game")
            if link.device is None:
                self._hello(link, conn, data)
                return
            message = self._open(link, data)
            if not link.proven:
                self._take(link)
            self._answer(link, message)

    def _hello(self, link: Link, conn: Conn, data: bytes) -> None:
        """The connection's first sealed message names its device: its own key is agreed, its
        current view goes out; it takes the seat with its next message (`_take`)."""
        message = self._open(link, data)
        try:
            device = key_bytes(str(message.get("device")))
        except ValueError:
            device = b""
        if message.get("t") != "hello" or len(device) != DEVICE_BYTES:
            raise self._refuse(f"seat {link.seat}: a first message that is not a hello")
        s = self.seats[link.seat]
        self._may_take(link.seat, s, device)
        link.device, link.conn = device, conn
        link.channel.agree(device)
        if s.move and device != s.device:
            link.new_key = new_key()
        self._send(link, s.view, key=link.new_key or s.key)

    def _may_take(self, seat: int, s: _Seat, device: bytes) -> None:
        if s.device is not None and device != s.device and not s.move:
            if seat not in self.moves:
                self.moves.append(seat)
            raise self._refuse(f"seat {seat} already has a phone; a second device is refused until the "
                               "laptop confirms the move", taken=True)

    def _take(self, link: Link) -> None:
        """The device proved it holds its secret: the connection holds the seat (a confirmed move
        hands the seat its new link key; the old connection ends)."""
        s = self.seats[link.seat]
        assert link.device is not None
        self._may_take(link.seat, s, link.device)
        changed = link.device != s.device or link.new_key is not None
        old = s.link
        s.device, s.link, s.move = link.device, link, False
        if link.new_key is not None:
            s.key = link.new_key
        link.proven = True
        if changed and self.on_join is not None:
            self.on_join()
        if old is not None and old is not link and old.conn is not None:
            old.conn.close(CLOSE_REPLACED, "this seat reconnected")

    def _answer(self, link: Link, message: Mapping[str, Any]) -> None:
        seat = link.seat
        s = self.seats[seat]
        if s.link is not link:
            raise self._refuse(f"seat {seat}: a message on a connection that no longer holds the seat")
        kind = message.get("t")
        if kind == "answer":
            view, choice = message.get("v"), message.get("choice")
            allowed = [c[0] for c in s.view.get("choices", ())]
            # Exact types: 2.0 is not seat 2, true is not seat 1.
            if (type(view) is not int or view != s.view.get("id") or not isinstance(choice, (int, str))
                    or not any(type(c) is type(choice) and c == choice for c in allowed)):
                self._note(f"seat {seat}: an answer {choice!r} to view {view!r}, not open (ignored)")
                return
            self.inbox.put(PhoneAnswer(seat, view, choice))
        elif kind == "name":
            name = message.get("name")
            if not isinstance(name, str) or not self.names_open or self.on_name is None:
                self._note(f"seat {seat}: a name when none is asked (ignored)")
                return
            self.on_name(seat, name)
        elif kind == "state" and message.get("seat", seat) != seat:
            self._note(f"seat {seat}: asked for seat {message.get('seat')!r}'s state (refused)")
        elif kind not in ("idle", "state"):
            self._note(f"seat {seat}: a message of type {kind!r} (ignored)")

    def gone(self, link: Link) -> None:
        with self.lock:
            s = self.seats[link.seat]
            if s.link is link:
                s.link = None

    # ---- SeatChannels --------------------------------------------------------------------

    def joined(self) -> tuple[int, ...]:
        with self.lock:
            return tuple(seat for seat, s in self.seats.items() if s.link is not None)

    def show(self, seat: int, view: View) -> None:
        """The seat's view from now on: it goes out with the next beat."""
        with self.lock:
            self.seats[seat].view = dict(view)

    def night(self, on: bool) -> None:
        with self.lock:
            self.is_night = on

    def aside(self, seat: int, kind: str, message: Mapping[str, Any]) -> None:
        """A message for this seat's phone beside its view (the view for the dead: narrator/phones/dead.py),
        sent once in a frame of its own on the next beat, instead of the view, when it changed."""
        with self.lock:
            version, old = self.seats[seat].asides.get(kind, (0, {}))
            if dict(message) != old:
                self.seats[seat].asides[kind] = (version + 1, dict(message))

    def set_names(self, names: Mapping[int, str], open: bool) -> None:
        """The names every phone shows beside the seats' numbers (from the next beat on)."""
        with self.lock:
            if dict(names) != self.names or open != self.names_open:
                self.names, self.names_open = dict(names), open
                self.names_version += 1

    def beat(self, at: float) -> None:
        with self.lock:
            for s in self.seats.values():
                if s.link is not None and s.link.names != self.names_version:
                    # This beat's frame holds the names instead of the view (the next one the view):
                    # the same length, at the same beat for every phone.
                    s.link.names = self.names_version
                    self._send_message(s.link, {"t": "names", "open": self.names_open, "seat": s.link.seat,
                                                "names": {str(k): v for k, v in sorted(self.names.items())}}, at)
                elif s.link is not None:
                    behind = [(kind, v, m) for kind, (v, m) in s.asides.items() if s.link.asides.get(kind) != v]
                    if behind:
                        # Like the names: this beat's frame holds the aside, the same length at the same beat.
                        kind, version, message = behind[0]
                        s.link.asides[kind] = version
                        try:
                            self._send_message(s.link, message, at)
                        except TooLong:  # never within the bound (narrator/phones/dead.py): the view goes
                            WIRE.error("seat %d: a %r aside does not fit a frame", s.link.seat, kind)
                            self._send(s.link, s.view, at=at)
                    else:
                        self._send(s.link, s.view, at=at)
            for watcher in self.watchers:
                watcher(at)

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

    def _send(self, link: Link, view: View, at: float | None = None, key: bytes | None = None) -> None:
        if link.conn is None:
            return
        self._sent(link, self._fit(link, view, key), at)

    def _send_message(self, link: Link, message: Mapping[str, Any], at: float) -> None:
        if link.conn is not None:
            self._sent(link, link.channel.seal(dict(message)), at)

    def _sent(self, link: Link, data: bytes, at: float | None) -> None:
        assert link.conn is not None
        link.down += 1
        link.conn.send(data)
        if self.on_frame is not None:
            self.on_frame(Frame(link.seat, len(data), self.now() if at is None else at, self.is_night))

    def _fit(self, link: Link, view: View, key: bytes | None) -> bytes:
        """The view sealed in its frame; one too long for it (typed text quoted in a note) loses
        the end of its longest lines, never its buttons, and the log says so."""
        if key is None:
            if link.encoded is None or link.encoded[0] is not view:
                link.encoded = (view, encode({"t": "view", "view": dict(view)}))
            sealed = link.channel.seal_encoded(link.encoded[1])
            if sealed is not None:
                return sealed
            # Too long: cut below, and logged, on every beat, as ever.
        extra = {} if key is None else {"key": key_text(key)}
        shown = dict(view)
        while True:
            try:
                return link.channel.seal({"t": "view", "view": shown, **extra})
            except TooLong:
                texts = [("note", -1, str(shown.get("note", "")))] + [
                    ("lines", i, str(line)) for i, line in enumerate(shown.get("lines", ()))]
                field_name, i, longest = max(texts, key=lambda t: len(t[2]))
                if len(longest) < 2:
                    # Not even its buttons fit (never at 30 seats): its number alone, so the beat goes on.
                    WIRE.error("seat %d: view %r does not fit a frame even without its text", link.seat, view.get("id"))
                    return link.channel.seal({"t": "view", "view": {"id": view.get("id")}, **extra})
                cut = longest[: len(longest) // 2] + "\u2026"
                if field_name == "note":
                    shown["note"] = cut
                else:
                    shown["lines"] = [cut if j == i else line for j, line in enumerate(shown["lines"])]
                WIRE.warning("seat %d: view %r too long for a frame: a line cut", link.seat, view.get("id"))

    def _open(self, link: Link, data: bytes) -> dict[str, Any]:
        try:
            message = link.channel.unseal(data)
        except Refused as exc:
            raise self._refuse(f"seat {link.seat}: {exc}") from None
        link.up += 1
        return message

    def _note(self, line: str) -> None:
        self.refused += 1
        self.refusals.append(line)
        WIRE.info("%s", line)

    def _refuse(self, reason: str, taken: bool = False) -> Refused:
        self._note(reason)
        return Refused(reason, CLOSE_TAKEN if taken else CLOSE_REFUSED)


def save_links(hub: PhoneHub, path: Path, server: Mapping[str, Any] | None = None) -> None:
    """The hub's links in `path` (and where the server listens, `server`), readable by its owner
    only (it holds the seats' keys): written to a new file of mode 0600 beside it, then put in its
    place, so a file that was there before, whatever its mode, never holds a key."""
    fd, name = tempfile.mkstemp(prefix=path.name + ".", suffix=".new", dir=path.parent)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({**hub.links(), **({"server": dict(server)} if server is not None else {})}, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(name, path)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise


def load_links(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError("the phones' links {path} cannot be read ({exc}); the phones must join again",
                         path=path, exc=exc) from None
    if not isinstance(data, dict):
        raise UsageError("the phones' links {path} are not a table; the phones must join again", path=path)
    return data
