"""`narrator play --phones` refused in one clear line where it cannot work."""

from __future__ import annotations

from pathlib import Path

from narrator.errors import UsageError
from narrator.phones.play import TablePhones, links_path

import pytest

from tests.text_game import narrator


@pytest.mark.slow
def test_phones_with_the_text_screen_is_one_line(tmp_path: Path) -> None:
    done = narrator("play", "--phones", "--text", "--players", "5", data=tmp_path)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "--phones needs the full screen" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_an_address_the_laptop_does_not_have_is_one_line(tmp_path: Path) -> None:
    phones = TablePhones(5, tmp_path / "game.jsonl", host="192.0.2.1")  # TEST-NET-1: never this machine's
    with pytest.raises(UsageError, match="cannot listen on 192.0.2.1"):
        phones.start()
    assert not links_path(tmp_path / "game.jsonl").exists()


def test_a_resumed_game_serves_the_same_links_on_the_same_port(tmp_path: Path) -> None:
    import argparse

    from narrator.flow.script import parse_setup
    from narrator.table.play import _phones

    journal = tmp_path / "game.jsonl"
    first = TablePhones(5, journal, host="127.0.0.1")
    first.start()
    links = [first.hub.link(seat, first.base) for seat in range(1, 6)]
    first.close()  # the laptop stopped
    setup = parse_setup({"language": "en", "players": 5, "roles": {1: "seer", 2: "werewolf"}}, "SETUP")
    again = _phones(argparse.Namespace(), setup, journal, resuming=True)
    assert again is not None
    try:
        assert [again.hub.link(seat, again.base) for seat in range(1, 6)] == links
    finally:
        again.close()
    again.forget()  # the game over, its links go
    assert not links_path(journal).exists()
    assert _phones(argparse.Namespace(), setup, tmp_path / "other.jsonl", resuming=True) is None
