"""Differential secrecy for the Elder's revenge (docs/rules-spec.md#secrecy point 5): the calls of
powerless roles say the same lines at the same offsets as when their powers work, whether they
answer early, late or never; the Elder and the Scapegoat, who have no call, change no night line
whether dealt or not."""

from __future__ import annotations

from typing import Any

import pytest

from flow_helpers import nights, play
from narrator.rules import events as ev

POSSIBLE = ["seer", "witch", "savior", "raven", "hunter", "elder", "scapegoat"]
ROLES = {1: "werewolf", 2: "werewolf", 3: "seer", 4: "witch", 6: "savior", 7: "raven", 8: "hunter", 9: "scapegoat"}


def game(elder: bool, delay: float, late: list[str], answered: bool) -> Any:
    roles = {**ROLES, **({5: "elder"} if elder else {})}
    setup = {"players": 10, "roles": roles, "possible": POSSIBLE,
             "options": {"captain_election": "never", "elder_revenge_announced": True}}
    night2: dict[str, Any] = {"werewolves": 10, "late": late}
    if answered:
        night2.update({"seer": 1, "savior": 10, "witch": {"heal": True, "poison": 2}, "raven": 6})
    script = {"answer_delay": delay,
              "nights": [{"werewolves": 0}, night2, {"werewolves": 6, **({"seer": 2} if answered else {})}],
              "days": [{"eliminate": 5}, {"eliminate": 1}, {"eliminate": 2}]}
    return play(setup, script)


@pytest.mark.parametrize("delay,late,answered", [(0.5, [], True), (6.0, [], True), (2.0, ["seer", "witch"], True),
                                                 (2.0, [], False)])
def test_powerless_calls_sound_like_powered_ones(delay: float, late: list[str], answered: bool) -> None:
    revenge = game(True, delay, late, answered)
    plain = game(False, delay, late, answered)
    assert any(isinstance(e, ev.PowersLost) for e in revenge.game.events), "the revenge did not happen"
    assert not any(isinstance(e, ev.PowersLost) for e in plain.game.events)
    if answered:
        assert any(isinstance(e, ev.PowerIgnored) for e in revenge.game.events), "no powerless answer was ignored"
    a, b = nights(revenge.timeline), nights(plain.timeline)
    assert len(a) >= 2 and len(b) >= 2
    for i in range(min(len(a), len(b))):
        assert a[i] == b[i], f"night {i + 1}: a powerless role's call differs from a powered one"


def test_the_comparison_can_fail() -> None:
    """With the Seer's turn lengthened in one game the nights differ: the check is not blind."""
    revenge = game(True, 2.0, [], True)
    setup = {"players": 10, "roles": ROLES, "possible": POSSIBLE,
             "options": {"captain_election": "never"}, "timing": {"seer": 5}}
    other = play(setup, {"nights": [{"werewolves": 0}], "days": [{"eliminate": 5}, {"eliminate": 1}, {"eliminate": 2}]})
    assert nights(revenge.timeline)[0] != nights(other.timeline)[0]
