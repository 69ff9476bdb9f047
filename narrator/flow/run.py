"""One game through the sequencer, on the adapters the caller chose (the table, text mode, headless)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from narrator.errors import UsageError
from narrator.flow.script import Setup
from narrator.flow.resume import Resume
from narrator.flow.sequencer import Sequencer
from narrator.packs import VoicePack
from narrator.ports import Clock, Display, Heard, Journal, JournalError, Listener, SetupRecord, Speaker
from narrator.rules import Game, RulesError


def start_game(setup: Setup) -> Game:
    try:
        return Game.start(setup.deal, setup.options, setup.possible)
    except RulesError as exc:
        raise UsageError("the setup cannot be played: {exc}", exc=exc) from None


def play_game(
    setup: Setup,
    pack: VoicePack,
    listener: Listener,
    speaker: Speaker,
    display: Display,
    clock: Clock,
    journal: Journal,
    seed: int,
    resume: Resume | None = None,
    head: dict[str, Any] | None = None,
) -> Game:
    """Play `setup` to the end; a new journal first gets its head record (`head`, or a test's)."""
    game = start_game(setup)
    if not journal.records():
        record = SetupRecord(kind="setup", setup=setup.to_record(), mode="test", seed=seed)
        journal.append({**record, **(head or {})})
    seq = Sequencer(game, pack, speaker, listener, display, clock, journal, random.Random(seed), setup.timing, resume)
    seq.run()
    return game


def resume_from(records: list[dict[str, Any]], path: Path | None = None) -> Resume:
    """Inputs by step, and the steps the journal records as complete (a broken record: JournalError)."""
    resume = Resume()
    for line, record in enumerate(records[1:], start=2):
        kind = record.get("kind")
        try:
            if kind == "input":
                choice = record["choice"]
                heard = None if choice is None else Heard(choice, str(record.get("source", "journal")),
                                                          confirmed=record.get("asked_back") is True)
                resume.inputs.setdefault(int(record["n"]), []).append((str(record["prompt"]), heard))
            elif kind == "step":
                resume.steps[int(record["n"])] = list(record["events"])
        except (KeyError, TypeError, ValueError) as exc:
            if path is None:
                raise JournalError("the journal has a broken {kind} record at line {line} ({error_type}: {exc}); it "
                                   "was left as it is",
                                   kind=kind, line=line, error_type=type(exc).__name__, exc=exc) from None
            raise JournalError("journal {path} has a broken {kind} record at line {line} ({error_type}: {exc}); it was "
                               "left as it is",
                               path=path, kind=kind, line=line, error_type=type(exc).__name__, exc=exc) from None
    return resume
