"""One schedule per role: a power's nights (`Power`, read by the engine) and its call's nights
(`Call`, read by the sequencer) are declared in the role's module; here they must agree, for
every option value and night, so the engine never refuses a call the sequencer makes (or waits
for one it never makes). See docs/rules.md for the roles' nights."""

from __future__ import annotations

import dataclasses

import pytest

from narrator.roles import CALLS
from narrator.roles.base import Call, Schedule
from narrator.rules import hooks
from narrator.rules.options import CHOICES, NUMBERS, Options

NIGHTS = range(1, 9)


def every_options() -> list[Options]:
    """The defaults, and each option set to each of its other values in turn."""
    variants = [Options()]
    for field in dataclasses.fields(Options):
        values: tuple[object, ...]
        if field.name in CHOICES:
            values = CHOICES[field.name]
        elif field.name in NUMBERS:
            values = tuple(NUMBERS[field.name])
        elif field.type in ("bool", bool):
            values = (True, False)
        else:
            continue
        variants += [dataclasses.replace(Options(), **{field.name: v}) for v in values]
    return variants


def call_nights(call: Call, options: Options, night: int) -> bool:
    """The nights the sequencer makes a call (its `_call_due`, without the role's being possible)."""
    if call.schedule is Schedule.AFTER and call.after is not None:
        return call_nights(CALLS[call.after], options, night)
    if call.nights is not None and not call.nights(options, night):
        return False
    return call.schedule is not Schedule.FIRST_NIGHT or night == 1


POWERED = sorted(name for name in hooks.POWERS if name in CALLS)


def test_every_power_has_its_call() -> None:
    assert POWERED and sorted(hooks.POWERS) == POWERED


@pytest.mark.parametrize("name", POWERED)
def test_a_power_and_its_call_have_one_schedule(name: str) -> None:
    power, call = hooks.POWERS[name], CALLS[name]
    assert (power.role, power.order) == (call.role, call.order)
    assert power.first_night_only == (call.schedule is Schedule.FIRST_NIGHT), name
    differ = [(options, night) for options in every_options() for night in NIGHTS
              if power.called(options, night) != call_nights(call, options, night)]
    assert differ == [], f"{name}: the engine and the sequencer disagree on {differ[:3]}"
