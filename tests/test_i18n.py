"""The program's printed words in the table's language (narrator/i18n.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from narrator import i18n
from narrator.errors import UsageError


@pytest.fixture
def packs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "xx").mkdir()
    (tmp_path / "xx" / "messages.toml").write_text(
        '[messages]\n"Seat {seat} is not at the table." = "Siège {seat} absent."\n'
        '"Broken {seat}." = "Cassé {chair}."\n"Not yet." = "[untranslated] Not yet."\n', encoding="utf-8")
    monkeypatch.setenv("NARRATOR_VOICES", str(tmp_path))
    i18n.catalogue.cache_clear()
    yield tmp_path
    i18n.catalogue.cache_clear()


def test_a_template_prints_in_the_language_chosen_and_in_english_after(packs: Path) -> None:
    with i18n.language("xx"):
        assert i18n.tr("Seat {seat} is not at the table.", seat=7) == "Siège 7 absent."
    assert i18n.tr("Seat {seat} is not at the table.", seat=7) == "Seat 7 is not at the table."


def test_untranslated_missing_or_slot_broken_translations_print_the_english(packs: Path) -> None:
    with i18n.language("xx"):
        assert i18n.tr("Not yet.") == "Not yet."
        assert i18n.tr("Nowhere in the catalogue.") == "Nowhere in the catalogue."
        assert i18n.tr("Broken {seat}.", seat=3) == "Broken 3."


def test_an_error_keeps_its_template_and_prints_translated_at_the_edge(packs: Path) -> None:
    exc = UsageError("Seat {seat} is not at the table.", seat=9)
    assert str(exc) == "Seat 9 is not at the table."
    with i18n.language("xx"):
        assert i18n.message_of(exc) == "Siège 9 absent."
    assert i18n.message_of(ValueError("plain")) == "plain"


# ---- the command line: the language chosen, errors and help pages in it (narrator/cli.py) ----

from narrator.cli import chosen_language, main  # noqa: E402
from narrator.messages import english_catalogue, fill_catalogue, render_english  # noqa: E402
from narrator.packs import UNTRANSLATED, catalogue_problems, check_packs, load_pack, packs_root, summary  # noqa: E402

REPO = Path(__file__).resolve().parent.parent


def test_the_language_is_the_global_lang_else_the_commands_else_narrator_lang_else_english() -> None:
    assert chosen_language(["--lang", "de", "play"], {}) == "de"
    assert chosen_language(["play", "--lang=fr"], {"NARRATOR_LANG": "de"}) == "fr"
    assert chosen_language(["rules", "--lang", "de", "--lang", "ko"], {}) == "ko"
    # The global one wins: English lines while listening with the Korean model.
    assert chosen_language(["--lang", "en", "listen", "--lang", "ko"], {}) == "en"
    assert chosen_language(["--lang=de", "rules", "--lang", "ko"], {}) == "de"
    assert chosen_language(["simulate"], {"NARRATOR_LANG": "nl"}) == "nl"
    assert chosen_language(["voices", "render", "--lang", "all"], {}) == "en"
    assert chosen_language(["say", "--", "--lang", "de"], {}) == "en"
    assert chosen_language([], {}) == "en"


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A voices folder with every real pack and a language xx whose catalogue translates a few texts."""
    root = tmp_path / "voices"
    root.mkdir()
    for folder in (REPO / "voices").iterdir():
        (root / folder.name).symlink_to(folder, target_is_directory=True)
    (root / "xx").mkdir()
    shutil.copyfile(REPO / "voices" / "en" / "pack.toml", root / "xx" / "pack.toml")
    (root / "xx" / "messages.toml").write_text(
        "[messages]\n"
        '"--games {games}: play at least one game" = "--games {games} : au moins une partie"\n'
        '"{message} (see \'{prog} --help\')" = "{message} (voir \'{prog} --help\')"\n'
        '"unrecognized arguments: %s" = "arguments inconnus : %s"\n'
        '"play many games with automatic players and count who wins" = "jouer beaucoup de parties"\n'
        '"usage: " = "emploi : "\n'
        '"the setup cannot be played: {exc}" = "la table ne peut pas jouer : {exc}"\n'
        '"unknown role {role!r}" = "rôle inconnu {role!r}"\n'
        '"interrupted" = "interrompu"\n', encoding="utf-8")
    monkeypatch.setenv("NARRATOR_VOICES", str(root))
    monkeypatch.delenv("NARRATOR_LANG", raising=False)
    i18n.catalogue.cache_clear()
    yield root
    i18n.catalogue.cache_clear()


def test_a_refused_value_prints_in_the_language_of_lang(table: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "8", "--games", "0", "--lang", "xx"]) == 1
    assert capsys.readouterr().err == "narrator: --games 0 : au moins une partie\n"
    assert main(["simulate", "--players", "8", "--games", "0"]) == 1  # and in English without --lang
    assert capsys.readouterr().err == "narrator: --games 0: play at least one game\n"
    assert i18n.current_language() == "en"  # main() leaves the language as it found it


def test_argparse_words_and_help_pages_print_in_the_language_of_narrator_lang(
        table: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NARRATOR_LANG", "xx")
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "--players", "8", "--bogus"])
    assert stop.value.code == 2
    assert capsys.readouterr().err == "narrator: arguments inconnus : --bogus (voir 'narrator --help')\n"
    with pytest.raises(SystemExit):
        main(["--help"])
    page = capsys.readouterr().out
    assert page.startswith("emploi : narrator") and "simulate  jouer beaucoup de parties" in page


def test_an_error_that_holds_another_error_is_translated_whole(table: Path) -> None:
    from narrator.rules.errors import UnknownRoleError

    inner = UnknownRoleError("unknown role {role!r}", role="ghost")
    outer = UsageError("the setup cannot be played: {exc}", exc=inner)
    assert str(outer) == "the setup cannot be played: unknown role 'ghost'"
    with i18n.language("xx"):
        assert i18n.message_of(outer) == "la table ne peut pas jouer : rôle inconnu 'ghost'"


def test_the_global_lang_is_the_commands_own_when_it_has_none(table: Path, capsys: pytest.CaptureFixture[str]) -> None:
    french = main_out(capsys, ["--lang", "fr", "rules"])
    assert french == main_out(capsys, ["rules", "--lang", "fr"])
    assert french != main_out(capsys, ["rules", "--lang", "en"])


def main_out(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


# ---- the catalogues: the English one generated, the others checked, started and filled -------

@pytest.mark.parametrize("argv", [["--help"], ["-h"], ["--out", "x.toml"], ["a.toml", "b.toml"]])
def test_the_generator_takes_no_option_for_the_file_to_write(
        argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from narrator.messages import _main

    monkeypatch.chdir(tmp_path)
    code = _main(argv)
    out, err = capsys.readouterr()
    assert list(tmp_path.iterdir()) == [], "nothing written"
    if argv[0] in ("-h", "--help"):
        assert code == 0 and out.startswith("usage: python -m narrator.messages [FILE]"), out
    else:
        assert code == 2 and err.count("\n") == 1 and repr(" ".join(argv)) in err, err


def test_the_english_catalogue_is_what_the_source_holds() -> None:
    page = packs_root() / "en" / "messages.toml"
    every = english_catalogue()  # the package's source read once, for both checks
    assert page.read_text(encoding="utf-8") == render_english(every), (
        "voices/en/messages.toml is stale: run  python -m narrator.messages")
    assert "--games {games}: play at least one game" in every  # an error's template
    assert "unrecognized arguments: %s" in every  # argparse's own words
    assert "play many games with automatic players and count who wins" in every  # a help text
    assert "voice pack language: {languages} (default: en)" in every  # a help text with its slot unfilled
    assert "{flag} {text} is too low: give a value from {lo:g} to {hi:g}" in every  # marked(...)


@pytest.fixture
def kit(tmp_path: Path) -> Path:
    """A voices folder with the English pack and its catalogue of three messages."""
    root = tmp_path / "voices"
    (root / "en").mkdir(parents=True)
    shutil.copyfile(REPO / "voices" / "en" / "pack.toml", root / "en" / "pack.toml")
    (root / "en" / "messages.toml").write_text(
        '[messages]\n"Seat {seat}." = "Seat {seat}."\n"Hello." = "Hello."\n"Bye {name}." = "Bye {name}."\n',
        encoding="utf-8")
    return root


def test_voices_new_and_fill_write_every_message_marked_untranslated(kit: Path) -> None:
    from narrator.packkit import create_pack, fill_pack

    create_pack("de", kit)
    catalogue = (kit / "de" / "messages.toml").read_text(encoding="utf-8")
    assert f'"Seat {{seat}}." = "{UNTRANSLATED}Seat {{seat}}."' in catalogue
    (kit / "de" / "messages.toml").write_text('[messages]\n"Hello." = "Hallo."\n', encoding="utf-8")
    _, added = fill_pack("de", kit)
    assert added == 2
    assert fill_catalogue("de", kit)[1] == 0
    text = (kit / "de" / "messages.toml").read_text(encoding="utf-8")
    assert '"Hello." = "Hallo."' in text and f'"Bye {{name}}." = "{UNTRANSLATED}Bye {{name}}."' in text


def test_voices_check_reports_untranslated_missing_and_slot_broken_messages(kit: Path) -> None:
    from narrator.packkit import create_pack

    create_pack("de", kit)
    path = kit / "de" / "messages.toml"
    path.write_text('[messages]\n"Seat {seat}." = "Platz {sitz}."\n"Hello." = "[untranslated] Hello."\n'
                    '"Gone." = "Weg."\n', encoding="utf-8")
    problems = catalogue_problems("de", kit)
    assert problems == [
        f"de ({path}) [messages]: key 'Seat {{seat}}.': slots {{sitz}}, expected ['seat']",
        f"de ({path}) [messages] 'Hello.': untranslated (still marked '[untranslated]')",
        f"de ({path}) [messages]: missing key 'Bye {{name}}.'",
        f"de ({path}) [messages]: key 'Gone.' is not in the en catalogue (stale: remove it)",
    ]
    every = check_packs(kit)
    assert set(problems) <= set(every)
    line = summary(load_pack("de", kit), every)
    assert line.startswith("de (") and ", 1 slot-broken" in line
