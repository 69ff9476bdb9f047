"""Installing a folder in one step: shared by the speech-model store, the Piper voice store and
recorded packs."""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def move_into_place(folder: Path, final: Path) -> None:
    """Put `folder` at `final` by renames only; an existing `final` is replaced, and put back if
    the last rename fails, so a failure never leaves `final` missing."""
    if final.exists():
        old = final.with_name(f".old-{final.name}-{os.getpid()}")
        os.replace(final, old)
        try:
            os.replace(folder, final)
        except OSError:
            os.replace(old, final)
            raise
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(folder, final)
