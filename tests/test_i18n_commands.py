"""The commands' printed words in the table's language: simulate, balance, history,
voices, models and listen print every line through `tr` (narrator/i18n.py).

A pseudo-language `xx` is built in a temporary voices folder: its catalogue translates every template
of these commands' sources mechanically (each one wrapped in ⟪ ⟫), and its pack is the English one with
every text wrapped the same way. Whatever a command prints outside ⟪ ⟫ is then a slot's value (a number,
a path, a key) or a line that bypassed `tr`; an English word there fails the test.
"""

from __future__ import annotations

import ast
import functools
import json
import re
from pathlib import Path
from typing import Iterator

import pytest

from narrator import i18n
from narrator.cli import main
from narrator.packs import packs_root

REPO = Path(__file__).resolve().parents[1]
TEXT = re.compile(r'"((?:[^"\\]|\\.)*)"')
# Words of the English templates that are names here (a pack's own name is not translated).
ALLOWED = {"narrator", "MB", "Hz", "Ctrl", "Enter", "sox", "pip", "espeak", "piper", "Piper", "Vosk", "SHA", "WAV"}


@functools.cache
def templates() -> frozenset[str]:
    """Every literal template given to `tr` or `marked` in the package (as `python -m narrator.messages` collects
    them; an error's template is printed as it is here, and checked by tests/test_no_english.py). Read
    once: each test's catalogue is made from it, and parsing the whole package took a second a test."""
    found: set[str] = set()
    for source in sorted((REPO / "narrator").rglob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name in ("tr", "marked") and node.args and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[0].value, str):
                found.add(node.args[0].value)
    return frozenset(found)


def pseudo(text: str) -> str:
    """`text` in the pseudo-language: wrapped in ⟪ ⟫, its slots kept as they are."""
    return f"⟪{text}⟫"


def toml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


@pytest.fixture
def xx(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    root = tmp_path / "voices"
    root.mkdir()
    for pack in packs_root().iterdir():
        if (pack / "pack.toml").is_file():
            (root / pack.name).symlink_to(pack)
    (root / "xx").mkdir()
    lines, section = [], ""
    for line in (packs_root() / "en" / "pack.toml").read_text(encoding="utf-8").splitlines():
        if line.startswith("["):
            section = line
        key, sep, value = line.partition(" = ")
        if section == "[pack]" and key == "language":
            value = '"xx"'
        elif section not in ("[pack]", "[numbers]", "[listening]") and sep and not line.startswith("#"):
            value = TEXT.sub(lambda m: '"⟪' + m.group(1) + '⟫"', value)
        lines.append(key + sep + value)
    (root / "xx" / "pack.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    catalogue = "[messages]\n" + "".join(f"{toml_string(t)} = {toml_string(pseudo(t))}\n" for t in sorted(templates()))
    (root / "xx" / "messages.toml").write_text(catalogue, encoding="utf-8")
    monkeypatch.setenv("NARRATOR_VOICES", str(root))
    monkeypatch.setenv("NARRATOR_LANG", "xx")
    monkeypatch.setenv("COLUMNS", "1000")  # Rich wraps no line: each is checked whole
    monkeypatch.setenv("NARRATOR_DATA", str(tmp_path / "data"))
    i18n.catalogue.cache_clear()
    i18n.set_language("xx")
    yield root
    i18n.set_language(i18n.REFERENCE)
    i18n.catalogue.cache_clear()


def english_words(output: str) -> list[str]:
    """Words outside ⟪ ⟫ that are not identifiers, numbers or names: English that bypassed `tr`."""
    from narrator.packs import available_languages, load_pack

    packs = [load_pack(lang) for lang in available_languages()]
    names = {word for p in packs for word in re.findall(r"\w+", f"{p.name} {p.language} {p.voice}")}
    found = []
    # Rich wraps a long table title: a translated text may span lines; a slot may hold a translated text.
    bare_output = re.sub(r"⟪[^⟪⟫]*⟫", " ", re.sub(r"⟪[^⟪⟫]*⟫", " ", output))
    for line in bare_output.splitlines():
        for token in line.split():
            token = token.strip(".,:;()!?")
            if any(c in token for c in "_-/.=:'\"`[]()"):
                continue  # a path, a key, a flag, a quoted value
            for word in re.findall(r"[^\W\d_]{2,}", token):
                if word.isascii() and word not in ALLOWED and word not in names:
                    found.append(f"{word!r} in {line.strip()!r}")
    return found


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    out = capsys.readouterr()
    assert code in (0, 1), (argv, code, out)
    return out.out + out.err


def history_db(tmp_path: Path) -> Path:
    from narrator.history import db
    from narrator.history.record import from_events
    from narrator.rules import Game, Options, Role
    from narrator.rules.composition import Deal
    from tests.history.test_history import village_wins_five

    path = tmp_path / "history.sqlite3"
    conn = db.connect(path)
    stopped = Game.start(Deal((Role.WEREWOLF, Role.SEER, Role.VILLAGER, Role.VILLAGER, Role.VILLAGER)), Options())
    for n, events in enumerate([village_wins_five().events, stopped.events]):
        db.save(conn, from_events({"language": "xx", "n": n}, events, started_at=f"2026-11-24T10:0{n}"))
    conn.close()
    return path


def test_the_pseudo_language_catches_a_line_that_bypasses_tr(xx: Path) -> None:
    """The check itself: a translated line passes, the same line printed in English fails."""
    line = i18n.tr("Games to remove: {count}", count=2)
    assert line == "⟪Games to remove: 2⟫" and english_words(line) == []
    assert english_words("Games to remove: 2") == ["'Games' in 'Games to remove: 2'", "'to' in 'Games to remove: 2'",
                                                   "'remove' in 'Games to remove: 2'"]


def test_simulate_and_balance_print_in_the_tables_language(xx: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "simulate", "--players", "6", "--games", "20")  # 6 players: the deck's warning too
    assert "⟪note: ⟪6 players: the game is best with 8 to 18⟫⟫" in out and "⟪the village⟫" in out, out
    assert english_words(out) == [], out
    out = run(capsys, "balance", "--players", "12", "--budget", "0.3")
    assert "⟪verdict: " in out and ("⟪Werewolf⟫" in out or "⟪Werewolves⟫" in out), out
    assert english_words(out) == [], out


def test_history_prints_in_the_tables_language(xx: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(history_db(tmp_path))
    for argv in (["history", "--db", path], ["history", "1", "--db", path], ["history", "2", "--db", path],
                 ["history", "--stats", "--db", path], ["history", "delete", "2", "--db", path, "--yes"],
                 ["history", "prune", "--abandoned", "--db", path, "--yes"]):
        out = run(capsys, *argv)
        assert out.strip() and english_words(out) == [], (argv, out)


def test_voices_and_models_print_in_the_tables_language(xx: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["voices", "list"], ["voices", "check"], ["voices", "new", "zz"], ["voices", "fill", "zz"],
                 ["models", "list"], ["models", "path"]):
        # The lines on xx's messages.toml (its catalogue here holds only the tr/marked templates, not
        # every help text) are the catalogue check's, which tests/test_no_english.py covers.
        out = "\n".join(line for line in run(capsys, *argv).splitlines() if "[messages]" not in line)
        assert "⟪" in out and english_words(out) == [], (argv, out)


def test_voices_check_prints_a_packs_problems_and_summary_in_the_tables_language(
        xx: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (xx / "yy").mkdir()
    text = (packs_root() / "en" / "pack.toml").read_text(encoding="utf-8")
    (xx / "yy" / "pack.toml").write_text(text.replace('language = "en"', 'language = "yy"', 1)
                                         .replace('"seer.wake" =', '"seer.woke" =', 1), encoding="utf-8")
    out = "\n".join(line for line in run(capsys, "voices", "check").splitlines() if "[messages]" not in line)
    assert "⟪{where}: missing key {key!r}⟫".format(where=f"yy ({xx / 'yy' / 'pack.toml'}) [lines]", key="seer.wake") \
        in out, out
    assert "⟪yy (English): 0 untranslated, 1 missing, 0 slot-broken, 1 other⟫" in out, out
    assert english_words(out) == [], out
