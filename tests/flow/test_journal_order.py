"""Every input is on disk (written, flushed, synced) before the game moves on.

One log is shared by the speaker, the listener and the journal. Each time the game says a line or
opens a prompt, the log notes how many records the journal file holds on disk, read through
another handle (so Python's buffer does not count); each sync of the journal is logged too.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from narrator.fakes import FakeListener, Timeline, TimelineDisplay, TimelineSpeaker
from narrator.clock import VirtualClock
from narrator.headless import run_game
from narrator.journal import FileJournal
from narrator.flow.script import parse_script, parse_setup
from narrator.packs import load_pack
from narrator.ports import Cue, Heard, Prompt

SETUP = {"players": 8, "language": "en", "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 5: "hunter", 6: "cupid"},
         "timing": {"debate": 60, "defence": 5}}
SCRIPT = {
    "nights": [{"cupid": [5, 7], "seer": 2, "werewolves": 5, "witch": {"heal": True, "poison": 8}}, {"seer": 3, "werewolves": 1}],
    "days": [{"captain": 1, "eliminate": 2}, {"successor": 4, "eliminate": 3}],
}


def on_disk(path: Path) -> int:
    return path.read_bytes().count(b"\n")


class LoggedJournal(FileJournal):
    log: list[tuple[Any, ...]] = []

    def _sync(self, fd: int) -> None:
        super()._sync(fd)
        kind = "folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file"
        self.log.append(("fsync", kind, on_disk(self.path) if kind == "file" else 0))


class LoggedSpeaker(TimelineSpeaker):
    def __init__(self, *args: Any, log: list[tuple[Any, ...]], path: Path) -> None:
        super().__init__(*args)
        self.log = log
        self.path = path

    def say(self, cue: Cue, at: float | None = None) -> float:
        self.log.append(("say", cue.key, on_disk(self.path)))
        return super().say(cue, at)


class LoggedListener(FakeListener):
    def __init__(self, *args: Any, log: list[tuple[Any, ...]], path: Path, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.log = log
        self.path = path

    def listen(self, prompt: Prompt) -> Heard | None:
        self.log.append(("listen", prompt.name, on_disk(self.path)))
        heard = super().listen(prompt)
        if heard is not None:
            self.log.append(("heard", prompt.name, on_disk(self.path)))
        return heard


def play_logged(tmp_path: Path, journal_class: type[LoggedJournal] = LoggedJournal,
                name: str = "game.jsonl") -> tuple[list[tuple[Any, ...]], list[dict[str, Any]]]:
    """The scripted game played through `journal_class`: the log of lines, prompts, answers and syncs
    (each with how much of the journal was on disk then), and the journal's records."""
    log: list[tuple[Any, ...]] = []
    journal_class.log = log
    path = tmp_path / name
    journal = journal_class.create(path)
    setup = parse_setup(SETUP, "SETUP")
    clock = VirtualClock()
    pack = load_pack("en")
    timeline = Timeline(clock)
    listener = LoggedListener(clock, parse_script(SCRIPT, 8, "SCRIPT").answer, delay=2.0, log=log, path=path)
    speaker = LoggedSpeaker(pack, timeline, log=log, path=path)
    try:
        run_game(setup, listener, 1, clock, journal, None, None, speaker, TimelineDisplay(pack, timeline))
    finally:
        journal.close()
    return log, journal.records()


def test_each_input_is_written_flushed_and_synced_before_the_next_line_or_prompt(tmp_path: Path) -> None:
    log, records = play_logged(tmp_path)
    answers = [i for i, e in enumerate(log) if e[0] == "heard"]
    accepted = [r for r in records if r["kind"] == "input" and r["choice"] is not None]
    assert len(answers) >= len(accepted) >= 10
    checked = 0
    for i in answers:
        held = log[i][2]
        following = next((j for j in range(i + 1, len(log)) if log[j][0] in ("say", "listen")), None)
        if following is None:
            continue
        synced = [e for e in log[i + 1 : following] if e[0] == "fsync" and e[1] == "file"]
        if log[following][2] == held:
            continue  # a refused key (the listener types what its script says): nothing to journal
        # The input is in the file (flushed, readable through another handle) and was synced.
        assert log[following][2] > held, f"{log[i]}: not on disk before {log[following]}"
        assert synced and synced[-1][2] == log[following][2], f"{log[i]}: not synced before {log[following]}"
        checked += 1
    assert checked >= len(accepted) - 1


def test_the_journal_folder_is_synced_when_the_file_is_created(tmp_path: Path) -> None:
    log: list[tuple[Any, ...]] = []
    LoggedJournal.log = log
    journal = LoggedJournal.create(tmp_path / "games" / "new.jsonl")
    journal.close()
    assert ("fsync", "folder", 0) in log


def test_the_ordering_check_fails_when_inputs_wait_for_the_end_of_the_step(tmp_path: Path) -> None:
    """The check itself can fail: a journal that only writes when the step is recorded is caught."""

    class Late(LoggedJournal):
        held: list[dict[str, Any]] = []

        def append(self, record: Any) -> None:
            if record["kind"] == "input":
                self.held.append(dict(record))
                return
            for r in self.held:
                super().append(r)
            self.held.clear()
            super().append(record)

    log, _ = play_logged(tmp_path, Late, "late.jsonl")
    late = 0
    for i, e in enumerate(log):
        if e[0] != "heard":
            continue
        following = next((j for j in range(i + 1, len(log)) if log[j][0] in ("say", "listen")), None)
        if following is not None and log[following][2] == e[2]:
            late += 1
    assert late >= 5
