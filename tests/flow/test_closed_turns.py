"""Closed turns: a call whose role nobody holds alive, dealt or not, runs its
turn of the same length with nothing to take, and its private panel follows one convention for
every role: "Keep your eyes closed." (`night.closed`), never the role's own prompt."""

from __future__ import annotations

from typing import Any

from narrator.headless import HeadlessResult
from narrator.roles import night_calls
from narrator.rules import events as ev

from flow_helpers import play

CLOSED = ["Keep your eyes closed."]


def closed_panels(r: HeadlessResult) -> dict[str, list[list[str]]]:
    """Each night call's private panels, turn by turn: every line the panel showed between its
    wake line and its sleep line."""
    panels: dict[str, list[list[str]]] = {}
    call: str | None = None
    for e in r.timeline:
        if e["kind"] == "say" and e["phase"].startswith("night.") and e["key"].endswith(".wake"):
            call = e["phase"].removeprefix("night.")
            panels.setdefault(call, []).append([])
        elif e["kind"] == "say" and e["key"].endswith(".sleep"):
            call = None
        elif e["kind"] == "private" and e["action"] == "show" and call is not None:
            panels[call][-1] += e["text"].splitlines()
    return panels


def test_every_closed_turn_says_keep_your_eyes_closed() -> None:
    """Every role of the catalogue with a night call possible, none dealt (only the pack and
    Villagers), on nights that call them all: each call's panel is "Keep your eyes closed."; the
    Devoted Servant's reset call, dead before it, too."""
    calls = {c.name: c.role.value for c in night_calls()}
    possible = sorted(set(calls.values()) - {"werewolf"})
    setup: dict[str, Any] = {"players": 10, "roles": {1: "werewolf", 2: "werewolf"}, "possible": possible,
                             "options": {"captain_election": "never", "judge_signal": "night_arm",
                                         "siblings_wake": "every_night"}}
    r = play(setup, {"nights": [{"werewolves": n} for n in (3, 4, 5, 6)],
                     "days": [{"eliminate": n} for n in (10, 9, 8, 7)]})
    panels = closed_panels(r)
    servant = play({"players": 8, "roles": {1: "werewolf", 2: "werewolf", 4: "devoted_servant"},
                    "options": {"captain_election": "never", "servant_scope": "any_death"}},
                   {"nights": [{"werewolves": 3}, {"werewolves": 5}, {"werewolves": 6}],
                    "days": [{"dawn_window": {3: 4}, "eliminate": 4}, {"eliminate": 7}, {"eliminate": 8}]})
    assert any(isinstance(e, ev.CardTaken) for e in servant.game.events)
    panels["devoted_servant_reset"] = closed_panels(servant)["devoted_servant_reset"]
    assert set(panels) == set(calls), f"calls never made: {sorted(set(calls) - set(panels))}"
    for call, turns in sorted(panels.items()):
        if call == "werewolves":
            continue  # the pack is dealt: its turn is open
        for turn in turns:
            assert turn == CLOSED, f"{call}'s closed turn shows {turn}"
