"""Shared test settings: Hypothesis profiles, and a clean environment for user folders."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis profiles (issue 9 point 25):
#   ci   every example each test asks for (the counts in its @settings), the failing example's
#        blob printed so it can be replayed; chosen when CI is set (.ci/run sets CI=true)
#   dev  a quarter of the examples, for quick local runs; the default elsewhere
# HYPOTHESIS_PROFILE=ci or =dev chooses one outright. Neither has a deadline or the too_slow
# health check: both time the machine, and a loaded one would fail them (point 22).
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


@pytest.fixture(autouse=True)
def _user_folders(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No test writes into the real user cache, data or config folders.

    Nor does a child take its terminal's size from COLUMNS and LINES: a pytest-xdist worker has
    COLUMNS=80 and LINES=24 in its environment (a serial run has neither), Rich reads them before
    the terminal's own size, and the full screen in a 100x40 tmux terminal drew itself at 80x24
    (the witch's wake line wrapped, the terminal tests failed). A child in a terminal takes the
    terminal's size, as at a real table."""
    base = tmp_path_factory.mktemp("userdirs")
    for var in ("NARRATOR_CACHE", "NARRATOR_DATA", "NARRATOR_CONFIG"):
        monkeypatch.setenv(var, str(base / var.lower()))
    os.environ.pop("NARRATOR_VOICES", None)
    for var in ("COLUMNS", "LINES"):
        monkeypatch.delenv(var, raising=False)
    yield
