"""Every command and example of the README runs. The two first, `./play` and `./test`, are run from a
fresh clone in the acceptance tier (tests/acceptance/test_readme_commands.py): a fresh clone's install is
the acceptance tier's own work, and `.ci/run` runs it after `./test`.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from tests.text_game import narrator

REPO = Path(__file__).resolve().parent.parent


# ---- every command and example the README shows ------------------------------------------------
#
# The README's commands are read from its ```sh blocks, its two files from its ```toml blocks: a
# command added to the README without a way to run it here fails `test_every_readme_command_is_run`.


def readme() -> str:
    return (REPO / "README.md").read_text(encoding="utf-8")


def readme_blocks(lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", readme(), re.M | re.S)


def readme_commands() -> list[str]:
    """Every command line of the README's shell blocks, without its comment and `.venv/bin/`."""
    lines = [line.split("  #")[0].strip() for block in readme_blocks("sh") for line in block.splitlines()]
    return [line.removeprefix(".venv/bin/") for line in lines if line]


def headless_files(tmp_path: Path) -> tuple[Path, Path]:
    setup, script = readme_blocks("toml")
    (tmp_path / "SETUP.toml").write_text(setup, encoding="utf-8")
    (tmp_path / "SCRIPT.toml").write_text(script, encoding="utf-8")
    return tmp_path / "SETUP.toml", tmp_path / "SCRIPT.toml"


def ok(proc: subprocess.CompletedProcess[str]) -> None:
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr


def run_plain(tmp_path: Path, args: list[str]) -> None:
    ok(narrator(*args, data=tmp_path / "data"))


def run_text_play(tmp_path: Path, args: list[str]) -> None:
    """A real text game: the option is taken and the deal starts; nobody types, so it stops there in one line."""
    proc = narrator(*args, data=tmp_path / "data")
    assert proc.returncode == 1 and "the input ended while the game waited for an answer" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "Seat 1: press your seat number to see your card." in proc.stdout, proc.stdout
    assert "8 to 18" not in proc.stdout + proc.stderr  # 10 players: no warning
    refused = narrator(*args[:-1], "vote_procedure=rnuoff", data=tmp_path / "data")
    assert refused.returncode != 0 and "rnuoff" in refused.stderr and "Traceback" not in refused.stderr


def run_demo(tmp_path: Path, args: list[str]) -> None:
    proc = narrator(*args, "--pace", "0.02", data=tmp_path / "data")  # the same game, 50 times faster
    ok(proc)
    assert "Demo over: victory for" in proc.stdout


def run_doctor(tmp_path: Path, args: list[str]) -> None:
    """Exit 0 when keypad play works; here there may be no sound card: then a verdict that says how to play."""
    proc = narrator(*args, data=tmp_path / "data")
    assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr, proc.stderr
    assert "keypad play" in proc.stdout and "voice answers" in proc.stdout, proc.stdout


def run_fetch(tmp_path: Path, args: list[str]) -> None:
    """Offline: the download comes from a real HTTP server on 127.0.0.1 serving a model zip."""
    from narrator.listening import models
    from tests.http_files import serving
    from tests.listening.test_models import model_zip

    name = models.CATALOG["fr"].name
    with serving({f"/m/{name}.zip": model_zip(name)}, content_type="application/zip") as url:
        env = {**os.environ, "NARRATOR_DATA": str(tmp_path / "data"), "NARRATOR_MODELS": str(tmp_path / "none"),
               "NARRATOR_MODELS_URL": f"{url}/m", "PYTHONPATH": str(REPO)}
        proc = subprocess.run([sys.executable, "-m", "narrator", *args], capture_output=True, text=True, env=env,
                              timeout=300)
    ok(proc)
    assert (tmp_path / "data" / "models" / "fr").is_dir() or "installed" in proc.stdout, proc.stdout


def run_headless(tmp_path: Path, args: list[str]) -> None:
    setup, script = headless_files(tmp_path)
    proc = narrator(*[str(tmp_path / a) if a.endswith((".toml", ".jsonl")) else a for a in args],
                    data=tmp_path / "data")
    ok(proc)
    said = re.search(r"It prints `([^`]+)`", readme())
    assert said is not None and proc.stdout.strip() == said.group(1)
    last = json.loads((tmp_path / "OUT.jsonl").read_text(encoding="utf-8").splitlines()[-1])
    assert last["kind"] == "game_over" and last["winner"] == "village"


def run_in_a_clean_clone(tmp_path: Path, args: list[str]) -> None:
    pytest.skip("run from a fresh clone in the acceptance tier (tests/acceptance/test_readme_commands.py)")


RUNS: dict[str, Callable[[Path, list[str]], None]] = {
    "./play": run_in_a_clean_clone,
    "./test": run_in_a_clean_clone,
    "narrator rules": run_plain,
    "narrator rules --lang fr": run_plain,
    "narrator play --text --players 10 --option vote_procedure=runoff": run_text_play,
    "narrator voices check": run_plain,
    "narrator models list": run_plain,
    "narrator models fetch fr": run_fetch,
    "narrator demo --text": run_demo,
    "narrator doctor": run_doctor,
    "narrator assist --help": run_plain,
    "narrator resume --help": run_plain,
    "narrator history": run_plain,
    "narrator simulate --players 12 --games 1000 --seed 1": run_plain,
    "narrator balance --players 12": run_plain,
    "narrator play --headless --setup SETUP.toml --script SCRIPT.toml --timeline OUT.jsonl --seed 1": run_headless,
}


def test_every_readme_command_is_run() -> None:
    assert sorted(readme_commands()) == sorted(RUNS)


def test_the_readme_is_short() -> None:
    assert len(readme().splitlines()) <= 250


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(RUNS))
def test_readme_command(tmp_path: Path, command: str) -> None:
    RUNS[command](tmp_path, shlex.split(command)[1:])


@pytest.mark.slow
def test_readme_script_that_runs_out_writes_no_timeline(tmp_path: Path) -> None:
    """What the README says of a script that runs out: one line, exit 1, no timeline, a journal."""
    setup, script = headless_files(tmp_path)
    script.write_text(script.read_text(encoding="utf-8").split("[[days]]")[0], encoding="utf-8")  # nights only
    journal = tmp_path / "game.jsonl"
    proc = narrator("play", "--headless", "--setup", str(setup), "--script", str(script), "--timeline",
                    str(tmp_path / "OUT.jsonl"), "--seed", "1", "--journal", str(journal), data=tmp_path / "data")
    assert proc.returncode == 1
    assert proc.stderr.startswith("narrator: the script ran out: ") and len(proc.stderr.splitlines()) == 1
    assert not (tmp_path / "OUT.jsonl").exists()
    assert len(journal.read_text(encoding="utf-8").splitlines()) > 1
    assert "no timeline is written" in readme()


@pytest.mark.slow
def test_docs_headless_example_is_a_table_that_plays(tmp_path: Path) -> None:
    """docs/headless.md's full example: accepted (its script answers one night and one day, then runs out)."""
    text = (REPO / "docs" / "headless.md").read_text(encoding="utf-8")
    setup, script = re.findall(r"^```toml\n(.*?)^```", text, re.M | re.S)
    (tmp_path / "s.toml").write_text(setup, encoding="utf-8")
    (tmp_path / "c.toml").write_text(script, encoding="utf-8")
    proc = narrator("play", "--headless", "--setup", str(tmp_path / "s.toml"), "--script", str(tmp_path / "c.toml"),
                    "--seed", "1", data=tmp_path / "data")
    assert proc.stderr.startswith("narrator: the script ran out: "), proc.stderr
