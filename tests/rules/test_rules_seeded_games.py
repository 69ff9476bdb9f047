"""Every role's seeded games play the event streams recorded in tests/rules/data/seeded_games.json.

300 games a role of the catalogue, dealt in decks of 8 to 18 players with other cards drawn at
random, under every option drawn at random, played by the simulator's three automatic players
(tests/rules/seeded_games.py). A change of the engine's structure must leave every game as it was;
a change of the rules changes some, and is recorded again on purpose.
"""

from __future__ import annotations

from narrator.roles import CARDS

from seeded_games import digest, load, play, specs


def test_every_role_of_the_catalogue_has_its_recorded_games() -> None:
    data = load()
    recorded = [role for role, _ in data["tables"]["roles"]]
    assert recorded == [r.value for r in CARDS], "a role added or removed: record the games again (seeded_games.py)"
    assert {role: len(d) for role, d in data["digests"].items()} == {role: data["games"] for role in recorded}
    assert data["games"] >= 300


def test_seeded_games_play_the_recorded_event_streams() -> None:
    data = load()
    changed: list[str] = []
    played = 0
    for role, recorded in data["digests"].items():
        for i, (spec, expected) in enumerate(zip(specs(data["tables"], role, len(recorded), data["seed"]), recorded)):
            played += 1
            if digest(play(spec)) != expected:
                changed.append(f"{role} game {i}: {spec.describe()}")
    assert played == sum(len(d) for d in data["digests"].values())
    assert changed == [], f"{len(changed)} games changed; the first: " + "\n".join(changed[:5])
