"""`narrator play --phones` refused in one clear line where it cannot work."""

from __future__ import annotations

from pathlib import Path

from narrator.errors import UsageError
from narrator.phones.play import TablePhones, links_path

import pytest

from tests.text_game import narrator


def test_phones_with_the_text_screen_is_one_line(tmp_path: Path) -> None:
    done = narrator("play", "--phones", "--text", "--players", "5", data=tmp_path)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "--phones needs the full screen" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_an_address_the_laptop_does_not_have_is_one_line(tmp_path: Path) -> None:
    phones = TablePhones(5, tmp_path / "game.jsonl", host="192.0.2.1")  # TEST-NET-1: never this machine's
    with pytest.raises(UsageError, match="cannot listen on 192.0.2.1"):
        phones.start()
    assert not links_path(tmp_path / "game.jsonl").exists()
