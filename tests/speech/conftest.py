"""Lets these tests import their helpers (wavcheck) without a package."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
