"""The phones on loopback: tap -> engine latency with 18 phones connected, the server's CPU while
idle (by day, and at night with the fixed schedule's beats), and memory per phone.

The laptop (PhoneHub + PhoneServer, as `narrator play --phones` runs them) is a child process;
18 phones speaking the page's protocol (sealed with PyNaCl, as the page does with TweetNaCl) run
in this one over real WebSockets to 127.0.0.1. A tap's time runs from the phone sending it to the
laptop's game thread taking it from the hub (CLOCK_MONOTONIC is the same in both processes).
Bounded: about half a minute.

    .venv/bin/python bench/phones.py [--phones 18] [--rounds 20] [--idle 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import statistics
import time
from typing import Any

from narrator.phones.crypto import Channel, seal, unseal


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _cpu_s(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def laptop(players: int, beat: float, links: Any, commands: Any, taken: Any) -> None:
    """The child: hub and server; shows views on command; records when each tap is taken."""
    from narrator.phones.hub import PhoneHub
    from narrator.phones.server import PhoneServer

    hub = PhoneHub(players)
    server = PhoneServer(hub, beat=beat)
    base = server.start()
    links.put({seat: hub.link(seat, base) for seat in range(1, players + 1)})
    view = 0
    while True:
        command = commands.get()
        if command == "stop":
            break
        if command == "night":
            for seat in range(1, players + 1):
                hub.show(seat, {"id": 0, "seat": seat, "mode": "rest", "night": True, "lines": ["Eyes closed."],
                                "choices": []})
            hub.night(True)
            continue
        if command == "day":
            hub.night(False)
            continue
        view += 1
        for seat in range(1, players + 1):
            hub.show(seat, {"id": view, "seat": seat, "mode": "panel", "night": False, "lines": ["Your vote"],
                            "choices": [[s, str(s)] for s in range(1, players + 1)] + [["nobody", "Nobody"]]})
        for _ in range(players):
            answer = hub.inbox.get()
            taken.put((answer.seat, answer.view, time.perf_counter()))
    server.stop()


class Phone:
    def __init__(self, link: str) -> None:
        path, fragment = link.split("#")
        import base64

        self.key = base64.urlsafe_b64decode(fragment + "==")
        self.url = path.replace("http://", "ws://").replace("/p/", "/ws/")
        self.views: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.sent: dict[int, float] = {}

    async def run(self, session: Any, ready: asyncio.Event) -> None:
        async with session.ws_connect(self.url) as ws:
            self.ws = ws
            first = await ws.receive_str()
            self.channel = Channel(self.key)
            self.channel.challenge = json.loads(first)["c"]
            self.n = 0
            await ws.send_str(self._seal({"t": "hello", "device": os.urandom(8).hex()}))
            ready.set()
            async for msg in ws:
                message = unseal(self.key, msg.data)
                view = message["view"]
                if view.get("night"):
                    await ws.send_str(self._seal({"t": "idle"}))
                elif view.get("choices"):
                    self.sent[view["id"]] = time.perf_counter()
                    await ws.send_str(self._seal({"t": "answer", "v": view["id"], "choice": "nobody"}))

    def _seal(self, message: dict[str, Any]) -> str:
        self.n += 1
        return seal(self.key, {**message, "c": self.channel.challenge, "n": self.n})


async def phones_side(links: dict[int, str], commands: Any, taken: Any, rounds: int, idle: float,
                      pid: int) -> dict[str, Any]:
    import aiohttp

    phones = {seat: Phone(link) for seat, link in links.items()}
    rss_before = _rss_kib(pid)
    async with aiohttp.ClientSession() as session:
        readies = {seat: asyncio.Event() for seat in phones}
        tasks = [asyncio.create_task(p.run(session, readies[s])) for s, p in phones.items()]
        for event in readies.values():
            await event.wait()
        await asyncio.sleep(1.0)
        rss_after = _rss_kib(pid)
        loop = asyncio.get_running_loop()
        # Idle by day: nothing to send.
        cpu0, t0 = _cpu_s(pid), time.monotonic()
        await asyncio.sleep(idle)
        day_idle = (_cpu_s(pid) - cpu0) / (time.monotonic() - t0)
        # Idle at night: the fixed schedule runs (every phone a frame each beat, and its reply).
        commands.put("night")
        cpu0, t0 = _cpu_s(pid), time.monotonic()
        await asyncio.sleep(idle)
        night_idle = (_cpu_s(pid) - cpu0) / (time.monotonic() - t0)
        commands.put("day")
        await asyncio.sleep(0.5)
        latencies: list[float] = []
        for r in range(1, rounds + 1):
            commands.put("show")
            for _ in range(len(phones)):
                seat, view, at = await loop.run_in_executor(None, taken.get)
                latencies.append((at - phones[seat].sent[view]) * 1000)
        for task in tasks:
            task.cancel()
    latencies.sort()
    return {"phones": len(phones), "taps": len(latencies),
            "tap_to_engine_ms": {"p50": round(statistics.median(latencies), 2),
                                 "p99": round(latencies[int(0.99 * (len(latencies) - 1))], 2),
                                 "max": round(latencies[-1], 2)},
            "idle_cpu_percent_of_a_core": {"day": round(100 * day_idle, 2), "night_beats": round(100 * night_idle, 2)},
            "memory_per_phone_kib": round((rss_after - rss_before) / len(phones), 1),
            "server_rss_kib": rss_after}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--phones", type=int, default=18)
    p.add_argument("--rounds", type=int, default=20, help="every phone taps once a round, all at once")
    p.add_argument("--idle", type=float, default=10.0, help="seconds of each idle measurement")
    p.add_argument("--beat", type=float, default=0.25, help="the night's schedule, seconds between frames")
    args = p.parse_args()
    ctx = mp.get_context("spawn")
    links, commands, taken = ctx.Queue(), ctx.Queue(), ctx.Queue()
    child = ctx.Process(target=laptop, args=(args.phones, args.beat, links, commands, taken))
    child.start()
    try:
        result = asyncio.run(phones_side(links.get(timeout=60), commands, taken, args.rounds, args.idle, child.pid or 0))
    finally:
        commands.put("stop")
        child.join(timeout=30)
    result["load_average_1min"] = round(os.getloadavg()[0], 2)
    result["cores"] = os.cpu_count()
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
