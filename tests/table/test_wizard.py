"""The setup wizard and its config file: bad input is named, asked again, and nothing is lost."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from narrator.rules import Role
from narrator.table.config import TableConfig, config_path, load_config, save_config
from narrator.fakes import ScriptedAsker
from narrator.packs import load_pack
from narrator.table.wizard import ROLE_MENU, Wizard, option_menu

ALL_ENTER = ["", "", "", "", "", "", ""]


def run(answers: list[str], config: TableConfig | None = None) -> tuple[TableConfig, ScriptedAsker]:
    asker = ScriptedAsker(list(answers))
    result = Wizard(asker, config or TableConfig(), ["en", "fr"]).run()
    assert not asker.answers, "the wizard did not use every answer"
    return result, asker


def test_enter_everywhere_keeps_the_defaults() -> None:
    config, _ = run(ALL_ENTER)
    assert config == TableConfig()
    # The default composition for 8 players, one the balance advisor rates fair.
    assert config.composition() == {Role.WEREWOLF: 2, Role.SEER: 1, Role.WITCH: 1, Role.HUNTER: 1, Role.VILLAGER: 3}


def test_a_whole_setup_on_the_keypad() -> None:
    # 10 players; add a Witch (3+) and a Hunter (4+); switch option vote_procedure twice (its
    # number in the menu, which grows with the roles' options); French; both inputs; seer turn
    # 30 s; physical cards.
    vote = str(option_menu({Role.WEREWOLF: 2, Role.SEER: 1, Role.LITTLE_GIRL: 1, Role.WITCH: 1, Role.HUNTER: 1})
               .index("vote_procedure") + 1)
    config, _ = run(["10", "3+", "4+", "", vote, vote, "", "2", "3", "1*30", "", "2"])
    assert config.players == 10
    assert config.composition() == {Role.WEREWOLF: 2, Role.SEER: 1, Role.LITTLE_GIRL: 1, Role.WITCH: 1, Role.HUNTER: 1,
                                    Role.VILLAGER: 4}
    assert config.options == {"vote_procedure": "accusation"}
    assert (config.language, config.inputs, config.deal) == ("fr", "both", "cards")
    assert config.timings().turn("seer") == 30.0


def test_a_letter_where_a_number_is_due_is_asked_again() -> None:
    config, asker = run(["eight", "9", *ALL_ENTER[1:]])
    assert "! 'eight' is not a number; type digits, then Enter" in asker.told
    assert asker.questions[0] == asker.questions[1]
    assert config.players == 9


def test_out_of_range_players_are_asked_again() -> None:
    config, asker = run(["3", "31", "12", *ALL_ENTER[1:]])
    assert any("3 players: the game takes 4 to 30" in t for t in asker.told)
    assert config.players == 12
    assert config.roles == {"werewolf": 3, "seer": 1, "witch": 1, "hunter": 1, "little_girl": 1}


def test_too_many_roles_for_the_players_keeps_what_was_chosen() -> None:
    # 4 players: 1 wolf, 1 seer, 2 villagers. Witch and Hunter fit; Cupid does not.
    config, asker = run(["4", "3+", "4+", "5+", "", "", "", "", "", ""])
    refusals = [t for t in asker.told if t.startswith("! ") and "best with 8 to 18" not in t]
    assert len(refusals) == 1 and "do not fit 4 players" in refusals[0]
    assert config.composition() == {Role.WEREWOLF: 1, Role.SEER: 1, Role.WITCH: 1, Role.HUNTER: 1}


def test_bad_role_changes_and_removing_the_last_werewolf_are_refused() -> None:
    beyond = f"{len(ROLE_MENU) + 1}+"  # one past the catalogue's roles
    config, asker = run(["", beyond, "x", "1-", "1-", "", "", "", "", "", ""])
    told = [t for t in asker.told if t.startswith("! ")]
    assert f"'{beyond}' is not a role change" in told[0] and "'x' is not a role change" in told[1]
    assert "no Werewolf" in told[2]
    assert config.roles == {"werewolf": 1, "seer": 1, "witch": 1, "hunter": 1}


def test_bad_turn_lengths_are_asked_again() -> None:
    config, asker = run(["", "", "", "", "", "4*abc", "99*3", "4*0", "2*45", "", ""])
    told = [t for t in asker.told if t.startswith("! ")]
    assert "'abc' is not a number of seconds" in told[0]
    assert "'99' is not a turn" in told[1]
    assert "0 seconds: give 1 to 3600" in told[2]
    assert config.timing == {"werewolves": 45.0}


def test_the_input_ending_is_one_clear_error() -> None:
    from narrator.errors import UsageError

    with pytest.raises(UsageError, match="setup stopped"):
        Wizard(ScriptedAsker(["8"]), TableConfig(), ["en"]).run()


def test_config_round_trip(tmp_path: Path) -> None:
    config, _ = run(["10", "3+", "", "1", "", "", "", "1*12", "", "2"])
    save_config(config, tmp_path / "config.toml")
    loaded = load_config(tmp_path / "config.toml")
    assert loaded.problems == [] and loaded.config == config


@pytest.mark.parametrize(
    "text, expected",
    [
        ("", "is empty"),
        ("players = [8\n", "is not valid TOML"),
        ("players = 8\ncolour = 'red'\n", "colour: unknown key"),
        ("players = 'eight'\n", "players: 'eight' is not a number of players"),
        ("players = 6\n[roles]\nwerewolf = 9\n", "roles: 9 role cards"),
        ("[roles]\nvampire = 1\n", "unknown role 'vampire'"),
        ("[options]\nvote_procedure = 'dice'\n", "options.vote_procedure"),
        ("[timing]\nseer = -2\n", "timing.seer"),
        ("deal = 'magic'\n", "deal: 'magic'; choose one of: program, cards"),
        ("language = 'xx'\n", "language: 'xx'"),
    ],
)
def test_bad_config_files_are_named_and_fall_back(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    loaded = load_config(path)
    assert len(loaded.problems) == 1 and expected in loaded.problems[0], loaded.problems
    assert str(path) in loaded.problems[0]
    loaded.config.composition()  # whatever was wrong, what is left can be played


def test_good_keys_survive_a_bad_one(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("players = 11\nlanguage = 'en'\ncolour = 'red'\n[roles]\nwerewolf = 2\nwitch = 1\n")
    loaded = load_config(path)
    assert loaded.config.players == 11 and loaded.config.roles == {"werewolf": 2, "witch": 1}


def test_config_folder_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NARRATOR_CONFIG", str(tmp_path / "cfg"))
    assert config_path() == tmp_path / "cfg" / "config.toml"


def _narrator(args: list[str], stdin: str, env_dir: Path) -> subprocess.CompletedProcess[str]:
    import os

    env = {**os.environ, "NARRATOR_CONFIG": str(env_dir / "cfg"), "NARRATOR_DATA": str(env_dir / "data")}
    return subprocess.run([sys.executable, "-m", "narrator", *args], input=stdin, capture_output=True,
                          text=True, timeout=600, env=env)


@pytest.mark.slow
def test_a_bad_config_on_the_screen_then_the_questions_again(tmp_path: Path) -> None:
    bad = tmp_path / "mine.toml"
    bad.write_text("players = 7\nwolves = 3\n")
    proc = _narrator(["play", "--text", "--config", str(bad)], "x\n", tmp_path)
    assert proc.returncode == 1
    assert f"! config file '{bad}': wolves: unknown key" in proc.stdout
    assert "How many players? (4 to 30) [7]:" in proc.stdout  # the good key is kept as the default
    assert proc.stdout.count("How many players?") == 2 and "'x' is not a number" in proc.stdout
    assert proc.stderr.strip() == "narrator: setup stopped: the input ended before the last question"
    assert bad.read_text() == "players = 7\nwolves = 3\n"  # nothing written until the setup is done


@pytest.mark.slow
def test_a_finished_wizard_remembers_and_keeps_the_bad_file(tmp_path: Path) -> None:
    cfg = tmp_path / "cfg"
    cfg.mkdir()
    (cfg / "config.toml").write_text("players = 9\ncolour = 'red'\n")
    # The wizard (7 answers, then Enter skips naming the seats), then the deal's first key, then the input ends.
    proc = _narrator(["play", "--text"], "\n" * 8 + "1\n", tmp_path)
    assert "Saved in" in proc.stdout and "config.toml.bad" in proc.stdout
    assert (cfg / "config.toml.bad").read_text() == "players = 9\ncolour = 'red'\n"
    loaded = load_config(cfg / "config.toml")
    assert loaded.problems == [] and loaded.config.players == 9
    assert "Seat 1: you are the" in proc.stdout
    assert proc.returncode == 1 and "the deal stopped: the input ended" in proc.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    "args, expected",
    [
        (["play", "--screen", "full"], "narrator: the full screen needs a terminal; use --screen text"),
        (["play", "--text", "--pace", "0"], "narrator: --pace 0.0: give a factor above 0"),
        (["demo", "--text", "--pace", "-1"], "narrator: --pace -1.0: give a factor above 0"),
    ],
)
def test_bad_play_arguments_are_one_clear_line(tmp_path: Path, args: list[str], expected: str) -> None:
    proc = _narrator(args, "", tmp_path)
    assert proc.returncode == 1 and proc.stderr.startswith(expected) and len(proc.stderr.splitlines()) == 1
    assert not (tmp_path / "cfg" / "config.toml").exists()


@pytest.mark.slow
def test_a_config_that_cannot_be_saved_does_not_stop_the_game(tmp_path: Path) -> None:
    """--config naming a folder: one line says the setup was not saved; the wizard's answers still play."""
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "narrator", "play", "--text", "--config", str(tmp_path), "--pace", "0.05"],
        input="\n" * 40, capture_output=True, text=True, timeout=600,
        env={**__import__("os").environ, "NARRATOR_DATA": str(tmp_path / "data")},
    )
    assert "Traceback" not in proc.stderr
    assert f"! the setup could not be saved in {tmp_path}" in proc.stdout


def test_the_wizard_warns_outside_8_to_18_players() -> None:
    config, asker = run(["5", "", "", "", "", "", ""])
    assert "! 5 players: the game is best with 8 to 18; it can still be played" in asker.told
    config, asker = run(["10", "", "", "", "", "", ""])
    assert not any("best with 8 to 18" in t for t in asker.told)


def test_setup_questions_use_the_packs_names_not_raw_keys() -> None:
    heal = option_menu({Role.WEREWOLF: 2, Role.SEER: 1, Role.WITCH: 1, Role.HUNTER: 1}).index(
        "witch_sees_victim_after_heal") + 1
    config, asker = run(["", "", str(heal), "", "", "", "", ""])
    told = "\n".join(asker.told)
    for raw in ("little_girl", "witch_sees_victim_after_heal", "=no", "=yes", "seer_sees", "any_death"):
        assert raw not in told, raw
    assert f"{ROLE_MENU.index(Role.LITTLE_GIRL) + 1:>2} Little Girl ×0" in told
    assert f"{heal} the Witch sees the victim after healing: no" in told
    assert "the Witch sees the victim after healing: yes" in told  # after choosing 2, in the listing and summary


def test_the_questions_speak_the_tables_language() -> None:
    asker = ScriptedAsker(["", "", "", "", "", "", ""])
    Wizard(asker, TableConfig(language="fr"), ["en", "fr"]).run()
    told = "\n".join(asker.told)
    assert "Petite Fille" in told and "la Voyante voit: la carte" in told


def test_text_and_number_options_in_the_wizard() -> None:
    """The Sectarian's groups are typed (a bad value refused in one line, then asked again from the
    list); a number option (the Raven's votes) moves to its next value, not to yes/no."""
    # The Sectarian and the Raven in the deck: the wizard lists only the options of the deck's roles.
    sectarian = f"{ROLE_MENU.index(Role.ABOMINABLE_SECTARIAN) + 1}+"
    raven_card = f"{ROLE_MENU.index(Role.RAVEN) + 1}+"
    menu = option_menu({Role.WEREWOLF: 2, Role.SEER: 1, Role.WITCH: 1, Role.HUNTER: 1, Role.ABOMINABLE_SECTARIAN: 1,
                        Role.RAVEN: 1})
    groups = str(menu.index("sectarian_groups") + 1)
    raven = str(menu.index("raven_mark_votes") + 1)
    config, asker = run(["8", sectarian, raven_card, "", groups, "AXB", groups, "AAAABBBB", raven, "", "", "", "",
                         ""])
    assert config.options == {"sectarian_groups": "AAAABBBB", "raven_mark_votes": 3}
    assert any("sectarian_groups cannot be 'AXB'" in line for line in asker.told)


def test_the_rules_question_groups_the_options_of_the_decks_roles() -> None:
    """Before: one paragraph of all 49 options, whatever the deck."""
    _, asker = run(ALL_ENTER)  # 8 players: Werewolves, Seer, Witch, Hunter
    start = asker.told.index("Rules:")
    groups = [line for line in asker.told[start + 1:] if line.startswith("  ")]
    assert [line.split(":")[0].strip() for line in groups] == ["The game", "Seer", "Witch", "Hunter"]
    told = "\n".join(asker.told)
    assert "Sectarian" not in told.split("Rules:")[1] and "Raven" not in told.split("Rules:")[1]
    numbers = [int(part.split()[0]) for line in groups for part in line.split(": ", 1)[1].split(", ")
               if part.split()[0].isdigit()]
    assert numbers == list(range(1, len(numbers) + 1))  # numbered straight through the groups


def test_no_option_shows_an_empty_value() -> None:
    """Before: "41 the Abominable Sectarian's two groups: ," (the empty default)."""
    config = TableConfig(players=10, roles={"werewolf": 2, "seer": 1, "abominable_sectarian": 1, "actor": 1})
    asker = ScriptedAsker(list(ALL_ENTER) + [""])
    Wizard(asker, config, ["en"]).run()
    rules = [line for line in asker.told if line.startswith("  ")]
    sectarian = next(line for line in rules if line.startswith("  Abominable Sectarian:"))
    assert "two groups: not given (the first half of the seats is group A, the rest group B)" in sectarian
    actor = next(line for line in rules if line.startswith("  Actor:"))
    assert "the Actor's cards: Seer, Witch, Hunter, Little Girl" in actor  # names, not keys
    assert not any(": ," in line or line.rstrip().endswith(":") for line in rules)


def test_the_wizards_advice_cites_no_flag_it_does_not_have() -> None:
    """Before: "ask again, or give more --budget" (a flag of `narrator balance` only)."""
    from narrator.rules import complete, default_deck, Options
    from narrator.sim.balance import Advice, Estimate
    from narrator.sim.cli import advice_lines
    from narrator.table.play import wizard_advice

    deck = complete(12, default_deck(12), Options())
    cut_short = Advice(12, Estimate(deck, 200, 100), [], 0.5, unweighed=4, searched=1)
    lines, offers = wizard_advice(cut_short)
    assert offers == [] and any("were not weighed" in line for line in lines)
    assert not any("--budget" in line for line in lines)
    assert any("--budget" in line for line in advice_lines(cut_short))  # the command line keeps it


def test_the_turn_lengths_name_the_calls_of_the_deck_in_the_tables_language() -> None:
    config = TableConfig(players=10, roles={"werewolf": 2, "white_werewolf": 1, "seer": 1}, language="fr")
    _, asker = run(["", "", "", "", "", "", ""], config)
    # The table's language is French, so is the whole line once the language is answered (docs/languages.md).
    turns = next(t for t in asker.told if t.startswith("Durées des tours"))
    assert turns.startswith("Durées des tours\xa0: 1 Voyante 20 s, 2 Loups-Garous 40 s, 3 Loup-Garou Blanc 20 s, 4 débat"), turns
    assert "white_werewolf" not in turns and "Sorcière" not in turns and "Voleur" not in turns


def test_the_wizard_asks_about_phones_and_remembers_the_answer(tmp_path: Path) -> None:
    # Enter at every question, Enter at the seat names, then a bad answer and 1 at the phones question.
    config, asker = run([*ALL_ENTER, "", "maybe", "1"])
    assert config.phones is True
    assert any("Play with phones" in q for q in asker.questions)
    assert any("'maybe': press Enter to keep no, 0 for no, 1 for yes" in t for t in asker.told)
    assert config.describe().endswith("; phones")
    save_config(config, tmp_path / "config.toml")
    assert load_config(tmp_path / "config.toml").config.phones is True
    # Enter keeps the remembered answer; 0 turns it off.
    assert run([*ALL_ENTER, "", ""], config)[0].phones is True
    assert run([*ALL_ENTER, "", "0"], config)[0].phones is False


def test_no_phones_question_where_phones_cannot_play_and_a_bad_value_is_named(tmp_path: Path) -> None:
    asker = ScriptedAsker(list(ALL_ENTER) + [""])
    Wizard(asker, TableConfig(), ["en"], ask_phones=False).run()
    assert not any("phones" in q for q in asker.questions)
    (tmp_path / "config.toml").write_text("phones = 'yes'\n")
    assert load_config(tmp_path / "config.toml").problems == [
        f"config file {str(tmp_path / 'config.toml')!r}: phones: 'yes'; write phones = true or phones = false"]


def test_one_at_the_last_table_changes_it_and_enter_keeps_it() -> None:
    """"Enter = play with it, 1 = change it": 1 used to keep it too (1 picked the first of keep/change)."""
    last = TableConfig(players=8)
    asker = ScriptedAsker(["1", "12", "", "", "", "", "", "", "", ""])
    config = Wizard(asker, last, ["en", "fr"]).run(offer_last=True)
    assert config.players == 12 and not asker.answers
    asker = ScriptedAsker([""])
    assert Wizard(asker, TableConfig(players=8), ["en"]).run(offer_last=True) == TableConfig(players=8)
    asker = ScriptedAsker(["3", ""])
    Wizard(asker, TableConfig(players=8), ["en"]).run(offer_last=True)
    assert "! '3' is not a choice; type a number from 1 to 1" in asker.told


def test_the_roles_question_offers_the_roles_for_new_players_first() -> None:
    from narrator.roles import CARDS

    _, asker = run(ALL_ENTER)
    menu = next(t for t in asker.told if t.startswith("Roles for 8 players:")).splitlines()
    heads = [menu.index(" For new players (one moon):"), menu.index(" Two moons:"), menu.index(" Three moons:")]
    assert heads == sorted(heads) and heads[0] == 1
    assert menu[2].split()[:3] == ["1", "Werewolf", "×2"]
    levels = [CARDS[r].moons for r in ROLE_MENU]
    assert levels == sorted(levels) and set(levels) == {1, 2, 3}
    # Each role stands under its own level, numbered as the answers number it.
    for number, role in enumerate(ROLE_MENU, start=1):
        at = next(i for i, line in enumerate(menu) if f"{number:>2} {load_pack('en').role_name(role.value)} ×" in line)
        level = sum(1 for h in heads if h < at)
        assert level == CARDS[role].moons, role
