"""The phones beside the keypad: one prompt, answered by whichever comes first (EitherListener)."""

from __future__ import annotations

import threading
from dataclasses import replace

from narrator.clock import RealClock
from narrator.fakes import FakeListener, FakePhones, Timeline, TimelineDisplay, VirtualClock
from narrator.flow.run import start_game
from narrator.flow.script import parse_setup
from narrator.listening.table import EitherListener
from narrator.packs import load_pack
from narrator.phones.port import PhoneAnswer
from narrator.phones.table import PhoneTable
from narrator.ports import Heard, Prompt

from tests.phones.phone_helpers import BASIC, FAST


class Keypad:
    """A keypad nobody touches: it waits until the prompt's deadline or until another source answers."""

    def __init__(self) -> None:
        self.cancelled = False

    def listen(self, prompt: Prompt, cancel: threading.Event | None = None) -> Heard | None:
        assert cancel is not None
        cancel.wait()
        self.cancelled = True
        return None


def table_with(phones: FakePhones) -> PhoneTable:
    s = parse_setup({"language": "en", **BASIC, "timing": dict(FAST)}, "SETUP")
    pack = load_pack("en")
    clock = RealClock()
    table = PhoneTable(phones, TimelineDisplay(pack, Timeline(VirtualClock())),
                       FakeListener(VirtualClock(), lambda p: None), pack, clock, beat=None)
    table.attach(start_game(s))
    return table


def test_a_phones_tap_answers_a_prompt_the_keypad_waits_on_and_stops_it() -> None:
    phones = FakePhones(8)
    table = table_with(phones)
    keypad = Keypad()
    either = EitherListener([keypad, table.source()])
    prompt = Prompt("day.vote.vote.3", (1, 2, 4), ("nobody",), number=1)
    table.listener = either
    # The vote's view goes to seat 3's phone when the prompt opens; seat 3 taps 2 on it.
    tapper = threading.Thread(target=_tap_when_open, args=(phones, 3, 2))
    tapper.start()
    heard = table.listen(prompt)
    tapper.join()
    assert heard == Heard(2, "phone", "2 (phone 3)") and keypad.cancelled


def _tap_when_open(phones: FakePhones, seat: int, choice: int) -> None:
    while not phones.views.get(seat, {}).get("choices"):
        threading.Event().wait(0.01)
    phones.tap(seat, choice)


def test_the_phone_source_ignores_other_seats_and_stops_at_the_deadline_or_on_cancel() -> None:
    phones = FakePhones(8)
    table = table_with(phones)
    prompt = Prompt("day.vote.vote.3", (1, 2, 4), ("nobody",), number=1, deadline=table.clock.now() - 1)
    table.listen(Prompt("day.vote.vote.3", (1, 2, 4), ("nobody",), number=1, deadline=table.clock.now() - 1))
    phones.tap(5, 2)  # seat 5 is not asked
    phones.taps.put(PhoneAnswer(3, 0, 2))  # seat 3, on a view that is not open
    assert table.source().listen(prompt) is None
    assert phones.take() is None  # both dropped
    cancel = threading.Event()
    cancel.set()
    assert table.source().listen(replace(prompt, deadline=None), cancel) is None
