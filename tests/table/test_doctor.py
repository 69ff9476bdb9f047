"""`narrator doctor`: one line per check, pass or FAIL with its fix, never a traceback."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.packs import available_languages
from tests.table.tmux import needs_tmux

from narrator.table.doctor import Check, check_keypad, check_voices, run_doctor

REPO = Path(__file__).resolve().parents[2]


def doctor(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "narrator", "doctor", *args], capture_output=True, text=True,
                          timeout=600, env={**os.environ, **(env or {})})


@pytest.mark.slow
def test_every_line_is_pass_warn_or_fail_with_a_fix() -> None:
    proc = doctor("--no-keypad")
    assert proc.stderr == ""
    lines = proc.stdout.strip().splitlines()
    checks, summary = lines[:-3], lines[-3]
    names = [line[6:].split(":")[0] for line in checks]
    assert names[:3] == ["audio output", "speech engine", "microphone"]
    assert names[3:3 + len(available_languages())] == [f"TTS voice ({lang})" for lang in available_languages()]
    assert any(n.startswith("speech model") for n in names)
    for line in checks:
        assert line.startswith(("pass  ", "warn  ", "FAIL  ")), line
        if not line.startswith("pass"):
            assert " -> fix: " in line, line
    failed = sum(line.startswith("FAIL") for line in checks)
    warned = sum(line.startswith("warn") for line in checks)
    assert summary == f"{len(checks) - failed - warned} passed, {warned} warnings, {failed} failed"
    assert proc.returncode == (1 if failed else 0)


def test_a_pack_whose_voice_is_missing_warns_with_the_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for lang, voice in (("en", None), ("zz", "no-such-voice")):
        (tmp_path / lang).mkdir()
        text = (REPO / "voices" / "en" / "pack.toml").read_text()
        if voice:
            text = text.replace('voice = "en"', f'voice = "{voice}"')
        (tmp_path / lang / "pack.toml").write_text(text)
    monkeypatch.setenv("NARRATOR_VOICES", str(tmp_path))
    lines = [c.line() for c in check_voices()]
    assert lines[0] == "pass  TTS voice (en): voice 'en' found"
    assert lines[1].startswith("warn  TTS voice (zz): voice 'no-such-voice' not found (games in this language cannot be spoken) -> fix: ")
    assert str(tmp_path / "zz" / "pack.toml") in lines[1]


def test_keypad_check_with_a_key_and_without() -> None:
    out = io.StringIO()
    assert check_keypad(lambda wait: "7", out)[0].line() == "pass  keypad: got 7"
    failed = check_keypad(lambda wait: None, out)[0]
    assert not failed.ok and "NumLock" in failed.fix
    assert check_keypad(None, out)[0].line().startswith("FAIL  keypad: not checked: this is not a terminal")


@pytest.mark.xdist_group("terminal")
@pytest.mark.slow
@needs_tmux
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


def test_optional_items_warn_and_keypad_play_exits_0() -> None:
    """No microphone and no speech model: warnings; the verdict says keypad play is ready; exit 0."""
    out = io.StringIO()
    code = run_doctor(out, keypad=False, checks_to_run=(
        lambda: [Check("audio output", True, "1 device(s): speakers"), Check("speech engine", True, "installed")],
        lambda: [Check("microphone", True, "1 device(s): usb mic")],
        lambda: [Check("TTS voice (en)", True, "voice 'en' found")],
        lambda: [Check("speech model (en)", False, "none installed", "run 'narrator models fetch en'", optional=True)],
    ))
    text = out.getvalue()
    assert code == 0, text
    assert "warn  speech model (en): none installed" in text
    assert "FAIL" not in text
    assert "keypad play: ready" in text and "--no-audio" in text and "--text" in text
    assert "voice answers: no model; get one with 'narrator models fetch en'" in text


@pytest.mark.slow
def test_no_speaker_names_text_and_no_audio_through_the_cli() -> None:
    """Through the command line: the speech models never FAIL, and the verdict names the ways to play."""
    proc = doctor("--no-keypad", env={"NARRATOR_MODELS": "/nonexistent-models"})
    assert "FAIL  speech model" not in proc.stdout
    assert "FAIL  microphone" not in proc.stdout
    assert "keypad play" in proc.stdout and "voice answers:" in proc.stdout
    assert "--no-audio" in proc.stdout and "--text" in proc.stdout
