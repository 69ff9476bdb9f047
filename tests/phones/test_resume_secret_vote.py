"""A game stopped in the middle of a secret accusation vote (docs/rules-spec.md#secret-vote) and
resumed (docs/architecture.md, "Resume as an adapter"): each voter's accusation is journaled as
it comes from their phone, so the vote step restarts from its first line with the accusations
taken before the stop given back, none lost, none counted twice; the game then ends as the
uninterrupted one did, and nothing the table sees or hears after the resume tells who accused whom.

The journal is cut before the first accusation, after each one, and after each open ballot that
follows in the same step (which restarts with every accusation given back), each whole and with the
next record torn (a crash while it was written): on fake phones, on the virtual clock.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

from narrator.fakes import FakePhones, MemoryJournal
from narrator.flow.run import resume_from
from narrator.journal import FileJournal

from tests.phones.phone_helpers import PhoneGame, play_phones
from tests.phones.test_secret_vote import ACCUSED_A, ACCUSED_B, SETUP, script

SECRET = "day.vote.accusation."
RESUMED = "We pick up the game where it stopped."


@functools.cache
def uninterrupted(swapped: bool) -> tuple[PhoneGame, FakePhones]:
    phones = FakePhones(8)
    return play_phones(SETUP, script(ACCUSED_B if swapped else ACCUSED_A), phones, MemoryJournal()), phones


def vote_inputs(records: list[dict[str, Any]]) -> list[int]:
    """The indices in the journal of day 1's vote step's inputs: the secret accusations, then the
    open ballot."""
    first = next(r["n"] for r in records if r["kind"] == "input" and r["prompt"].startswith(SECRET))
    return [i for i, r in enumerate(records) if r["kind"] == "input" and r["n"] == first]


def kept(records: list[dict[str, Any]], k: int) -> int:
    """How many records a cut after the vote step's first `k` inputs keeps."""
    at = vote_inputs(records)
    return at[k] if k < len(at) else at[-1] + 1


def cut_journal(path: Path, records: list[dict[str, Any]], keep: int, torn: bool) -> FileJournal:
    """The journal as a crash leaves it: its first `keep` records whole, then (`torn`) part of the next."""
    first = FileJournal.create(path)
    for record in records[:keep]:
        first.append(record)
    first.close()
    if torn:
        whole = FileJournal.create(path.with_suffix(".whole"))
        whole.append(records[keep])
        whole.close()
        line = path.with_suffix(".whole").read_bytes()
        with open(path, "ab") as f:
            f.write(line[: len(line) // 2])
    return FileJournal.reopen(path)


def resumed(path: Path, swapped: bool, keep: int, torn: bool) -> tuple[PhoneGame, FakePhones, list[dict[str, Any]]]:
    reference = uninterrupted(swapped)[0].journal.records()
    journal = cut_journal(path, reference, keep, torn)
    phones = FakePhones(8)
    try:
        game = play_phones(SETUP, script(ACCUSED_B if swapped else ACCUSED_A), phones, journal,
                           resume_from(journal.records()))
    finally:
        journal.close()
    return game, phones, FileJournal.reopen(path).records()


def said(game: PhoneGame) -> list[str]:
    return [e["text"] for e in game.timeline.entries if e["kind"] == "say"]


def shown(view: dict[str, Any]) -> tuple[Any, ...]:
    """What a phone shows (not the view's number, which counts the views of its own run)."""
    return tuple(sorted((k, repr(v)) for k, v in view.items() if k != "id"))


# The unit tier's cuts: before any accusation, in the middle torn, after all of them, in the open
# ballot torn. The others are the slow tier's (each cut costs two or four resumed games).
UNIT = {(0, False), (3, True), (7, False), (9, True)}


def cuts() -> list[Any]:
    """Every cut inside the vote step: before its first accusation (0), after each of the seven,
    after each of the four open ballots; each whole and with the next record torn."""
    return [pytest.param(k, torn, marks=() if (k, torn) in UNIT else pytest.mark.slow)
            for k in range(7 + 4 + 1) for torn in (False, True)]


@pytest.mark.parametrize(("k", "torn"), cuts())
def test_a_secret_vote_cut_after_k_accusations_resumes_to_the_uninterrupted_game(tmp_path: Path, k: int,
                                                                                   torn: bool) -> None:
    ref, ref_phones = uninterrupted(False)
    reference = ref.journal.records()
    prompts = [reference[i]["prompt"] for i in vote_inputs(reference)]
    assert prompts == [f"{SECRET}{v}" for v in range(1, 8)] + [f"day.vote.ballot.{v}" for v in (1, 4, 6, 7)]
    g, phones, journal = resumed(tmp_path / "game.jsonl", False, kept(reference, k), torn)

    # The same game: every record the uninterrupted one wrote (each accusation once, none lost), the same end.
    assert journal == reference
    assert g.game.outcome == ref.game.outcome and g.game.outcome is not None
    counted = [r for r in journal if r["kind"] == "step" and any(e.get("type") == "VotesCast" for e in r["events"])]
    assert counted == [r for r in reference if r["kind"] == "step"
                       and any(e.get("type") == "VotesCast" for e in r["events"])]

    # The table hears that the game goes on, then the vote step from its first line, as uninterrupted.
    lines = said(g)
    assert lines[0] == RESUMED
    assert said(ref)[-(len(lines) - 1):] == lines[1:]
    assert lines.count("Everyone, close your eyes. When I call your seat, accuse one player on your phone.") >= 1
    assert [f"Seat {seat}, your accusation." for seat in range(1, 8)] == [
        text for text in lines if text.endswith("your accusation.")][:7]

    # Each phone is shown nothing after the resume that it was not shown in the uninterrupted game.
    for seat in range(1, 9):
        before = {shown(view) for s, view, _ in ref_phones.sent if s == seat}
        after = {shown(view) for s, view, _ in phones.sent if s == seat}
        assert after <= before, f"seat {seat}: {after - before}"


@pytest.mark.parametrize(("k", "torn"), cuts())
def test_a_resumed_secret_vote_tells_nothing_of_who_accused_whom(tmp_path: Path, k: int, torn: bool) -> None:
    """Two games that differ only in seats 1 and 4's accusations, cut at the same point and resumed,
    say the same lines at the same times, show the same screen and send the other phones the same views."""
    runs = []
    for swapped in (False, True):
        reference = uninterrupted(swapped)[0].journal.records()
        g, phones, _ = resumed(tmp_path / f"game-{swapped}.jsonl", swapped, kept(reference, k), torn)
        timeline = [(e["t"], e["kind"], e.get("text")) for e in g.timeline.entries]
        sent = [(seat, shown(view), t) for seat, view, t in phones.sent if seat not in (1, 4)]
        runs.append((timeline, sent, len(phones.sent), g.game.outcome))
    assert runs[0] == runs[1]
