"""In the setup, a table that answers by voice is offered the voice check
(skippable); its mode is kept in the config."""

from __future__ import annotations

from narrator.table.config import TableConfig
from narrator.fakes import ScriptedAsker
from narrator.table.wizard import Wizard, voice_check_question


def wizard(answers: list[str], inputs: str, checks: list[TableConfig]) -> Wizard:
    w = Wizard(ScriptedAsker(answers), TableConfig(inputs=inputs), ["en"])

    def check(config: TableConfig) -> str:
        checks.append(config)
        return "yes_no"

    w.voice_check = check
    return w


def test_the_check_is_offered_and_its_mode_kept() -> None:
    checks: list[TableConfig] = []
    w = wizard(["1"], "both", checks)
    voice_check_question(w)
    assert len(checks) == 1 and w.config.voice_mode == "yes_no"
    assert w.io.told[-1] == "Voice mode: yes_no (narrator listen --check runs it again)."  # type: ignore[attr-defined]


def test_the_check_can_be_skipped() -> None:
    checks: list[TableConfig] = []
    w = wizard([""], "voice", checks)
    voice_check_question(w)
    assert checks == [] and w.config.voice_mode == "voice"


def test_no_question_for_the_keypad_alone_or_without_a_check() -> None:
    checks: list[TableConfig] = []
    w = wizard([], "keypad", checks)
    voice_check_question(w)
    assert checks == [] and w.io.questions == []  # type: ignore[attr-defined]
    plain = Wizard(ScriptedAsker([]), TableConfig(inputs="both"), ["en"])
    voice_check_question(plain)
    assert plain.io.questions == []  # type: ignore[attr-defined]
