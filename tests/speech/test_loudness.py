"""The levelling's loudness (narrator/speech/loudness.py) is pyloudnorm's to the last bit, at
a fraction of its cost and without importing scipy.signal; so every cached line stays byte for byte
what it was (real espeak-ng lines, noise, tones, silence, short words)."""

from __future__ import annotations

import subprocess
import sys
import wave
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from narrator.speech.loudness import PEAK_LIMIT, integrated_loudness, k_weighting, linear_filter, measure, normalise
from narrator.speech.render import write_wav

ROOT = Path(__file__).resolve().parents[2]


def pyloudnorm() -> ModuleType:
    """pyloudnorm, imported by the tests that compare with it: it imports scipy.signal (2 s), which
    every pytest worker would otherwise pay to collect this file."""
    import pyloudnorm as module

    return module


RATES = (22050, 16000, 44100, 48000)


def _old_measure(x: np.ndarray, rate: int) -> float:
    """narrator's measure before: pyloudnorm's meter, a fresh one per line."""
    x = np.asarray(x, dtype=np.float64)
    if len(x) == 0 or not np.any(x):
        return float("-inf")
    need = int(0.4 * rate) + 1
    if len(x) < need:
        x = np.tile(x, need // len(x) + 1)
    return float(pyloudnorm().Meter(rate).integrated_loudness(x))


def _old_normalise(audio: np.ndarray, rate: int, target: float) -> np.ndarray:
    x = np.asarray(audio, dtype=np.float64)
    level = _old_measure(x, rate)
    if not np.isfinite(level):
        return x.astype(np.float32)
    gain = 10 ** ((target - level) / 20)
    peak = float(np.max(np.abs(x)))
    if peak * gain > PEAK_LIMIT:
        gain = PEAK_LIMIT / peak
    return (x * gain).astype(np.float32)


def _signals(rate: int) -> list[np.ndarray]:
    rng = np.random.default_rng(rate)
    t = np.arange(int(3.3 * rate)) / rate
    quiet_then_loud = np.concatenate([1e-5 * rng.standard_normal(rate), 0.3 * rng.standard_normal(2 * rate)])
    return [
        0.1 * rng.standard_normal(int(2.7 * rate)),
        0.5 * np.sin(2 * np.pi * 997 * t),
        0.2 * np.sin(2 * np.pi * 60 * t) * (t < 1.7),
        quiet_then_loud,
        np.concatenate([np.zeros(rate), 0.05 * rng.standard_normal(rate // 3)]),  # mostly silence: gated
        1e-9 * rng.standard_normal(rate),  # under the absolute gate everywhere: -inf
        0.3 * rng.standard_normal(int(0.41 * rate)),
        0.3 * rng.standard_normal(rate // 10),  # a short word, measured repeated
    ]


def _espeak_lines(tmp_path: Path) -> list[tuple[np.ndarray, int]]:
    out = []
    for i, (voice, text) in enumerate((("en", "Night falls on the village. Everyone, close your eyes."),
                                       ("en-us", "Two."), ("fr", "Élise, réveille-toi."),
                                       ("en", "The witch may save the victim, or poison someone: point, or shake your head."))):
        wav = tmp_path / f"{i}.wav"
        subprocess.run(["espeak-ng", "-v", voice, "-w", str(wav), text], check=True, capture_output=True)
        with wave.open(str(wav)) as w:
            raw, rate = w.readframes(w.getnframes()), w.getframerate()
        out.append((np.frombuffer(raw, dtype="<i2").astype(np.float32) / np.float32(32768.0), rate))
    return out


@pytest.mark.parametrize("rate", RATES)
def test_the_k_weighting_is_pyloudnorms(rate: int) -> None:
    meter = pyloudnorm().Meter(rate)
    theirs = [(f.b, f.a) for f in meter._filters.values()]
    ours = k_weighting(rate)
    assert len(ours) == len(theirs) == 2
    for (b, a), (tb, ta) in zip(ours, theirs):
        assert b.tobytes() == tb.tobytes() and a.tobytes() == ta.tobytes()
    assert all(f.passband_gain == 1.0 for f in meter._filters.values())


@pytest.mark.parametrize("rate", RATES)
def test_the_loudness_is_pyloudnorms_to_the_last_bit(rate: int) -> None:
    for x in _signals(rate):
        x = np.asarray(x, dtype=np.float64)
        assert measure(x, rate) == _old_measure(x, rate) or (np.isnan(measure(x, rate)) and np.isnan(_old_measure(x, rate)))
        if len(x) > 0.4 * rate:
            ours, theirs = integrated_loudness(x, rate), pyloudnorm().Meter(rate).integrated_loudness(x)
            assert ours == theirs or (np.isinf(ours) and np.isinf(theirs)), (ours, theirs)


@pytest.mark.slow
def test_levelled_espeak_lines_are_byte_identical_to_the_old_levelling(tmp_path: Path) -> None:
    for i, (audio, rate) in enumerate(_espeak_lines(tmp_path)):
        for target in (-23.0, -26.1):
            write_wav(tmp_path / "new.wav", normalise(audio, rate, target), rate)
            write_wav(tmp_path / "old.wav", _old_normalise(audio, rate, target), rate)
            assert (tmp_path / "new.wav").read_bytes() == (tmp_path / "old.wav").read_bytes(), (i, target)


def test_the_filter_is_scipys_lfilter() -> None:
    from scipy.signal import lfilter

    x = np.random.default_rng(3).standard_normal(30000)
    for b, a in k_weighting(22050):
        assert linear_filter()(b, a, x).tobytes() == lfilter(b, a, x).tobytes()


@pytest.mark.slow
def test_measuring_imports_neither_scipy_signal_nor_pyloudnorm() -> None:
    """What a render worker (and the player, measuring its beds) pays at start: not the 0.8 s of CPU
    scipy.signal's import takes."""
    code = ("import sys, numpy as np\nfrom narrator.speech.loudness import measure\n"
            "print(round(measure(0.1 * np.sin(np.arange(22050) / 7.0), 22050), 6))\n"
            "print('scipy.signal' in sys.modules, 'pyloudnorm' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.splitlines()[-1] == "False False", out


@pytest.mark.parametrize("rate", (22050, 16000, 48000))
def test_a_written_line_is_byte_identical_to_the_wave_modules(rate: int, tmp_path: Path) -> None:
    """write_wav writes its header and samples in one go: the same bytes as the wave module's WAV."""
    rng = np.random.default_rng(rate)
    for n in (0, 1, 2, 1001, 3 * rate):
        audio = np.clip(0.4 * rng.standard_normal(n), -1.2, 1.2).astype(np.float32)  # some samples clip
        write_wav(tmp_path / "ours.wav", audio, rate)
        data = np.clip(np.round(audio.astype(np.float64) * 32767.0), -32768, 32767).astype("<i2")
        with wave.open(str(tmp_path / "theirs.wav"), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(rate)
            w.writeframes(data.tobytes())
        assert (tmp_path / "ours.wav").read_bytes() == (tmp_path / "theirs.wav").read_bytes(), n
