"""The parallel suite's real-time groups (tests/conftest.py) still group what they name.

Two terminal games, or two real-time recordings, must never run side by side: the scheduler sends
each group's files to one worker. It relies on pytest-xdist's `LoadFileScheduling._split_scope`
(pinned below 4 in pyproject.toml) and on the files' paths: a renamed file, or an xdist that no
longer calls that method, would silently run them in parallel again. This fails first.
"""

from __future__ import annotations

import inspect
from pathlib import Path

from tests.conftest import REALTIME_GROUPS, xdist_group_of
from xdist.scheduler import LoadFileScheduling

REPO = Path(__file__).resolve().parent.parent


def test_every_file_of_a_realtime_group_exists() -> None:
    for group, files in REALTIME_GROUPS.items():
        for path in files:
            assert (REPO / path).is_file(), f"{path} (group {group}) is not a test file: renamed?"


def test_a_group_is_one_work_unit_and_other_files_their_own() -> None:
    scheduler = LoadFileScheduling.__new__(LoadFileScheduling)  # _split_scope reads only the node id
    for group, files in REALTIME_GROUPS.items():
        for path in files:
            assert xdist_group_of(scheduler._split_scope(f"{path}::test_x[a]")) == group
    assert xdist_group_of(scheduler._split_scope("tests/flow/test_journal.py::test_x")) == "tests/flow/test_journal.py"


def test_xdist_still_splits_scopes_where_the_scheduler_overrides_it() -> None:
    assert "_split_scope" in vars(LoadFileScheduling), "pytest-xdist changed: tests/conftest.py's grouping no longer applies"
    assert list(inspect.signature(LoadFileScheduling._split_scope).parameters) == ["self", "nodeid"]
