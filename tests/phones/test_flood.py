"""A stranger on the Wi-Fi against the laptop's phone server, in a process of its own with the usual
limit of 1,024 descriptors (tests/phones/flood_server.py): 2,000 idle connections from 200
addresses, 200 WebSockets on valid links that never say hello, a phone that never reads, a request
line of 10,000 bytes, answers of the wrong type. The game goes on: every other phone gets every
beat and its taps are taken, a new phone still joins, the laptop's terminal shows nothing, and
what the network sent is in a bounded log file. Waits are for conditions, with far deadlines."""

from __future__ import annotations

import json
import resource
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from narrator.phones.crypto import key_bytes

from tests.phones.flood_server import LIMITS
from tests.phones.phone_helpers import PhoneSide
from tests.phones.wire import RawSocket, WirePhones

pytestmark = pytest.mark.slow
ROOT = Path(__file__).parents[2]
SECRET = "THE_WEREWOLF_IS_SEAT_4"


def until(test: Callable[[], Any], what: str, deadline: float = 180.0) -> Any:
    end = time.monotonic() + deadline
    while True:
        value = test()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"never: {what}")
        time.sleep(0.05)


@pytest.fixture
def descriptors() -> Any:
    """This test holds 2,400 sockets at once: its own soft limit is raised (the hard one allows it),
    so it takes none from the other tests' processes."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 4096:
        pytest.fail(f"the hard limit of open files is {hard}: this test needs 4,096 (ulimit -Hn)")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 4096), hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def _usual_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))


def test_a_flood_of_strangers_never_stops_the_game_nor_reaches_the_terminal(tmp_path: Path, descriptors: Any) -> None:
    info, log, stop = tmp_path / "server.json", tmp_path / "wire.log", tmp_path / "stop"
    child = subprocess.Popen([sys.executable, "-m", "tests.phones.flood_server", str(info), str(log), str(stop)],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_usual_limit)
    status = info.with_name(info.name + ".status")
    taps = info.with_name(info.name + ".taps")
    phones: WirePhones | None = None
    held: list[Any] = []
    try:
        until(lambda: info.exists() or child.poll() is not None, "the server's links")
        assert child.poll() is None, child.stderr.read().decode() if child.stderr else ""
        served = json.loads(info.read_text())
        links, base = {int(k): v for k, v in served["links"].items()}, served["base"]
        host, port = base.split("//")[1].split(":")[0], int(base.rsplit(":", 1)[1])

        def state() -> dict[str, Any]:
            try:
                return dict(json.loads(status.read_text()))
            except (OSError, ValueError):
                return {}

        # Six phones playing, answering every beat, as the page does.
        phones = WirePhones({seat: links[seat] for seat in range(1, 7)}, base)
        until(lambda: len(state().get("joined", ())) == 6, "six phones hold their seats")
        # Seat 7: a phone that holds its seat, then never reads again.
        stuck = RawSocket(links[7], base, receive_buffer=4096)
        side = PhoneSide(key_bytes(links[7].split("#")[1]), "the stuck phone")
        stuck.send(side.hello(stuck.receive()[1].decode("ascii")))
        side.open(stuck.receive()[1])
        stuck.send(side.seal({"t": "idle"}))
        until(lambda: 7 in state().get("joined", ()), "the stuck phone holds its seat")
        before = {seat: len(phones.views[seat]) for seat in range(1, 7)}

        # 2,000 idle connections, ten from each of 200 addresses, that never send a byte.
        for k in range(2000):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind((f"127.0.{2 + k // 250}.{1 + (k // 10) % 25 * 10 + k % 10}", 0))
            s.setblocking(False)
            s.connect_ex((host, port))
            held.append(s)
        # 200 WebSockets on valid links that never say hello.
        for k in range(200):
            held.append(RawSocket(links[1 + k % 8], base, source=f"127.0.20.{1 + k // 8}"))
        # A request line of 10,000 bytes with a secret in it, and answers of the wrong type.
        long = socket.create_connection((host, port))
        long.sendall(f"GET /{SECRET}{'x' * 10_000} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode("ascii"))
        held.append(long)
        phones.pending[1] = {"t": "answer", "v": 1.0, "choice": 2.0}
        phones.pending[2] = {"t": "answer", "v": 1, "choice": [[[[2]]]]}

        # The game goes on meanwhile: taps are taken; every playing phone gets every beat.
        until(lambda: len(phones.views[3]) > before[3] + 40, "beats during the flood")
        phones.intend(3, 5)
        phones.intend(4, 6)
        until(lambda: taps.exists() and {"3 5", "4 6"} <= set(taps.read_text().split("\n")), "the taps")
        # The stuck phone is closed; the hello-less sockets are closed; a new phone still joins.
        until(lambda: 7 not in state().get("joined", (7,)), "the stuck phone closed")
        until(lambda: all(r.closed_by_server() for r in held if isinstance(r, RawSocket)), "hello-less sockets closed")
        until(lambda: state().get("waiting", 1) == 0, "every idle connection closed")
        # Once the flood is over, sockets that never say hello are closed by the hello's deadline, and
        # the log says so (during the flood the cap on waiting connections may close them first, as
        # the oldest waiting, and the log then says that instead).
        quiet = [RawSocket(links[1 + k], base, source=f"127.0.21.{1 + k}") for k in range(4)]
        held.extend(quiet)
        until(lambda: all(r.closed_by_server() for r in quiet), "hello-less sockets closed after the flood")
        late = WirePhones({8: links[8]}, base)
        try:
            until(lambda: 8 in state().get("joined", ()), "a phone joins after the flood")
        finally:
            late.close()
        beats = state()["beats"]
        until(lambda: state()["beats"] > beats + 20, "beats after the flood")
        assert state()["most_waiting"] <= LIMITS.total + 1  # + the one coming in, before the oldest goes
        assert state()["most_fds"] < 1024 - 64  # never near the limit
        for seat in range(1, 7):  # every frame numbered one after the other: no beat missed
            assert phones.numbers[seat] == list(range(1, len(phones.numbers[seat]) + 1))
        assert all(not phones.closed.get(seat) for seat in range(1, 7))  # none was dropped
    finally:
        for s in held:
            s.close()
        if phones is not None:
            phones.close()
        stop.write_text("stop")
        try:
            out, err = child.communicate(timeout=600)
        finally:
            child.kill()
    assert child.returncode == 0, err.decode()
    assert out == b"" and err == b""  # the laptop's terminal: nothing from the network
    text = "".join(p.read_text() for p in tmp_path.glob("wire.log*"))  # the log and the one it rotated to
    assert sum(p.stat().st_size for p in tmp_path.glob("wire.log*")) <= 2 * LIMITS.log_bytes + 4096
    assert "did not take a seat" in text and ("does not read" in text or "silent" in text)
    assert "\x1b" not in text  # escaped: the log cannot move a terminal's cursor either
