"""`./play` installs the package only when something changed, quietly, with one line when it does
(a reinstall at every start costs 2 s and setuptools' warnings before the first question). Run on
a copy of the scripts with a stand-in Python and dpkg: nothing is installed."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # commands run as child processes

REPO = Path(__file__).resolve().parent.parent

FAKE_PYTHON = """#!/usr/bin/env bash
echo "$*" >> "$(dirname "$0")/../../calls.log"
echo "WARNING: BuildBackendWarning: Editable installation (pip's own noise)" >&2
[ "$1" != "-c" ] || echo /fake/site-packages
case "$1" in scripts/uv_install.py) exit "${UV_EXIT:-0}" ;; esac
"""
UV = "scripts/uv_install.py -q --compile-bytecode -e .[{}]"
PIP = "-m pip install -q --no-compile -e .[{}]"
FAKE_NARRATOR = """#!/usr/bin/env bash
echo "narrator $*"
"""
INSTALLED = """#!/usr/bin/env bash
printf 'install ok installed'
"""


def table(tmp_path: Path) -> Path:
    root = tmp_path / "narrator"
    (root / "scripts").mkdir(parents=True)
    shutil.copy(REPO / "play", root / "play")
    shutil.copy(REPO / "scripts" / "setup.sh", root / "scripts" / "setup.sh")
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    for path, text in ((root / ".venv" / "bin" / "python", FAKE_PYTHON), (root / ".venv" / "bin" / "narrator", FAKE_NARRATOR),
                       (tmp_path / "bin" / "dpkg-query", INSTALLED)):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        path.chmod(0o755)
    return root


def run(root: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    path = f"{root.parent / 'bin'}{os.pathsep}{os.environ['PATH']}"
    return subprocess.run(["bash", str(root / "play"), *args], capture_output=True, text=True, cwd=root,
                          env={**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "PATH": path,
                               **(env or {})}, timeout=600)


def installs(root: Path) -> list[str]:
    log = root / "calls.log"
    return [c for c in log.read_text().splitlines() if "install" in c and "-e" in c] if log.exists() else []


def compiled(root: Path, after_pip: bool = False) -> int:
    """How many times the setup compiled narrator ahead: uv compiles what it installs; after pip, the
    installed packages are compiled too (their own test folders left out)."""
    log = root / "calls.log"
    line = ("-m compileall -q -j 0 -x site-packages/.*/tests?/ /fake/site-packages narrator" if after_pip
            else "-m compileall -q -j 0 narrator")
    return log.read_text().splitlines().count(line) if log.exists() else 0


def test_play_installs_once_then_starts_at_once(tmp_path: Path) -> None:
    root = table(tmp_path)
    first = run(root, "--text", env={"PYTHONDONTWRITEBYTECODE": "1"})
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines() == ["narrator: installing the package (first install) ...", "narrator play --text"]
    assert first.stderr == "", "pip's and setuptools' output stays in the log"
    assert installs(root) == [UV.format("voice,phones")], "uv installs, and compiles what it installs"
    assert compiled(root) == 1, "narrator is compiled ahead, once, on every core"

    again = run(root, "--text", env={"PYTHONDONTWRITEBYTECODE": "1"})
    assert again.stdout.splitlines() == ["narrator play --text"] and again.stderr == ""
    assert len(installs(root)) == 1 and compiled(root) == 1, "nothing changed: no install"


def test_play_installs_again_when_pyproject_changes_or_extras_are_added(tmp_path: Path) -> None:
    root = table(tmp_path)
    run(root)
    (root / "pyproject.toml").write_text((root / "pyproject.toml").read_text() + "\n# a new dependency\n")
    changed = run(root)
    assert compiled(root) == 2, "installed again: compiled again"
    assert changed.stdout.splitlines()[0] == "narrator: installing the package (pyproject.toml changed) ..."
    assert len(installs(root)) == 2
    added = subprocess.run(["bash", str(root / "scripts" / "setup.sh"), "dev,voice"], capture_output=True, text=True,
                           env={**os.environ, "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}"})
    assert added.stdout.splitlines() == ["narrator: installing the package (extras added: dev) ..."]
    assert installs(root)[-1] == UV.format("voice,phones,dev")
    assert run(root).stdout.splitlines() == ["narrator play"], "voice and phones are installed: no install"
    forced = run(root, env={"NARRATOR_REINSTALL": "1"})
    assert forced.stdout.splitlines()[0] == "narrator: installing the package (NARRATOR_REINSTALL=1) ..."


def test_a_failed_install_shows_pips_output_and_stops(tmp_path: Path) -> None:
    root = table(tmp_path)
    (root / ".venv" / "bin" / "python").write_text(FAKE_PYTHON + "echo 'ERROR: no such package' >&2; exit 1\n")
    failed = run(root, env={"UV_EXIT": "1"})
    assert failed.returncode == 1 and "ERROR: no such package" in failed.stderr
    assert "narrator: uv did not install (above); pip installs" in failed.stderr, "the whole log is shown" and "narrator play" not in failed.stdout
    assert not (root / ".venv" / "narrator-installed").exists(), "a failed install is tried again next time"


@pytest.mark.parametrize("env", [{"UV_EXIT": "3"}, {"NARRATOR_INSTALLER": "pip"}], ids=["uv-cannot", "asked-for-pip"])
def test_pip_installs_where_uv_cannot_or_when_asked(tmp_path: Path, env: dict[str, str]) -> None:
    root = table(tmp_path)
    first = run(root, "--text", env=env)
    assert first.returncode == 0 and first.stderr == "", first.stderr
    assert first.stdout.splitlines() == ["narrator: installing the package (first install) ...", "narrator play --text"]
    tried = [UV.format("voice,phones")] if "UV_EXIT" in env else []
    assert installs(root) == [*tried, PIP.format("voice,phones")]
    assert "-m pip install -q --upgrade pip" in (root / "calls.log").read_text().splitlines()
    assert compiled(root, after_pip=True) == 1 and compiled(root) == 0
    assert (root / ".venv" / "narrator-installed").exists()
