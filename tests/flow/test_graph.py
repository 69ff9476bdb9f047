"""The state machine table: readable, complete, and drawn as mermaid."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.flow.sequencer import NIGHT_ORDER, STATES, transitions_table


def test_every_state_is_reachable_and_has_a_way_out() -> None:
    table = transitions_table()
    sources = {t["source"] for t in table}
    dests = {t["dest"] for t in table}
    assert set(STATES) - {"setup"} <= dests
    assert set(STATES) - {"game_over"} <= sources


def spec_night_order() -> list[str]:
    """The calls of the night order table of docs/rules-spec.md, in its order."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "rules-spec.md").read_text(encoding="utf-8")
    table = text.split('<a id="night-order"></a>', 1)[1].split("<a id=", 1)[0]
    return re.findall(r"^\| [0-9.]+ \| `([a-z_]+)` \|", table, re.M)


def test_night_order_follows_the_rules() -> None:
    """The code's night order is the specification's (a new role adds its row there: docs/architecture.md)."""
    spec = spec_night_order()
    assert len(spec) > 20 and spec[0] == "thief" and spec[-1] == "stuttering_judge_arm"
    assert [name for name, _ in NIGHT_ORDER] == [*spec, "dawn"]


def test_each_source_ends_with_an_unconditional_way_on() -> None:
    table = transitions_table()
    for source in set(STATES) - {"game_over"}:
        last = [t for t in table if t["source"] == source][-1]
        assert "conditions" not in last, f"{source} could get stuck"


@pytest.mark.slow
def test_narrator_graph_prints_mermaid() -> None:
    out = subprocess.run([sys.executable, "-m", "narrator", "graph"], capture_output=True, text=True, check=True).stdout
    assert "stateDiagram-v2" in out
    assert "werewolves --> witch: advance [witch_possible]" in out
    assert "cupid --> lovers: advance" in out
    assert "night_falls --> lovers" not in out


@pytest.mark.slow
def test_docs_page_is_what_the_generator_makes() -> None:
    from narrator.flow.graph import page

    docs = Path(__file__).resolve().parents[2] / "docs" / "state-machine.md"
    assert docs.read_text(encoding="utf-8") == page(), (
        "docs/state-machine.md is stale: run  narrator graph --page > docs/state-machine.md")
    out = subprocess.run([sys.executable, "-m", "narrator", "graph", "--page"], capture_output=True, text=True,
                         check=True).stdout
    assert out == page()
