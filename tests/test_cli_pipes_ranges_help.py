"""The command line: closed pipes, out-of-range values, help pages.

Through `main()` where the whole story is stdout/stderr and an exit code; through a subprocess
where the process itself matters (a pipe closed by the reader).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

import pytest

from narrator.cli import main
from narrator.packs import available_languages


def run_main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse refuses by exiting
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def refused_in_one_line(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, out, err = run_main(capsys, *argv)
    assert code == 1, (argv, out, err)
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("narrator: ")
    return lines[0]


# ---- a reader that closes the pipe early --------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("argv", [
    ["simulate", "--players", "8", "--games", "200", "--json"],
    ["graph"],
    ["rules", "--lang", "fr"],
], ids=["simulate-json", "graph", "rules"])
def test_closed_pipe_ends_quietly(argv: list[str]) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # as `| true` does: the reader is gone before anything is written
    try:
        proc = subprocess.run([sys.executable, "-m", "narrator", *argv], stdout=write_end, stderr=subprocess.PIPE,
                              timeout=600)
    finally:
        os.close(write_end)
    err = proc.stderr.decode()
    code = proc.returncode
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert err == ""
    assert code == 141  # as a process killed by SIGPIPE: the shell's usual answer to a closed pipe


# ---- out-of-range values refused in one line ------------------------------------------------------

@pytest.mark.parametrize("argv, expected", [
    (["say", "--voice-volume", "5", "--to", "x.wav", "hello"], "--voice-volume 5 is too high: give a value from 0 to 1"),
    (["say", "--ambience-volume", "-0.5", "hello"], "--ambience-volume -0.5 is too low: give a value from 0 to 1"),
    (["say", "--duck-db", "100", "hello"], "--duck-db 100 is too high: give a value from 0 to 40"),
    (["say", "--duck-db", "nan", "hello"], "--duck-db 'nan' is not a number"),
    (["simulate", "--players", "8", "--jobs", "-1"], "--jobs -1 is too low: give a value of at least 0"),
    (["simulate", "--players", "8", "--jobs", "two"], "--jobs 'two' is not a whole number"),
    (["voices", "render", "--players", "0"], "--players 0 is too low: give a value from 1 to 30"),
    (["play", "--voice-volume", "2"], "--voice-volume 2 is too high"),
    (["demo", "--duck-db", "-3"], "--duck-db -3 is too low"),
])
def test_out_of_range_numbers_refused(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                     expected: str) -> None:
    line = refused_in_one_line(capsys, *argv)
    assert expected in line


def test_slot_on_a_line_without_slots(capsys: pytest.CaptureFixture[str]) -> None:
    line = refused_in_one_line(capsys, "say", "--key", "seer.wake", "--slot", "seat=3", "--to", "x.wav")
    assert "line 'seer.wake' has no slot 'seat'" in line and "drop --slot" in line


def test_unknown_and_missing_slots(capsys: pytest.CaptureFixture[str]) -> None:
    line = refused_in_one_line(capsys, "say", "--key", "day.death", "--slot", "sit=3", "--to", "x.wav")
    assert "has no slot 'sit'; its slots are: seat" in line
    line = refused_in_one_line(capsys, "say", "--key", "day.death", "--to", "x.wav")
    assert "needs a value for seat" in line and "--slot seat=" in line


# ---- the help pages -------------------------------------------------------------------------------

def every_subcommand() -> list[tuple[str, argparse.ArgumentParser]]:
    from narrator.cli import build_parser

    found: list[tuple[str, argparse.ArgumentParser]] = []

    def walk(parser: argparse.ArgumentParser) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    found.append((sub.prog, sub))
                    walk(sub)

    walk(build_parser())
    return found


def help_of(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, out, err = run_main(capsys, *argv, "--help")
    assert code == 0 and err == ""
    return " ".join(re.sub(r"-\n\s+", "-", out).split())  # argparse wraps lines, even at hyphens: compare words


def test_every_subcommand_page_has_a_description(capsys: pytest.CaptureFixture[str]) -> None:
    pages = every_subcommand()
    assert len(pages) >= 15
    for prog, parser in pages:
        assert parser.description, f"{prog} --help has no description"
        words = prog.split()[1:]
        page = help_of(capsys, *words)
        assert " ".join(str(parser.description).split()) in page, prog


def test_simulate_options_have_help_and_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    page = help_of(capsys, "simulate")
    assert "--games K how many games to play (default: 1000)" in page
    assert "--seed S random seed" in page and "(default: 0)" in page
    assert "random-votes" in page and "(default: random)" in page


@pytest.mark.parametrize("command", [["play"], ["demo"], ["assist"], ["say"], ["voices", "render"]])
def test_lang_lists_the_languages(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    assert ", ".join(available_languages()) in help_of(capsys, *command)


@pytest.mark.parametrize("command", [["play"], ["simulate"]])
def test_option_lists_the_keys(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    import dataclasses

    from narrator.rules import Options

    page = help_of(capsys, *command)
    for f in dataclasses.fields(Options):
        assert f.name in page
    assert "narrator rules" in page


def test_text_no_audio_and_screen_say_which_wins(capsys: pytest.CaptureFixture[str]) -> None:
    play = help_of(capsys, "play")
    assert "never any sound (the same as --screen text; --no-audio adds nothing to it)" in play
    assert "text: printed lines, typed answers, no sound (the same as --text)" in play
    assert "lines spoken unless --no-audio" in play
    assert "(--text is silent anyway)" in play
    for command in ("demo", "assist"):
        page = help_of(capsys, command)
        assert "never any sound (--no-audio adds nothing to it)" in page, command
        assert "(--text is silent anyway)" in page, command
    line = refused_in_one_line(capsys, "play", "--text", "--screen", "full")
    assert "--text and --screen full contradict each other" in line


@pytest.mark.parametrize("slots, expected", [
    (["--key", "day.death", "--slot", "seat=99"], "--slot seat=99: give a seat from 1 to 30"),
    (["--key", "day.card", "--slot", "role=wizard"], "--slot role=wizard: not a role"),
    (["--key", "game.over", "--slot", "side=martians"], "--slot side=martians: not a side"),
    (["--key", "debate.start", "--slot", "minutes=-1"], "--slot minutes=-1: give a whole number of 0 or more"),
])
def test_slot_values_out_of_range(capsys: pytest.CaptureFixture[str], slots: list[str],
                                                 expected: str) -> None:
    assert expected in refused_in_one_line(capsys, "say", *slots, "--to", "x.wav")
