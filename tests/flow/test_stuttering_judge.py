"""The Stuttering Judge at the table: his sign is `+` before his vote in the day's first vote,
taken from every voter alike; it changes no line and no timing until the first vote is resolved;
then the second vote follows at once, without debate, never saying who asked."""

from __future__ import annotations

from typing import Any

from narrator.rules import events as ev

from flow_helpers import during, keys, panel_lines, play, said
from test_two_sisters import calls_per_night

SETUP: dict[str, Any] = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "stuttering_judge"},
                         "options": {"captain_election": "never"}}


def day1(sign: list[int], second: int = 3) -> dict[str, Any]:
    return {"nights": [{"werewolves": 5, "seer": 2}, {"werewolves": 6}, {"werewolves": 7}],
            "days": [{"eliminate": 2, "sign": sign, "second": second, "vote_now": True},
                     {"eliminate": 3, "vote_now": True}, {"eliminate": 8}]}


def test_second_vote_follows_at_once_without_debate() -> None:
    r = play(SETUP, day1([4]))
    spoken = keys(r)
    at = spoken.index("stuttering_judge.second_vote")
    assert spoken[at - 3:at] == ["vote.eliminated", "day.death", "day.card"]
    assert spoken[at + 1] == "vote.start"
    assert not any(k.startswith("debate.") for k in spoken[at:at + 3])
    assert "A second vote, now, without debate." in said(r)
    day_lines = [e["text"] for e in r.timeline if e["kind"] == "say" and e["phase"].startswith("day.")]
    assert not any("Judge" in t or "Seat 4" in t for t in day_lines[: day_lines.index("A second vote, now, without debate.")]
                   if "your vote" not in t)  # never who asked
    # The second vote eliminated the other Werewolf: the village won on day 1.
    assert r.game.outcome is not None and r.game.state.day == 1


def upto_first_vote(r: Any) -> list[tuple[Any, ...]]:
    """Every public timeline entry until vote 1 is resolved: the lines said (key, text, time) and
    when the panel opens, closes and gives feedback (what a private panel shows may differ)."""
    out: list[tuple[Any, ...]] = []
    for e in r.timeline:
        if e.get("key") in ("stuttering_judge.second_vote", "day.dusk"):
            break
        if e["kind"] == "say":
            out.append(("say", e["key"], e["text"], e["t"]))
        elif e["kind"] == "private":
            by_day = e["t"] > 0 and e.get("action") == "feedback"
            out.append(("private", e.get("action"), e["t"], e.get("text") if by_day else None))
    return out


def test_the_sign_changes_no_line_and_no_timing_whoever_gives_it() -> None:
    # Seat 4 presses `+` before his vote in both games; only in the first is he the Judge.
    judge = play(SETUP, day1([4]))
    villager = play({**SETUP, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 6: "stuttering_judge"}}, day1([4]))
    absent = play({**SETUP, "roles": {1: "seer", 2: "werewolf", 3: "werewolf"}, "possible": ["stuttering_judge"]},
                  day1([4]))
    assert "stuttering_judge.second_vote" in keys(judge)
    assert "stuttering_judge.second_vote" not in keys(villager) + keys(absent)
    # Up to the end of the first vote: the same lines, panel events and times.
    assert upto_first_vote(judge) == upto_first_vote(villager) == upto_first_vote(absent)
    assert sum(1 for e in upto_first_vote(judge) if e[1] == "vote.voter") == 7  # the whole first vote
    # The `+` was taken from seat 4 in every game, with the same feedback.
    for r in (judge, villager, absent):
        assert any(rec.get("choice") == "yes" for rec in r.journal.records())


def test_first_night_panel_shows_the_sign_only_while_he_is_awake() -> None:
    r = play(SETUP, day1([]))
    lines = panel_lines(during(r, "stuttering_judge.wake", "stuttering_judge.sleep"))
    assert lines and "press + on the keypad before your vote" in lines[0]
    assert calls_per_night(r, "stuttering_judge")[:2] == [1, 0]
    not_dealt = play({**SETUP, "roles": {1: "seer", 2: "werewolf", 3: "werewolf"}, "possible": ["stuttering_judge"]},
                     day1([]))
    assert calls_per_night(not_dealt, "stuttering_judge")[:2] == [1, 0]


def test_night_arm_is_called_every_night_and_arms_the_next_day() -> None:
    setup = {**SETUP, "options": {"captain_election": "never", "judge_signal": "night_arm"}}
    r = play(setup, {"nights": [{"werewolves": 5, "stuttering_judge_arm": 4}, {"werewolves": 6}, {"werewolves": 7}],
                     "days": [{"eliminate": 0, "second": 2}, {"eliminate": 3}, {"eliminate": 8}, {"eliminate": 1}]})
    assert calls_per_night(r, "stuttering_judge_arm")[:2] == [1, 1]
    night = keys(r, "night.")
    first = night[: night.index("night.falls", 1)]
    assert first[-2:] == ["stuttering_judge_arm.wake", "stuttering_judge_arm.sleep"]
    assert [e.seat for e in r.game.events if isinstance(e, ev.SecondVoteAsked)] == [4]
    assert keys(r).count("stuttering_judge.second_vote") == 1
    panel = panel_lines(during(r, "stuttering_judge_arm.wake", "stuttering_judge_arm.sleep"))
    assert "A second vote tomorrow? + yes, - no." in panel
