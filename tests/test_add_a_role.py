"""A role is added where docs/architecture.md's checklist says, and nowhere else.

A copy of the checkout gets a throw-away role, the Owl (a village role called every night after the
Seer; it looks at a seat and learns nothing), by the checklist's steps only: the `Role` enum, its
module, the twelve packs, the regenerated pages, its row of the night order in docs/rules-spec.md.
Then, in the copy, `mypy --strict` passes on the package, the tests that hold role and call lists
(derived from the catalogue) pass, the pack check passes, `narrator rules` lists it, and headless
games call it dealt and alive (its own prompt), possible but not dealt, and dealt but dead (its
closed turn: the same call, "keep your eyes closed"). Before its row is in docs/rules-spec.md,
the night order test fails: the checklist's steps are all needed. A module that gets its closed turn
wrong (`closed_turn` given a second argument) is refused by mypy before any game is played.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

OWL = '''"""The Owl (a throw-away role of tests/test_add_a_role.py): every night after the Seer, looks at a
living player and learns nothing."""

from __future__ import annotations

import random

from narrator.ports import Heard
from narrator.roles.base import Ask, Call, CallTurn, Card, NightTurn, PanelLine, RoleModule, Schedule, closed_turn
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView


def run(game: GameView, rng: random.Random) -> CallTurn:
    if game.living_holder(Role.OWL) is None:
        return CallTurn("owl.wake", closed_turn("owl"))

    def question(answers: list[Heard]) -> Ask | None:
        return None if answers else Ask("night.owl", game.living(), ("nobody",))

    def panel(answers: list[Heard]) -> list[PanelLine]:
        return [("owl.prompt", {})]

    return CallTurn("owl.wake", NightTurn("owl", question, panel))


MODULE = RoleModule(
    Card(Role.OWL, Team.VILLAGE, moons=1),
    (Call("owl", 12.5, Schedule.EVERY_NIGHT, Role.OWL, run, turn=10.0, lines=("owl.prompt",)),),
)
'''

PACK = {  # section -> lines added to every language's pack (the words need not be translated here)
    "[roles]": 'owl = "Owl"',
    "[lines]": '"owl.wake" = "Owl, wake up."\n"owl.sleep" = "Owl, go back to sleep."',
    "[panel]": '"owl.prompt" = "Enter a seat, 0 for nobody."',
    "[rules]": '"role.owl" = "Every night after the Seer, looks at a living player and learns nothing."',
}

# The Owl's games: two Werewolves (seats 2 and 4); the village votes out seat 3 (the Owl, when dealt
# there) the first day, then the Werewolves; the pack devours seats 8, 7, 6 meanwhile.
SCRIPT = ("[[nights]]\nseer = 2\nwerewolves = 8\n[[days]]\neliminate = 3\n"
          "[[nights]]\nseer = 4\nwerewolves = 7\n[[days]]\neliminate = 2\n"
          "[[nights]]\nwerewolves = 6\n[[days]]\neliminate = 4\n")


def copy_checkout(dest: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".mypy_cache", ".pytest_cache")
    for name in ("narrator", "voices", "docs", "tests", "scripts"):
        shutil.copytree(REPO / name, dest / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, dest / name)
    return dest


def run(copy: Path, *args: str, out: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(copy), "NARRATOR_VOICES": str(copy / "voices"),
           "NARRATOR_DATA": str(copy / "data")}
    proc = subprocess.run([sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True, timeout=900)
    if out is not None:
        out.write_text(proc.stdout, encoding="utf-8")
    return proc


def add(path: Path, after: str, text: str) -> None:
    source = path.read_text(encoding="utf-8")
    assert after in source, (path, after)
    path.write_text(source.replace(after, f"{after}\n{text}", 1), encoding="utf-8")


def owl_panels(copy: Path, roles: str, possible: str = "") -> list[list[str]]:
    """A headless game of eight players: each night, the panel keys shown during the Owl's call."""
    (copy / "setup.toml").write_text(f"players = 8\nroles = {{ {roles} }}\n{possible}", encoding="utf-8")
    (copy / "script.toml").write_text(SCRIPT, encoding="utf-8")
    game = run(copy, "-m", "narrator", "play", "--headless", "--setup", "setup.toml", "--script", "script.toml",
               "--timeline", "out.jsonl", "--seed", "1")
    assert game.returncode == 0, game.stderr[-2000:]
    entries = [json.loads(line) for line in (copy / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    keys = [e.get("key") for e in entries]
    assert keys.index("seer.sleep") < keys.index("owl.wake") < keys.index("werewolves.wake_first")
    nights: list[list[str]] = []
    during = False
    for e in entries:
        if e.get("key") == "owl.wake":
            during, shown = True, []
            nights.append(shown)
        elif e.get("key") == "owl.sleep":
            during = False
        elif during and e.get("kind") == "private" and e.get("action") == "show":
            shown.append(e["key"])
    return nights


@pytest.mark.slow
def test_a_role_added_by_the_checklist_needs_nothing_else(tmp_path: Path) -> None:
    copy = copy_checkout(tmp_path / "checkout")
    # 1. The typed enum (docs/architecture.md says why it stays).
    add(copy / "narrator" / "rules" / "roles.py", '    DEVOTED_SERVANT = "devoted_servant"', '    OWL = "owl"')
    # 2. The module; the catalogue finds it by name.
    (copy / "narrator" / "roles" / "owl.py").write_text(OWL, encoding="utf-8")
    # 3. The packs, every language.
    packs = sorted((copy / "voices").glob("*/pack.toml"))
    assert len(packs) == 12
    for pack in packs:
        for section, lines in PACK.items():
            add(pack, f"\n{section}", lines)
    # 4. The generated pages (no option: narrator/rules/options.py is not written again).
    rules = run(copy, "-m", "narrator", "rules", "--lang", "en", out=copy / "docs" / "rules.md")
    assert rules.returncode == 0, rules.stderr
    assert "### Owl (`owl`)" in rules.stdout
    page = run(copy, "-m", "narrator", "graph", "--page", out=copy / "docs" / "state-machine.md")
    assert page.returncode == 0 and re.search(r"^12\.5 +owl +every night +owl$", page.stdout, re.M), page.stdout

    # The type checker on the copy: the Owl's module is checked as every module is. It starts from the
    # checkout's cache where ./test's own mypy run left one: mypy then checks again every module whose
    # source differs from the cached one and every module its changes reach, as a cold run would.
    if (REPO / ".mypy_cache").is_dir():
        shutil.copytree(REPO / ".mypy_cache", tmp_path / "mypy")
    typed = run(copy, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "mypy"), "narrator")
    assert typed.returncode == 0, typed.stdout[-3000:]

    tests = ["tests/flow/test_graph.py", "tests/speech/test_speech_packs.py", "tests/test_rules_reference.py"]
    pytest_args = ["-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-q", "-m", "not slow"]
    # 5 left out: the night order test names the missing row. Only the graph's tests read
    # docs/rules-spec.md (the other two files and the package never open it), so only they can tell
    # the copy before the row from the copy after it: the others run once, after, on the same copy.
    before = run(copy, *pytest_args, tests[0])
    failed = re.findall(r"^FAILED (\S+)", before.stdout, re.M)
    assert failed == ["tests/flow/test_graph.py::test_night_order_follows_the_rules"], before.stdout[-3000:]
    assert not any("rules-spec" in (copy / t).read_text(encoding="utf-8").replace("docs/rules-spec.md#", "")
                   for t in tests[1:]), "a test file that reads docs/rules-spec.md must run before its row too"
    add(copy / "docs" / "rules-spec.md", "| 12 | `seer` | every | the Seer |", "| 12.5 | `owl` | every | the Owl |")

    after = run(copy, *pytest_args, *tests)
    assert after.returncode == 0, after.stdout[-3000:] + after.stderr[-3000:]
    check = run(copy, "-m", "narrator", "voices", "check")
    assert check.returncode == 0, check.stdout + check.stderr

    # The files the checklist touched, and no other: 17 (docs/architecture.md lists them).
    touched = {p.relative_to(copy).as_posix() for p in copy.rglob("*") if p.is_file()
               and "__pycache__" not in p.parts and p.relative_to(copy).parts[0] != "data"
               and (not (REPO / p.relative_to(copy)).is_file() or (REPO / p.relative_to(copy)).read_bytes() != p.read_bytes())}
    assert touched == {"narrator/rules/roles.py", "narrator/roles/owl.py", "docs/rules.md", "docs/state-machine.md",
                       "docs/rules-spec.md", *(p.relative_to(copy).as_posix() for p in packs)}
    assert len(touched) == 17

    # Dealt and alive the first night, then voted out: its call goes on, closed, the same length.
    dealt = owl_panels(copy, '1 = "seer", 2 = "werewolf", 3 = "owl", 4 = "werewolf"')
    assert dealt == [["owl.prompt"], ["night.closed"], ["night.closed"]]
    # Possible (announced) but not dealt: called every night, closed.
    undealt = owl_panels(copy, '1 = "seer", 2 = "werewolf", 4 = "werewolf"', 'possible = ["owl"]\n')
    assert undealt == [["night.closed"]] * 3
    assert "role.owl" not in (REPO / "voices" / "en" / "pack.toml").read_text(encoding="utf-8")  # the copy only

    # A module that gets its closed turn wrong is refused by the type checker, not by a game.
    (copy / "narrator" / "roles" / "owl.py").write_text(OWL.replace('closed_turn("owl")', 'closed_turn("owl", "owl.prompt")'),
                                                         encoding="utf-8")
    wrong = run(copy, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "mypy"), "narrator")
    assert wrong.returncode != 0 and 'Too many arguments for "closed_turn"' in wrong.stdout, wrong.stdout[-2000:]
