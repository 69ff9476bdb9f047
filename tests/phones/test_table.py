"""PhoneTable on the fakes: who gets which panel when, answers from phones, the night's schedule."""

from __future__ import annotations

from typing import Any

from narrator.fakes import FakePhones

from phone_helpers import BASIC, SCRIPT, play_keypad, play_phones


def inputs(journal: Any) -> list[tuple[str, Any]]:
    return [(r["prompt"], r["choice"]) for r in journal.records() if r["kind"] == "input"]


def test_a_game_on_phones_takes_the_same_answers_as_on_the_keypad() -> None:
    taps: list[tuple[int, Any]] = []
    phones = FakePhones(8)
    g = play_phones(BASIC, SCRIPT, phones, taps=taps)
    keypad = play_keypad(BASIC, SCRIPT)
    assert g.game.outcome is not None and keypad.game.outcome is not None
    assert g.game.outcome.winner == keypad.game.outcome.winner
    assert inputs(g.journal) == inputs(keypad.journal)
    sources = {r["source"] for r in g.journal.records() if r["kind"] == "input" and r["choice"] is not None}
    assert "phone" in sources
    # The seer answered on her own phone, a wolf on his, each voter on theirs.
    assert (1, 2) in taps and any(seat in (2, 3) and choice == 6 for seat, choice in taps)
