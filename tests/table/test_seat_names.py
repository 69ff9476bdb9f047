"""Naming the seats in the wizard (optional, Enter skips); the names reach the history."""

from __future__ import annotations

from pathlib import Path

from narrator.table.config import TableConfig, load_config, save_config
from narrator.fakes import ScriptedAsker
from narrator.table.wizard import Wizard

ENTERS = ["", "", "", "", "", "", ""]  # players, roles, options, language, inputs, timing, deal


def test_enter_skips_the_names() -> None:
    asker = ScriptedAsker([*ENTERS, ""])
    config = Wizard(asker, TableConfig(), ["en"]).run()
    assert config.names == {} and not asker.answers


def test_the_end_of_input_at_the_names_question_changes_nothing() -> None:
    config = Wizard(ScriptedAsker(list(ENTERS)), TableConfig(), ["en"]).run()
    assert config.names == {}


def test_naming_every_seat_and_leaving_some_empty() -> None:
    asker = ScriptedAsker([*ENTERS, "1", "Ann", "", "Bo", "", "", "", "", "Zoé"])
    config = Wizard(asker, TableConfig(), ["en"]).run()
    assert not asker.answers
    assert config.seat_names() == {1: "Ann", 3: "Bo", 8: "Zoé"}


def test_a_bad_answer_is_asked_again_and_names_can_be_dropped() -> None:
    named = TableConfig(names={"1": "Ann"})
    asker = ScriptedAsker(["", "", "", "", "", "", "", "x", "0"])
    config = Wizard(asker, named, ["en"]).run()
    assert config.names == {} and any("'x'" in line for line in asker.told)


def test_names_are_remembered_in_the_config(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    save_config(TableConfig(names={"1": "Ann", "10": "Bo \"B\""}, players=10), path)
    loaded = load_config(path)
    assert loaded.problems == []
    assert loaded.config.names == {"1": "Ann", "10": 'Bo "B"'}


def test_a_bad_name_entry_is_reported_not_fatal(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('players = 8\n[names]\n"x" = "Ann"\n"2" = "Bo"\n')
    loaded = load_config(path)
    assert loaded.config.names == {"2": "Bo"} and len(loaded.problems) == 1 and "names.x" in loaded.problems[0]
