"""Run by test_flood: the laptop's phone server in a process of its own, with the usual limit of
1,024 descriptors, serving 8 seats with a beat of 0.05 s and small time bounds, until STOP exists.
Arguments: INFO LOG STOP. It writes the seats' links to INFO, each tap it takes to INFO.taps, and
its counts to INFO.status; it prints nothing (its terminal must show nothing of the network)."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from narrator.phones.hub import PhoneHub
from narrator.phones.server import Limits, PhoneServer

LIMITS = Limits(per_address=16, total=256, hello=1.0, idle=3.0, queue=40)


def main() -> None:
    info, log, stop = (Path(a) for a in sys.argv[1:4])
    hub = PhoneHub(8)
    server = PhoneServer(hub, beat=0.05, limits=LIMITS, log=log)
    base = server.start()
    for seat in range(1, 9):
        hub.show(seat, {"id": 1, "seat": seat, "mode": "panel", "lines": ["Your turn to vote"], "note": "",
                        "choices": [[s, str(s)] for s in range(1, 9)], "card": "Villager", "night": False})
    info.write_text(json.dumps({"links": {seat: hub.link(seat, base) for seat in range(1, 9)}, "base": base}))
    taps = info.with_name(info.name + ".taps")
    status = info.with_name(info.name + ".status")
    most = most_fds = 0
    while not stop.exists():
        answer = hub.take()
        while answer is not None:
            with taps.open("a") as f:
                f.write(f"{answer.seat} {answer.choice}\n")
            answer = hub.take()
        most = max(most, len(server.waiting))
        most_fds = max(most_fds, len(os.listdir("/proc/self/fd")))
        fresh = status.with_name(status.name + ".new")
        fresh.write_text(json.dumps({"beats": server.beats, "waiting": len(server.waiting), "most_waiting": most, "most_fds": most_fds,
                                     "phones": len(server.phones), "joined": list(hub.joined())}))
        fresh.replace(status)  # whole, never half written
        time.sleep(0.02)
    server.stop()


if __name__ == "__main__":
    main()
