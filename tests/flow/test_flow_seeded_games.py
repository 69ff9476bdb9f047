"""Every role's seeded games through the sequencer do at the ports what tests/flow/data/seeded_flow.json
recorded: the same lines at the same clock times, the same prompts, screens and journal records,
played whole and resumed from a cut of the journal (tests/flow/seeded_flow.py).

Ten games a role of the catalogue, with random players that answer early, late, never, wrongly,
by keypad and by voice, ask for the last line again, pause, and say back or take back their votes.
A change of the flow's structure must change none of them.

The first game of each role runs in the unit tier, the developer's loop; the other nine in the slow
tier. `./test` runs both: every recorded game once.
"""

from __future__ import annotations

from itertools import islice

import pytest

from seeded_flow import load, play
from seeded_games import load as load_rules, specs

DATA = load()
TABLES = load_rules()["tables"]
ROLES = list(DATA["digests"])
UNIT = 1  # games a role in the unit tier


def changed_games(role: str, start: int, stop: int | None) -> tuple[list[str], list[str]]:
    """The games `start` to `stop` of `role` that changed played whole, and resumed."""
    recorded = DATA["digests"][role]
    whole: list[str] = []
    resumed: list[str] = []
    games = islice(zip(specs(TABLES, role, len(recorded), DATA["seed"]), recorded), start, stop)
    for i, (spec, (expected, expected_resumed)) in enumerate(games, start):
        got, got_resumed = play(spec)
        if got != expected:
            whole.append(f"{role} game {i}: {spec.describe()}")
        if got_resumed != expected_resumed:
            resumed.append(f"{role} game {i}: {spec.describe()}")
    return whole, resumed


def check(role: str, start: int, stop: int | None) -> None:
    whole, resumed = changed_games(role, start, stop)
    assert whole == [], f"{len(whole)} games changed; the first: " + "\n".join(whole[:3])
    assert resumed == [], f"{len(resumed)} resumed games changed; the first: " + "\n".join(resumed[:3])


def test_every_role_of_the_catalogue_has_its_recorded_flow_games() -> None:
    assert ROLES == [role for role, _ in TABLES["roles"]]
    assert all(len(games) == DATA["games"] > UNIT for games in DATA["digests"].values())


@pytest.mark.parametrize("role", ROLES)
def test_the_first_seeded_flow_game_of_a_role_does_what_was_recorded_whole_and_resumed(role: str) -> None:
    check(role, 0, UNIT)


@pytest.mark.slow
@pytest.mark.parametrize("role", ROLES)
def test_every_other_seeded_flow_game_of_a_role_does_what_was_recorded_whole_and_resumed(role: str) -> None:
    check(role, UNIT, None)


def test_a_changed_game_is_found_whole_and_resumed() -> None:
    """The check can fail: recorded digests altered by one character are reported, whole and resumed."""
    role = ROLES[0]
    original = DATA["digests"][role][0]
    DATA["digests"][role][0] = [("0" if d[0] != "0" else "1") + d[1:] for d in original]
    try:
        whole, resumed = changed_games(role, 0, 1)
        assert [w.split(":")[0] for w in whole] == [f"{role} game 0"]
        assert [r.split(":")[0] for r in resumed] == [f"{role} game 0"]
    finally:
        DATA["digests"][role][0] = original
