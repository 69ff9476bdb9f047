"""Every role's seeded games play the event streams recorded in tests/rules/data/seeded_games.json.

300 games a role of the catalogue, dealt in decks of 8 to 18 players with other cards drawn at
random, under every option drawn at random, played by the simulator's three automatic players
(tests/rules/seeded_games.py). A change of the engine's structure must leave every game as it was;
a change of the rules changes some, and is recorded again on purpose.

The first games of each role run in the unit tier, the developer's loop; the rest, a sweep of
thousands of games, in the slow tier. `./test` runs both: every recorded game once.
"""

from __future__ import annotations

from itertools import islice

import pytest

from narrator.roles import CARDS

from seeded_games import digest, load, play, specs

DATA = load()
ROLES = list(DATA["digests"])
UNIT = 20  # games a role in the unit tier


def changed_games(role: str, start: int, stop: int | None) -> list[str]:
    """The games `start` to `stop` of `role` whose event stream is not the recorded one."""
    recorded = DATA["digests"][role]
    games = islice(zip(specs(DATA["tables"], role, len(recorded), DATA["seed"]), recorded), start, stop)
    changed = [f"{role} game {i}: {spec.describe()}"
               for i, (spec, expected) in enumerate(games, start) if digest(play(spec)) != expected]
    return changed


def test_every_role_of_the_catalogue_has_its_recorded_games() -> None:
    recorded = [role for role, _ in DATA["tables"]["roles"]]
    assert recorded == [r.value for r in CARDS], "a role added or removed: record the games again (seeded_games.py)"
    assert ROLES == recorded
    assert {role: len(d) for role, d in DATA["digests"].items()} == {role: DATA["games"] for role in recorded}
    assert DATA["games"] >= 300 > UNIT


@pytest.mark.parametrize("role", ROLES)
def test_the_first_seeded_games_of_a_role_play_the_recorded_event_streams(role: str) -> None:
    changed = changed_games(role, 0, UNIT)
    assert changed == [], f"{len(changed)} games changed; the first: " + "\n".join(changed[:5])


@pytest.mark.slow
@pytest.mark.parametrize("role", ROLES)
def test_every_other_seeded_game_of_a_role_plays_the_recorded_event_stream(role: str) -> None:
    changed = changed_games(role, UNIT, None)
    assert changed == [], f"{len(changed)} games changed; the first: " + "\n".join(changed[:5])


def test_a_changed_event_stream_is_found() -> None:
    """The check can fail: a recorded digest altered by one character is reported as a changed game."""
    role = ROLES[0]
    original = DATA["digests"][role][0]
    DATA["digests"][role][0] = ("0" if original[0] != "0" else "1") + original[1:]
    try:
        assert [line.split(":")[0] for line in changed_games(role, 0, 1)] == [f"{role} game 0"]
    finally:
        DATA["digests"][role][0] = original
