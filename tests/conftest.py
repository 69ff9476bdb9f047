"""Shared test settings: Hypothesis profiles, a clean environment for user folders, and the tiers."""

from __future__ import annotations

import itertools
import multiprocessing.process
import os
import re
import subprocess
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis profiles:
#   ci   every example each test asks for (the counts in its @settings), the failing example's
#        blob printed so it can be replayed; chosen when CI is set (.ci/run sets CI=true)
#   dev  a quarter of the examples, for quick local runs; the default elsewhere
# HYPOTHESIS_PROFILE=ci or =dev chooses one outright. Neither has a deadline or the too_slow
# health check: both time the machine, and a loaded one would fail them.
# A test asking for N examples writes @settings(max_examples=examples(N)) (tests/hypo.py).
_NO_TIMING: dict[str, Any] = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", max_examples=100, print_blob=True, **_NO_TIMING)
settings.register_profile("dev", max_examples=25, **_NO_TIMING)


def hypothesis_profile() -> str:
    chosen = os.environ.get("HYPOTHESIS_PROFILE", "").strip()
    if chosen and chosen not in ("ci", "dev"):
        raise pytest.UsageError(f"HYPOTHESIS_PROFILE={chosen!r}: use ci (every example) or dev (a quarter)")
    if chosen:
        return chosen
    return "ci" if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no") else "dev"


settings.load_profile(hypothesis_profile())

REPO = Path(__file__).resolve().parent.parent


def pytest_report_header(config: pytest.Config) -> str:
    return f"hypothesis profile: {settings.get_current_profile_name()}"


# Each test's folders are numbered in one folder of the worker's own. pytest's `tmp_path` (and
# `tmp_path_factory.mktemp`) lists the whole temporary folder of the run to number each folder it makes:
# two folders a test (its own and its user folders) made that listing, and the run, quadratic (measured: a
# worker's 1,500 folders cost 2.7 s of CPU, and the run makes 5,000).
_NUMBERS = itertools.count()


@pytest.fixture(scope="session")
def _test_folders(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("tests")


def _folder(root: Path, name: str) -> Path:
    path = root / f"{next(_NUMBERS)}-{re.sub(r'[^A-Za-z0-9_]', '_', name)[:30]}"
    path.mkdir()
    return path


@pytest.fixture
def tmp_path(request: pytest.FixtureRequest, _test_folders: Path) -> Path:
    """A new empty folder for the test, as pytest's own `tmp_path` (named after the test), numbered
    without listing the run's temporary folder."""
    return _folder(_test_folders, request.node.name)


@pytest.fixture(autouse=True)
def _user_folders(_test_folders: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No test writes into the real user cache, data or config folders.

    Nor does a child take its terminal's size from COLUMNS and LINES: a pytest-xdist worker has
    COLUMNS=80 and LINES=24 in its environment (a serial run has neither), Rich reads them before
    the terminal's own size, and the full screen in a 100x40 tmux terminal drew itself at 80x24
    (the witch's wake line wrapped, the terminal tests failed). A child in a terminal takes the
    terminal's size, as at a real table."""
    base = _folder(_test_folders, "userdirs")
    for var in ("NARRATOR_CACHE", "NARRATOR_DATA", "NARRATOR_CONFIG"):
        monkeypatch.setenv(var, str(base / var.lower()))
    os.environ.pop("NARRATOR_VOICES", None)
    for var in ("COLUMNS", "LINES"):
        monkeypatch.delenv(var, raising=False)
    yield


@pytest.fixture(autouse=True)
def _english_between_tests() -> Iterator[None]:
    """Every test starts in English and leaves English behind: the setup's language answer, a
    setup file or a journal sets the printed words' language for the whole process
    (narrator.i18n.set_language), and a test that plays a French table must not print the next
    test's lines in French."""
    from narrator import i18n

    i18n.set_language(i18n.REFERENCE)
    yield
    i18n.set_language(i18n.REFERENCE)


# ---- the tiers (docs/testing.md) -----------------------------------------------------------------
#   unit        no marker: in-process, on the fakes and the virtual clock; `./test --unit`
#   slow        @pytest.mark.slow: a child process, a real device, model, terminal or browser, or
#               seconds of work; `./test` runs it with the unit tier
#   acceptance  every test under tests/acceptance/ (marked here): a real table end to end, collected
#               only with NARRATOR_ACCEPTANCE=1 (tests/acceptance/conftest.py); `./test --acceptance`
# The tests that play on the real clock and must not share the machine with one another also carry
# `pytest.mark.xdist_group("terminal")` or `("audio")`: pytest-xdist's `--dist loadgroup` (pyproject's
# addopts) runs a group's tests on one worker, one at a time; every other test goes to whichever
# worker is free.
ACCEPTANCE = REPO / "tests" / "acceptance"
# What starts a process. A unit test starts none: a child costs the unit tier an interpreter's start
# (0.3 s and more on a loaded machine), and hundreds of them made the developer's loop minutes long.
_STARTS_A_PROCESS = ((subprocess.Popen, "__init__"), (multiprocessing.process.BaseProcess, "start"),
                     (os, "fork"), (os, "forkpty"), (os, "system"), (os, "posix_spawn"), (os, "posix_spawnp"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.is_relative_to(ACCEPTANCE):
            item.add_marker(pytest.mark.acceptance)
    # The slow tests first, the unit tests last (a stable sort: each tier keeps its order). xdist hands
    # the tests out in this order to whichever worker is free, so the run ends on tests of a few ms
    # that fill the workers evenly, not on a game of half a minute started when the others were done.
    items.sort(key=in_unit_tier)


def in_unit_tier(item: pytest.Item) -> bool:
    return item.get_closest_marker("slow") is None and item.get_closest_marker("acceptance") is None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[object]:
    """A unit test (unmarked) that starts a process fails, naming the tier it belongs to."""
    if not in_unit_tier(item):
        return (yield)
    kept = [(owner, name, getattr(owner, name)) for owner, name in _STARTS_A_PROCESS if hasattr(owner, name)]

    def refuse(*args: object, **kwargs: object) -> None:
        raise RuntimeError(f"{item.nodeid} starts a process: a unit test runs in-process. "
                           "Mark it @pytest.mark.slow (docs/testing.md, the tiers).")

    for owner, name, _ in kept:
        setattr(owner, name, refuse)
    try:
        return (yield)
    finally:
        for owner, name, original in kept:
            setattr(owner, name, original)
