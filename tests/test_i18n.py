"""The program's printed words in the table's language (narrator/i18n.py)."""

from __future__ import annotations

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
