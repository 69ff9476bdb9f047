"""Shared test settings: Hypothesis profiles, and a clean environment for user folders."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _user_folders(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No test writes into the real user cache, data or config folders."""
    base = tmp_path_factory.mktemp("userdirs")
    for var in ("NARRATOR_CACHE", "NARRATOR_DATA", "NARRATOR_CONFIG"):
        monkeypatch.setenv(var, str(base / var.lower()))
    os.environ.pop("NARRATOR_VOICES", None)
    yield
