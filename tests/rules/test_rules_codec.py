"""Events written to the journal and read back (narrator/rules/codec.py): a resumed game holds the
same typed values it wrote, and a damaged line is refused saying which field it lacks or which
event type it does not know."""

from __future__ import annotations

import pytest

from narrator.rules import RulesError
from narrator.rules.codec import event_from_dict, event_to_dict
from narrator.rules.events import Ballot, Cause, GameEnded, PlayerDied, VoteOpened, WindowOpened
from narrator.rules.roles import Role, Side


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


def test_a_role_a_ballot_and_a_winning_side_read_back_keep_their_own_types() -> None:
    # The engine asks `role is Role.ANGEL`, `ballot is Ballot.RUNOFF`, `winner is Side.VILLAGE`:
    # a plain string read back would compare equal and fail each of those.
    died = event_from_dict(event_to_dict(PlayerDied(4, Cause.VOTE, Role.SEER)))
    opened = event_from_dict(event_to_dict(VoteOpened(Ballot.RUNOFF, (2, 5), (1, 2, 3, 5))))
    ended = event_from_dict(event_to_dict(GameEnded(Side.VILLAGE, (1, 2))))
    assert isinstance(died, PlayerDied) and isinstance(opened, VoteOpened) and isinstance(ended, GameEnded)
    assert died.role is Role.SEER and type(died.role) is Role
    assert opened.ballot is Ballot.RUNOFF and type(opened.ballot) is Ballot
    assert ended.winner is Side.VILLAGE and type(ended.winner) is Side


def test_an_event_with_no_later_fields_read_back_without_one_is_refused_naming_it() -> None:
    data = event_to_dict(PlayerDied(4, Cause.VOTE, Role.SEER))
    del data["role"]
    with pytest.raises(RulesError, match=r"^event PlayerDied lacks field 'role'$"):
        event_from_dict(data)


def test_a_line_of_an_unknown_event_type_is_refused_naming_the_type() -> None:
    with pytest.raises(RulesError, match=r"^unknown event type 'SeerDreamt'$"):
        event_from_dict({"type": "SeerDreamt", "seat": 3})
