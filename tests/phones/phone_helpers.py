"""Games with phones on the fakes: the script's players answer on their phones (FakePhones)."""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import nacl.bindings
import nacl.public

from narrator.fakes import FakeListener, FakePhones, MemoryJournal, Timeline, TimelineDisplay, TimelineSpeaker, VirtualClock
from narrator.flow.script import Script, parse_script, parse_setup
from narrator.flow.sequencer import Resume
from narrator.headless import HeadlessResult, play_headless
from narrator.packs import load_pack
from narrator.phones.crypto import FRAME, UP_FRAME, key_bytes, key_text, seal, session_key, unseal
from narrator.phones.hub import Link, PhoneHub
from narrator.phones.port import PhoneAnswer, SeatChannels, View
from narrator.phones.run import play_with_phones
from narrator.phones.table import PhoneTable
from narrator.ports import Heard, Journal, Prompt
from narrator.rules import Game

FAST = {"debate": 120, "defence": 5}
BASIC = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 5: "hunter"}}
SCRIPT = {"nights": [{"seer": 2, "werewolves": 6, "witch": {"heal": False, "poison": 0}}],
          "days": [{"eliminate": 2}, {"eliminate": 3}]}


@dataclass
class PhoneGame:
    game: Game
    table: PhoneTable
    timeline: Timeline
    journal: Journal


def phone_players(script: Script, phones: FakePhones, table: PhoneTable, taps: list[tuple[int, Any]],
                  before_tap: Callable[[Prompt, FakePhones], None] | None = None) -> Any:
    """`hold` for PhoneTable: the script's answer to a prompt put to a phone, tapped on that phone
    (`before_tap` first: other taps a test adds)."""

    def hold(prompt: Prompt) -> bool:
        heard = script.answer(prompt)
        if heard is None or not prompt.allows(heard.choice):
            return False
        if before_tap is not None:
            before_tap(prompt, phones)
        for seat in table.route(prompt):
            view = phones.views.get(seat, {})
            if any(c[0] == heard.choice for c in view.get("choices", ())):
                phones.tap(seat, heard.choice)
                taps.append((seat, heard.choice))
                return True
        return False

    return hold


def play_phones(setup: dict[str, Any], script: dict[str, Any], phones: SeatChannels | None = None,
                journal: Journal | None = None, resume: Resume | None = None, seed: int = 0,
                taps: list[tuple[int, Any]] | None = None,
                before_tap: Callable[[Prompt, FakePhones], None] | None = None, language: str = "en") -> PhoneGame:
    s = parse_setup({"language": language, **setup, "timing": dict(FAST)}, "SETUP")
    sc = parse_script(script, s.players, "SCRIPT")
    pack = load_pack(language)
    clock = VirtualClock()
    timeline = Timeline(clock)
    fake = phones if phones is not None else FakePhones(s.players)
    journal = journal if journal is not None else MemoryJournal()

    def keypad(prompt: Prompt) -> Heard | None:
        # The table's keypad answers only what no phone is asked.
        return None if table.route(prompt) else sc.answer(prompt)

    table = PhoneTable(fake, TimelineDisplay(pack, timeline), FakeListener(clock, keypad, delay=1.0), pack, clock)
    if isinstance(fake, FakePhones):
        table.hold = phone_players(sc, fake, table, taps if taps is not None else [], before_tap)
    game = play_with_phones(s, pack, table, TimelineSpeaker(pack, timeline), clock, journal, seed, resume)
    return PhoneGame(game, table, timeline, journal)


def play_keypad(setup: dict[str, Any], script: dict[str, Any], seed: int = 0) -> HeadlessResult:
    """The same game with no phone: the keypad answers everything."""
    s = parse_setup({"language": "en", **setup, "timing": dict(FAST)}, "SETUP")
    return play_headless(s, parse_script(script, s.players, "SCRIPT"), seed)


class PhoneSide:
    """The page's side of the protocol (narrator/phones/static/phone.js): its device key, the
    hello sealed with the link key, then every message with the connection's own key."""

    def __init__(self, key: bytes, device: str) -> None:
        self.key = key
        # A device is its X25519 key pair: the same name, the same device.
        self.secret = nacl.public.PrivateKey(hashlib.sha256(device.encode("utf-8")).digest())
        self.challenge = ""
        self.box = b""
        self.sent = self.heard = 0

    def hello(self, opening: str) -> bytes:
        """The answer to the laptop's challenge: the hello, sealed with the seat's link key."""
        first = json.loads(opening)
        self.challenge, self.sent, self.heard = first["c"], 0, 0
        hello = self.seal({"t": "hello", "device": key_text(bytes(self.secret.public_key))}, key=self.key)
        shared = nacl.bindings.crypto_box_beforenm(key_bytes(first["s"]), bytes(self.secret))
        self.box = session_key(self.key, shared)
        return hello

    def seal(self, message: dict[str, Any], key: bytes | None = None) -> bytes:
        self.sent += 1
        return seal(key or self.box, {**message, "c": self.challenge, "n": self.sent}, UP_FRAME)

    def open(self, data: bytes) -> dict[str, Any]:
        """A message from the laptop (a new link key in it is kept, as the page keeps it)."""
        message = unseal(self.box, data, FRAME)
        if message.get("key"):
            self.key = key_bytes(message["key"])
        return message


class MemoryConn:
    """A `Conn` that keeps what it was sent (the phone's side of a WebSocket, in memory)."""

    def __init__(self) -> None:
        self.texts: list[bytes] = []
        self.closed: tuple[int, str] | None = None

    def send(self, data: bytes) -> None:
        self.texts.append(data)

    def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


class MemoryPhone:
    """A phone speaking the page's protocol (narrator/phones/static/phone.js) to a PhoneHub, in memory:
    it connects, says hello, proves its device with its first answer; then `send` and `tap`."""

    def __init__(self, hub: PhoneHub, seat: int, device: str = "", key: bytes | None = None, token: str | None = None) -> None:
        self.hub = hub
        self.seat = seat
        self.token = token if token is not None else hub.seats[seat].token
        self.side = PhoneSide(key if key is not None else hub.seats[seat].key, device or f"device-of-{seat}")
        self.conn = MemoryConn()
        self.link: Link | None = None
        self.taps: list[bytes] = []  # the sealed messages it sent after its hello
        self.opened: list[dict[str, Any]] = []
        self.ahead: dict[int, dict[str, Any]] = {}  # frames `view` opened past `opened`, by index

    @property
    def key(self) -> bytes:
        return self.side.key

    @property
    def channel(self) -> Link | None:
        return self.link

    def connect(self) -> None:
        self.conn = MemoryConn()
        self.opened, self.ahead = [], {}
        self.link = self.hub.connect(self.token)
        self.hub.hear(self.link, self.conn, self.side.hello(self.link.channel.opening()))
        self.views()  # its first view, and a new key a confirmed move hands over
        self.send({"t": "idle"})  # its answer to it proves the device: the seat is its own

    def send(self, message: dict[str, Any]) -> bytes:
        assert self.link is not None
        data = self.side.seal(message)
        self.taps.append(data)
        self.hub.hear(self.link, self.conn, data)
        return data

    def views(self) -> list[dict[str, Any]]:
        """Every view it was sent (a frame of the table's names is not a view)."""
        while len(self.opened) < len(self.conn.texts):
            k = len(self.opened)
            self.opened.append(self.ahead.pop(k) if k in self.ahead else self.side.open(self.conn.texts[k]))
        return [m["view"] for m in self.opened if m["t"] == "view"]

    def names(self) -> dict[str, str]:
        """The table's names as it was last sent them."""
        self.views()
        sent = [m for m in self.opened if m["t"] == "names"]
        return dict(sent[-1]["names"]) if sent else {}

    def deads(self) -> list[dict[str, Any]]:
        """The view for the dead as it stood after each of its frames (every card, the awake role's panel)."""
        self.views()
        shown: list[dict[str, Any]] = []
        now: dict[str, Any] = {}
        for m in self.opened:
            if m["t"] in ("dead", "awake"):
                now = {**now, **{k: v for k, v in m.items() if k not in ("t", "c", "n")}}
                shown.append(now)
        return shown

    def view(self) -> dict[str, Any]:
        """The view it shows now: its last view, found by opening its unopened frames newest first.
        A game's `hold` asks every seat a prompt reaches on every prompt; opening each of a seat's
        frames (thousands, at 30 seats) for its last view cost seconds of every large game. Skipping
        frames loses nothing: a frame carries a new key only as a connection's first, which
        `connect` opens in order; `views`, `names` and `deads` still open every frame, in order."""
        if self.opened:
            for k in range(len(self.conn.texts) - 1, len(self.opened) - 1, -1):
                if k not in self.ahead:
                    self.ahead[k] = self.side.open(self.conn.texts[k])
                if self.ahead[k]["t"] == "view":
                    view: dict[str, Any] = self.ahead[k]["view"]
                    return view
        views = self.views()
        return views[-1] if views else {}

    def tap(self, choice: Any) -> None:
        self.send({"t": "answer", "v": self.view().get("id"), "choice": choice})


def hub_players(script: Script, phones: dict[int, MemoryPhone], table: PhoneTable,
                before_tap: Callable[[dict[int, MemoryPhone], Prompt], None] | None = None) -> Any:
    """`hold` for PhoneTable over a real PhoneHub: the script's answers tapped on the phones it reached
    (`before_tap` runs first: a test's fault)."""

    def hold(prompt: Prompt) -> bool:
        heard = script.answer(prompt)
        if heard is None or not prompt.allows(heard.choice):
            return False
        if before_tap is not None:
            before_tap(phones, prompt)
        for seat in table.route(prompt):
            if any(c[0] == heard.choice for c in phones[seat].view().get("choices", ())):
                phones[seat].tap(heard.choice)
                return True
        return False

    return hold


def play_hub(setup: dict[str, Any], script: dict[str, Any], hub: PhoneHub, seed: int = 0,
             journal: Journal | None = None, resume: Resume | None = None,
             before_tap: Callable[[dict[int, MemoryPhone], Prompt], None] | None = None,
             language: str = "en", dead: bool = False) -> tuple[PhoneGame, dict[int, MemoryPhone]]:
    """A game whose every seat has a MemoryPhone on `hub` (`dead`: with the view for the dead)."""
    s = parse_setup({"language": language, **setup, "timing": dict(FAST)}, "SETUP")
    sc = parse_script(script, s.players, "SCRIPT")
    pack = load_pack(language)
    clock = VirtualClock()
    hub.now = clock.now
    timeline = Timeline(clock)
    journal = journal if journal is not None else MemoryJournal()
    phones = {seat: MemoryPhone(hub, seat) for seat in range(1, s.players + 1)}
    for phone in phones.values():
        phone.connect()

    def keypad(prompt: Prompt) -> Heard | None:
        return None if table.route(prompt) else sc.answer(prompt)

    table = PhoneTable(hub, TimelineDisplay(pack, timeline), FakeListener(clock, keypad, delay=1.0), pack, clock,
                       dead_view=dead)
    table.hold = hub_players(sc, phones, table, before_tap)
    game = play_with_phones(s, pack, table, TimelineSpeaker(pack, timeline), clock, journal, seed, resume)
    return PhoneGame(game, table, timeline, journal), phones


class Lockstep:
    """The hub as the table's `SeatChannels`, each beat waiting (real time, far deadline) until
    every phone holding its seat has answered it: the game's clock then moves the same way
    whatever the machine's load."""

    def __init__(self, hub: PhoneHub, stopped: Callable[[], str | None] = lambda: None) -> None:
        self.hub = hub
        self.stopped = stopped  # why a phone stopped answering (WirePhones.stopped): the beat fails at once

    def beat(self, at: float) -> None:
        self.hub.beat(at)
        end = time.monotonic() + 120
        while True:
            if (stopped := self.stopped()) is not None:
                raise AssertionError(f"{stopped} at the beat of {at}")
            with self.hub.lock:
                links = [s.link for s in self.hub.seats.values() if s.link is not None]
                if all(link.up >= link.down + 1 for link in links):  # its hello, then one per frame
                    return
            if time.monotonic() > end:
                raise AssertionError("a phone never answered a beat")
            time.sleep(0.001)

    def joined(self) -> tuple[int, ...]:
        return self.hub.joined()

    def show(self, seat: int, view: View) -> None:
        self.hub.show(seat, view)

    def night(self, on: bool) -> None:
        self.hub.night(on)

    def aside(self, seat: int, kind: str, message: Mapping[str, Any]) -> None:
        self.hub.aside(seat, kind, message)

    def take(self) -> PhoneAnswer | None:
        return self.hub.take()

    def wait(self, timeout: float) -> bool:
        return self.hub.wait(timeout)

    def moves_asked(self) -> tuple[int, ...]:
        return self.hub.moves_asked()

    def allow_move(self, seat: int) -> None:
        self.hub.allow_move(seat)
