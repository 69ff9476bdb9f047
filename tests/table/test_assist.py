"""`narrator assist` on a virtual clock: the calls in order with fixed turns, the keys, the day timer."""

from __future__ import annotations

from typing import Any

import pytest

from narrator.fakes import Timeline, TimelineSpeaker
from narrator.clock import VirtualClock
from narrator.flow.timing import Timing
from narrator.packs import load_pack
from narrator.rules import Options, Role
from narrator.table.assist import Assistant
from narrator.fakes import ScriptedKeys
from tests.table.tmux import needs_tmux

TIMING = Timing(gap=1.0, debate=120.0)
ROLES = {Role.WEREWOLF, Role.SEER, Role.WITCH, Role.CUPID}


def run(keys: list[tuple[float, str]], nights: int = 1, roles: set[Role] = ROLES,
        timing: Timing = TIMING) -> list[dict[str, Any]]:
    clock = VirtualClock()
    timeline = Timeline(clock)
    pack = load_pack("en")
    speaker = TimelineSpeaker(pack, timeline)
    Assistant(pack, speaker, clock, ScriptedKeys(clock, list(keys)), roles, timing, Options()).run(nights)
    return [e for e in timeline.entries if e["kind"] == "say"]


def ends(said: list[dict[str, Any]], key: str, n: int = 0) -> float:
    """When the n-th saying of `key` ends (estimated line length, as the fake speaker counts it)."""
    from narrator.fakes import estimated_duration

    e = [x for x in said if x["key"] == key][n]
    return float(e["t"] + estimated_duration(e["text"]))


def at(said: list[dict[str, Any]], key: str, n: int = 0) -> float:
    return float([x for x in said if x["key"] == key][n]["t"])


def test_the_night_in_order_with_fixed_turns_then_the_day() -> None:
    said = run([(500.0, "\n"), (1000.0, "\n")])  # Enter after the morning, and after the vote
    keys = [e["key"] for e in said]
    assert keys == [
        "night.falls", "cupid.wake", "cupid.sleep", "lovers.wake", "lovers.sleep", "seer.wake", "seer.sleep",
        "werewolves.wake_first", "werewolves.sleep", "witch.wake", "witch.sleep", "day.dawn",
        "debate.start", "debate.one_minute", "debate.ten_seconds", "debate.end", "vote.start", "day.dusk",
    ]
    for call, wake in (("cupid", "cupid.wake"), ("seer", "seer.wake"), ("werewolves", "werewolves.wake_first"),
                       ("witch", "witch.wake")):
        assert at(said, f"{call}.sleep") - ends(said, wake) == pytest.approx(TIMING.turn(call))
    # The morning waits for the narrator's Enter; the day timer warns at 1 min and 10 s.
    assert at(said, "debate.start") == 500.0
    end = ends(said, "debate.start") + 120.0
    assert at(said, "debate.one_minute") == pytest.approx(end - 60)
    assert at(said, "debate.ten_seconds") == pytest.approx(end - 10)
    assert at(said, "debate.end") == pytest.approx(end)
    assert at(said, "day.dusk") == 1000.0


def test_later_nights_have_no_first_night_calls() -> None:
    said = run([(500.0, "\n"), (1000.0, "\n"), (2000.0, "\n"), (3000.0, "\n")], nights=2)
    second = [e["key"] for e in said[said.index(next(e for e in said if e["key"] == "day.dusk")) + 1 :]]
    assert second[:7] == ["night.falls", "seer.wake", "seer.sleep", "werewolves.wake", "werewolves.sleep",
                          "witch.wake", "witch.sleep"]


def test_next_back_repeat_and_pause() -> None:
    base = run([(500.0, "\n"), (1000.0, "\n")])
    seer_wake = ends(base, "seer.wake")  # keys come during the turn, after the wake line
    keys = [
        (seer_wake + 5.0, "+"),  # next: the Seer's turn ends now
    ]
    said = run(keys + [(500.0, "\n"), (1000.0, "\n")])
    assert at(said, "seer.sleep") == seer_wake + 5.0

    said = run([(seer_wake + 4.0, "*"), (500.0, "\n"), (1000.0, "\n")])  # repeat: the wake line again, turn restarts
    assert [e["key"] for e in said].count("seer.wake") == 2
    assert at(said, "seer.sleep") == pytest.approx(ends(said, "seer.wake", 1) + TIMING.turn("seer"))

    said = run([(seer_wake + 4.0, "/"), (seer_wake + 64.0, "/"), (600.0, "\n"), (1100.0, "\n")])  # a minute's pause
    assert [e["key"] for e in said][6:9] == ["game.paused", "game.resumed", "seer.sleep"]
    paused = ends(said, "game.resumed") - at(said, "game.paused")
    assert abs(at(said, "seer.sleep") - (ends(base, "seer.wake") + TIMING.turn("seer") + paused)) < 1e-6


def test_back_goes_to_the_previous_call() -> None:
    base = run([(500.0, "\n"), (1000.0, "\n")])
    wolves = at(base, "werewolves.wake_first")
    said = run([(wolves + 3.0, "-"), (500.0, "\n"), (1000.0, "\n")])
    order = [e["key"] for e in said]
    i = order.index("werewolves.wake_first")
    assert order[i + 1] == "seer.sleep" and order[i + 2] == "werewolves.wake_first"


def test_pausing_the_debate_stops_its_clock() -> None:
    base = run([(500.0, "\n"), (1000.0, "\n")])
    start = ends(base, "debate.start")
    said = run([(500.0, "\n"), (start + 30.0, "/"), (start + 130.0, "/"), (1500.0, "\n")])
    paused = ends(said, "game.resumed") - at(said, "game.paused")
    assert paused >= 100.0
    assert abs(at(said, "debate.end") - (start + 120.0 + paused)) < 1e-6


def test_quit_and_end_of_input_stop_cleanly() -> None:
    said = run([(30.0, "q")])
    assert said[-1]["t"] <= 30.0
    said = run([])  # no keys: the morning waits for ever, the input has ended
    assert said[-1]["key"] == "day.dawn"


def test_every_possible_role_is_called_even_with_a_thief() -> None:
    said = run([(500.0, "\n"), (1000.0, "\n")], roles={Role.WEREWOLF, Role.THIEF, Role.WITCH})
    keys = [e["key"] for e in said]
    assert keys[:5] == ["night.falls", "thief.wake", "thief.sleep", "werewolves.wake_first", "werewolves.sleep"]
    assert "seer.wake" not in keys and "cupid.wake" not in keys


@pytest.mark.xdist_group("terminal")
@pytest.mark.slow
@needs_tmux
def test_assist_in_a_real_terminal(tmp_path: Any) -> None:
    """The Seer's turn lasts ten minutes, so only "+" can bring her sleep line
    within the wait: no "< 5 s" of wall clock (a 5 s turn at pace 0.5 raced a loaded machine)."""
    import sys
    from pathlib import Path

    from tests.table.tmux import Tmux

    repo = Path(__file__).resolve().parents[2]
    config = tmp_path / "table.toml"
    config.write_text("[timing]\nseer = 1200\n")  # 600 s at pace 0.5
    t = Tmux([sys.executable, "-m", "narrator", "assist", "--config", str(config), "--roles", "werewolf=2,seer",
              "--pace", "0.5", "--text"], tmp_path, {"PYTHONPATH": str(repo), "NARRATOR_CONFIG": str(tmp_path / "cfg")})
    try:
        t.wait("Seer, wake up")
        t.send("+")  # next: the Seer's turn ends now (a key typed during the wake line counts once it ends)
        t.wait("Seer, go back to sleep")
        t.wait("Werewolves, wake up")
        t.send("-")  # back: the Seer's sleep line again
        t.wait(lambda s: s.count("Seer, go back to sleep") == 2)
        t.send("q")
        assert t.exit_code() == 0
    finally:
        t.close()


def test_no_audio_shows_each_line_a_countdown_and_the_day() -> None:
    import io

    clock = VirtualClock()
    pack = load_pack("en")
    out = io.StringIO()
    speaker = TimelineSpeaker(pack, Timeline(clock))  # silent, as --no-audio is
    keys = ScriptedKeys(clock, [(400.0, "\n"), (420.0, "*"), (430.0, "+"), (1000.0, "\n")])
    Assistant(pack, speaker, clock, keys, ROLES, TIMING, Options(), out, captions=True).run(1)
    text = out.getvalue()
    assert "  » Cupid, wake up. Choose the two players who will fall in love." in text
    assert f"0:{int(TIMING.turn('cupid')):02d} left" in text  # the turn counts down
    assert "0:01 left" in text
    assert "[day 1] debate" in text and "[night 1] debate" not in text
    assert "[night 1] Cupid: awake" in text
    assert "[debate] * time left" in text and "  » 2 minutes left." in text


@pytest.mark.xdist_group("terminal")
@pytest.mark.slow
@needs_tmux
def test_assist_no_audio_in_a_real_terminal(tmp_path: Any) -> None:
    import sys
    from pathlib import Path

    from tests.table.tmux import Tmux

    repo = Path(__file__).resolve().parents[2]
    t = Tmux([sys.executable, "-m", "narrator", "assist", "--roles", "werewolf,seer", "--no-audio"], tmp_path,
             {"PYTHONPATH": str(repo), "NARRATOR_CONFIG": str(tmp_path / "cfg")})
    try:
        t.wait("» Seer, wake up. Choose a player whose card you want to see.")
        import re

        t.wait(lambda s: re.search(r"Seer, wake up.*\n\s+\d:\d\d left", s) is not None)
        t.send("*")
        t.wait("Seer: awake: said again")
        t.send("q")
        assert t.exit_code() == 0
    finally:
        t.close()
