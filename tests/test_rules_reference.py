"""The project's own rules reference, `narrator rules` and docs/rules.md.

The role list and option keys come from the engine, the words from the packs: the reference
cannot leave a role or an option out, and a pack that lacks a text is caught by the pack check.
"""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.cli import main
from narrator.packs import check_packs, load_pack, packs_root
from narrator.reference import option_values, pending_keys, render_rules, required_keys
from narrator.rules import Options, Role
from narrator.rules.options import CHOICES, TEXTS

REPO = Path(__file__).resolve().parent.parent
LANGUAGES = ["en", "es", "fr", "it", "ko"]


def rules_output(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["rules", *argv]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def test_rules_lists_every_role_and_every_option_with_its_values(capsys: pytest.CaptureFixture[str]) -> None:
    out = rules_output(capsys)
    en = load_pack("en")
    for role in Role:
        assert f"### {en.role_name(role.value)} (`{role.value}`)" in out
    assert "### Sheriff" in out
    for f in dataclasses.fields(Options):
        assert f"### `{f.name}`" in out
        for value in option_values(f.name):
            assert f"- `{value}`" in out, (f.name, value)
        if f.name in TEXTS:  # a text of its own (the Sectarian's groups): its option text explains it
            continue
        default = getattr(Options(), f.name)
        shown = ("true" if default else "false") if isinstance(default, bool) else default
        assert f"- `{shown}` (default):" in out
    for key, values in CHOICES.items():
        assert set(values) <= set(option_values(key))
    assert "RULES.md" not in out


@pytest.mark.parametrize("lang, words", [
    ("fr", ("Référence des règles", "### Voyante (`seer`)", "(par défaut)", "### Capitaine", "le village")),
    ("es", ("Referencia de las reglas", "### Vidente (`seer`)", "(por defecto)", "### Alguacil")),
    ("it", ("Riferimento delle regole", "### Veggente (`seer`)", "(predefinito)", "### Capitano")),
    ("ko", ("규칙 안내", "### 예언자 (`seer`)", "(기본값)", "### 촌장")),
])
def test_rules_in_the_tables_language(capsys: pytest.CaptureFixture[str], lang: str,
                                                      words: tuple[str, ...]) -> None:
    out = rules_output(capsys, "--lang", lang)
    for word in words:
        assert word in out, word
    assert "Rules reference" not in out and "Team:" not in out


def test_docs_page_is_what_the_generator_makes() -> None:
    page = REPO / "docs" / "rules.md"
    assert page.is_file(), "docs/rules.md is missing: narrator rules --lang en > docs/rules.md"
    assert page.read_text(encoding="utf-8") == render_rules(load_pack("en")), (
        "docs/rules.md is stale: run  narrator rules --lang en > docs/rules.md")


def test_every_pack_has_every_text_the_engine_needs() -> None:
    keys = required_keys()
    assert len(keys) == len(set(keys))
    for role in Role:
        assert f"role.{role.value}" in keys
    for f in dataclasses.fields(Options):
        assert f"option.{f.name}" in keys
    for lang in LANGUAGES:
        pack = load_pack(lang)
        assert [k for k in keys if not pack.rules.get(k, "").strip()] == [], lang
        # No stray text: a role or option not played is shown apart (pending), and only roles and options.
        assert set(pack.rules) == set(keys) | set(pending_keys(pack)), lang
        assert all(k.startswith(("role.", "option.", "value.")) for k in pending_keys(pack)), lang


def test_a_missing_text_is_named_by_the_pack_check(tmp_path: Path) -> None:
    root = tmp_path / "voices"
    shutil.copytree(packs_root(), root)
    fr = root / "fr" / "pack.toml"
    text = fr.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith('"role.thief"'))
    fr.write_text(text.replace(line + "\n", ""), encoding="utf-8")
    problems = check_packs(root)
    assert any("fr" in p and "[rules]" in p and "role.thief" in p for p in problems), problems


@pytest.mark.slow
def test_readme_and_simulate_help_point_to_the_reference() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "RULES.md" not in readme
    assert "narrator rules" in readme and "docs/rules.md" in readme
    done = subprocess.run([sys.executable, "-m", "narrator", "simulate", "--help"], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0
    assert "RULES.md" not in done.stdout and "narrator rules" in done.stdout


def test_rules_default_to_the_remembered_tables_language(capsys: pytest.CaptureFixture[str]) -> None:
    from narrator.table.config import TableConfig, config_path, save_config

    assert rules_output(capsys).startswith("# Rules reference")  # no table remembered: English
    save_config(dataclasses.replace(TableConfig(), language="it"), config_path())
    assert rules_output(capsys).startswith("# Riferimento delle regole")
    assert rules_output(capsys, "--lang", "es").startswith("# Referencia de las reglas")


def test_every_role_shows_its_moons_in_the_reference() -> None:
    from narrator.roles import CARDS

    text = render_rules(load_pack("en"))
    for role in Role:
        section = text[text.index(f"(`{role.value}`)"):]
        line = section.splitlines()[2]
        moons = CARDS[role].moons
        assert line.endswith(f"Moons (our judgement; 1 = for new players, 3 = hardest): {'☾' * moons} ({moons}).*"), role
