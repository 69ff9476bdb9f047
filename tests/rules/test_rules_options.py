"""Each role's rule options are declared once, in its module, and the engine's `Options` holds them as
typed fields written from those declarations: mypy refuses a word an option cannot take."""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path

import pytest
from mypy import api

from narrator.roles import MODULES
from narrator.roles.options import annotation, source
from narrator.rules.options import CHOICES, KINDS, NUMBERS, TEXTS, Options

OPTIONS_FILE = Path(__file__).resolve().parents[2] / "narrator" / "rules" / "options.py"


def test_the_engines_options_are_written_from_the_role_modules() -> None:
    text = OPTIONS_FILE.read_text(encoding="utf-8")
    assert source(text, MODULES.values()) == text, "run .venv/bin/python scripts/options.py"


def test_every_role_option_is_a_typed_field_with_its_declared_default_and_values() -> None:
    fields = {f.name: f for f in dataclasses.fields(Options)}
    hints = typing.get_type_hints(Options)
    declared = [option for module in MODULES.values() for option in module.options]
    assert len({o.key for o in declared}) == len(declared)  # each option declared once
    for option in declared:
        assert fields[option.key].default == option.default, option.key
        assert annotation(option) in str(hints[option.key]).replace("'", '"') or hints[option.key] is option.kind
        if typing.get_origin(option.kind) is typing.Literal:
            assert CHOICES[option.key] == typing.get_args(option.kind)
        elif option.kind is int:
            assert NUMBERS[option.key] == option.span and option.default in option.span
        elif option.kind is str:
            assert TEXTS[option.key] is option.check
    assert set(KINDS) == set(fields)


# Seconds of the type checker a case: the slow tier (docs/testing.md).
@pytest.mark.slow
@pytest.mark.parametrize("word, refused", [("teams", True), ("team", False)])
def test_mypy_refuses_a_word_an_option_cannot_take(tmp_path: Path, word: str, refused: bool) -> None:
    snippet = tmp_path / "snippet.py"
    snippet.write_text("from narrator.rules.options import Options\n\n\n"
                       "def team_only(options: Options) -> bool:\n"
                       f"    return options.seer_sees != {word!r}\n", encoding="utf-8")
    out, _err, status = api.run(["--strict", "--follow-imports=silent", "--cache-dir", str(tmp_path / "cache"),
                                 str(snippet)])
    assert (status != 0) is refused, out
    if refused:
        assert "Non-overlapping equality check" in out and "Literal['teams']" in out
