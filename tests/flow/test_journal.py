"""Journal and resume: cut a journal anywhere, resume it, and get the uninterrupted game back."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.headless import HeadlessResult, play_headless, resume_headless
from narrator.journal import FileJournal, JournalError, read_journal
from narrator.flow.script import parse_script, parse_setup

from flow_helpers import resumes_after_every_line

SETUP = {
    "players": 8, "language": "en",
    "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 5: "hunter", 6: "cupid"},
    "timing": {"debate": 120},
}
SCRIPT = {
    "nights": [{"cupid": [5, 7], "seer": 2, "werewolves": 5, "witch": {"heal": False, "poison": 0}}, {"seer": 8, "werewolves": 1}],
    "days": [{"captain": 1, "hunter": 8, "eliminate": 2}, {"successor": 4, "eliminate": 4}, {"eliminate": 3}],
}


def reference(tmp_path: Path) -> tuple[bytes, dict[str, object]]:
    setup = parse_setup(SETUP, "SETUP")
    journal = FileJournal.create(tmp_path / "reference.jsonl")
    result = play_headless(setup, parse_script(SCRIPT, 8, "SCRIPT"), 7, journal=journal)
    journal.close()
    return (tmp_path / "reference.jsonl").read_bytes(), result.timeline[-1]


def resumed_just_after_the_seer_answered(tmp_path: Path) -> tuple[HeadlessResult, Path, bytes]:
    """The reference journal cut right after the Seer's answer (the night turn not finished), resumed:
    the result, the journal, and the uninterrupted game's journal."""
    full, _ = reference(tmp_path)
    records = [json.loads(line) for line in full.splitlines()]
    seer_input = next(i for i, r in enumerate(records) if r.get("prompt") == "night.seer")
    path = tmp_path / "seer.jsonl"
    path.write_bytes(b"".join(line + b"\n" for line in full.splitlines()[: seer_input + 1]))
    return resume_headless(path), path, full


def test_resume_from_every_line_of_the_journal(tmp_path: Path) -> None:
    full, last = reference(tmp_path)
    lines = full.splitlines(keepends=True)
    assert len(lines) > 20
    resumes_after_every_line(full, last, tmp_path)


def test_resume_drops_a_torn_last_line(tmp_path: Path) -> None:
    full, last = reference(tmp_path)
    lines = full.splitlines(keepends=True)
    path = tmp_path / "torn.jsonl"
    path.write_bytes(b"".join(lines[:10]) + lines[10][: len(lines[10]) // 2])
    result = resume_headless(path)
    assert path.read_bytes() == full
    assert result.timeline[-1] == last


def test_a_cut_off_turn_restarts_from_its_wake_line_without_asking_again(tmp_path: Path) -> None:
    result, path, full = resumed_just_after_the_seer_answered(tmp_path)
    said = [e["key"] for e in result.timeline if e["kind"] == "say"]
    # At night, the table is first asked to close its eyes.
    assert said[:3] == ["game.resume_night", "seer.wake", "seer.sleep"]
    shown = [e.get("text") for e in result.timeline if e["kind"] == "private"]
    assert "Seat 2 is the Werewolf." in shown  # her answer, kept: shown again, not asked again
    assert path.read_bytes() == full  # her input is in the journal once, as in the uninterrupted game
    accepted = [r for r in read_journal(path)[0] if r.get("prompt") == "night.seer" and r["choice"] is not None]
    assert len(accepted) == 1


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "does not begin with a game setup"),
        (b"not json\n", "is corrupt at line 1"),
        (b'{"kind": "setup"}\n[1, 2]\n', "is corrupt at line 2"),
    ],
)
def test_bad_journal_gives_one_line_and_is_left_untouched(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    with pytest.raises(JournalError, match=message):
        resume_headless(path)
    assert path.read_bytes() == content


@pytest.mark.slow
def test_journal_corrupt_in_the_middle_is_refused_by_the_cli(tmp_path: Path) -> None:
    full, _ = reference(tmp_path)
    lines = full.splitlines(keepends=True)
    broken = b"".join(lines[:5]) + b"{broken\n" + b"".join(lines[6:12])
    path = tmp_path / "mid.jsonl"
    path.write_bytes(broken)
    proc = subprocess.run([sys.executable, "-m", "narrator", "resume", str(path)], capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [f"narrator: journal {path} is corrupt at line 6: b'{{broken'; it was left as it is"]
    assert path.read_bytes() == broken


def test_silent_voters_keep_their_place_on_resume(tmp_path: Path) -> None:
    """A voter who says nothing is journaled too, so a later voter's answer is not given to him."""
    script = {"nights": [{}], "days": [{"votes": {3: 2, 4: 2, 5: 2, 6: 2, 7: 2, 8: 2}}, {"eliminate": 3}]}
    setup = parse_setup({**SETUP, "options": {"captain_election": "never"}}, "SETUP")
    journal = FileJournal.create(tmp_path / "full.jsonl")
    result = play_headless(setup, parse_script(script, 8, "SCRIPT"), 1, journal=journal)
    journal.close()
    full = (tmp_path / "full.jsonl").read_bytes()
    lines = full.splitlines(keepends=True)
    records = [json.loads(line) for line in lines]
    silent = [r for r in records if r.get("prompt") == "day.vote.vote.1"]
    assert silent and silent[0]["choice"] is None
    resumes_after_every_line(full, result.timeline[-1], tmp_path)


def test_finished_game_is_not_resumed(tmp_path: Path) -> None:
    reference(tmp_path)
    with pytest.raises(JournalError, match="finished game"):
        resume_headless(tmp_path / "reference.jsonl")


def test_journal_that_does_not_match_the_game_is_refused(tmp_path: Path) -> None:
    full, _ = reference(tmp_path)
    records = [json.loads(line) for line in full.splitlines()]
    step = next(i for i, r in enumerate(records) if r["kind"] == "step" and r["events"])
    records[step]["events"][0]["night"] = 99
    path = tmp_path / "edited.jsonl"
    text = "".join(json.dumps(r) + "\n" for r in records[: step + 3])
    path.write_text(text)
    with pytest.raises(JournalError, match="does not match"):
        resume_headless(path)
    assert path.read_text() == text


def test_resuming_at_night_closes_eyes_and_shows_the_kept_answer(tmp_path: Path) -> None:
    result, _, _ = resumed_just_after_the_seer_answered(tmp_path)
    says = [e for e in result.timeline if e["kind"] == "say"]
    assert says[0]["text"] == "We pick up the game where it stopped. It is night: everyone, close your eyes."
    private = [e for e in result.timeline if e["kind"] == "private"]
    kept = [i for i, e in enumerate(private) if e.get("key") == "input.kept"]
    assert [private[i]["text"] for i in kept] == ["Kept from before the stop: 2."]
    # On her own panel, while she is awake: after her wake line's panel opens, before it is cleared.
    opened = max(i for i, e in enumerate(private[: kept[0]]) if e.get("action") == "show")
    assert private[opened]["key"] == "seer.result"  # her kept look, shown again with its card
    assert all(e.get("action") != "clear" for e in private[opened: kept[0]])
