"""Golden game scripts (tests/golden/*.game) replayed against the engine, event by event."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from golden_script import run
from narrator.rules import Game

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
SCRIPTS = sorted(GOLDEN.glob("*.game"))


def test_there_are_enough_golden_games() -> None:
    assert len(SCRIPTS) >= 12


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_golden_game(path: Path) -> None:
    expected, actual, game = run(path)
    if expected != actual:
        diff = "\n".join(difflib.unified_diff(expected, actual, "expected (hand-written)", "engine", lineterm=""))
        pytest.fail(f"{path.name}: the engine's events differ from the script\n{diff}")
    assert Game.replay(game.events).state == game.state


@pytest.mark.parametrize("path", [p for p in SCRIPTS if p.stem.startswith(("elder_", "scapegoat_", "witch_", "actor_infected_", "pied_piper_infected_",
                                                                  "devoted_servant_"))],
                         ids=lambda p: p.stem)
def test_golden_events_survive_the_journal_codec(path: Path) -> None:
    """The events of the powers lost, the spare lives and the Scapegoat's list (a None list
    included), the Witch's healed seat (`saved`), the Servant's dawn windows (`queue`) are written
    to the journal and read back equal."""
    import json

    from narrator.rules.codec import event_from_dict, event_to_dict

    _, _, game = run(path)
    for event in game.events:
        assert event_from_dict(json.loads(json.dumps(event_to_dict(event)))) == event


def test_a_journal_written_before_the_witchs_saved_seat_reads_back() -> None:
    """WitchActed.saved came later (witch_sees): an old journal line without it still loads."""
    from narrator.rules import events as ev
    from narrator.rules.codec import event_from_dict

    old = {"type": "WitchActed", "witch": 4, "healed": True, "poisoned": None}
    assert event_from_dict(old) == ev.WitchActed(4, True, None)


def test_a_journal_written_before_the_dawn_windows_reads_back_and_compares_equal() -> None:
    """WindowOpened.queue came later (servant_scope=any_death): an old journal line without it
    loads, and the day vote's window is still written without it (resuming compares the dicts)."""
    from narrator.rules import events as ev
    from narrator.rules.codec import event_from_dict, event_to_dict

    old = {"type": "WindowOpened", "seat": 3}
    assert event_from_dict(old) == ev.WindowOpened(3)
    assert event_to_dict(ev.WindowOpened(3)) == old
    dawn = ev.WindowOpened(5, ((5, ev.Cause.WOLVES), (7, ev.Cause.POISON)))
    assert event_to_dict(dawn)["queue"] == [[5, "wolves"], [7, "poison"]]
    assert event_from_dict(event_to_dict(dawn)) == dawn


POINT7 = [p for p in SCRIPTS if p.stem.startswith("actor_with_the_")]


@pytest.mark.parametrize("path", POINT7, ids=[p.stem for p in POINT7])
def test_a_passive_power_follows_the_power_held(path: Path) -> None:
    """The Elder's spare life and revenge, the Knight's disease, the Judge's
    sign, the Idiot's pardon, the Little Girl's lack of protection and the Scapegoat's voters are
    keyed on the power a player holds (the Actor holding the card), not on his dealt card."""
    assert len(POINT7) == 7
    expected, actual, _ = run(path)
    assert expected == actual
