"""Every vote taken by voice in the roll call is said back at once, and "no"
(or `-`) in the short window after it takes it back: the voter is asked again. Votes typed on
the keypad are not said back and open no window (the keypad path is unchanged)."""

from __future__ import annotations

from typing import Any

from narrator.clock import VirtualClock
from narrator.fakes import FakeListener
from narrator.flow.script import parse_script, parse_setup
from narrator.headless import HeadlessResult, run_game
from narrator.ports import Heard, Prompt
from narrator.rules import events as ev

from flow_helpers import FAST, said

SETUP = {"players": 12, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch"},
         "options": {"captain_election": "never"}}
SCRIPT = {"nights": [{"werewolves": 12}, {"werewolves": 11}, {"werewolves": 10}],
          "days": [{"eliminate": 5}, {"eliminate": 2}, {"eliminate": 3}]}


def first_day(source: str, undo: dict[int, list[Any]], asked: list[Prompt]) -> HeadlessResult:
    """A game whose first day's votes come from `source`; `undo[voter]` lists, for each of that
    voter's take-back windows, "no" (taken back) or None, and the seat each re-asked vote gives."""
    s = parse_setup({"language": "en", **SETUP, "timing": dict(FAST)}, "SETUP")
    base = parse_script(SCRIPT, s.players, "SCRIPT")
    plans = {voter: list(plan) for voter, plan in undo.items()}
    revotes: dict[int, int] = {}

    def answer(prompt: Prompt) -> Heard | None:
        asked.append(prompt)
        parts = prompt.name.split(".")
        if prompt.number != 1 or parts[:2] != ["day", "vote"]:
            return base.answer(prompt)
        voter = int(parts[3])
        if parts[-1] == "undo":
            plan = plans.get(voter, [])
            step = plan.pop(0) if plan else None
            if step is None:
                return None
            revotes[voter] = plan.pop(0)
            return Heard("no", source, "아니요" if source == "voice" else "-")
        heard = base.answer(prompt)
        if heard is None:
            return None
        choice = revotes.pop(voter, heard.choice)
        return Heard(choice, source, str(choice))

    clock = VirtualClock()
    return run_game(s, FakeListener(clock, answer, delay=1.0), 0, clock)


def first_votes(result: HeadlessResult) -> dict[int, int | None]:
    cast = next(e for e in result.game.events if isinstance(e, ev.VotesCast))
    return dict(cast.votes)


def test_a_voice_vote_is_said_back_at_once() -> None:
    asked: list[Prompt] = []
    r = first_day("voice", {}, asked)
    lines = said(r)
    at = lines.index("Seat 1, your vote?")
    assert lines[at + 1] == "1 votes 5."
    assert lines[at + 2].startswith("Seat 2")
    windows = [p for p in asked if p.name.endswith(".undo")]
    assert len(windows) == 11  # every living voter (seat 12 was devoured)
    assert all(p.idle and p.words == ("no",) for p in windows)


def test_no_in_the_window_takes_the_vote_back_and_asks_again() -> None:
    asked: list[Prompt] = []
    r = first_day("voice", {3: ["no", 7]}, asked)
    lines = said(r)
    at = lines.index("3 votes 5.")
    assert lines[at + 1] == "Taken back. Seat 3, your vote?"
    assert lines[at + 2] == "3 votes 7."
    votes = first_votes(r)
    assert votes[3] == 7 and votes[1] == 5
    names = [p.name for p in asked if p.number == 1 and ".3" in p.name and p.name.startswith("day.vote")]
    assert names == ["day.vote.vote.3", "day.vote.vote.3.undo", "day.vote.vote.3", "day.vote.vote.3.undo"]
    # The take-back and the window that ran out are journaled like any input (a resume replays them).
    inputs = [r for r in r.journal.records() if r.get("kind") == "input" and r["prompt"].startswith("day.vote.vote.3")]
    assert [(x["prompt"], x["choice"]) for x in inputs[:4]] == [
        ("day.vote.vote.3", 5), ("day.vote.vote.3.undo", "no"), ("day.vote.vote.3", 7), ("day.vote.vote.3.undo", None)]


def test_nobody_is_said_back_too() -> None:
    asked: list[Prompt] = []
    r = first_day("voice", {4: ["no", "nobody"]}, asked)
    lines = said(r)
    assert "4: nobody." in lines
    assert first_votes(r)[4] is None


def test_the_keypad_path_is_unchanged() -> None:
    asked: list[Prompt] = []
    r = first_day("keypad", {3: ["no", 7]}, asked)
    lines = said(r)
    assert not any(" votes " in t or t.startswith("Taken back") for t in lines)
    assert not any(p.name.endswith(".undo") for p in asked)
    assert first_votes(r)[3] == 5
