"""`narrator simulate`: its JSON, its determinism across jobs, and one clear line on bad input."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from typing import Any

import pytest

from narrator.cli import main

from narrator.rules import Options, Side, complete, parse_roles
from narrator.sim.runner import SimConfig, Tally, play_one, simulate

pytestmark = pytest.mark.slow  # commands run as child processes

ROLES = "werewolf=3,seer=1,witch=1,hunter=1,cupid=1,little_girl=1,thief=1"


def narrator(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "narrator", *args], capture_output=True, text=True, timeout=600)


def simulate_json(*args: str) -> dict[str, Any]:
    done = narrator("simulate", *args, "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_simulate_json_shape_and_counts_sum_to_games() -> None:
    result = simulate_json("--players", "12", "--roles", ROLES, "--games", "300", "--seed", "4",
                           "--policy", "random-votes")
    assert set(result) == {"games", "wins", "mean_days", "seconds"}
    assert result["games"] == 300
    assert set(result["wins"]) == {side.value for side in Side}
    assert sum(result["wins"].values()) == 300
    assert all(isinstance(n, int) and n >= 0 for n in result["wins"].values())
    assert 1 <= result["mean_days"] <= 12 and result["seconds"] >= 0
    # both main sides win sometimes with this composition: the games are really played
    assert result["wins"]["village"] > 0 and result["wins"]["werewolves"] > 0


def simulate_json_here(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    """`simulate_json` in this process: one job needs no child, and the child above already starts one."""
    code, out, err = narrator_here(capsys, "simulate", *args, "--json")
    assert code == 0, err
    assert err == ""
    result: dict[str, Any] = json.loads(out)
    return result


def test_simulate_same_seed_same_result_whatever_the_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--players", "10", "--roles", "werewolf=2,seer,witch,hunter,cupid", "--games", "400", "--seed", "11",
            "--option", "vote_procedure=runoff")
    one = simulate_json_here(capsys, *args, "--jobs", "1")
    two = simulate_json(*args, "--jobs", "2")  # in a child: its worker processes are not forked from pytest's
    other_seed = simulate_json_here(capsys, *args[:-4], "--seed", "12", *args[-2:], "--jobs", "1")
    del one["seconds"], two["seconds"], other_seed["seconds"]
    assert one == two
    assert one != other_seed, "the seed does not change anything"


def test_simulate_runner_is_deterministic_per_game() -> None:
    options = Options(vote_procedure="accusation")
    config = SimConfig(12, complete(12, parse_roles(ROLES), options), options, "random-votes", 5)
    assert play_one(config, 17).events == play_one(config, 17).events
    # `simulate` counts exactly the games `play_one` plays, one by one, whatever its chunks (61 games:
    # the last chunk is a short one, with one job as with three).
    expected = Tally()
    for index in range(61):
        game = play_one(config, index)
        assert game.outcome is not None
        expected.games += 1
        expected.wins[game.outcome.winner.value] += 1
        expected.days += game.state.day
    assert simulate(config, 61, 1).tally == simulate(config, 61, 3).tally == expected


def test_simulate_prints_a_table_without_json() -> None:
    done = narrator("simulate", "--players", "8", "--games", "50")
    assert done.returncode == 0, done.stderr
    assert "the village" in done.stdout and "the Werewolves" in done.stdout and "games/s" in done.stdout


def narrator_here(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`narrator ARGS` in this process: the exit code `python -m narrator` would give (narrator/__main__.py
    exits with what `main` returns), stdout and stderr. A warning is an error here: a child would have
    printed it on stderr, where one line only is wanted."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            code = main(list(args))
        except SystemExit as stop:  # argparse's refusals; as the interpreter turns it into an exit status
            code = 0 if stop.code is None else stop.code if isinstance(stop.code, int) else 1
    out = capsys.readouterr()
    return code, out.out, out.err


def assert_one_line_quoting(code: int, stdout: str, stderr: str, quoted: str) -> None:
    assert code != 0
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("narrator:")
    assert quoted in lines[0]
    assert "Traceback" not in stderr and stdout == ""


BAD = [
    (("--players", "8", "--roles", "werewolf=2,wizard=1"), "'wizard'"),
    (("--players", "8", "--roles", "werewolf=6,seer,witch,hunter"), "do not fit 8 players"),
    (("--players", "8", "--roles", "seer,witch"), "no Werewolf"),
    (("--players", "3",), "3 players is out of range"),
    (("--players", "31",), "31 players is out of range"),
    (("--players", "8", "--option", "moon_phase=full"), "'moon_phase'"),
    (("--players", "8", "--option", "vote_procedure=shouting"), "'shouting'"),
    (("--players", "8", "--option", "first_night_kill=perhaps"), "'perhaps'"),
    (("--players", "8", "--option", "runoff"), "'runoff'"),
    (("--players", "8", "--games", "0"), "--games 0"),
    (("--players", "eight",), "'eight'"),
    (("--players", "8", "--policy", "clever"), "'clever'"),
]


@pytest.mark.parametrize(("args", "quoted"), BAD)
def test_simulate_bad_input_one_line_on_stderr_and_non_zero_exit(capsys: pytest.CaptureFixture[str],
                                                                 args: tuple[str, ...], quoted: str) -> None:
    # In this process: a child's start-up (most of each case's time) is the same for every bad input,
    # and the child below checks it once.
    assert_one_line_quoting(*narrator_here(capsys, "simulate", *args), quoted)


@pytest.mark.parametrize(("args", "quoted"), [BAD[0], BAD[-2]])  # a refusal of simulate's, one of argparse's
def test_a_bad_input_in_a_child_is_one_line_and_a_non_zero_exit(args: tuple[str, ...], quoted: str) -> None:
    done = narrator("simulate", *args)
    assert_one_line_quoting(done.returncode, done.stdout, done.stderr, quoted)
