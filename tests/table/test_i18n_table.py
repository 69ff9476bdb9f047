"""The table's commands in the table's language: what they print (the setup questions, the
config's problems, the doctor, the voice check, the assistant, headless play and resume) goes
through the catalogue of the table's language (`voices/<lang>/messages.toml`, narrator/i18n.py),
and the language is set where the table's language becomes known (the setup's answer, the setup
file, the journal). The catalogue here is a made-up language `xx` in a temporary voices folder:
the English pack copied under its name, and a few of the program's templates translated."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from narrator import i18n
from narrator.clock import VirtualClock
from narrator.fakes import FakeListener, ScriptedAsker
from narrator.listening.check import run_check
from narrator.packs import packs_root
from narrator.ports import Heard, Prompt
from narrator.table.config import TableConfig, load_config
from narrator.table.doctor import Check, run_doctor
from narrator.table.wizard import Wizard
from tests.text_game import SCRIPT, SETUP, cut_at

REPO = Path(__file__).resolve().parents[2]

MESSAGES = {
    # The wizard
    "How many players? (4 to 30) [{players}]:": "XX combien {players}?",
    "{players} players: the game takes 4 to 30 players": "XX {players} hors de 4-30",
    "Answers by: {listing} [{current}]:": "XX réponses {listing} [{current}]:",
    "keypad": "xxpavé",
    "Ready: {summary}.": "XX prêt: {summary}.",
    "standard rules": "xx règles",
    # The config's problems
    "config file {where!r}: {key}: {problem}": "XX fichier {where!r} clé {key}: {problem}",
    "{value!r}; choose one of: {choices}": "XX {value!r} parmi {choices}",
    # The doctor
    "pass  {name}: {detail}": "XX-ok  {name}: {detail}",
    "warn  {name}: {detail} -> fix: {fix}": "XX-avert  {name}: {detail} -> XX: {fix}",
    "{passed} passed, {warned} warnings, {failed} failed": "XX {passed}/{warned}/{failed}",
    "voice answers: ready ({languages})": "XX voix prête ({languages})",
    # The voice check
    "player {player}: say {seat}": "XX joueur {player} dit {seat}",
    "  heard {heard} (not {seat})": "  XX entendu {heard} (pas {seat})",
    "voice: {right} of {total} right, {wrong} wrong; mode: {mode}": "XX {right}/{total}, {wrong} faux; {mode}",
    # The assistant
    "night {night}": "XX nuit {night}",
    "night falls": "XX la nuit tombe",
    # Headless play and resume
    "warning: {players} players: the game is best with {low} to {high}": "XX avertissement {players} ({low}-{high})",
    "game over: the winner is {winner}; alive: {alive}": "XX fin: {winner}; vivants: {alive}",
    "game over: the winner is {winner}; alive: nobody": "XX fin: {winner}; personne",
    "Resuming {path}: {stopped}.": "XX reprise {path}: {stopped}.",
    "started {started}, stopped in night {night}": "XX début {started}, nuit {night}",
}


def _toml(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@pytest.fixture
def voices(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A voices folder with `en` and `xx` (the English pack under another name) and xx's catalogue."""
    english = (packs_root() / "en" / "pack.toml").read_text(encoding="utf-8")
    root = tmp_path / "voices"
    for lang in ("en", "xx"):
        (root / lang).mkdir(parents=True)
        text = english.replace('language = "en"', f'language = "{lang}"', 1)
        if lang == "xx":
            text = text.replace('seer = "Seer"', 'seer = "Voyante"', 1)  # xx's own name for a role
        (root / lang / "pack.toml").write_text(text, encoding="utf-8")
    lines = ["[messages]", *(f"{_toml(k)} = {_toml(v)}" for k, v in MESSAGES.items())]
    (root / "xx" / "messages.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setenv("NARRATOR_VOICES", str(root))
    i18n.catalogue.cache_clear()
    before = i18n.current_language()
    yield root
    i18n.set_language(before)
    i18n.catalogue.cache_clear()


def test_the_wizard_asks_in_the_language_the_table_answers(voices: Path) -> None:
    """Before the language question, the questions are in the language at hand (English); the answer
    `xx` makes every later question and the summary xx's, and a bad answer's line too."""
    asker = ScriptedAsker(["3", "", "", "", "2", "", "", "", ""])
    with i18n.language("en"):
        config = Wizard(asker, TableConfig(), ["en", "xx"]).run()
        assert i18n.current_language() == "xx"  # set by the language answer
    assert config.language == "xx"
    assert asker.questions[0] == "How many players? (4 to 30) [8]:"
    assert "! 3 players: the game takes 4 to 30 players" in asker.told
    assert "Answers by: 1 keypad, 2 voice, 3 both [keypad]:" not in asker.questions
    assert "XX réponses 1 xxpavé, 2 voice, 3 both [xxpavé]:" in asker.questions
    turns = next(t for t in asker.told if t.startswith("Turn lengths: "))  # untranslated here: xx's pack's names
    assert "Voyante" in turns and "Seer" not in turns
    assert asker.told[-1].startswith("XX prêt: 8 players (") and "; xx règles; language xx; input xxpavé;" in asker.told[-1]


def test_a_bad_answer_is_named_in_the_tables_language(voices: Path) -> None:
    asker = ScriptedAsker(["31", "", "", "", "", "", "", "", ""])
    with i18n.language("xx"):
        Wizard(asker, TableConfig(language="xx"), ["xx"]).run()
    assert asker.questions[0] == "XX combien 8?"
    assert "! XX 31 hors de 4-30" in asker.told


def test_the_configs_problems_in_the_tables_language(voices: Path, tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("deal = 'magic'\n", encoding="utf-8")
    with i18n.language("xx"):
        problems = load_config(path).problems
    assert problems == [f"XX fichier {str(path)!r} clé deal: XX 'magic' parmi program, cards"]


def test_the_doctor_in_the_tables_language(voices: Path) -> None:
    out = io.StringIO()
    with i18n.language("xx"):
        run_doctor(out, keypad=False, checks_to_run=(
            lambda: [Check("audio output", True, "1 device(s): speakers", label="xx-sortie")],
            lambda: [Check("speech model (en)", True, "/models/en"),
                     Check("microphone", False, "none", "plug one in", optional=True)],
        ))
    lines = out.getvalue().splitlines()
    assert lines[:4] == ["XX-ok  xx-sortie: 1 device(s): speakers", "XX-ok  speech model (en): /models/en",
                         "XX-avert  microphone: none -> XX: plug one in", "XX 2/1/0"]


def test_the_voice_check_in_the_tables_language(voices: Path) -> None:
    clock = VirtualClock()
    answers = {"check.1.1": 4, "check.1.2": 5}

    def answer(prompt: Prompt) -> Heard | None:
        return Heard(answers[prompt.name], "voice", str(answers[prompt.name]))

    shown: list[str] = []
    with i18n.language("xx"):
        run_check(FakeListener(clock, answer, delay=1.0).listen, shown.append, [(4, 3)], 8, clock)
    assert shown == ["XX joueur 1 dit 4", "  heard 4", "XX joueur 1 dit 3", "  XX entendu 5 (pas 3)",
                     "XX 1/2, 1 faux; yes_no"]


def test_the_assistants_steps_in_the_tables_language(voices: Path) -> None:
    from narrator.flow.timing import Timing
    from narrator.rules import Options, Role
    from narrator.table.assist import night_steps

    with i18n.language("xx"):
        first = night_steps(1, {Role.WEREWOLF, Role.SEER}, Timing(), Options())[0]
        assert (first.when, first.label) == ("XX nuit 1", "XX la nuit tombe")


def _narrator(voices: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "NARRATOR_VOICES": str(voices)}
    env.pop("NARRATOR_LANG", None)
    return subprocess.run([sys.executable, "-m", "narrator", *args], capture_output=True, text=True, timeout=300,
                          env=env)


@pytest.mark.slow
def test_headless_play_and_resume_print_in_the_setups_language(voices: Path, tmp_path: Path) -> None:
    """The setup file's language is the table's: the warning and the result line in it; resume reads
    the language from the journal's setup."""
    (tmp_path / "setup.toml").write_text('language = "xx"\n' + SETUP, encoding="utf-8")
    (tmp_path / "script.toml").write_text(SCRIPT, encoding="utf-8")
    journal = tmp_path / "game.jsonl"
    proc = _narrator(voices, "play", "--headless", "--setup", str(tmp_path / "setup.toml"), "--script",
                     str(tmp_path / "script.toml"), "--journal", str(journal))
    assert proc.returncode == 0, proc.stderr
    assert "narrator: XX avertissement 5 (8-18)" in proc.stderr.splitlines()
    assert proc.stdout.startswith("XX fin: "), proc.stdout
    cut_at(journal, "night.seer")
    proc = _narrator(voices, "resume", str(journal))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith(f"XX reprise {journal}: XX début "), proc.stderr
    assert ", nuit 1." in proc.stderr.splitlines()[0]
    assert proc.stdout.startswith("XX fin: "), proc.stdout


def test_a_language_chosen_on_the_command_line_wins_over_the_tables(voices: Path) -> None:
    """`adopt_language`: the setup's, config's or journal's language is taken only when none was chosen
    (`--lang`, $NARRATOR_LANG); English at hand is no choice."""
    from narrator.table.config import adopt_language

    with i18n.language("fr"):
        assert not adopt_language("xx")
        assert i18n.current_language() == "fr"
    with i18n.language("en"):
        assert adopt_language("xx")
        assert i18n.current_language() == "xx"


def test_the_wizards_role_names_are_in_the_language_chosen_on_the_command_line() -> None:
    """`narrator --lang fr play`: the questions before the language question name the roles in French,
    not in the remembered table's English (found by the German translation: "1 Werewolf x2" among German lines)."""
    from narrator import i18n
    from narrator.table.config import TableConfig
    from narrator.table.wizard import Wizard

    asker = ScriptedAsker(["", "", "", "", "", "", ""])
    with i18n.language("fr"):
        Wizard(asker, TableConfig(language="en"), ["en", "fr"]).run()
    first = asker.told[0] if asker.told else ""
    # The roles' listing, the first thing told (the summary after English is chosen is English).
    assert "Loup-Garou" in first and "Werewolf" not in first, first
