"""The mutation run's own pieces (bench/mutations.py): the seeded sample, where a mutant comes from, the
explanations of the equivalent mutants, the kill rate and the report. The run itself (mutmut) is a
benchmark and never runs here (docs/testing.md#the-mutation-run)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_mutations", ROOT / "bench" / "mutations.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


mutations = _load()
Mutant = mutations.Mutant

DIFF = """\
--- narrator/roles/fox.py
+++ narrator/roles/fox.py
@@ -1,5 +1,5 @@
 def effect(game: Game, fox: int, chosen: tuple[int, ...]) -> tuple[Event, ...]:
-    if not chosen or not game.powered(fox) or not game.options.fox_loses_power_on_miss:
+    if not chosen or not game.powered(None) or not game.options.fox_loses_power_on_miss:
         return ()
"""


def test_the_sample_is_the_same_for_a_seed_whatever_order_the_names_come_in() -> None:
    names = [f"m{i}" for i in range(50)]
    first = mutations.sample(names, 10, seed=3)
    assert first == mutations.sample(list(reversed(names)), 10, seed=3)
    assert len(first) == 10 and set(first) <= set(names)
    assert first != mutations.sample(names, 10, seed=4)


def test_the_sample_takes_every_mutant_when_asked_for_as_many_or_all() -> None:
    names = ["b", "a", "c"]
    assert mutations.sample(names, None, seed=1) == ["a", "b", "c"]
    assert mutations.sample(names, 5, seed=1) == ["a", "b", "c"]


def test_the_mutated_files_are_those_the_globs_name(tmp_path: Path) -> None:
    for path in ("narrator/rules/game.py", "narrator/rules/sub/deep.py", "narrator/roles/fox.py",
                 "narrator/flow/sequencer.py", "narrator/rules/__pycache__/game.py"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("")
    assert mutations.mutated_files(tmp_path, ("narrator/rules/*", "narrator/roles/*")) == [
        "narrator/roles/fox.py", "narrator/rules/game.py", "narrator/rules/sub/deep.py"]


def test_a_mutant_is_traced_to_its_file_a_package_init_included() -> None:
    files = ["narrator/roles/__init__.py", "narrator/roles/fox.py", "narrator/rules/game.py"]
    assert mutations.source_of("narrator.roles.fox.x_check__mutmut_3", files) == "narrator/roles/fox.py"
    assert mutations.source_of("narrator.roles.x__load__mutmut_1", files) == "narrator/roles/__init__.py"
    assert mutations.source_of("narrator.rules.game.xǁGameǁliving__mutmut_2", files) == "narrator/rules/game.py"
    with pytest.raises(ValueError, match="narrator.flow.x_run__mutmut_1"):
        mutations.source_of("narrator.flow.x_run__mutmut_1", files)


def test_the_changed_lines_are_read_from_the_diff() -> None:
    before, after = mutations.changed_lines(DIFF)
    assert before == "if not chosen or not game.powered(fox) or not game.options.fox_loses_power_on_miss:"
    assert after == "if not chosen or not game.powered(None) or not game.options.fox_loses_power_on_miss:"


def test_a_survivor_is_explained_by_the_lines_it_changes_whitespace_aside() -> None:
    explanations = mutations.load_explanations('''
[[equivalent]]
line = "if not chosen or not game.powered(fox)   or not game.options.fox_loses_power_on_miss:"
mutant = "if not chosen or not game.powered(None) or not game.options.fox_loses_power_on_miss:"
why = "effect runs for a powered Fox only"
file = "narrator/roles/fox.py"
''')
    before, after = mutations.changed_lines(DIFF)
    survivor = Mutant("narrator.roles.fox.x_effect__mutmut_5", "narrator/roles/fox.py", "survived", before, after)
    assert mutations.explain(survivor, explanations) == "effect runs for a powered Fox only"
    elsewhere = Mutant("narrator.roles.seer.x_effect__mutmut_5", "narrator/roles/seer.py", "survived", before, after)
    assert mutations.explain(elsewhere, explanations) == ""
    other = Mutant(survivor.name, survivor.path, "survived", before, after.replace("None", "fox + 1"))
    assert mutations.explain(other, explanations) == ""
    killed = Mutant(survivor.name, survivor.path, "killed", before, after)
    assert mutations.explain(killed, explanations) == ""


def test_an_explanation_without_its_reason_is_refused() -> None:
    with pytest.raises(ValueError, match="equivalent number 1 has no why"):
        mutations.load_explanations('[[equivalent]]\nline = "a"\nmutant = "b"\nwhy = " "\n')


def test_the_rate_leaves_the_equivalent_mutants_out() -> None:
    ms = [Mutant(f"m.x_f__mutmut_{i}", "narrator/roles/fox.py", "killed") for i in range(18)]
    ms += [Mutant("m.x_f__mutmut_18", "narrator/roles/fox.py", "timeout"),
           Mutant("m.x_f__mutmut_19", "narrator/roles/fox.py", "survived", why="the same in every game"),
           Mutant("m.x_f__mutmut_20", "narrator/roles/fox.py", "no tests")]
    assert mutations.rate(ms) == (19, 1, 1, 95.0)


def test_the_report_lists_the_survivors_by_file_with_their_reasons() -> None:
    run = mutations.Run(population=900, seed=1, started="2026-11-25 10:00", commit="abc1234", tool="mutmut 3.8.1",
                        wall=754.0, cpu=1300.0, load_before=(2.0, 1.5, 1.0), load_after=(3.0, 2.5, 2.0),
                        command="bench/mutations.py")
    run.mutants = [
        Mutant("narrator.roles.fox.x_check__mutmut_1", "narrator/roles/fox.py", "killed"),
        Mutant("narrator.roles.fox.x_effect__mutmut_5", "narrator/roles/fox.py", "survived",
               "game.powered(fox)", "game.powered(None)", why="effect runs for a powered Fox only"),
        Mutant("narrator.rules.votes.x__voters__mutmut_2", "narrator/rules/votes.py", "survived", "a < b", "a <= b"),
    ]
    text = mutations.report(run)
    assert "a seeded random sample of 3 of the 900 mutants (seed 1)" in text
    assert "**Kill rate: 50.0 %** of the non-equivalent mutants (1 killed of 2; 1 equivalent" in text
    assert "12 min 34 s wall, 21 min 40 s CPU, on 2 cores; load average 2.0 / 1.5 / 1.0 before" in text
    assert "| `narrator/roles/fox.py` | 2 | 1 | 1 | 0 |" in text
    assert "| `narrator/rules/votes.py` | 1 | 0 | 0 | 1 |" in text
    assert text.index("### `narrator/roles/fox.py`") < text.index("### `narrator/rules/votes.py`")
    assert "- `narrator.roles.fox.x_effect__mutmut_5`: equivalent: effect runs for a powered Fox only" in text
    assert "- `narrator.rules.votes.x__voters__mutmut_2`: **unexplained** (survived)" in text
    assert "x_check__mutmut_1" not in text


def test_the_record_reads_back_as_the_run() -> None:
    run = mutations.Run(population=10, seed=None, wall=1.5, load_before=(1.0, 2.0, 3.0))
    run.mutants = [Mutant("narrator.roles.fox.x_check__mutmut_1", "narrator/roles/fox.py", "survived", "a", "b", "c")]
    assert mutations.read_record(mutations.record(run)) == run
