"""A table's config made a playable setup (the wizard's game, the early render's plan of lines)."""

from __future__ import annotations

import random

from narrator.errors import UsageError
from narrator.flow.script import Setup
from narrator.flow.timing import Timing
from narrator.table.config import TableConfig


def setup_from_config(config: TableConfig, seed: int | None, pace: float | None = None) -> Setup:
    """A playable Setup for this table, with a fresh deal."""
    from narrator.rules import RulesError, deal
    from narrator.rules.composition import set_aside

    try:
        deck = config.composition()
        options = config.rule_options()
        timing = config.timings()
    except RulesError as exc:
        raise UsageError("this table cannot be played: {exc}", exc=exc) from None
    if pace is not None:
        timing = scaled(timing, pace)
    rng = random.Random(seed)
    scale = config.speech_scale * (pace if pace is not None else 1.0)
    # Every card of the composition is possible; some may be set aside unseen (possible_beyond_dealt).
    dealt = set_aside(deck, options.possible_beyond_dealt, rng)
    possible = frozenset(deck) if dealt != deck else None
    return Setup(config.players, config.language, deal(config.players, dealt, rng, options), possible, options, timing,
                 scale)


def scaled(timing: Timing, factor: float) -> Timing:
    """Every wait of `timing` times `factor` (the demo and tests play fast)."""
    import dataclasses

    values: dict[str, float] = {k: v * factor for k, v in timing.turns.items()}
    values.update({f.name: getattr(timing, f.name) * factor for f in dataclasses.fields(timing) if f.name != "turns"})
    return timing.with_values(values)
