"""Telling a player he was designated in the night (docs/rules-spec.md#designation): the Piper's charm, and the
infection use this one mechanism.

The narrator has no hands to touch a shoulder; option `designation_notice` says who does:
`tap_by_chooser` (the role who chose taps each designated player before going back to sleep) or
`helper_touch` (a human helper touches them when the screen says so). Both happen during the
chooser's own turn, on his private panel, so the table hears nothing new (Secrecy).

The API, in two halves:

- Engine (pure): a night power declared with `Power(..., notifies=True)` designates its targets;
  `GameView.use_power` then emits `Notified(seats, reason=call)` after its `PowerUsed`, so the journal
  records who had to be told. A power whose designated players are not its targets (the
  infection designates the pack's victim) emits `Notified` from its own engine action the same way.
- Panel: `notice_lines(options, seats)` gives the lines the chooser's panel shows for those seats,
  one line per seat (`designation.tap` / `designation.helper`, {seat}); a call's `panel` function
  appends them to its echo while the chooser is awake (see narrator/roles/pied_piper.py).

The designated players then wake in their own call (the `charmed` call, the pack's call), where
the panel shows them who else shares their secret.
"""

from __future__ import annotations

from typing import Iterable

from narrator.ports import SlotValue
from narrator.rules.options import Options
from narrator.rules.view import GameView, Power

KEYS = {"tap_by_chooser": "designation.tap", "helper_touch": "designation.helper"}
LINES = tuple(KEYS.values())  # the panel keys this mechanism shows


def notice_lines(options: Options, seats: Iterable[int | SlotValue]) -> list[tuple[str, dict[str, SlotValue]]]:
    """The chooser's panel lines telling how each designated seat learns it, in the given order."""
    key = KEYS[options.designation_notice]
    return [(key, {"seat": seat}) for seat in seats]
