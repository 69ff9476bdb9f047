"""`narrator say` and `narrator voices`: outputs, exit codes, and one clear line on every mistake."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import wave
from pathlib import Path

import pytest

from narrator.packs import available_languages, packs_root

pytestmark = pytest.mark.slow  # commands run as child processes

HERE = Path(__file__).resolve().parent


def narrator(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    full = dict(os.environ)
    full.update(env or {})
    return subprocess.run([sys.executable, "-m", "narrator", *args], env=full, capture_output=True, text=True, timeout=timeout)


def one_clear_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 1, proc
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("narrator: ")
    return lines[0]


@pytest.fixture
def cache(tmp_path: Path) -> dict[str, str]:
    return {"NARRATOR_CACHE": str(tmp_path / "cache")}


def test_say_to_a_file(tmp_path: Path, cache: dict[str, str]) -> None:
    out = tmp_path / "line.wav"
    proc = narrator("say", "--lang", "fr", "--to", str(out), "La", "nuit", "tombe.", env=cache)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""  # the engine's own chatter is silenced
    with wave.open(str(out)) as w:
        assert w.getframerate() == 22050 and w.getnframes() > 22050 * 0.5
    key = tmp_path / "key.wav"
    proc = narrator("say", "--lang", "es", "--to", str(key), "--key", "day.death", "--slot", "seat=7", env=cache)
    assert proc.returncode == 0, proc.stderr and key.is_file()


@pytest.mark.xdist_group("audio")
def test_say_plays_through_an_output_device(tmp_path: Path, cache: dict[str, str]) -> None:
    out = tmp_path / "played.wav"
    env = dict(cache, ALSA_CONFIG_PATH=f"/usr/share/alsa/alsa.conf:{HERE / 'alsa_file_devices.conf'}", VOICE_OUTFILE=str(out))
    proc = narrator("say", "--output-device", "default", "Seat three.", env=env)
    assert proc.returncode == 0, proc.stderr
    with wave.open(str(out)) as w:
        assert w.getnframes() > 22050 * 0.5


def test_say_without_an_output_device(cache: dict[str, str]) -> None:
    env = dict(cache, ALSA_CONFIG_PATH="/usr/share/alsa/alsa.conf")
    probe = subprocess.run([sys.executable, "-c", "import sounddevice as sd; print(sum(d['max_output_channels'] > 0 for d in sd.query_devices()))"],
                           env=dict(os.environ, **env), capture_output=True, text=True)
    if probe.stdout.strip() != "0":
        pytest.skip("this machine has a sound card: the no-device path cannot be reached")
    line = one_clear_line(narrator("say", "Hello.", env=env))
    assert "no audio output device" in line and "--to FILE.wav" in line and "narrator doctor" in line


def test_say_mistakes_get_one_line(tmp_path: Path, cache: dict[str, str]) -> None:
    assert "'xx'" in one_clear_line(narrator("say", "--lang", "xx", "Hi.", env=cache))
    assert ".wav" in one_clear_line(narrator("say", "--to", str(tmp_path / "a.mp3"), "Hi.", env=cache))
    assert "no.such" in one_clear_line(narrator("say", "--to", str(tmp_path / "a.wav"), "--key", "no.such", env=cache))
    assert "--duck-db" in one_clear_line(narrator("say", "--duck-db", "90", "Hi.", env=cache))


def _broken_packs(tmp_path: Path) -> Path:
    root = tmp_path / "voices"
    shutil.copytree(packs_root(), root)
    return root


def test_voices_check_passes_on_the_shipped_packs() -> None:
    proc = narrator("voices", "check")
    assert proc.returncode == 0, proc.stderr
    assert f"voice packs: {len(available_languages())} (" in proc.stdout


def test_voices_check_names_the_missing_key(tmp_path: Path) -> None:
    root = _broken_packs(tmp_path)
    it = root / "it" / "pack.toml"
    it.write_text(it.read_text(encoding="utf-8").replace('"witch.sleep" = "Strega, torna a dormire."\n', ""), encoding="utf-8")
    proc = narrator("voices", "check", env={"NARRATOR_VOICES": str(root)})
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "it (" in proc.stderr and "missing key 'witch.sleep'" in proc.stderr


def test_an_unknown_voice_id_names_the_fix(tmp_path: Path, cache: dict[str, str]) -> None:
    root = _broken_packs(tmp_path)
    fr = root / "fr" / "pack.toml"
    fr.write_text(fr.read_text(encoding="utf-8").replace('voice = "fr"', 'voice = "fr-klingon"'), encoding="utf-8")
    env = dict(cache, NARRATOR_VOICES=str(root))
    line = one_clear_line(narrator("say", "--lang", "fr", "--to", str(tmp_path / "x.wav"), "Bonjour.", env=env))
    assert "'fr-klingon'" in line and "narrator voices list" in line
    proc = narrator("voices", "check", env=env)
    assert proc.returncode == 1 and "'fr-klingon' is not installed" in proc.stderr


def test_a_broken_pack_names_the_file(tmp_path: Path, cache: dict[str, str]) -> None:
    root = _broken_packs(tmp_path)
    (root / "ko" / "pack.toml").write_text("[pack\n", encoding="utf-8")
    env = dict(cache, NARRATOR_VOICES=str(root))
    line = one_clear_line(narrator("--lang", "en", "say", "--lang", "ko", "--to", str(tmp_path / "x.wav"), "안녕.", env=env))
    assert "ko/pack.toml" in line and "cannot be read" in line


def test_voices_list_shows_every_pack_and_whether_installed() -> None:
    proc = narrator("voices", "list", env={"COLUMNS": "160"})
    assert proc.returncode == 0, proc.stderr
    for lang, voice in (("en", "en"), ("fr", "fr"), ("es", "es"), ("it", "it"), ("ko", "ko")):
        assert any(row.split("│")[1].strip() == lang and row.split("│")[3].strip() == voice and row.split("│")[7].strip() == "yes"
                   for row in proc.stdout.splitlines() if row.count("│") >= 8), proc.stdout


def test_voices_render_names_a_bad_players_count(cache: dict[str, str]) -> None:
    # That `voices render` fills the cache once: tests/speech/test_render_pool.py, with its own render.
    assert "--players" in one_clear_line(narrator("voices", "render", "--players", "99", env=cache))
