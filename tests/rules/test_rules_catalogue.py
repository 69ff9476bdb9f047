"""The catalogue as it loads (narrator/roles/__init__.py, narrator/rules/hooks.py): every role has its
module, the end check takes one row a rank, a power's step of the night follows its order, and the
night order's table (docs/state-machine.md) lists every call at its place.

The first three run at import, before any game; the tests call them again so that a slip in them
fails here and not only as an import error. The table is made only by `narrator graph --page`, which
no fast test runs in its own process: this one calls it."""

from __future__ import annotations

import dataclasses
import re

import pytest

from narrator import roles
from narrator.roles.base import Schedule
from narrator.rules import Options, Role, hooks
from narrator.rules.view import Power, Win


def test_the_catalogue_finds_one_module_a_role_in_the_roles_order() -> None:
    loaded = roles._load()
    assert list(loaded) == list(Role)
    assert loaded == roles.MODULES
    assert all(module.card.role is role for role, module in loaded.items())


def test_an_end_check_row_goes_in_at_its_rank_and_a_taken_rank_is_refused() -> None:
    saved = list(hooks.WINS)
    try:
        free = max(w.rank for w in saved) + 1
        row = dataclasses.replace(saved[0], rank=free)
        hooks.add_win(row)  # a new rank: taken however many rows the table holds already
        assert hooks.WINS[-1] is row and hooks.WINS[:-1] == saved
        with pytest.raises(ValueError, match=rf"^two end-check rows at rank {free}$"):
            hooks.add_win(dataclasses.replace(row))
    finally:
        hooks.WINS[:] = saved


def test_a_powers_step_of_the_night_is_its_order_in_tenths() -> None:
    power = Power("seer", Role.SEER, 12.5, None, lambda game, seat: ())
    assert power.step == 125
    assert hooks.POWERS["seer"].step == round(hooks.POWERS["seer"].order * 10)
    assert isinstance(hooks.WINS[0], Win)


def test_the_night_order_table_lists_every_call_at_its_place_with_its_nights() -> None:
    header, *rows = [re.split(r" {2,}", line) for line in roles.night_order_table().splitlines()]
    assert header == ["order", "call", "nights", "when possible"]
    calls = {c.name: c for c in roles.night_calls()}
    places = sorted([(c.order, name) for name, c in calls.items()] + [(roles.NIGHT_ELECTION_ORDER, "night_election")])
    assert [(float(order), name) for order, name, _, _ in rows] == places
    for _, name, nights, possible in rows:
        call = calls.get(name)
        if call is None:
            assert (nights, possible) == ("captain_election=night1_end", "-")
            continue
        assert possible == ("always" if call.always else call.role.value)
        if call.schedule is Schedule.SOME_NIGHTS and call.nights is not None:
            # The nights it is called on with the default options, of the first five; none: an option's.
            called = [n for n in range(1, 6) if call.nights(Options(), n)]
            assert nights == (",".join(map(str, called)) + ",... (options)" if called else "by option")
