"""Rematch: the same table, composition, options and timing, with a fresh deal."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from narrator.errors import UsageError
from narrator.flow.script import Setup
from narrator.packs import VoicePack
from narrator.rules import deal
from narrator.rules.composition import deck_of

REMATCH_KEY = "*"


def rematch_setup(setup: Setup, rng: random.Random) -> Setup:
    """The same game with the cards shuffled and dealt again."""
    from_deck = setup.options.thief_extra_cards == "from_deck"
    deck = deck_of(setup.deal.seats, setup.deal.extra if from_deck else ())
    return replace(setup, deal=deal(setup.players, deck, rng, setup.options))


def last_game(folder: Path) -> tuple[Setup, dict[str, Any]]:
    """The setup and head record of the most recent journal in `folder` (`narrator play --again`)."""
    from narrator.journal import JournalError, read_journal

    from narrator.flow.script import game_journals

    journals = [p for p in game_journals(folder) if p.stat().st_size > 0]
    for path in reversed(journals):
        try:
            records, _ = read_journal(path)
            return Setup.from_record(records[0]["setup"]), records[0]
        except (JournalError, KeyError, TypeError, ValueError):
            continue
    raise UsageError("no game to play again in {folder}; play one first (narrator play)", folder=folder)


def offer_rematch(pack: VoicePack, read_line: Callable[[], str | None], tell: Callable[[str], None] = print) -> bool:
    """At game over: one key (`*` then Enter) plays again; anything else, or the end of input, finishes."""
    tell(pack.panel_text("game.rematch", {}))
    answer = read_line()
    return answer is not None and answer.strip() == REMATCH_KEY
