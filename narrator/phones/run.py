"""A game with phones: `play_game` (narrator/flow/run.py) with the `PhoneTable` given the game."""

from __future__ import annotations

import random
from typing import Any

from narrator.flow.run import start_game
from narrator.flow.script import Setup
from narrator.flow.secret_vote import with_phones
from narrator.flow.sequencer import Resume, Sequencer
from narrator.packs import VoicePack
from narrator.phones.table import PhoneTable
from narrator.ports import Clock, Journal, Speaker
from narrator.rules import Game


def play_with_phones(setup: Setup, pack: VoicePack, table: PhoneTable, speaker: Speaker, clock: Clock,
                     journal: Journal, seed: int, resume: Resume | None = None,
                     head: dict[str, Any] | None = None) -> Game:
    """Play `setup` to the end with `table` as the display and the listener (its phones and the keypad)."""
    setup = with_phones(setup, True)  # accusation_vote=secret_with_phones: secret, every seat has a phone
    game = start_game(setup)
    table.attach(game)
    speaker = table.speaker(speaker)  # every phone follows night and day as they are said
    if not journal.records():
        journal.append({"kind": "setup", **(head or {"mode": "test", "seed": seed, "setup": setup.to_record()})})
    seq = Sequencer(game, pack, speaker, table, table, clock, journal, random.Random(seed), setup.timing, resume)
    seq.run()
    table.over()
    return game
