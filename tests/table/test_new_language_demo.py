"""A whole headless game (the demo in text mode) in each new language, every status line and every
spoken line from that language's pack."""

from __future__ import annotations

import subprocess
import sys

import pytest

from narrator.packs import load_pack

NEW = ["de", "ja", "nl", "pl", "pt", "ru", "zh"]
# The English demo's own words (tests/table/test_demo.py): none may reach a table in another language
# ("Demo:" is German and Dutch too).
ENGLISH = ("cards:", "Demo over", "alive:", "dead:", "What everyone did", "voted for", "[Night", "[Day",
           "Night falls", "wake up", "go back to sleep", "Seat ")


@pytest.mark.slow
@pytest.mark.parametrize("lang", NEW)
@pytest.mark.xdist_group("clock")  # waits on the real clock: docs/testing.md, in parallel
def test_the_demo_plays_a_whole_game_in_the_pack_language(lang: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "narrator", "demo", "--text", "--pace", "0.01", "--lang", lang],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    text = proc.stdout
    pack = load_pack(lang)
    assert pack.lines["game.welcome"][0] in text and pack.lines["night.falls"][0] in text
    assert pack.lines["seer.wake"][0] in text and pack.lines["werewolves.sleep"][0] in text
    assert text.splitlines()[-1].startswith(pack.panel["demo.over"][0].split("{")[0].rstrip())
    assert [word for word in ENGLISH if word in text] == []
