"""Every prompt of a night call is named after that call (`night.<call>...`), whether its role is held
alive, answered or not, or nobody holds it (a closed turn): the journal records the name, and the
phones give the prompt to the seat awake in that call (docs/rules-spec.md#secrecy points 1 and 11)."""

from __future__ import annotations

from typing import Any

from narrator.headless import HeadlessResult
from narrator.ports import Prompt
from narrator.roles import night_calls

from tests.flow.flow_helpers import typed


def in_turn(names: list[str]) -> list[str]:
    """The names in order, each run of the same name once."""
    out: list[str] = []
    for name in names:
        if not out or out[-1] != name:
            out.append(name)
    return out


def woken(r: HeadlessResult) -> list[str]:
    """The calls whose lines were said, night after night, in order."""
    return in_turn([e["phase"].removeprefix("night.") for e in r.timeline
                    if e["kind"] == "say" and e["phase"].startswith("night.") and e["phase"] != "night.falls"])


def prompted(asked: list[Prompt]) -> list[str]:
    """The calls the night prompts name (`night.<call>`, `night.<call>.change`...), in order."""
    return in_turn([p.name.split(".")[1] for p in asked if p.night])


def closed_game() -> tuple[HeadlessResult, list[Prompt]]:
    """Every role with a night call possible, none dealt but the pack: every call's turn is closed.
    Played again by each test that reads it: a game shared between tests is played while the first
    runs, and a mutation run picks for each mutant only the tests that run its code themselves."""
    calls = {c.name: c.role.value for c in night_calls()}
    possible = sorted(set(calls.values()) - {"werewolf"})
    setup: dict[str, Any] = {"players": 10, "roles": {1: "werewolf", 2: "werewolf"}, "possible": possible,
                             "options": {"captain_election": "never", "judge_signal": "night_arm",
                                         "siblings_wake": "every_night"}}
    asked: list[Prompt] = []
    r = typed(setup, {"nights": [{"werewolves": n} for n in (3, 4, 5, 6)],
                      "days": [{"eliminate": n} for n in (10, 9, 8, 7)]}, "none", 0, [], asked)
    return r, asked


def test_closed_turns_prompt_in_their_calls_name() -> None:
    r, asked = closed_game()
    assert set(woken(r)) == {c.name for c in night_calls()} - {"devoted_servant_reset"}
    assert prompted(asked) == woken(r)


def test_closed_turns_prompt_at_night_for_nothing() -> None:
    """A closed turn asks nothing: its prompts are night prompts (on the private panel only, never
    asked back aloud), with no seat to take, and idle (a screen, a phone or the keypad has nothing to
    take), but Cupid's, whose dead turn still asks, with no seat."""
    _, asked = closed_game()
    closed = [p for p in asked if p.name.startswith("night.") and p.name.split(".")[1] != "werewolves"]
    assert closed and all(p.night and not p.seats for p in closed)
    assert all(p.idle for p in closed if p.name != "night.cupid")


def test_answered_turns_prompt_in_their_calls_name() -> None:
    """The roles dealt and answering, each turn going on after the answer (`night.<call>.change`)."""
    roles = {1: "werewolf", 2: "accursed_wolf_father", 3: "big_bad_wolf", 4: "actor", 5: "pied_piper", 6: "fox",
             7: "savior", 8: "seer", 9: "raven", 10: "witch", 11: "wild_child", 12: "cupid"}
    first = {"actor": 1, "cupid": [13, 12], "wild_child": 13, "savior": 7, "seer": 1, "fox": 9, "werewolves": 14,
             "accursed_wolf_father": 1, "big_bad_wolf": 12, "witch": {"heal": False}, "pied_piper": [6, 7], "raven": 9}
    second = {"actor": 2, "savior": 8, "seer": 2, "fox": 2, "werewolves": 11, "accursed_wolf_father": 0,
              "big_bad_wolf": 10, "pied_piper": [8, 9], "raven": 8}
    asked: list[Prompt] = []
    r = typed({"players": 14, "roles": roles, "options": {"captain_election": "never"}},
              {"nights": [first, second], "days": [{"eliminate": n} for n in (1, 2, 3, 14, 11, 4, 5)]},
              "none", 0, [], asked)
    changed = {p.name.split(".")[1] for p in asked if p.night and p.name.endswith(".change")}
    assert {"actor", "pied_piper", "accursed_wolf_father", "fox", "savior", "raven", "big_bad_wolf"} <= changed
    assert prompted(asked) == woken(r)
