"""The state machine table: readable, complete, and drawn as mermaid."""

from __future__ import annotations

import subprocess
import sys

from narrator.flow.sequencer import NIGHT_ORDER, STATES, transitions_table


def test_every_state_is_reachable_and_has_a_way_out() -> None:
    table = transitions_table()
    sources = {t["source"] for t in table}
    dests = {t["dest"] for t in table}
    assert set(STATES) - {"setup"} <= dests
    assert set(STATES) - {"game_over"} <= sources


def test_night_order_follows_the_rules() -> None:
    # RULES.md's base order, and RULES-EXTENSIONS.md's merged order for the roles of the catalogue.
    assert [name for name, _ in NIGHT_ORDER] == [
        "thief", "actor", "devoted_servant_reset", "wolf_hound", "cupid", "lovers", "stuttering_judge", "two_sisters",
        "three_brothers", "wild_child", "night_election", "savior", "seer", "fox", "werewolves", "accursed_wolf_father",
        "white_werewolf", "big_bad_wolf", "witch", "pied_piper", "charmed", "raven", "stuttering_judge_arm", "dawn"]


def test_each_source_ends_with_an_unconditional_way_on() -> None:
    table = transitions_table()
    for source in set(STATES) - {"game_over"}:
        last = [t for t in table if t["source"] == source][-1]
        assert "conditions" not in last, f"{source} could get stuck"


def test_narrator_graph_prints_mermaid() -> None:
    out = subprocess.run([sys.executable, "-m", "narrator", "graph"], capture_output=True, text=True, check=True).stdout
    assert "stateDiagram-v2" in out
    assert "werewolves --> witch: advance [witch_possible]" in out
    assert "cupid --> lovers: advance" in out
    assert "night_falls --> lovers" not in out
