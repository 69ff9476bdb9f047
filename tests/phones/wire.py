"""The real wire between the phones and the laptop: a TCP proxy in the path that keeps every byte
that crosses it, when, and which way, and reads the WebSocket frames back out of those bytes.

The phones connect to the proxy (their links carry its address); the proxy connects to the
laptop's server. What it records is what a watcher of the Wi-Fi sees of each connection's TCP
payload: the HTTP upgrade, then every frame with its header, mask and payload, as sent.
"""

from __future__ import annotations

import asyncio
import struct
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from narrator.flow.script import Script
    from narrator.phones.table import PhoneTable
    from narrator.ports import Heard, Prompt


def unmask(payload: bytes, mask: bytes) -> bytes:
    """`payload` XORed with the repeated four-byte `mask` (RFC 6455 5.3: masking and unmasking are
    the same), as one big-integer XOR rather than a Python loop over the bytes."""
    n = len(payload)
    repeated = (mask * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(n, "big")


@dataclass
class Stream:
    """One direction of one connection: its bytes, and (offset after, time) of each chunk."""

    data: bytearray = field(default_factory=bytearray)
    chunks: list[tuple[int, float]] = field(default_factory=list)

    def add(self, chunk: bytes) -> None:
        self.data += chunk
        self.chunks.append((len(self.data), time.monotonic()))

    def seen(self) -> tuple[bytes, list[tuple[int, float]]]:
        """The bytes and chunks so far, consistent while the proxy's thread goes on adding: the
        chunks are read first, and a chunk is listed only once its bytes are in `data`, so the
        bytes are taken up to the last chunk listed (reading `data` first could find bytes whose
        chunk was not listed yet)."""
        chunks = list(self.chunks)
        return (bytes(self.data[:chunks[-1][0]]) if chunks else b""), chunks



@dataclass(frozen=True)
class WireFrame:
    """A WebSocket frame as it crossed: its size on the wire (header and mask included), its
    payload's size, its opcode, whether it was compressed (RSV1), when its last byte crossed."""

    wire: int
    payload: int
    opcode: int
    compressed: bool
    at: float
    data: bytes = b""  # the payload itself (unmasked)


@dataclass
class Connection:
    up: Stream = field(default_factory=Stream)  # phone -> laptop
    down: Stream = field(default_factory=Stream)  # laptop -> phone

    def handshake(self) -> tuple[str, str]:
        """The HTTP upgrade request and response, as text (each stream up to its blank line: the
        frames after it, megabytes in a whole game, are not copied)."""
        def head(data: bytearray) -> str:
            end = data.find(b"\r\n\r\n")
            return bytes(data if end < 0 else data[:end]).decode("latin-1")

        return head(self.up.data), head(self.down.data)

    def frames(self, direction: str) -> list[WireFrame]:
        stream = self.up if direction == "up" else self.down
        data, chunks = stream.seen()
        if b"\r\n\r\n" not in data:
            return []
        at = data.index(b"\r\n\r\n") + 4
        out: list[WireFrame] = []
        chunk = 0  # the chunk of the frame's last byte: frames and chunks both go forward, so one walk finds each
        while at + 2 <= len(data):
            start = at
            first, second = data[at], data[at + 1]
            length = second & 0x7F
            at += 2
            if length == 126:
                (length,) = struct.unpack("!H", data[at:at + 2])
                at += 2
            elif length == 127:
                (length,) = struct.unpack("!Q", data[at:at + 8])
                at += 8
            mask = b""
            if second & 0x80:
                mask = data[at:at + 4]
                at += 4
            if at + length > len(data):
                break  # cut off when the connection ended
            payload = data[at:at + length]
            if mask:
                payload = unmask(payload, mask)
            at += length
            while chunks[chunk][0] < at:  # the first chunk ending at or after the frame's last byte
                chunk += 1
            out.append(WireFrame(at - start, length, first & 0x0F, bool(first & 0x40), chunks[chunk][1], payload))
        return out


class Proxy:
    """A TCP proxy on 127.0.0.1 (its own thread and loop) in front of `target` (host, port), which
    may be set after it starts (the server it fronts must know the proxy's address first)."""

    def __init__(self, target: tuple[str, int] = ("127.0.0.1", 0)) -> None:
        self.target = target
        self.connections: list[Connection] = []
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="wire-proxy", daemon=True)
        self.server: Any = None
        self.port = 0

    def start(self) -> str:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(timeout=600)
        return f"http://127.0.0.1:{self.port}"

    async def _start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connection = Connection()
        self.connections.append(connection)
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter, stream: Stream) -> None:
            try:
                while chunk := await src.read(65536):
                    stream.add(chunk)
                    dst.write(chunk)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                dst.close()

        await asyncio.gather(pump(reader, up_writer, connection.up), pump(up_reader, writer, connection.down))

    def sockets(self) -> list[Connection]:
        """The connections that became WebSockets (101 Switching Protocols)."""
        return [c for c in self.connections if c.handshake()[1].startswith("HTTP/1.1 101")]

    def stop(self) -> None:
        async def close() -> None:
            self.server.close()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(close(), self.loop).result(timeout=600)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=600)


class WirePhones:
    """Phones speaking the page's protocol over real WebSockets (their own thread and loop), each
    as phone.js does: the hello, then exactly one message back for every message received, the
    tap it was told to make (`intend`) or nothing."""

    def __init__(self, links: dict[int, str], origin: str) -> None:
        from tests.phones.phone_helpers import PhoneSide
        from narrator.phones.crypto import key_bytes

        self.links = links
        self.origin = origin
        self.sides = {seat: PhoneSide(key_bytes(link.split("#")[1]), f"device-of-{seat}") for seat, link in links.items()}
        self.views: dict[int, list[dict[str, Any]]] = {seat: [] for seat in links}
        self.messages: dict[int, list[dict[str, Any]]] = {seat: [] for seat in links}  # views and names
        self.numbers: dict[int, list[int]] = {seat: [] for seat in links}  # each frame's counter
        self.pending: dict[int, dict[str, Any]] = {}
        self.closed: dict[int, int | None] = {}
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="wire-phones", daemon=True)
        self.thread.start()
        self.running = [asyncio.run_coroutine_threadsafe(self._run(seat), self.loop) for seat in links]

    async def _run(self, seat: int) -> None:
        import aiohttp

        path = self.links[seat].split("#")[0]
        side = self.sides[seat]
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(path.replace("http://", "ws://").replace("/p/", "/ws/"), origin=self.origin) as ws:
                first = await ws.receive()
                await ws.send_bytes(side.hello(first.data))
                async for msg in ws:
                    if msg.type != aiohttp.WSMsgType.BINARY:
                        break
                    message = side.open(msg.data)
                    self.numbers[seat].append(message["n"])
                    self.messages[seat].append(message)
                    if message["t"] == "view":
                        self.views[seat].append(message["view"])
                    await ws.send_bytes(side.seal(self.pending.pop(seat, None) or {"t": "idle"}))
                self.closed[seat] = ws.close_code

    def view(self, seat: int) -> dict[str, Any]:
        return self.views[seat][-1] if self.views[seat] else {}

    def intend(self, seat: int, choice: Any) -> None:
        """The player taps `choice` on the view the phone shows: it goes with its next answer."""
        self.pending[seat] = {"t": "answer", "v": self.view(seat).get("id"), "choice": choice}

    def stopped(self) -> str | None:
        """Why a phone stopped mid-game, if one did: its socket ended, or it failed (a frame that does
        not open, of the wrong length). Waits on the phones ask it, to fail at once rather than wait
        out their deadline once per beat and prompt."""
        for seat, running in zip(self.links, self.running):
            if running.done():
                failure = None if running.cancelled() else running.exception()
                return f"seat {seat}'s phone stopped: {failure!r}" if failure else f"seat {seat}'s socket ended"
        return None

    def wait(self, test: Any, what: str) -> None:
        end = time.monotonic() + 120
        while not test():
            if (stopped := self.stopped()) is not None:
                raise AssertionError(f"{stopped} before {what}")
            if time.monotonic() > end:
                raise AssertionError(f"never: {what}")
            time.sleep(0.01)

    def close(self) -> None:
        stop_loop(self.loop, self.thread)


class ScriptAnswers:
    """A script's answers at a table of wire phones: the keypad's when no phone is asked; otherwise
    intended on the phone of the seat asked, once its page offers the choice. `table` is given once
    the table is made (it takes these two as its listener's answers and its `hold`)."""

    def __init__(self, script: Script, phones: WirePhones) -> None:
        self.script = script
        self.phones = phones
        self.table: PhoneTable | None = None

    def keypad(self, prompt: Prompt) -> Heard | None:
        assert self.table is not None
        return None if self.table.route(prompt) else self.script.answer(prompt)

    def hold(self, prompt: Prompt) -> bool:
        assert self.table is not None
        heard = self.script.answer(prompt)
        if heard is None or not prompt.allows(heard.choice):
            return False
        for seat in self.table.route(prompt):
            if any(c[0] == heard.choice for c in self.phones.view(seat).get("choices", ())):
                self.phones.intend(seat, heard.choice)
                return True
        return False


def stop_loop(loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
    """Cancel every task of a loop running in its own thread, then stop the loop and join the thread."""
    async def stop() -> None:
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run_coroutine_threadsafe(stop(), loop).result(timeout=600)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=600)


class RawSocket:
    """A WebSocket spoken by hand on a plain socket: the phone that says nothing after its upgrade,
    or that stops reading (nothing in a library reads for it)."""

    def __init__(self, link: str, origin: str, source: str | None = None, receive_buffer: int | None = None) -> None:
        import base64
        import os
        import socket
        from urllib.parse import urlsplit

        where = urlsplit(link)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer is not None:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        if source is not None:
            self.sock.bind((source, 0))
        self.sock.settimeout(60)
        self.sock.connect((where.hostname, where.port))
        key = base64.b64encode(os.urandom(16)).decode("ascii")
        path = where.path.replace("/p/", "/ws/")
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {where.netloc}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                           f"Origin: {origin}\r\n\r\n").encode("ascii"))
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self._recv()
        self.response, self.buffer = self.buffer.split(b"\r\n\r\n", 1)

    def _recv(self) -> bytes:
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("closed")
        return data

    def receive(self) -> tuple[int, bytes]:
        while True:
            if len(self.buffer) >= 2:
                length, at = self.buffer[1] & 0x7F, 2
                if length == 126 and len(self.buffer) >= 4:
                    (length,), at = struct.unpack("!H", self.buffer[2:4]), 4
                elif length == 127 and len(self.buffer) >= 10:
                    (length,), at = struct.unpack("!Q", self.buffer[2:10]), 10
                if length < 126 or at > 2:
                    if len(self.buffer) >= at + length:
                        opcode, payload = self.buffer[0] & 0x0F, self.buffer[at:at + length]
                        self.buffer = self.buffer[at + length:]
                        return opcode, payload
            self.buffer += self._recv()

    def send(self, payload: bytes, opcode: int = 2) -> None:
        import os

        mask = os.urandom(4)
        n = len(payload)
        header = bytes([0x80 | opcode]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack("!H", n))
        self.sock.sendall(header + mask + unmask(payload, mask))

    def closed_by_server(self) -> bool:
        """Whether the laptop has closed this socket (reads what is left, never blocks)."""
        import socket

        self.sock.setblocking(False)
        try:
            while True:
                if not self.sock.recv(65536):
                    return True
        except BlockingIOError:
            return False
        except (ConnectionError, socket.error):
            return True
        finally:
            self.sock.setblocking(True)

    def close(self) -> None:
        self.sock.close()
