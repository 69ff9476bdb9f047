"""How long each part of the game lasts. Night turns are fixed so that timing leaks nothing."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Mapping

from narrator.errors import UsageError
from narrator.roles import night_calls

# Each night call's turn, as its role module declares it (narrator/roles), in the night's order.
DEFAULT_TURNS: dict[str, float] = {call.name: call.turn for call in night_calls()}


@dataclass(frozen=True)
class Timing:
    """Seconds for every wait of the game; night turns count from the end of the wake line."""

    turns: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_TURNS))
    gap: float = 1.5  # silence after a sleep line, before the next call
    # Between a night turn's deadline and its sleep line: the sleep line is scheduled at
    # deadline + settle, so that a journal write still running (an answer given at the last
    # moment, on a slow disk) never moves it. See docs/secrecy.md.
    settle: float = 0.5
    suspense: float = 3.0  # between "the sun rises" and the night's deaths
    debate: float = 300.0
    more_time: float = 120.0
    defence: float = 60.0
    vote: float = 20.0  # for one voter's answer
    # After a vote taken by voice is said back: "no" (or `-`) in this time takes it back.
    take_back: float = 1.5
    # After a seat heard by voice as a look-alike is asked back ("4? Yes or no."): this long to
    # say yes (or press +); anything else, or nothing, and the voter is asked again.
    ask_back: float = 3.0
    chain: float = 30.0  # the Hunter's shot, the Captain's successor or tie-break
    # The physical cards' roll call (narrator/table/deal.py): a role's turn to type its seat, and
    # more for each card of that role beyond the first (the Werewolves type several seats).
    roll_call: float = 8.0
    roll_call_card: float = 2.0

    def turn(self, call: str) -> float:
        return float(self.turns[call])

    def with_values(self, values: Mapping[str, Any], where: str = "timing") -> Timing:
        """A copy with values from a config or SETUP file (`seer = 15`, `debate = 120`...)."""
        turns = dict(self.turns)
        changes: dict[str, float] = {}
        known = {f.name for f in dataclasses.fields(self)} - {"turns"}
        for key, raw in values.items():
            if isinstance(raw, bool) or not isinstance(raw, (int, float)) or raw < 0:
                raise UsageError("{where}: {key} = {raw!r} must be a number of seconds, 0 or more", where=where, key=key, raw=raw)
            if key in turns:
                turns[key] = float(raw)
            elif key in known:
                changes[key] = float(raw)
            else:
                names = ", ".join(sorted(set(turns) | known))
                raise UsageError("{where}: unknown timing {key!r}; known: {names}", where=where, key=key, names=names)
        return dataclasses.replace(self, turns=turns, **changes)
