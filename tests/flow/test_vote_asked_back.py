"""A seat heard as a look-alike is asked back, not refused: by day, a vote the voice
listener refused only because its word is often heard for another legal seat ("사" for 삼) comes
back as `Heard(lookalike=True)`, and the narrator asks "Seat 4? Yes or no." at once. "Yes" takes
the seat (not said back a second time); "no", nothing, or anything else: "please repeat" and the
voter is asked again. Never at night. The scripted players stand for the listener here; the real
Korean model and real audio are in tests/listening/test_ask_back.py."""

from __future__ import annotations

from typing import Any

from narrator.clock import VirtualClock
from narrator.fakes import FakeListener
from narrator.flow.run import resume_from
from narrator.flow.script import parse_script, parse_setup
from narrator.headless import HeadlessResult, run_game
from narrator.journal import MemoryJournal
from narrator.ports import Heard, Prompt
from narrator.rules import events as ev

from flow_helpers import FAST, said

SETUP = {"players": 12, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch"},
         "options": {"captain_election": "never"}}
SCRIPT = {"nights": [{"werewolves": 12}, {"werewolves": 11}, {"werewolves": 10}],
          "days": [{"eliminate": 5}, {"eliminate": 2}, {"eliminate": 3}]}
LOOKALIKE = Heard(4, "voice", "사", lookalike=True)  # 사 (4) is also heard for 삼 (3), legal too


def game(plan: list[Any], asked: list[Prompt], journal: MemoryJournal | None = None,
         records: list[dict[str, Any]] | None = None) -> HeadlessResult:
    """A game in which voter 3's first-day vote prompts and their ask-backs are answered from
    `plan` in turn (a `Heard`, or None: nothing heard); every other prompt from SCRIPT, by voice."""
    s = parse_setup({"language": "en", **SETUP, "timing": dict(FAST)}, "SETUP")
    base = parse_script(SCRIPT, s.players, "SCRIPT")
    steps = list(plan)

    def answer(prompt: Prompt) -> Heard | None:
        asked.append(prompt)
        if prompt.number == 1 and prompt.name.startswith("day.vote.vote.3"):
            if prompt.name.endswith(".undo"):
                return None  # nobody takes a vote back
            return steps.pop(0) if steps else None
        heard = base.answer(prompt)
        if heard is None or not prompt.name.startswith("day.vote"):
            return heard
        return Heard(heard.choice, "voice", str(heard.choice))

    clock = VirtualClock()
    resume = resume_from(records) if records is not None else None
    return run_game(s, FakeListener(clock, answer, delay=1.0), 0, clock, journal, resume)


def first_votes(result: HeadlessResult) -> dict[int, int | None]:
    cast = next(e for e in result.game.events if isinstance(e, ev.VotesCast))
    return dict(cast.votes)


def voter_3(asked: list[Prompt]) -> list[str]:
    return [p.name for p in asked if p.number == 1 and p.name.startswith("day.vote.vote.3")]


def test_a_lookalike_is_asked_back_and_yes_takes_it() -> None:
    asked: list[Prompt] = []
    r = game([LOOKALIKE, Heard("yes", "voice", "네")], asked)
    lines = said(r)
    at = lines.index("Seat 3, your vote?")
    assert lines[at + 1] == "Seat 4? Yes or no."
    # Confirmed once: not said back a second time, no take-back window; the next voter is called.
    assert lines[at + 2].startswith("Seat 4,")
    assert "3 votes 4." not in lines
    assert voter_3(asked) == ["day.vote.vote.3", "day.vote.vote.3.ask_back"]
    question = next(p for p in asked if p.name == "day.vote.vote.3.ask_back")
    assert question.words == ("yes", "no") and not question.seats and not question.night
    assert first_votes(r)[3] == 4
    inputs = [x for x in r.journal.records() if x.get("kind") == "input" and x["prompt"].startswith("day.vote.vote.3")]
    # One input for voter 3 on day 1, marked: the question's answer is no input of its own.
    assert [(x["prompt"], x["choice"], x["source"], x.get("asked_back")) for x in inputs[:2]] == [
        ("day.vote.vote.3", 4, "voice", True), ("day.vote.vote.3", 2, "voice", None)]


def test_no_asks_the_voter_again() -> None:
    asked: list[Prompt] = []
    r = game([LOOKALIKE, Heard("no", "voice", "아니요"), Heard(3, "voice", "삼")], asked)
    lines = said(r)
    at = lines.index("Seat 4? Yes or no.")
    assert lines[at + 1] == "Please repeat."
    assert lines[at + 2] == "3 votes 3."  # a vote taken plainly is said back as before
    assert voter_3(asked) == ["day.vote.vote.3", "day.vote.vote.3.ask_back", "day.vote.vote.3",
                              "day.vote.vote.3.undo"]
    assert first_votes(r)[3] == 3


def test_nothing_heard_or_anything_else_asks_again_and_the_time_to_vote_is_kept() -> None:
    asked: list[Prompt] = []
    r = game([LOOKALIKE, None, LOOKALIKE, Heard(7, "voice", "칠"), Heard(6, "voice", "육")], asked)
    lines = said(r)
    assert lines.count("Seat 4? Yes or no.") == 2 and lines.count("Please repeat.") == 2
    assert first_votes(r)[3] == 6
    votes = [p for p in asked if p.name == "day.vote.vote.3"]
    # The question and its wait do not eat the voter's time: each re-ask keeps the deadline's
    # distance from the moment it listens again, not from the first question.
    assert votes[1].deadline is not None and votes[0].deadline is not None and votes[1].deadline > votes[0].deadline


def test_nobody_heard_as_a_lookalike_is_asked_back_too() -> None:
    asked: list[Prompt] = []
    r = game([Heard("nobody", "voice", "없어요", lookalike=True), Heard("yes", "voice", "네")], asked)
    lines = said(r)
    at = lines.index("Seat 3, your vote?")
    assert lines[at + 1] == "Nobody? Yes or no."
    assert first_votes(r)[3] is None
    assert voter_3(asked) == ["day.vote.vote.3", "day.vote.vote.3.ask_back"]


def test_a_seat_typed_during_the_question_is_the_vote() -> None:
    asked: list[Prompt] = []
    r = game([LOOKALIKE, Heard(6, "keypad", "6")], asked)
    assert first_votes(r)[3] == 6
    assert "3 votes 6." not in said(r)  # typed: not said back (the keypad path)
    assert voter_3(asked) == ["day.vote.vote.3", "day.vote.vote.3.ask_back"]


def test_another_key_during_the_question_asks_again() -> None:
    # `*` (repeat) typed during the question is no vote: "please repeat", the vote is asked again.
    asked: list[Prompt] = []
    r = game([LOOKALIKE, Heard("repeat", "keypad", "*"), Heard(6, "keypad", "6")], asked)
    lines = said(r)
    at = lines.index("Seat 4? Yes or no.")
    assert lines[at + 1] == "Please repeat."
    assert first_votes(r)[3] == 6
    assert voter_3(asked) == ["day.vote.vote.3", "day.vote.vote.3.ask_back", "day.vote.vote.3"]


def test_a_confirmed_vote_resumes_from_the_journal() -> None:
    """The said-back window a confirmed seat skipped is skipped on resume too (the journal keeps
    `asked_back`): the replayed roll call asks the same prompts in the same order."""
    asked: list[Prompt] = []
    full = game([LOOKALIKE, Heard("yes", "voice", "네")], asked, MemoryJournal())
    records = full.journal.records()
    vote_step = next(i for i, x in enumerate(records) if x.get("kind") == "step" and x["state"] == "vote")
    resumed = game([], [], MemoryJournal(records[:vote_step + 1]), records[:vote_step + 1])
    assert first_votes(resumed) == first_votes(full)
    assert resumed.game.outcome == full.game.outcome


def test_at_night_a_lookalike_is_refused_in_silence() -> None:
    """The voice listener never hands one out at night (it takes nothing then); even if one came,
    no question is spoken: a question at night would tell who is awake. The night sounds exactly
    as if nothing had been heard."""
    def night_game(heard: Heard | None) -> tuple[list[str], list[Prompt]]:
        asked: list[Prompt] = []
        s = parse_setup({"language": "en", **SETUP, "timing": dict(FAST)}, "SETUP")
        base = parse_script(SCRIPT, s.players, "SCRIPT")
        given = [heard]

        def answer(prompt: Prompt) -> Heard | None:
            asked.append(prompt)
            if prompt.name == "night.seer" and prompt.number == 1 and given:
                first = given.pop()
                if first is not None:
                    return first
            return base.answer(prompt)

        clock = VirtualClock()
        r = run_game(s, FakeListener(clock, answer, delay=1.0), 0, clock)
        return [e["text"] for e in r.timeline if e["kind"] == "say"], asked

    quiet, _ = night_game(None)
    lines, asked = night_game(Heard(4, "voice", "사", lookalike=True))
    assert lines == quiet
    assert not any(p.name.endswith(".ask_back") for p in asked)
    assert not any("Yes or no" in t for t in lines)


def test_the_hunters_shot_is_asked_back_too() -> None:
    """The other day seat prompts that listen by voice (the Hunter's shot, the successor, the
    tie-break) ask a look-alike back the same way."""
    s = parse_setup({"language": "en", "players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch",
                                                               5: "hunter"}, "timing": dict(FAST)}, "SETUP")
    base = parse_script({"nights": [{"werewolves": 5}], "days": [{"hunter": 2, "eliminate": 3}]}, s.players, "SCRIPT")
    asked: list[Prompt] = []
    # The script's own shot (seat 2, the last Werewolf but one) heard as a look-alike: the game then
    # ends on day 1 as the script plays it (another seat would leave a Werewolf the script never
    # answers for, and a game nobody answers never ends).
    plan = [Heard(2, "voice", "이", lookalike=True), Heard("yes", "voice", "네")]

    def answer(prompt: Prompt) -> Heard | None:
        asked.append(prompt)
        if prompt.name.startswith("day.hunter") and not prompt.idle and plan:  # not while his line is said
            return plan.pop(0)
        return base.answer(prompt)

    clock = VirtualClock()
    r = run_game(s, FakeListener(clock, answer, delay=1.0), 0, clock)
    assert [p.name for p in asked if p.name.startswith("day.hunter") and not p.idle] == ["day.hunter",
                                                                                          "day.hunter.ask_back"]
    assert next(p for p in asked if p.name == "day.hunter").ask_back
    assert "Seat 2? Yes or no." in said(r)
    shot = next(e for e in r.game.events if isinstance(e, ev.HunterShot))
    assert shot.target == 2 and r.game.outcome is not None
