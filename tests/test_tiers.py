"""The unit tier stays in-process: an unmarked test that starts a process fails, and says how to fix it.

That is what keeps `./test --unit` under a minute (docs/testing.md): a child process costs an
interpreter's start, and a hundred of them made the developer's loop minutes long.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.slow  # a pytest of its own

SUITE = '''
import multiprocessing
import subprocess

import pytest


def test_unit_starts_a_command():
    subprocess.run(["true"], check=True)


def test_unit_starts_a_worker():
    worker = multiprocessing.get_context("spawn").Process(target=print)
    worker.start()
    worker.join()


def test_unit_stays_in_process():
    assert sum(range(4)) == 6


@pytest.mark.slow
def test_slow_starts_a_command():
    subprocess.run(["true"], check=True)
'''


def test_an_unmarked_test_that_starts_a_process_fails_and_names_the_slow_mark(tmp_path: Path) -> None:
    (tmp_path / "test_sample.py").write_text(SUITE)
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:cacheprovider", "-n", "0",
                           "-rA", "-c", os.devnull, "--rootdir", str(tmp_path), str(tmp_path)],
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True, text=True,
                          timeout=300)
    out = done.stdout
    assert "FAILED test_sample.py::test_unit_starts_a_command" in out, out
    assert "FAILED test_sample.py::test_unit_starts_a_worker" in out, out
    assert "PASSED test_sample.py::test_unit_stays_in_process" in out, out
    assert "PASSED test_sample.py::test_slow_starts_a_command" in out, out
    assert "starts a process: a unit test runs in-process. Mark it @pytest.mark.slow" in out, out
    # The process-starting functions are put back after each test: the slow test after them could start one.
    assert "2 failed, 2 passed" in out, out
