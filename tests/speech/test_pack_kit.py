"""The kit for a new language: `narrator voices new LANG` and what `narrator voices check` says of a pack."""

from __future__ import annotations

import json

import re
import shutil
import sys
from pathlib import Path

import pytest

from narrator.errors import UsageError
from narrator.packkit import create_pack, new_pack_text
from narrator.packs import UNTRANSLATED, available_languages, check_packs, load_pack, packs_root
from tests.speech.test_speech_cli import narrator, one_clear_line

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A voices folder holding only the English pack."""
    base = tmp_path / "voices"
    (base / "en").mkdir(parents=True)
    shutil.copyfile(packs_root() / "en" / "pack.toml", base / "en" / "pack.toml")
    return base


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_new_pack_has_every_english_key_each_marked(root: Path) -> None:
    path = create_pack("de", root)
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    en_raw = tomllib.loads((root / "en" / "pack.toml").read_text(encoding="utf-8"))
    for section in ("roles", "sides", "numbers", "words", "lines", "panel", "rules"):
        assert list(raw[section]) == list(en_raw[section]), section  # every key, in the English order
        for key, value in raw[section].items():
            for text in value if isinstance(value, list) else [value]:
                assert text.startswith(UNTRANSLATED), (section, key)
    assert raw["pack"]["language"] == "de"
    # Loaded, it reads as the English pack (so a pack half done still plays), with every entry listed.
    de, en = load_pack("de", root), load_pack("en", root)
    assert dict(de.lines) == dict(en.lines) and dict(de.panel) == dict(en.panel)
    assert dict(de.roles) == dict(en.roles) and dict(de.rules) == dict(en.rules)
    assert de.number_variants == en.number_variants and de.seat_forms == en.seat_forms
    assert "[lines] night.falls" in de.untranslated and "[numbers] 7" in de.untranslated
    assert en.untranslated == ()
    # The English comments stay, line for line.
    assert "# Slots: {seat} {other} a seat number" in path.read_text(encoding="utf-8")


def test_the_copy_keeps_every_value_exact() -> None:
    """Quotes, backslashes and non-ASCII survive the copy (JSON strings written as TOML strings)."""
    reference = '[pack]\nlanguage = "en"\nvoice = "en"\n[lines]\n"a.b" = "Say \\"no\\" … \\\\ ok"  # note\nc = ["x", "y"]\n'
    raw = tomllib.loads(new_pack_text(reference, "nl"))
    assert raw["lines"] == {"a.b": UNTRANSLATED + 'Say "no" … \\ ok', "c": [UNTRANSLATED + "x", UNTRANSLATED + "y"]}


@pytest.mark.slow
def test_voices_new_then_check_lists_every_untranslated_line(root: Path) -> None:
    env = {"NARRATOR_VOICES": str(root)}
    made = narrator("voices", "new", "pl", env=env)
    assert made.returncode == 0, made.stderr
    proc = narrator("voices", "check", env=env)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "[lines] night.falls: untranslated" in proc.stderr
    total = len(load_pack("pl", root).untranslated)
    assert re.search(rf"pl \(pl\): {total} untranslated, 0 missing, 0 slot-broken", proc.stderr), proc.stderr


@pytest.mark.slow
def test_voices_new_refuses_a_bad_tag_and_an_existing_pack(root: Path) -> None:
    env = {"NARRATOR_VOICES": str(root)}
    assert "'German' is not a language tag" in one_clear_line(narrator("voices", "new", "German", env=env))
    assert "a en pack already exists" in one_clear_line(narrator("voices", "new", "en", env=env))
    with pytest.raises(UsageError):
        create_pack("../x", root)


def _translated(root: Path) -> Path:
    """A pack that passes: the English one under another language tag."""
    path = root / "xx" / "pack.toml"
    path.parent.mkdir()
    text = (root / "en" / "pack.toml").read_text(encoding="utf-8").replace('language = "en"', 'language = "xx"', 1)
    path.write_text(text, encoding="utf-8")
    assert check_packs(root) == []
    return path


def test_check_fails_on_a_missing_key(root: Path) -> None:
    path = _translated(root)
    _edit(path, '"seer.sleep" = "Seer, go back to sleep."\n', "")
    assert check_packs(root) == [f"xx ({path}) [lines]: missing key 'seer.sleep'"]


def test_check_fails_on_a_broken_slot(root: Path) -> None:
    path = _translated(root)
    _edit(path, '"vote.eliminated" = "Seat {seat} is eliminated."', '"vote.eliminated" = "Seat {set} is eliminated."')
    problems = check_packs(root)
    assert len(problems) == 1 and "key 'vote.eliminated': missing slots {seat}; unknown slots {set}" in problems[0]


def test_check_fails_on_an_untranslated_line(root: Path) -> None:
    path = _translated(root)
    _edit(path, '"seer.sleep" = "Seer', f'"seer.sleep" = "{UNTRANSLATED}Seer')
    _edit(path, 'yes = ["yes"]', f'yes = ["yes", "{UNTRANSLATED}yeah"]')
    assert check_packs(root) == [f"xx ({path}) [words] yes: untranslated (still marked '[untranslated]')",
                                 f"xx ({path}) [lines] seer.sleep: untranslated (still marked '[untranslated]')"]


def test_pyproject_ships_every_pack() -> None:
    """An installed narrator finds only the packs (and message catalogues) pyproject.toml lists: a new
    pack must be added there, with its messages.toml once it has one."""
    listed = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["data-files"]
    for lang in available_languages():
        files = [f"voices/{lang}/{name}" for name in ("pack.toml", "messages.toml") if (REPO / "voices" / lang / name).is_file()]
        assert listed.get(f"share/narrator/voices/{lang}") == files, (
            f"add \"share/narrator/voices/{lang}\" = {json.dumps(files)} under [tool.setuptools.data-files]")


@pytest.mark.slow
def test_fill_adds_the_lines_english_gained_in_the_english_place(root: Path) -> None:
    """After English gains keys (new lines come to English first),
    'voices fill' puts each one, marked, where English has it."""
    shutil.copytree(packs_root() / "de", root / "de")
    en = root / "en" / "pack.toml"
    _edit(en, '"seer.sleep" = "Seer, go back to sleep."\n',
          '"seer.sleep" = "Seer, go back to sleep."\n"seer.dream" = "Seer, dream of seat {seat}."\n')
    _edit(en, '[words]\n', '[words]\nmaybe = ["maybe", "perhaps"]\n')
    before = check_packs(root, ["de"])
    assert any("missing key 'seer.dream'" in p for p in before) and any("missing key 'maybe'" in p for p in before)
    proc = narrator("voices", "fill", "de", env={"NARRATOR_VOICES": str(root)})
    assert proc.returncode == 0 and "marked untranslated: 2" in proc.stdout, proc.stderr
    text = (root / "de" / "pack.toml").read_text(encoding="utf-8")
    assert ('"seer.sleep" = "Seherin, schlaf wieder ein."\n"seer.dream" = "[untranslated] Seer, dream of seat {seat}."\n'
            in text)
    assert 'maybe = ["[untranslated] maybe", "[untranslated] perhaps"]' in text
    de = load_pack("de", root)
    assert de.untranslated == ("[words] maybe", "[lines] seer.dream")
    assert [p for p in check_packs(root, ["de"]) if "untranslated" not in p] == []
    again = narrator("voices", "fill", "de", env={"NARRATOR_VOICES": str(root)})
    assert again.returncode == 0 and "no line missing" in again.stdout
