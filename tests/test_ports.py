"""The ports' small pure helpers."""

from __future__ import annotations

import re
from pathlib import Path

from narrator.ports import Prompt, drops_stale_keys

SEER = Prompt("night.seer", night=True)
HEAL = Prompt("night.witch.heal", night=True)
POISON = Prompt("night.witch.poison", night=True)
DEBATE = Prompt("day.debate")
VOTE = Prompt("day.vote.vote.3")


def test_stale_keys_are_dropped_when_a_night_turn_begins_or_the_day_follows_the_night() -> None:
    assert drops_stale_keys(None, SEER)
    assert drops_stale_keys(SEER, HEAL)
    assert drops_stale_keys(POISON, DEBATE)
    assert drops_stale_keys(DEBATE, SEER)


def test_stale_keys_are_kept_within_a_turn_and_by_day() -> None:
    assert not drops_stale_keys(HEAL, POISON)
    assert not drops_stale_keys(DEBATE, VOTE)
    assert not drops_stale_keys(None, VOTE)


def test_close_is_in_the_speaker_port_and_every_speaker_has_it() -> None:
    """The table closes whatever speaker it was given through the port, never by looking for a
    `close` that may not be there: every class of the package that says and prepares lines closes."""
    import narrator
    from narrator.ports import Speaker

    assert "close" in Speaker.__dict__
    root = Path(narrator.__file__).parent
    speakers: dict[str, bool] = {}
    for path in sorted(root.rglob("*.py")):
        for match in re.finditer(r"^class (\w+)\b.*?(?=^class |\Z)", path.read_text(encoding="utf-8"), re.S | re.M):
            body = match.group(0)
            if "    def say(self, cue: Cue, at: float | None = None) -> float:" in body and "    def prepare(self" in body:
                speakers[f"{path.relative_to(root).as_posix()}:{match.group(1)}"] = "    def close(self" in body
    assert len(speakers) >= 5, speakers  # the audio, silent, screen, tracking and recording speakers
    assert [name for name, closes in speakers.items() if not closes] == []
