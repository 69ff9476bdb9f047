"""The table's acceptance tier (docs/testing.md): the product met the way a table meets it, from a
fresh clone. Slow (minutes), so `./test` leaves it out: `.ci/run` runs it after `./test`, with
NARRATOR_ACCEPTANCE=1 (`NARRATOR_ACCEPTANCE=1 .venv/bin/python -m pytest tests/acceptance`)."""

from __future__ import annotations

import os

if os.environ.get("NARRATOR_ACCEPTANCE") != "1":
    collect_ignore_glob = ["test_*.py"]
