"""The phones reach the laptop at its address on the table's network, never 127.0.0.1: inside a
network of the test's own (tests/netns.py), the address is the laptop's end of the pair; on a
machine with only the loopback, one line says how to fix it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.netns import Network
from tests.table.tmux import REPO

ASK = ("from narrator.errors import NarratorError\n"
       "from narrator.i18n import message_of\n"
       "from narrator.phones.play import table_address\n"
       "try:\n    print(table_address())\n"
       "except NarratorError as exc:\n    print('refused: ' + message_of(exc))\n")

pytestmark = pytest.mark.slow  # network namespaces and the command in child processes


def address_in(net: Network, ns: str) -> str:
    proc = subprocess.run([*net.run_in(ns), sys.executable, "-c", ASK], capture_output=True, text=True, timeout=600,
                          env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_the_phones_address_is_the_laptops_on_the_tables_network_and_loopback_alone_is_refused() -> None:
    net = Network()
    try:
        assert address_in(net, net.laptop) == net.laptop_ip
        alone = address_in(net, net.alone)
        assert alone.startswith("refused: the phones cannot reach this laptop: it has no network but its own loopback")
        assert "--phones-host ADDRESS" in alone
    finally:
        net.close()


def test_a_laptop_on_no_network_is_told_how_to_fix_it_and_no_game_is_left_in_the_history(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import os

    from narrator.table.config import TableConfig
    from tests.table.tmux import Tmux

    (tmp_path / "config.toml").write_text(TableConfig(players=5, roles={"werewolf": 1, "seer": 1}).to_toml())
    net = Network()
    t = Tmux([*net.run_in(net.alone), sys.executable, "-m", "narrator", "play", "--phones", "--no-audio",
              "--config", str(tmp_path / "config.toml")], tmp_path,
             {"NARRATOR_DATA": str(tmp_path / "data"), "PYTHONPATH": str(REPO)})
    try:
        t.wait("Enter = play with it")
        t.send("Enter")
        assert t.exit_code() == 1
        out = t.scrollback(join=True)
        assert "narrator: the phones cannot reach this laptop: it has no network but its own loopback" in out
        assert "Traceback" not in out and "Seat 1: scan" not in out
        assert not list((tmp_path / "data").rglob("*.jsonl"))
        history = subprocess.run([sys.executable, "-m", "narrator", "history"], capture_output=True, text=True,
                                 timeout=600, env={**os.environ, "NARRATOR_DATA": str(tmp_path / "data"),
                                                   "PYTHONPATH": str(REPO)})
        assert "abandoned" not in history.stdout, history.stdout
    finally:
        t.close()
        net.close()
