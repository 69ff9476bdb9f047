"""Headless play: a scripted game on a virtual (or real) clock, written out as a timeline."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from narrator.duration import estimated_duration
from narrator.fakes import FakeListener, Timeline, TimelineDisplay, TimelineSpeaker
from narrator.flow.clock import RealClock, VirtualClock
from narrator.flow.journal import FileJournal, JournalError, MemoryJournal, read_journal
from narrator.flow.script import Script, Setup
from narrator.flow.sequencer import Resume, Sequencer
from narrator.packs import load_pack
from narrator.ports import Clock, Cue, Display, Heard, Journal, Listener, Speaker
from narrator.rules import Game, RulesError
from narrator.errors import UsageError


class ScaledSpeaker(TimelineSpeaker):
    """The timeline speaker with line lengths scaled (short lines for real-clock tests)."""

    def __init__(self, *args: Any, scale: float = 1.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.scale = scale

    def say(self, cue: Cue, at: float | None = None) -> float:
        text = self.pack.text(cue)
        start = self.timeline.clock.now() if at is None else max(at, self.timeline.clock.now())
        self.timeline.add(at=start, kind="say", key=cue.key, text=text, phase=cue.phase)
        return start + estimated_duration(text, self.pack.rate) * self.scale


@dataclass
class HeadlessResult:
    game: Game
    timeline: list[dict[str, Any]]
    journal: Journal


def start_game(setup: Setup) -> Game:
    try:
        return Game.start(setup.deal, setup.options, setup.possible)
    except RulesError as exc:
        raise UsageError(f"the setup cannot be played: {exc}") from None


def play_headless(
    setup: Setup,
    script: Script,
    seed: int = 0,
    clock: Clock | None = None,
    journal: Journal | None = None,
    resume: Resume | None = None,
) -> HeadlessResult:
    """A scripted game: each role answers from SCRIPT.toml, `answer_delay` seconds after asking."""
    clock = clock or VirtualClock()
    head = {"mode": "headless", "seed": seed, "setup": setup.to_record(), "script": script.to_record(),
            "clock": "real" if isinstance(clock, RealClock) else "virtual"}
    listener = FakeListener(clock, script.answer, delay=script.answer_delay)
    return run_game(setup, listener, seed, clock, journal, resume, head)


def run_game(
    setup: Setup,
    listener: Listener,
    seed: int,
    clock: Clock,
    journal: Journal | None = None,
    resume: Resume | None = None,
    head: dict[str, Any] | None = None,
    speaker: Speaker | None = None,
    display: Display | None = None,
) -> HeadlessResult:
    """One game through the sequencer; speech and screen default to the timeline fakes."""
    journal = journal if journal is not None else MemoryJournal()
    pack = load_pack(setup.language)
    game = start_game(setup)
    if not journal.records():
        journal.append({"kind": "setup", **(head or {"mode": "test", "seed": seed, "setup": setup.to_record()})})
    timeline = Timeline(clock)
    speaker = speaker or ScaledSpeaker(pack, timeline, scale=setup.speech_scale)
    display = display or TimelineDisplay(pack, timeline)
    seq = Sequencer(game, pack, speaker, listener, display, clock, journal, random.Random(seed), setup.timing, resume)
    seq.run()
    outcome = game.outcome
    assert outcome is not None
    timeline.entries.append(
        {
            "kind": "game_over",
            "winner": outcome.winner.value,
            "winners": list(outcome.winners),
            "alive": list(game.living()),
            "roles": {str(seat): game.role(seat).value for seat in range(1, game.players + 1)},
        }
    )
    return HeadlessResult(game, timeline.entries, journal)


def resume_from(records: list[dict[str, Any]], path: Path | None = None) -> Resume:
    """Inputs by step, and the steps the journal records as complete (a broken record: JournalError)."""
    resume = Resume()
    for line, record in enumerate(records[1:], start=2):
        kind = record.get("kind")
        try:
            if kind == "input":
                choice = record["choice"]
                heard = None if choice is None else Heard(choice, str(record.get("source", "journal")))
                resume.inputs.setdefault(int(record["n"]), []).append((str(record["prompt"]), heard))
            elif kind == "step":
                resume.steps[int(record["n"])] = list(record["events"])
        except (KeyError, TypeError, ValueError) as exc:
            where = f"journal {path}" if path is not None else "the journal"
            raise JournalError(f"{where} has a broken {kind} record at line {line} ({type(exc).__name__}: {exc}); "
                               "it was left as it is") from None
    return resume


def resume_headless(path: Path, timeline_path: Path | None = None) -> HeadlessResult:
    head, setup, seed = read_head(path)
    if head.get("mode") != "headless":
        raise JournalError(f"journal {path} is of a {head.get('mode')!r} game, not a headless one")
    try:
        script = Script.from_record(head["script"])
    except (KeyError, TypeError, ValueError) as exc:
        raise JournalError(f"journal {path} has a broken script record: {exc}") from None
    journal = FileJournal.reopen(path)
    try:
        clock = RealClock() if head.get("clock") == "real" else VirtualClock()
        result = play_headless(setup, script, seed, clock, journal, resume_from(journal.records(), path))
    finally:
        journal.close()
    if timeline_path is not None:
        write_timeline(timeline_path, result.timeline)
    return result


def read_head(path: Path) -> tuple[dict[str, Any], Setup, int]:
    """The setup record of a journal that can be resumed."""
    records, _ = read_journal(path)
    head = records[0]
    try:
        setup = Setup.from_record(head["setup"])
        seed = int(head["seed"])
    except (KeyError, TypeError, ValueError, RulesError) as exc:
        raise JournalError(f"journal {path} has a broken setup record: {exc}") from None
    if any(r.get("kind") == "step" and r.get("state") == "game_over" for r in records):
        raise JournalError(f"journal {path} is of a finished game; there is nothing to resume")
    return head, setup, seed


def write_timeline(path: Path, entries: list[dict[str, Any]]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        for entry in entries:
            f.write(json.dumps(entry, ensure_ascii=False) + "\n")
    tmp.replace(path)
