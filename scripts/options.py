"""Write the roles' rule options into narrator/rules/options.py, from each role module's declaration
(`RoleModule.options`): after adding or changing a role's option, run

    .venv/bin/python scripts/options.py
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from narrator.roles import MODULES  # noqa: E402
from narrator.roles.options import source  # noqa: E402

FILE = REPO / "narrator" / "rules" / "options.py"


def main() -> int:
    text = FILE.read_text(encoding="utf-8")
    written = source(text, MODULES.values())
    if written != text:
        FILE.write_text(written, encoding="utf-8")
        print(f"{FILE.relative_to(REPO)}: the roles' options written")
    else:
        print(f"{FILE.relative_to(REPO)}: already up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
