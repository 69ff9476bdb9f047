"""The setup a new table meets: what it offers works or is refused before it starts (the phones'
packages), --phones is not asked again, --lang is the setup's language, an unknown one is refused,
and the roles are listed in columns that fit the terminal, counted as "Werewolf ×2"."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import pytest

from narrator import i18n
from narrator.table.config import TableConfig
from tests.table.tmux import REPO, Tmux, needs_tmux

ROOT = Path(__file__).resolve().parents[2]


def test_play_installs_what_every_setup_answer_needs_and_the_phones_extra_is_what_a_game_runs() -> None:
    import tomllib

    play = (ROOT / "play").read_text()
    assert re.search(r"^bash scripts/setup\.sh voice,phones$", play, re.M), play
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    phones = " ".join(extras["phones"])
    assert all(name in phones for name in ("aiohttp", "pynacl", "qrcode")) and "selenium" not in phones
    assert any(d.startswith("selenium") for d in extras["dev"])


def without_phones(tmp_path: Path, *args: str) -> Tmux:
    """`narrator ARGS` in a terminal on a machine where the phones' packages are not installed."""
    code = ("import sys; sys.modules['nacl'] = None; sys.modules['aiohttp'] = None; "
            "from narrator.cli import main; sys.exit(main(sys.argv[1:]))")
    return Tmux([sys.executable, "-c", code, *args], tmp_path,
                {"NARRATOR_DATA": str(tmp_path / "data"), "NARRATOR_CONFIG": str(tmp_path / "cfg"),
                 "PYTHONPATH": str(REPO)})


@needs_tmux
@pytest.mark.slow
def test_phones_without_their_packages_are_refused_in_one_line_before_the_setup_and_no_game_is_recorded(
        tmp_path: Path) -> None:
    t = without_phones(tmp_path, "play", "--phones", "--no-audio")
    try:
        out = t.wait(lambda s: "players?" in s or "narrator:" in s)
        assert t.exit_code() == 1
        out = t.scrollback(join=True)
        assert "How many players" not in out and "Traceback" not in out
        line = next(line for line in out.splitlines() if line.startswith("narrator:"))
        assert "the phones need packages that are not installed (pynacl, aiohttp" not in line  # by module order
        assert "aiohttp, pynacl" in line and "./play installs them" in line
        assert not (tmp_path / "data" / "history.sqlite3").exists() or "abandoned" not in subprocess.run(
            [sys.executable, "-m", "narrator", "history"], capture_output=True, text=True,
            env={"NARRATOR_DATA": str(tmp_path / "data"), "PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}).stdout
        assert not list((tmp_path / "data").rglob("*.jsonl"))
    finally:
        t.close()


@needs_tmux
@pytest.mark.slow
def test_a_remembered_phones_choice_without_the_packages_is_said_first_and_the_game_is_set_up_without_phones(
        tmp_path: Path) -> None:
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "config.toml").write_text(TableConfig(phones=True).to_toml())
    t = without_phones(tmp_path, "play", "--no-audio")
    try:
        out = t.wait("Enter = play with it")
        first = out.index("the phones need packages")
        assert first < out.index("Last table:") and "; phones." not in out
    finally:
        t.close()


@needs_tmux
@pytest.mark.slow
def test_play_with_phones_given_does_not_ask_for_phones_and_says_where_the_phones_reach_the_laptop(
        tmp_path: Path) -> None:
    t = Tmux([sys.executable, "-m", "narrator", "play", "--phones", "--no-audio", "--phones-host", "127.0.0.1"],
             tmp_path, {"NARRATOR_DATA": str(tmp_path / "data"), "NARRATOR_CONFIG": str(tmp_path / "cfg"),
                        "PYTHONPATH": str(REPO)}, width=100, height=50)
    try:
        enter_at_every_question(t, until="Name the seats")
        t.send("Enter")
        t.send("Enter")  # typed twice: the second must not pass the first seat's link before it is read
        out = t.wait_output("Seat 1: scan with the phone of seat 1")  # the links, one seat at a time
        assert "Play with phones" not in out
        assert re.search(r"Phones: this laptop listens on 127\.0\.0\.1 port \d+", out), out[-2000:]
    finally:
        t.close()


def last_line(screen: str) -> str:
    return next((line for line in reversed(screen.splitlines()) if line.strip()), "")


def enter_at_every_question(t: Tmux, until: str = "Press Enter to start") -> None:
    """Enter at each setup question, one at a time (each Enter waits for the next question), until
    `until` is printed."""
    t.wait("How many players")
    while until not in t.output():
        before = last_line(t.screen())
        t.send("Enter")
        t.wait(lambda s, before=before: last_line(s) != before or until in t.output())


def test_an_unknown_language_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from narrator.cli import main

    assert main(["play", "--lang", "xx", "--text"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("narrator: --lang 'xx': there is no voice pack in that language; choose one of de, en,")


def test_the_language_given_on_the_command_line_is_the_setups_and_enter_keeps_it(tmp_path: Path) -> None:
    from narrator.table.play import run_wizard

    answers = iter([""] * 20)
    printed: list[str] = []

    class Out:
        def write(self, text: str) -> None:
            printed.append(text)

        def flush(self) -> None:
            pass

    args = argparse.Namespace(config=tmp_path / "config.toml")
    stdout, sys.stdout = sys.stdout, Out()  # type: ignore[assignment]
    try:
        with i18n.language("de"):
            config = run_wizard(args, lambda: next(answers) + "\n", ask_phones=False)
    finally:
        sys.stdout = stdout
    text = "".join(printed)
    assert config.language == "de"
    assert re.search(r"\[de\]", text), text[-1500:]


def test_the_roles_are_listed_in_columns_that_fit_the_terminal_counted_with_a_times_sign() -> None:
    from narrator.fakes import ScriptedAsker
    from narrator.packs import load_pack
    from narrator.table.wizard import ROLE_MENU, Wizard

    asker = ScriptedAsker(["", "", "", "", "", "", "", "", ""])
    wizard = Wizard(asker, TableConfig(), ["en"])
    wizard.width = 100
    wizard.run()
    menu = asker.told[0].splitlines()
    assert menu[0] == "Roles for 8 players:"
    assert all(len(line) <= 100 for line in menu), menu
    pack = load_pack("en")
    for i, role in enumerate(ROLE_MENU, start=1):  # every role whole on one line, with its count
        assert any(re.search(rf"(^| ){i} {re.escape(pack.role_name(role.value))} ×\d", line) for line in menu), role
    assert "Werewolf ×2" in asker.told[0] and " x" not in asker.told[0]
    summary = asker.told[-1]  # a count in words: "2 Werewolves", never "2 Werewolf"
    assert "2 Werewolves" in summary and not re.search(r"\b[2-9] Werewolf\b", summary), summary
