"""The players' names and the phones (docs/names.md): a phone asks its seat's name once, while the
table is joining; every phone shows the table's names beside the seats' numbers ("6 Ann")."""

from __future__ import annotations

from narrator.names import People
from narrator.phones.hub import PhoneHub


def take_names(hub: PhoneHub, people: People) -> None:
    """The hub's phones show `people`'s names; until the game starts, a name a phone gives for its
    own seat is taken (cleaned: narrator/names.py) and shown on every phone at the next beat."""

    def heard(seat: int, raw: str) -> None:
        try:
            people.set(seat, raw)
        except ValueError:
            return  # the game has started: the names are fixed
        hub.set_names(people.all_shown(), open=not people.frozen)

    hub.on_name = None if people.frozen else heard
    hub.set_names(people.all_shown(), open=not people.frozen)


def close_names(hub: PhoneHub, people: People) -> None:
    """The game starts: no phone asks a name any more; the names stay as they are."""
    people.freeze()
    hub.on_name = None
    hub.set_names(people.all_shown(), open=False)
