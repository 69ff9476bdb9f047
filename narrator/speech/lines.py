"""Every line a game can say: the cues of a pack for a table size and the roles in play."""

from __future__ import annotations

import itertools
from typing import Iterable, Mapping, Sequence

from narrator.packs import ROLE_SLOTS, SIDE_SLOTS, VoicePack, slots_of
from narrator.ports import Cue, SlotValue

SEAT_SLOTS = frozenset({"seat", "other"})
# Values the sequencer may put in the numeric slots (debate lengths, extra time, defence time).
DEFAULT_DOMAINS: Mapping[str, tuple[int, ...]] = {
    "minutes": tuple(range(1, 16)),
    "seconds": (10, 15, 20, 30, 45, 60, 90, 120),
}


def every_cue(
    pack: VoicePack,
    players: int,
    roles: Iterable[str] | None = None,
    domains: Mapping[str, Sequence[SlotValue]] | None = None,
) -> list[Cue]:
    """All spoken cues with every seat 1..players, every role in play, every side.

    Panel lines are shown, not spoken, so they are not included.
    """
    role_values = tuple(roles) if roles is not None else tuple(pack.roles)
    extra: dict[str, Sequence[SlotValue]] = dict(DEFAULT_DOMAINS)
    extra.update(domains or {})
    seats = tuple(range(1, players + 1))
    cues: list[Cue] = []
    for key, variants in pack.lines.items():
        names = sorted(slots_of(variants[0]))
        choices: list[Sequence[SlotValue]] = []
        for name in names:
            if name in SEAT_SLOTS:
                choices.append(seats)
            elif name in ROLE_SLOTS:
                choices.append(role_values)
            elif name in SIDE_SLOTS:
                choices.append(tuple(pack.sides))
            elif name in extra:
                choices.append(tuple(extra[name]))
            else:
                choices.append(tuple(range(0, players + 1)))
        for combo in itertools.product(*choices):
            cues.append(Cue(key, dict(zip(names, combo))))
    return cues


def texts_of(pack: VoicePack, cues: Iterable[Cue]) -> list[str]:
    """The text of every variant of every cue, without duplicates, in order."""
    out: dict[str, None] = {}
    for cue in cues:
        for variant in range(len(pack.lines.get(cue.key, ("",)))):
            out[pack.text(cue, variant)] = None
    return list(out)
