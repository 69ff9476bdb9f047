"""Faults with phones: a page reopened mid-turn, the laptop stopped mid-game and resumed on the same links."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

import pytest

from narrator.errors import UsageError
from narrator.fakes import MemoryJournal
from narrator.flow.run import resume_from
from narrator.phones.hub import PhoneHub, load_links, save_links

from tests.phones.phone_helpers import BASIC, SCRIPT, MemoryPhone, play_hub, play_keypad


class Crash(Exception):
    """The laptop stops (its process is killed): nothing after this runs."""


def inputs(journal: Any) -> list[tuple[str, Any]]:
    return [(r["prompt"], r["choice"]) for r in journal.records() if r["kind"] == "input"]


def test_a_page_reopened_mid_turn_gets_its_panel_back_and_its_answer_counts() -> None:
    hub = PhoneHub(8)
    reopened: list[dict[str, Any]] = []

    def reload_seer(phones: dict[int, MemoryPhone], prompt: Any) -> None:
        if prompt.name == "night.seer" and not reopened:
            phones[1].connect()  # the Seer's page is killed and opened again on the same link
            reopened.append(phones[1].view())

    g, phones = play_hub(BASIC, SCRIPT, hub, before_tap=reload_seer)
    assert reopened and reopened[0]["mode"] == "panel" and reopened[0]["choices"]
    assert ("night.seer", 2) in inputs(g.journal)
    assert g.game.outcome is not None and g.game.outcome.winner == play_keypad(BASIC, SCRIPT).game.outcome.winner  # type: ignore[union-attr]


def test_the_laptop_stopped_mid_game_resumes_with_the_phones_on_the_same_links(tmp_path: Path) -> None:
    whole = play_keypad(BASIC, SCRIPT)
    hub = PhoneHub(8)
    path = tmp_path / "phones.json"
    hub.on_join = lambda: save_links(hub, path)
    journal = MemoryJournal()
    taps = {"n": 0}

    def crash_on_the_fourth_vote(phones: dict[int, MemoryPhone], prompt: Any) -> None:
        if prompt.name.startswith("day.vote"):
            taps["n"] += 1
            if taps["n"] == 4:
                raise Crash

    with pytest.raises(Crash):
        play_hub(BASIC, SCRIPT, hub, journal=journal, before_tap=crash_on_the_fourth_vote)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    answered = inputs(journal)
    assert ("day.vote.vote.3", 2) in answered and ("night.seer", 2) in answered
    # A new laptop process: the same links, the same devices; another device is still refused.
    again = PhoneHub(8, links=load_links(path))
    assert again.link(1, "http://h") == hub.link(1, "http://h")
    with pytest.raises(Exception):
        MemoryPhone(again, 1, device="someone-else").connect()
    g, phones = play_hub(BASIC, SCRIPT, again, journal=journal, resume=resume_from(journal.records()))
    assert g.game.outcome is not None and whole.game.outcome is not None
    assert g.game.outcome.winner == whole.game.outcome.winner
    assert inputs(journal) == inputs(whole.journal)  # no answer lost, none twice


def test_broken_links_file_is_one_clear_line(tmp_path: Path) -> None:
    path = tmp_path / "phones.json"
    path.write_text("{not json")
    with pytest.raises(UsageError, match="cannot be read"):
        load_links(path)
    with pytest.raises(UsageError, match="must join again"):
        PhoneHub(8, links={"1": {"token": "x"}})


@pytest.mark.slow
def test_the_laptop_killed_with_sigkill_resumes_with_the_same_links(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    from narrator.journal import FileJournal

    journal_path, links, marker = tmp_path / "game.jsonl", tmp_path / "phones.json", tmp_path / "ready"
    here = Path(__file__).parent
    child = subprocess.Popen([sys.executable, "-m", "tests.phones.sigkill_game", str(journal_path), str(links), str(marker)],
                             cwd=here.parents[1], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(1200):  # the child plays to its fourth vote (a liveness bound, not a timing)
            if marker.exists() or child.poll() is not None:
                break
            time.sleep(0.1)
        assert marker.exists(), child.stderr.read().decode() if child.poll() is not None else "no marker"
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.kill()
        child.wait()
    assert child.returncode == -signal.SIGKILL
    journal = FileJournal.reopen(journal_path)
    before = inputs(journal)
    assert ("day.vote.vote.3", 2) in before and not any(p == "day.vote.vote.5" for p, _ in before)
    again = PhoneHub(8, links=load_links(links))
    g, _ = play_hub(BASIC, SCRIPT, again, journal=journal, resume=resume_from(journal.records()))
    whole = play_keypad(BASIC, SCRIPT)
    assert g.game.outcome is not None and whole.game.outcome is not None
    assert g.game.outcome.winner == whole.game.outcome.winner
    assert inputs(journal) == inputs(whole.journal)


def test_a_phone_off_the_network_misses_the_beats_and_gets_its_panel_back_on_return() -> None:
    hub = PhoneHub(8)
    dropped: dict[str, Any] = {}

    def drop_then_return(phones: dict[int, MemoryPhone], prompt: Any) -> None:
        if prompt.name == "night.seer" and not dropped:
            seer = phones[1]
            assert seer.channel is not None
            hub.gone(seer.channel)  # the Wi-Fi drops: the server sees the socket close
            before = len(seer.conn.texts)
            for k in range(20):  # 5 s of the night's schedule go by without it
                hub.beat(1000.0 + k * 0.25)
            dropped["missed"] = len(seer.conn.texts) - before
            seer.connect()  # back on the network: the page reconnects by itself
            dropped["view"] = seer.view()

    g, phones = play_hub(BASIC, SCRIPT, hub, before_tap=drop_then_return)
    assert dropped["missed"] == 0
    assert dropped["view"]["mode"] == "panel" and any(c[0] == 2 for c in dropped["view"]["choices"])
    assert ("night.seer", 2) in inputs(g.journal)


def test_the_links_file_is_owner_only_even_over_a_world_readable_one(tmp_path: Path) -> None:
    hub = PhoneHub(8)
    path = tmp_path / "game.jsonl.phones.json"
    path.write_text("{}")
    path.chmod(0o644)  # left by another program, or an older game
    save_links(hub, path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_links(path)["1"]["key"] and [p.name for p in tmp_path.iterdir()] == [path.name]
