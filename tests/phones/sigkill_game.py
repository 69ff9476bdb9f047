"""Run by test_faults: a phone game whose laptop process stops dead (the test SIGKILLs it) at the
fourth vote tapped. Arguments: JOURNAL LINKS MARKER."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from narrator.journal import FileJournal
from narrator.phones.hub import PhoneHub, save_links

from tests.phones.phone_helpers import BASIC, SCRIPT, play_hub


def main() -> None:
    journal_path, links, marker = (Path(a) for a in sys.argv[1:4])
    hub = PhoneHub(8)
    hub.on_join = lambda: save_links(hub, links)
    votes = {"n": 0}

    def wait_for_the_kill(phones: Any, prompt: Any) -> None:
        if prompt.name.startswith("day.vote"):
            votes["n"] += 1
            if votes["n"] == 4:
                marker.write_text("ready")
                time.sleep(600)  # the test kills the process here, mid-vote

    play_hub(BASIC, SCRIPT, hub, journal=FileJournal.create(journal_path), before_tap=wait_for_the_kill)


if __name__ == "__main__":
    main()
