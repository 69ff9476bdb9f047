"""Every role's seeded games through the sequencer do at the ports what tests/flow/data/seeded_flow.json
recorded: the same lines at the same clock times, the same prompts, screens and journal records,
played whole and resumed from a cut of the journal (tests/flow/seeded_flow.py).

Ten games a role of the catalogue, with random players that answer early, late, never, wrongly,
by keypad and by voice, ask for the last line again, pause, and say back or take back their votes.
A change of the flow's structure must change none of them.
"""

from __future__ import annotations

from seeded_flow import load, play
from seeded_games import load as load_rules, specs


def test_seeded_flow_games_do_what_was_recorded_played_whole_and_resumed() -> None:
    data = load()
    tables = load_rules()["tables"]
    assert list(data["digests"]) == [role for role, _ in tables["roles"]]
    whole: list[str] = []
    resumed: list[str] = []
    for role, recorded in data["digests"].items():
        for i, (spec, (expected, expected_resumed)) in enumerate(
                zip(specs(tables, role, len(recorded), data["seed"]), recorded)):
            got, got_resumed = play(spec)
            if got != expected:
                whole.append(f"{role} game {i}: {spec.describe()}")
            if got_resumed != expected_resumed:
                resumed.append(f"{role} game {i}: {spec.describe()}")
    assert whole == [], f"{len(whole)} games changed; the first: " + "\n".join(whole[:3])
    assert resumed == [], f"{len(resumed)} resumed games changed; the first: " + "\n".join(resumed[:3])
