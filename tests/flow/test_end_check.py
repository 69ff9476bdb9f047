"""When the end is checked (docs/rules-spec.md#end, `end_check`): every morning and after every
elimination, or only at the start of each day, where a game won by the vote ends at the next dawn
after a night played like any other."""

from __future__ import annotations

from typing import Any

from narrator.rules import Side
from narrator.rules import events as ev

from flow_helpers import keys, play, said

# One Werewolf (seat 1), burned on the first day.
SETUP: dict[str, Any] = {"players": 6, "roles": {1: "werewolf", 2: "seer", 3: "witch"},
                         "options": {"captain_election": "never"}}
SCRIPT: dict[str, Any] = {"nights": [{"werewolves": 6, "seer": 1}, {"seer": 4}], "days": [{"eliminate": 1}]}


def test_by_default_the_burned_last_wolf_ends_the_game_at_once() -> None:
    r = play(SETUP, SCRIPT)
    k = keys(r)
    assert k.count("night.falls") == 1 and k[-1] != "day.dusk"
    assert r.game.outcome is not None and r.game.outcome.winner is Side.VILLAGE


def test_at_dawn_the_burned_last_wolf_ends_the_game_after_a_whole_night() -> None:
    r = play({**SETUP, "options": {**SETUP["options"], "end_check": "dawn"}}, SCRIPT)
    k = keys(r)
    assert k.count("night.falls") == 2
    second = k[k.index("night.falls", k.index("night.falls") + 1):]
    # The night is called as every night (the dead pack's call too); its dawn ends the game.
    assert "werewolves.wake" in second and "seer.wake" in second and "witch.wake" in second
    assert second.index("game.over") > second.index("witch.sleep")
    assert k.index("day.dusk") < k.index("night.falls", k.index("night.falls") + 1)
    ends = [e for e in r.game.events if isinstance(e, ev.GameEnded)]
    assert len(ends) == 1 and ends[0].winner is Side.VILLAGE
    assert [e.target for e in r.game.events if isinstance(e, ev.SeerSaw)] == [1, 4]
    assert "The game is over. Victory for the village." in said(r)


def test_at_dawn_the_nights_poison_counts_before_the_end() -> None:
    script = {**SCRIPT, "nights": [SCRIPT["nights"][0], {"witch": {"poison": 2}}]}
    r = play({**SETUP, "options": {**SETUP["options"], "end_check": "dawn"}}, script)
    died = [e.seat for e in r.game.events if isinstance(e, ev.PlayerDied)]
    assert died == [6, 1, 2]
    assert r.game.outcome is not None and r.game.outcome.winner is Side.VILLAGE
