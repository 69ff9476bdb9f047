"""Events written to the journal and read back (narrator/rules/codec.py): a resumed game holds the
same typed values it wrote, and a damaged line is refused saying which field it lacks."""

from __future__ import annotations

import pytest

from narrator.rules import RulesError
from narrator.rules.codec import event_from_dict, event_to_dict
from narrator.rules.events import Cause, WindowOpened


def test_a_dawn_window_read_back_keeps_each_deaths_cause_as_a_cause() -> None:
    written = WindowOpened(3, ((5, Cause.WOLVES), (7, Cause.POISON)))
    read = event_from_dict(event_to_dict(written))
    assert read == written
    assert isinstance(read, WindowOpened)
    # The engine asks `cause is Cause.POISON`: a plain string would compare equal and fail that.
    assert [cause for _, cause in read.queue] == [Cause.WOLVES, Cause.POISON]
    assert all(type(cause) is Cause for _, cause in read.queue)


def test_an_event_read_back_without_a_field_is_refused_naming_the_field() -> None:
    data = event_to_dict(WindowOpened(3, ((5, Cause.WOLVES),)))
    del data["seat"]
    with pytest.raises(RulesError, match=r"^event WindowOpened lacks field 'seat'$"):
        event_from_dict(data)
