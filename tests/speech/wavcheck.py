"""Analysis of a WAV the player wrote: where each line is, and the ambience bed once the voice is removed;
and how long espeak-ng itself says a line."""

from __future__ import annotations

import subprocess
import wave
from pathlib import Path

import numpy as np


def read_wav(path: Path) -> tuple[np.ndarray, int]:
    with wave.open(str(path), "rb") as w:
        assert w.getsampwidth() == 2, "expected 16-bit samples"
        assert w.getnchannels() == 1, "expected mono"
        rate = w.getframerate()
        data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64) / 32768.0
    return data, rate


def locate(signal: np.ndarray, clip: np.ndarray) -> tuple[int, float]:
    """The offset where `clip` best matches `signal` (FFT cross-correlation) and how well (0..1)."""
    n = len(signal) + len(clip)
    size = 1 << (n - 1).bit_length()
    corr = np.fft.irfft(np.fft.rfft(signal, size) * np.conj(np.fft.rfft(clip, size)), size)[: len(signal) - len(clip) + 1]
    at = int(np.argmax(corr))
    seg = signal[at : at + len(clip)]
    quality = float(np.dot(seg, clip) / (np.linalg.norm(seg) * np.linalg.norm(clip) + 1e-12))
    return at, quality


def window_rms(x: np.ndarray, rate: int, seconds: float) -> np.ndarray:
    w = max(1, int(rate * seconds))
    n = len(x) // w
    return np.sqrt(np.mean(x[: n * w].reshape(n, w) ** 2, axis=1))


def longest_quiet_run(levels: np.ndarray, threshold: float) -> int:
    """The longest run of consecutive windows below `threshold`."""
    best = run = 0
    for quiet in levels < threshold:
        run = run + 1 if quiet else 0
        best = max(best, run)
    return best


def espeak_ng_seconds(text: str, voice: str, rate: int, work: Path) -> float:
    """How long espeak-ng says a line, from its command line: synchronous, no threads, no callbacks."""
    wav = work / "line.wav"
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(rate), "-w", str(wav), text], check=True, capture_output=True)
    with wave.open(str(wav)) as w:
        return w.getnframes() / w.getframerate()
