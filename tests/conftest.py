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


# Parallel runs (pytest-xdist, `-n 3 --dist loadfile` in pyproject's addopts). Each test file
# runs whole on one worker, so a module-scope fixture (a recording, a loaded model) is built
# once, as in a serial run. The files whose games run on the real clock are further kept to one
# worker per kind, one test at a time, as in a serial run: two terminal games, or two
# real-time recordings, never run side by side and load each other. Those two groups start
# first: they are the longest (`--no-loadscope-reorder` keeps the collection's order).
# (xdist's own `xdist_group` marks do not group under pytest 9: the worker renames the test's
# `_nodeid`, which pytest 9 no longer reports; the scheduler below groups by file path instead.)
REALTIME_GROUPS: dict[str, tuple[str, ...]] = {
    # real terminals (tmux, a pty), typed into while the game's turns run on the clock
    "terminal": ("tests/table/test_tmux.py", "tests/table/test_tmux_all_roles.py", "tests/table/test_terminal_stop_start_resume.py",
                 "tests/table/test_assist.py", "tests/table/test_doctor.py", "tests/table/test_resume_sound.py", "tests/listening/test_keypad_terminal.py"),
    # audio played in real time through ALSA file devices
    "audio": ("tests/speech/test_night_audio_secrecy.py", "tests/speech/test_speech_device.py",
              "tests/speech/test_speech_engines_device.py", "tests/speech/test_speech_cli.py",
              "tests/listening/test_korean_e2e.py"),
}


def xdist_group_of(path: str) -> str:
    """The work unit of the test file at `path` (relative to the repository, with /): its
    real-time group, or the file itself."""
    for group, files in REALTIME_GROUPS.items():
        if path in files:
            return group
    return path


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist: without it (-p no:xdist) never called
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """`--dist loadfile`, with the files of a real-time group sent to one worker as one unit."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class RealtimeGroupsScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return xdist_group_of(super()._split_scope(nodeid))

    return RealtimeGroupsScheduling(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On an xdist worker (whose collection the scheduler follows): the real-time groups first."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    first = list(REALTIME_GROUPS)

    def rank(item: pytest.Item) -> int:
        group = xdist_group_of(item.nodeid.split("::", 1)[0])
        return first.index(group) if group in first else len(first)

    items.sort(key=rank)
