"""Headless play: a scripted game on a virtual (or real) clock, written out as a timeline.

The timeline adapters record what the table would have heard and seen, with clock times: the
silent speaker (`TimelineSpeaker`) and `TimelineDisplay`. Tests use them too (`narrator.fakes`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from narrator.clock import RealClock, VirtualClock
from narrator.errors import UsageError
from narrator.flow.run import play_game, resume_from
from narrator.flow.script import Script, Setup
from narrator.flow.sequencer import Resume
from narrator.journal import FileJournal, MemoryJournal, read_journal
from narrator.listening.automatic import ScriptPlayers
from narrator.packs import VoicePack, load_pack
from narrator.ports import (
    Clock, Cue, Display, Heard, Journal, JournalError, Listener, PanelLines, Prompt, SlotValue, Speaker,
)
from narrator.rules import Game, RulesError
from narrator.speech.estimated import EstimatedSpeaker


@dataclass
class Timeline:
    """What the table would have heard and seen, in order, with clock times."""

    clock: Clock
    entries: list[dict[str, Any]] = field(default_factory=list)

    def add(self, at: float | None = None, **entry: Any) -> None:
        """Record an entry now, or at clock time `at` when it is later (a line queued ahead)."""
        t = self.clock.now() if at is None else max(at, self.clock.now())
        self.entries.append({"t": round(t, 3), **entry})

    def said(self, cue: Cue, text: str, start: float) -> None:
        self.add(at=start, kind="say", key=cue.key, text=text, phase=cue.phase)


class TimelineSpeaker(EstimatedSpeaker):
    """The silent speaker, each line recorded on the timeline (lengths times `scale`)."""

    def __init__(self, pack: VoicePack, timeline: Timeline, scale: float = 1.0) -> None:
        super().__init__(pack, timeline.clock, scale, timeline.said)
        self.timeline = timeline


class TimelineDisplay:
    """Records the public board and the private panel."""

    def __init__(self, pack: VoicePack, timeline: Timeline) -> None:
        self.pack = pack
        self.timeline = timeline
        self.private: str | None = None

    def board(self, state: Mapping[str, Any]) -> None:
        pass

    def show_private(self, key: str, slots: Mapping[str, SlotValue], more: PanelLines = ()) -> None:
        self.private = "\n".join(self.pack.panel_text(k, s) for k, s in ((key, slots), *more))
        self.timeline.add(kind="private", action="show", key=key, keys=[key, *(k for k, _ in more)], text=self.private)

    def clear_private(self) -> None:
        self.private = None
        self.timeline.add(kind="private", action="clear")

    def feedback(self, key: str, slots: Mapping[str, SlotValue]) -> None:
        self.timeline.add(kind="private", action="feedback", key=key, text=self.pack.panel_text(key, slots))


@dataclass
class HeadlessResult:
    game: Game
    timeline: list[dict[str, Any]]
    journal: Journal


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
    listener = ScriptPlayers(clock, until_run_out(script), delay=script.answer_delay)
    return run_game(setup, listener, seed, clock, journal, resume, head)


# Past the script's last night and day nobody answers. What needs no answer (the Knight's disease)
# happens within a night and a day; after this many more, nothing can change and a game still
# going would never end.
SILENT_CYCLES = 2


def until_run_out(script: Script) -> Callable[[Prompt], Heard | None]:
    """`script.answer`, stopping the game with one line (a `UsageError`) once it has gone
    `SILENT_CYCLES` nights and days past the script's end without ending."""
    last = max(len(script.nights), len(script.days))

    def answer(prompt: Prompt) -> Heard | None:
        if prompt.number > last + SILENT_CYCLES:
            if prompt.night:
                raise UsageError("the script ran out: it answers up to night and day {last}, and the game reached night {number} "
                                 "without ending (nobody answers any more, so it never would); add [[nights]] and [[days]] to "
                                 "SCRIPT.toml for the rest of the game", last=last, number=prompt.number)
            raise UsageError("the script ran out: it answers up to night and day {last}, and the game reached day {number} "
                             "without ending (nobody answers any more, so it never would); add [[nights]] and [[days]] to "
                             "SCRIPT.toml for the rest of the game", last=last, number=prompt.number)
        return script.answer(prompt)

    return answer


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
    """One game through the sequencer; speech and screen default to the timeline's."""
    journal = journal if journal is not None else MemoryJournal()
    pack = load_pack(setup.language)
    timeline = Timeline(clock)
    speaker = speaker or TimelineSpeaker(pack, timeline, scale=setup.speech_scale)
    display = display or TimelineDisplay(pack, timeline)
    game = play_game(setup, pack, listener, speaker, display, clock, journal, seed, resume, head)
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


def resume_headless(path: Path, timeline_path: Path | None = None) -> HeadlessResult:
    head, setup, seed = read_head(path)
    if head.get("mode") != "headless":
        raise JournalError("journal {path} is of a {head!r} game, not a headless one", path=path, head=head.get('mode'))
    try:
        script = Script.from_record(head["script"])
    except (KeyError, TypeError, ValueError) as exc:
        raise JournalError("journal {path} has a broken script record: {exc}", path=path, exc=exc) from None
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
        raise JournalError("journal {path} has a broken setup record: {exc}", path=path, exc=exc) from None
    if any(r.get("kind") == "step" and r.get("state") == "game_over" for r in records):
        raise JournalError("journal {path} is of a finished game; there is nothing to resume", path=path)
    return head, setup, seed


def write_timeline(path: Path, entries: list[dict[str, Any]]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        for entry in entries:
            f.write(json.dumps(entry, ensure_ascii=False) + "\n")
    tmp.replace(path)
