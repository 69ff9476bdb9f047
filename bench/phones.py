"""The phones on loopback: tap -> engine latency with 18 phones connected, the server's CPU with
the fixed schedule running (it runs day and night), memory per phone, and the beat as the phones
receive it (each frame's interval from the one before, and how far apart one beat reaches them).

The laptop (PhoneHub + PhoneServer, as `narrator play --phones` runs them) is a child process;
18 phones speaking the page's protocol (sealed with PyNaCl, as the page does with TweetNaCl) run
in this one over real WebSockets to 127.0.0.1. A tap's time runs from the phone sending it to the
laptop's game thread taking it from the hub (CLOCK_MONOTONIC is the same in both processes); a tap
goes with the phone's answer to a frame, so it waits for the next beat (at most one beat).
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

import nacl.bindings
import nacl.public

from narrator.phones.crypto import FRAME, UP_FRAME, key_bytes, key_text, seal, session_key, unseal


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
    from narrator.phones.server import Limits, PhoneServer

    hub = PhoneHub(players)
    # Every phone here comes from 127.0.0.1: one address may have them all waiting at once.
    server = PhoneServer(hub, beat=beat, limits=Limits(per_address=Limits.total))
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
    """A phone as phone.js is one: its device key, the hello sealed with the link key, then one
    answer (a tap or nothing) for every frame, sealed with the connection's key."""

    def __init__(self, link: str) -> None:
        path, fragment = link.split("#")
        self.key = key_bytes(fragment)
        self.origin = path.split("/p/")[0]
        self.url = path.replace("http://", "ws://").replace("/p/", "/ws/")
        self.secret = nacl.public.PrivateKey.generate()
        self.sent: dict[int, float] = {}
        self.arrived: list[float] = []  # when each frame came (time.monotonic)

    async def run(self, session: Any, ready: asyncio.Event) -> None:
        async with session.ws_connect(self.url, origin=self.origin) as ws:
            first = json.loads(await ws.receive_str())
            self.challenge, self.n = first["c"], 0
            await ws.send_bytes(self._seal({"t": "hello", "device": key_text(bytes(self.secret.public_key))}, self.key))
            self.box = session_key(self.key, nacl.bindings.crypto_box_beforenm(key_bytes(first["s"]), bytes(self.secret)))
            ready.set()
            async for msg in ws:
                self.arrived.append(time.monotonic())
                view = unseal(self.box, msg.data, FRAME).get("view", {})  # a frame of names holds no view
                answer: dict[str, Any] = {"t": "idle"}
                if view.get("choices") and view["id"] not in self.sent:
                    self.sent[view["id"]] = time.perf_counter()
                    answer = {"t": "answer", "v": view["id"], "choice": "nobody"}
                await ws.send_bytes(self._seal(answer, self.box))

    def _seal(self, message: dict[str, Any], key: bytes) -> bytes:
        self.n += 1
        return seal(key, {**message, "c": self.challenge, "n": self.n}, UP_FRAME)


async def phones_side(links: dict[int, str], commands: Any, taken: Any, rounds: int, idle: float,
                      pid: int, beat: float) -> dict[str, Any]:
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
        # Nothing happening: the fixed schedule runs (every phone a frame each beat, and its answer).
        commands.put("night")
        cpu0, t0 = _cpu_s(pid), time.monotonic()
        marks = {seat: len(p.arrived) for seat, p in phones.items()}
        await asyncio.sleep(idle)
        night_idle = (_cpu_s(pid) - cpu0) / (time.monotonic() - t0)
        arrivals = {seat: p.arrived[marks[seat]:] for seat, p in phones.items()}
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
    beats = min(len(a) for a in arrivals.values())
    intervals = sorted(abs((a[k + 1] - a[k]) - beat) * 1000 for a in arrivals.values() for k in range(beats - 1))
    spread = sorted((max(a[k] for a in arrivals.values()) - min(a[k] for a in arrivals.values())) * 1000
                    for k in range(beats))
    return {"phones": len(phones), "taps": len(latencies),
            "beat_at_the_phones_ms": {"frames_each": beats,
                                      "interval_off_the_beat": {"p50": round(statistics.median(intervals), 2),
                                                                "p99": round(intervals[int(0.99 * (len(intervals) - 1))], 2)},
                                      "one_beat_across_phones": {"p50": round(statistics.median(spread), 2),
                                                                 "p99": round(spread[int(0.99 * (len(spread) - 1))], 2)}},
            "tap_to_engine_ms": {"p50": round(statistics.median(latencies), 2),
                                 "p99": round(latencies[int(0.99 * (len(latencies) - 1))], 2),
                                 "max": round(latencies[-1], 2)},
            "idle_cpu_percent_of_a_core_with_the_schedule": round(100 * night_idle, 2),
            "memory_per_phone_kib": round((rss_after - rss_before) / len(phones), 1),
            "server_rss_kib": rss_after}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--phones", type=int, default=18)
    p.add_argument("--rounds", type=int, default=20, help="every phone taps once a round, all at once")
    p.add_argument("--idle", type=float, default=10.0, help="seconds of each idle measurement")
    p.add_argument("--beat", type=float, default=0.25, help="the schedule, seconds between frames")
    args = p.parse_args()
    ctx = mp.get_context("spawn")
    links, commands, taken = ctx.Queue(), ctx.Queue(), ctx.Queue()
    child = ctx.Process(target=laptop, args=(args.phones, args.beat, links, commands, taken))
    child.start()
    try:
        result = asyncio.run(phones_side(links.get(timeout=60), commands, taken, args.rounds, args.idle, child.pid or 0,
                                         args.beat))
    finally:
        commands.put("stop")
        child.join(timeout=30)
    result["load_average_1min"] = round(os.getloadavg()[0], 2)
    result["cores"] = os.cpu_count()
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
