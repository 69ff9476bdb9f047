"""`narrator doctor`: one line per check, pass or FAIL with its fix, never a traceback."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.table.doctor import check_keypad, check_voices

REPO = Path(__file__).resolve().parents[2]


def doctor(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "narrator", "doctor", *args], capture_output=True, text=True,
                          timeout=60, env={**os.environ, **(env or {})})


def test_every_line_is_pass_or_fail_with_a_fix() -> None:
    proc = doctor("--no-keypad")
    assert proc.stderr == ""
    lines = proc.stdout.strip().splitlines()
    checks, summary = lines[:-1], lines[-1]
    names = [line[6:].split(":")[0] for line in checks]
    assert names[:4] == ["audio output", "speech engine", "microphone", "TTS voice (en)"]
    assert any(n.startswith("speech model") for n in names)
    for line in checks:
        assert line.startswith(("pass  ", "FAIL  ")), line
        if line.startswith("FAIL"):
            assert " -> fix: " in line, line
    failed = sum(line.startswith("FAIL") for line in checks)
    assert summary == f"{len(checks) - failed} passed, {failed} failed"
    assert proc.returncode == (1 if failed else 0)


def test_a_pack_whose_voice_is_missing_fails_with_the_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for lang, voice in (("en", None), ("zz", "no-such-voice")):
        (tmp_path / lang).mkdir()
        text = (REPO / "voices" / "en" / "pack.toml").read_text()
        if voice:
            text = text.replace('voice = "en"', f'voice = "{voice}"')
        (tmp_path / lang / "pack.toml").write_text(text)
    monkeypatch.setenv("NARRATOR_VOICES", str(tmp_path))
    lines = [c.line() for c in check_voices()]
    assert lines[0] == "pass  TTS voice (en): voice 'en' found"
    assert lines[1].startswith("FAIL  TTS voice (zz): voice 'no-such-voice' not found -> fix: ")
    assert str(tmp_path / "zz" / "pack.toml") in lines[1]


def test_keypad_check_with_a_key_and_without() -> None:
    out = io.StringIO()
    assert check_keypad(lambda wait: "7", out)[0].line() == "pass  keypad: got 7"
    failed = check_keypad(lambda wait: None, out)[0]
    assert not failed.ok and "NumLock" in failed.fix
    assert check_keypad(None, out)[0].line().startswith("FAIL  keypad: not checked: this is not a terminal")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (scripts/setup.sh installs it)")
def test_keypad_check_in_a_real_terminal(tmp_path: Path) -> None:
    from tests.table.tmux import Tmux

    t = Tmux([sys.executable, "-m", "narrator", "doctor"], tmp_path, {"PYTHONPATH": str(REPO)})
    try:
        t.wait("Press a key on the keypad")
        t.send("7")
        screen = t.wait("passed,")
        assert "pass  keypad: got 7" in screen
    finally:
        t.close()
