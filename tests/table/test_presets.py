"""Presets (docs/rules-spec.md#presets): rule options set at once, one file each; listed by
`narrator rules --presets`, chosen with `--option preset=NAME` or `*N` at the setup's rules
question, saved by a table and shared as a file; a bad file gets one line, never a traceback."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pytest

from narrator.cli import main
from narrator.fakes import ScriptedAsker
from narrator.rules import Options, Role
from narrator.table.config import TableConfig
from narrator.table.presets import expand
from narrator.table.wizard import Wizard

WHEREWOLF = {"possible_beyond_dealt": 2, "vote_procedure": "accusation", "reveal_role_on_death": False,
             "first_night_kill": False, "seer_sees": "team", "end_check": "dawn", "two_player_end": True,
             "accusation_vote": "secret_with_phones"}


def chosen(options: Options) -> dict[str, object]:
    defaults = Options().to_dict()
    return {k: v for k, v in options.to_dict().items() if v != defaults[k]}


def test_option_preset_wherewolf_sets_the_italian_procedure_and_later_options_change_it() -> None:
    assert chosen(Options.parse(expand(["preset=wherewolf"]))) == WHEREWOLF
    assert chosen(Options.parse(expand(["preset=wherewolf", "seer_sees=role"]))) == {
        k: v for k, v in WHEREWOLF.items() if k != "seer_sees"}


def test_a_game_from_the_command_line_with_the_preset_sets_two_cards_aside_still_called() -> None:
    from narrator.flow.script import setup_from_args

    args = argparse.Namespace(setup=None, option=expand(["preset=wherewolf"]), players=10, lang="en", seed=3,
                              roles="werewolf=2,seer=1,witch=1,hunter=1,cupid=1,savior=1")
    setup = setup_from_args(args)
    dealt = set(setup.deal.seats)
    assert setup.possible is not None and len(setup.possible - dealt) == 2
    assert setup.possible - dealt <= {Role.WITCH, Role.HUNTER, Role.CUPID, Role.SAVIOR, Role.SEER}
    assert list(setup.deal.seats).count(Role.VILLAGER) == 5 and list(setup.deal.seats).count(Role.WEREWOLF) == 2


def test_narrator_rules_lists_the_presets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--presets"]) == 0
    out = capsys.readouterr().out
    assert "  wherewolf: possible_beyond_dealt=2, vote_procedure=accusation, reveal_role_on_death=false" in out


def test_a_table_saves_its_house_rules_and_another_table_plays_the_shared_file(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["rules", "--save-preset", "our-house", "--option", "preset=wherewolf",
                 "--option", "seer_sees=role", "--option", "elder_lives=3"]) == 0
    saved = Path(os.environ["NARRATOR_CONFIG"]) / "presets" / "our-house.toml"
    assert f"Saved the preset in {saved}" in capsys.readouterr().out
    house = {**{k: v for k, v in WHEREWOLF.items() if k != "seer_sees"}, "elder_lives": 3}
    assert chosen(Options.parse(expand(["preset=our-house"]))) == house
    assert main(["rules", "--presets"]) == 0
    assert f"  our-house: " in capsys.readouterr().out
    # Shared: the file elsewhere, played from where it lies.
    shared = tmp_path / "from-a-friend.toml"
    shared.write_bytes(saved.read_bytes())
    assert chosen(Options.parse(expand([f"preset={shared}"]))) == house


@pytest.mark.parametrize(("text", "said"), [
    ('[options]\nvote_procedure = "loudest"\n', "option vote_procedure cannot be 'loudest'"),
    ("[options\n", "cannot be read (Expected"),
    ('colour = "red"\n', "unknown key"),
    ("options = 3\n", "must be a table like"),
])
def test_a_bad_preset_file_gets_one_line_naming_it(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                   text: str, said: str) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(text, encoding="utf-8")
    assert main(["play", "--players", "8", "--text", "--option", f"preset={bad}"]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"preset file '{bad}'" in err and said in err and "Traceback" not in err


def test_an_unknown_preset_and_a_shipped_name_are_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "8", "--text", "--option", "preset=nonesuch"]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown preset 'nonesuch'; presets: wherewolf" in err
    assert main(["rules", "--save-preset", "wherewolf"]) != 0
    assert "is a preset that comes with narrator" in capsys.readouterr().err


def test_the_setup_offers_the_presets_at_its_rules_question() -> None:
    asker = ScriptedAsker(["", "", "*1", "", "", "", "", "", "", ""])
    config = Wizard(asker, TableConfig(players=10), ["en"]).run()
    assert "Presets: *1 wherewolf" in asker.told
    assert chosen(config.rule_options()) == WHEREWOLF
