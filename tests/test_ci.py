"""`./test` and `.ci/run`: `./test` runs every tier but acceptance, `--unit` the unit tier and
`--acceptance` the acceptance tier; CI runs with the ci Hypothesis profile and never passes on "no tests".

The scripts run in a copy of the repository's layout where setup, mypy and pytest are stand-ins
that record how they were called: nothing is installed and no test suite runs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import settings

from tests.conftest import REPO, hypothesis_profile

RECORDER = """#!/usr/bin/env bash
# Stands in for .venv/bin/python: records its arguments and CI; pytest exits with $PYTEST_EXIT.
echo "$* | CI=${CI:-}" >> "$(dirname "$0")/../../calls"
case "$*" in *pytest*) exit "${PYTEST_EXIT:-0}" ;; *mypy*) echo "mypy says ${MYPY_EXIT:-0}"; exit "${MYPY_EXIT:-0}" ;; esac
"""


def _layout(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / ".ci").mkdir(parents=True)
    (root / "scripts").mkdir()
    (root / ".venv" / "bin").mkdir(parents=True)
    shutil.copy2(REPO / "test", root / "test")
    shutil.copy2(REPO / ".ci" / "run", root / ".ci" / "run")
    (root / "scripts" / "setup.sh").write_text("echo \"setup $*\" >> \"$(dirname \"$0\")/../calls\"\n")
    python = root / ".venv" / "bin" / "python"
    python.write_text(RECORDER)
    python.chmod(0o755)
    return root


PRECOLLECT = "-m pytest --collect-only -q -n 0 -p no:cacheprovider"


def _run(root: Path, *cmd: str, pytest_exit: int = 0, mypy_exit: int = 0) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "HYPOTHESIS_PROFILE")}
    env["PYTEST_EXIT"] = str(pytest_exit)
    env["MYPY_EXIT"] = str(mypy_exit)
    done = subprocess.run(list(cmd), cwd=root, env=env, capture_output=True, text=True, timeout=600)
    return done, (root / "calls").read_text().splitlines()


@pytest.mark.slow
def test_test_runs_every_tier_but_acceptance_and_each_tier_alone(tmp_path: Path) -> None:
    root = _layout(tmp_path)
    done, calls = _run(root, "./test")
    assert done.returncode == 0, done.stderr
    # The selection is pyproject's addopts (every tier but acceptance): ./test adds nothing. mypy runs
    # beside pytest (either may start first), its verdict printed after pytest's.
    assert calls[0] == "setup dev,korean,neural,phones"
    # On a fresh clone, one collection first caches the test modules' rewritten asserts for the workers.
    assert sorted(calls[1:]) == ["-m mypy --strict narrator | CI=", f"{PRECOLLECT} | CI=", "-m pytest | CI="]
    assert calls.index(f"{PRECOLLECT} | CI=") < calls.index("-m pytest | CI=")
    assert done.stdout.endswith("mypy says 0\n"), done.stdout
    (root / "tests" / "__pycache__").mkdir(parents=True)
    (root / "tests" / "__pycache__" / "conftest.cpython-311-pytest-9.1.1.pyc").write_bytes(b"")
    for flags, selection in ((["--unit"], "-m not slow and not acceptance -n 2"),
                             (["--fast"], "-m not slow and not acceptance -n 2"),
                             (["--acceptance"], "-m acceptance")):
        (root / "calls").unlink()
        done, calls = _run(root, "./test", *flags, "tests/flow", "-x")
        assert done.returncode == 0, done.stderr
        assert [c for c in calls if "-m pytest" in c] == [f"-m pytest {selection} tests/flow -x | CI="], flags


@pytest.mark.slow
def test_test_fails_when_mypy_fails_even_if_pytest_passes(tmp_path: Path) -> None:
    root = _layout(tmp_path)
    done, _ = _run(root, "./test", mypy_exit=1)
    assert done.returncode == 1 and "mypy says 1" in done.stdout
    assert "./test: mypy --strict narrator failed" in done.stderr
    done, _ = _run(root, "./test", mypy_exit=1, pytest_exit=5)
    assert done.returncode == 5, "pytest's own failure is kept: .ci/run tells 'no tests' apart"


@pytest.mark.slow
def test_ci_runs_everything_with_ci_set(tmp_path: Path) -> None:
    root = _layout(tmp_path)
    done, calls = _run(root, ".ci/run")
    assert done.returncode == 0, done.stderr
    # ./test's whole suite, then the table's acceptance tier, which ./test leaves out.
    assert [c for c in calls if "-m pytest" in c] == [f"{PRECOLLECT} | CI=true", "-m pytest | CI=true",
                                                      "-m pytest tests/acceptance | CI=true"]
    assert "-m mypy --strict narrator | CI=true" in calls


@pytest.mark.slow
def test_ci_fails_when_pytest_collected_no_tests(tmp_path: Path) -> None:
    root = _layout(tmp_path)
    done, _ = _run(root, ".ci/run", pytest_exit=5)
    assert done.returncode == 1
    assert "collected no tests" in done.stderr
    done, _ = _run(root, ".ci/run", pytest_exit=2)
    assert done.returncode == 2 and "exited with 2" in done.stderr


def test_the_hypothesis_profile_follows_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HYPOTHESIS_PROFILE", raising=False)
    monkeypatch.setenv("CI", "true")
    assert hypothesis_profile() == "ci"
    monkeypatch.delenv("CI")
    assert hypothesis_profile() == "dev"
    monkeypatch.setenv("HYPOTHESIS_PROFILE", "ci")
    assert hypothesis_profile() == "ci"
    ci, dev = settings.get_profile("ci"), settings.get_profile("dev")
    assert dev.max_examples < ci.max_examples
    assert ci.deadline is None and dev.deadline is None  # no wall-clock limits


@pytest.mark.slow
def test_the_acceptance_tier_is_collected_only_when_asked_for() -> None:
    """`./test` stays fast: tests/acceptance is collected only with NARRATOR_ACCEPTANCE=1 (.ci/run)."""
    import sys

    base = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-n", "0", "tests/acceptance"]
    env = {k: v for k, v in os.environ.items() if k != "NARRATOR_ACCEPTANCE"}
    left_out = subprocess.run(base, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    asked = subprocess.run(base, cwd=REPO, env={**env, "NARRATOR_ACCEPTANCE": "1"}, capture_output=True, text=True,
                           timeout=300)
    assert left_out.returncode == 5, left_out.stdout
    assert asked.returncode == 0 and "tests/acceptance/test_phones_network.py: 3" in asked.stdout, asked.stdout
