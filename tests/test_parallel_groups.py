"""The real-time groups still group: the tests of one `xdist_group` run on one worker, one at a time.

Two terminal games, or two real-time recordings, must never run side by side (docs/testing.md).
The suite asks for that with pytest-xdist's public `--dist loadgroup` and `xdist_group` marks; a
pytest or an xdist under which the marks silently group nothing (pytest 9.2 with xdist 3.8 does:
pyproject.toml caps pytest for it) would run them in parallel again. This runs a small suite with
the installed pytest and xdist, as pyproject's addopts run ours, and fails first.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a pytest of its own, with workers

GROUPED = '''
import json, os, time
import pytest

pytestmark = pytest.mark.xdist_group("{group}")


@pytest.mark.parametrize("n", range(3))
def test_step(n):
    start = time.monotonic()
    time.sleep(0.2)  # long enough for a second worker to start one alongside, were it allowed to
    with open(os.environ["RUNS"], "a") as runs:
        runs.write(json.dumps([__name__, n, os.environ["PYTEST_XDIST_WORKER"], start, time.monotonic()]) + "\\n")
'''


def test_a_groups_tests_run_on_one_worker_one_at_a_time(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    suite.mkdir()
    for name, group in (("test_game_a", "terminal"), ("test_game_b", "terminal"), ("test_free_c", None), ("test_free_d", None)):
        text = GROUPED.format(group=group) if group else GROUPED.replace('pytestmark = pytest.mark.xdist_group("{group}")', "")
        (suite / f"{name}.py").write_text(text)
    runs = tmp_path / "runs.jsonl"
    # Only xdist is loaded among the installed plugins: the others (Hypothesis's above all) schedule
    # nothing, and importing them in the runner and each of its three workers cost most of this test.
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "xdist.plugin", "-p", "no:cacheprovider", "-q", "-n", "3",
                           "--dist", "loadgroup", "-c", os.devnull, "--rootdir", str(suite), str(suite)],
                          cwd=suite, env={**os.environ, "RUNS": str(runs), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [json.loads(line) for line in runs.read_text().splitlines()]
    assert len(rows) == 12
    grouped = sorted((r for r in rows if r[0].startswith("test_game")), key=lambda r: r[3])
    assert len({worker for _, _, worker, _, _ in grouped}) == 1, f"one group, several workers: {grouped}"
    for earlier, later in zip(grouped, grouped[1:]):
        assert later[3] >= earlier[4], f"two tests of one group overlapped: {earlier} {later}"
    # The others spread: the run really had several workers to put the group's tests on.
    assert len({r[2] for r in rows}) > 1
