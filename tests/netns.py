"""A network of the test's own: two network namespaces joined by a veth pair, the laptop's end with a
default route through the phone's end (as a table's Wi-Fi has a router), nothing else. Names are
unique per process; everything is torn down (`close`). Every packet a test sends stays inside.

Needs root and `ip` (iproute2; scripts/setup.sh installs it with `dev`)."""

from __future__ import annotations

import ctypes
import os
import random
import shutil
import subprocess
import uuid
from contextlib import contextmanager
from typing import Iterator

import pytest

CLONE_NEWNET = 0x40000000


def need_root_and_ip() -> None:
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.fail("network namespaces need root and iproute2's ip (CI runs as root; scripts/setup.sh dev installs ip)")


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=600)


class Network:
    """Namespace `laptop` (address `laptop_ip`, default route via the phone) and namespace `phone`
    (address `phone_ip`, no route beyond the pair); `loopback_only`: a namespace with nothing but lo."""

    def __init__(self) -> None:
        need_root_and_ip()
        tag = uuid.uuid4().hex[:8]
        self.laptop, self.phone, self.alone = f"nrt-l-{tag}", f"nrt-p-{tag}", f"nrt-o-{tag}"
        veth_l, veth_p = f"nl{tag}", f"np{tag}"
        net = f"10.{random.randint(64, 250)}.{random.randint(1, 250)}"
        self.laptop_ip, self.phone_ip = f"{net}.1", f"{net}.2"
        self.made: list[str] = []
        try:
            for ns in (self.laptop, self.phone, self.alone):
                ip("netns", "add", ns)
                self.made.append(ns)
                ip("-n", ns, "link", "set", "lo", "up")
            ip("link", "add", veth_l, "type", "veth", "peer", "name", veth_p)
            ip("link", "set", veth_l, "netns", self.laptop)
            ip("link", "set", veth_p, "netns", self.phone)
            ip("-n", self.laptop, "addr", "add", f"{self.laptop_ip}/24", "dev", veth_l)
            ip("-n", self.phone, "addr", "add", f"{self.phone_ip}/24", "dev", veth_p)
            ip("-n", self.laptop, "link", "set", veth_l, "up")
            ip("-n", self.phone, "link", "set", veth_p, "up")
            ip("-n", self.laptop, "route", "add", "default", "via", self.phone_ip)
        except BaseException:
            self.close()
            raise

    def run_in(self, ns: str) -> list[str]:
        """The prefix that runs a command inside namespace `ns`."""
        return ["ip", "netns", "exec", ns]

    @contextmanager
    def inside(self, ns: str) -> Iterator[None]:
        """This thread inside namespace `ns` (what it starts too: a browser and its driver), then back."""
        libc = ctypes.CDLL(None, use_errno=True)
        with open("/proc/thread-self/ns/net") as home, open(f"/run/netns/{ns}") as there:
            if libc.setns(there.fileno(), CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), f"setns into {ns}")
            try:
                yield
            finally:
                libc.setns(home.fileno(), CLONE_NEWNET)

    def close(self) -> None:
        for ns in self.made:  # the veth pair goes with its namespaces
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=600)
        self.made = []
