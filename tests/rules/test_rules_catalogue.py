"""The catalogue as it loads (narrator/roles/__init__.py, narrator/rules/hooks.py): every role has its
module, the end check takes one row a rank, and a power's step of the night follows its order.

These run at import, before any game; the tests call them again so that a slip in them fails here
and not only as an import error."""

from __future__ import annotations

import dataclasses

import pytest

from narrator import roles
from narrator.rules import Role, hooks
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
