"""The ports' small pure helpers."""

from __future__ import annotations

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
