"""The printed words by the language's own rules: balance's plurals and numbers (CLDR, through Babel),
a refused number said in the table's language, and the catalogues to and from gettext .po files."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from narrator.cli import main
from narrator.packs import check_packs, read_catalogue


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_balance_in_german_writes_plurals_and_numbers_as_a_german_reads_them(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "balance", "--players", "12", "--lang", "de")
    assert code == 0
    assert "Werwölfe" in out and "3 Werwolf," not in out
    assert re.search(r"\d{1,3}(\.\d{3})+\b", out) and not re.search(r"\d,\d{3}\b", out)  # 1.000, never 1,000
    assert re.search(r"\d\u00a0%", out)  # 51 %


def test_balance_in_russian_writes_plurals_and_numbers_as_a_russian_reads_them(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "balance", "--players", "12", "--lang", "ru")
    assert code == 0
    assert re.search(r"\b[234] Оборотня\b", out) and "3 Оборотень" not in out
    assert re.search(r"\b(Мирных жителей|Мирных жителя)\b", out)
    assert re.search(r"\d\u00a0\d{3}\b", out) and not re.search(r"\d,\d{3}\b", out)  # 1 000


@pytest.mark.parametrize("lang", ["de", "fr", "ru", "ja", "zh", "pl"])
def test_a_refused_number_is_said_in_the_language_without_pythons_type_name(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "--lang", lang, "balance", "--players", "x")
    assert code == 2 and "'x'" in err
    assert not re.search(r"\bint\b", err), err


def _voices(tmp_path: Path, *langs: str) -> Path:
    root = tmp_path / "voices"
    source = Path(__file__).resolve().parents[1] / "voices"
    for lang in langs:
        shutil.copytree(source / lang, root / lang)
    return root


def test_a_catalogue_goes_to_a_po_file_and_back_unchanged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from babel.messages.pofile import read_po

    root = _voices(tmp_path, "en", "de")
    monkeypatch.setenv("NARRATOR_VOICES", str(root))
    before = read_catalogue(root / "de" / "messages.toml")
    po = tmp_path / "de.po"
    assert _run(capsys, "voices", "po", "export", "de", str(po))[0] == 0
    with po.open("rb") as f:
        catalog = read_po(f)  # what Poedit and Weblate read
    assert catalog.locale is not None and str(catalog.locale) == "de"
    assert catalog.plural_forms == "nplurals=2; plural=(n != 1);"
    slot = catalog.get("no game number {gid} in the history; 'narrator history' lists them")
    assert slot is not None and "python-brace-format" in slot.flags and "{gid}" in slot.string
    assert _run(capsys, "voices", "po", "import", "de", str(po))[0] == 0
    assert read_catalogue(root / "de" / "messages.toml") == before
    assert check_packs(root, ["de"]) == []


def test_a_po_file_edited_elsewhere_comes_back_and_voices_check_judges_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    root = _voices(tmp_path, "en", "de")
    monkeypatch.setenv("NARRATOR_VOICES", str(root))
    po = tmp_path / "de.po"
    _run(capsys, "voices", "po", "export", "de", str(po))
    text = po.read_text(encoding="utf-8")
    key = 'msgid "no game number {gid} in the history; \'narrator history\' lists them"\n'
    start = text.index(key) + len(key)
    end = text.index("\n", start)
    po.write_text(text[:start] + 'msgstr "keine Partie {gid}"' + text[end:], encoding="utf-8")
    assert _run(capsys, "voices", "po", "import", "de", str(po))[0] == 0
    assert read_catalogue(root / "de" / "messages.toml")[key[7:-2].replace("\\'", "'")] == "keine Partie {gid}"
    # A translation that loses a slot is written, and the one gate names it.
    po.write_text(text[:start] + 'msgstr "keine Partie"' + text[end:], encoding="utf-8")
    code, out, _ = _run(capsys, "voices", "po", "import", "de", str(po))
    assert code == 1 and "{gid}" in out
    assert any("gid" in p for p in check_packs(root, ["de"]))
