"""Every line at the same loudness, whatever said it: integrated loudness (ITU-R BS.1770, measured
with pyloudnorm) brought to one target, and the ambience beds set relative to that target.

The target is -23 LUFS (EBU R128): loud enough over a quiet bed, with room for the peaks of a
neural voice (Piper's lines peak about 16 dB above their loudness). A line that would clip at
the target is scaled to a 0.98 peak instead, which is the only way it can end up quieter.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Audio = NDArray[np.float32]

VOICE_LUFS = -23.0
# The beds are generated this far above the voice; at the default ambience volume (0.35, -9 dB)
# the bed then sits about 3 LU under the voice before ducking, as the beds always have.
BED_OVER_VOICE_LU = 6.0
PEAK_LIMIT = 0.98
_BLOCK = 0.4  # BS.1770 gating block: a shorter clip is measured repeated to this length


def measure(audio: "NDArray[np.floating[Any]]", rate: int) -> float:
    """Integrated loudness in LUFS (-inf for silence)."""
    import numpy as np

    x = np.asarray(audio, dtype=np.float64)
    if len(x) == 0 or not np.any(x):
        return float("-inf")
    need = int(_BLOCK * rate) + 1
    if len(x) < need:
        # A single short word ("two"): measured as if said a few times over, its own loudness.
        x = np.tile(x, need // len(x) + 1)
    return float(integrated_loudness(x, rate))


# --- BS.1770 integrated loudness, as pyloudnorm measures it -------------------------------------
# pyloudnorm's Meter (K-weighting, 400 ms blocks, 75 % overlap) gives the number every cached line is
# levelled by. Per line it designs its filters again, loops over the gating blocks in Python and
# imports the whole of scipy.signal (0.8 s of CPU in each render worker) for one IIR filter. What
# follows is the same arithmetic in the same order, so the same number to the last bit
# (tests/speech/test_loudness.py compares it with pyloudnorm's on speech, noise, tones and silence):
# about half a line's CPU in a worker is saved, and no line changes.

_GAMMA_A = -70.0  # absolute gate, LUFS
_OVERLAP = 0.75


def k_weighting(rate: int) -> "tuple[tuple[NDArray[np.float64], NDArray[np.float64]], ...]":
    """The K-weighting filter as pyloudnorm designs it ("K-weighting": a 4 dB high shelf at 1.5 kHz,
    then a high pass at 38 Hz, by RBJ's cookbook): (b, a) of each stage, normalised by a0."""
    return _k_weighting(rate)


@functools.lru_cache(maxsize=8)
def _k_weighting(rate: int) -> "tuple[tuple[NDArray[np.float64], NDArray[np.float64]], ...]":
    import numpy as np

    stages = []
    for gain, q, fc, kind in ((4.0, 1 / np.sqrt(2), 1500.0, "high_shelf"), (0.0, 0.5, 38.0, "high_pass")):
        A = 10 ** (gain / 40.0)
        w0 = 2.0 * np.pi * (fc / rate)
        alpha = np.sin(w0) / (2.0 * q)
        if kind == "high_shelf":
            b0 = A * ((A + 1) + (A - 1) * np.cos(w0) + 2 * np.sqrt(A) * alpha)
            b1 = -2 * A * ((A - 1) + (A + 1) * np.cos(w0))
            b2 = A * ((A + 1) + (A - 1) * np.cos(w0) - 2 * np.sqrt(A) * alpha)
            a0 = (A + 1) - (A - 1) * np.cos(w0) + 2 * np.sqrt(A) * alpha
            a1 = 2 * ((A - 1) - (A + 1) * np.cos(w0))
            a2 = (A + 1) - (A - 1) * np.cos(w0) - 2 * np.sqrt(A) * alpha
        else:
            b0 = (1 + np.cos(w0)) / 2
            b1 = -(1 + np.cos(w0))
            b2 = (1 + np.cos(w0)) / 2
            a0 = 1 + alpha
            a1 = -2 * np.cos(w0)
            a2 = 1 - alpha
        stages.append((np.array([b0, b1, b2]) / a0, np.array([a0, a1, a2]) / a0))
    return tuple(stages)


LinearFilter = Callable[[Any, Any, Any], Any]


@functools.lru_cache(maxsize=1)
def linear_filter() -> LinearFilter:
    """scipy's IIR filter: the C routine `scipy.signal.lfilter` runs for these filters, loaded
    without importing the rest of scipy.signal; `scipy.signal.lfilter` itself if that fails."""
    import importlib.machinery
    import importlib.util
    import sys

    name = "scipy.signal._sigtools"
    try:
        module = sys.modules.get(name)
        if module is None:
            import scipy

            folder = Path(scipy.__path__[0]) / "signal"
            path = next(folder / f"_sigtools{suffix}" for suffix in importlib.machinery.EXTENSION_SUFFIXES
                        if (folder / f"_sigtools{suffix}").is_file())
            loader = importlib.machinery.ExtensionFileLoader(name, str(path))
            spec = importlib.util.spec_from_file_location(name, path, loader=loader)
            assert spec is not None
            module = importlib.util.module_from_spec(spec)
            loader.exec_module(module)
        routine = module._linear_filter
        return lambda b, a, x: routine(b, a, x, -1)
    except Exception:  # noqa: BLE001 - another scipy: its public function, the same routine behind it
        from scipy.signal import lfilter

        return lambda b, a, x: lfilter(b, a, x)


def integrated_loudness(x: "NDArray[np.float64]", rate: int, block: float = _BLOCK) -> float:
    """pyloudnorm's `Meter(rate).integrated_loudness(x)` for mono float64 audio at least a block long."""
    import numpy as np

    filt = linear_filter()
    y = x
    for b, a in _k_weighting(rate):
        y = filt(b, a, y)
    step = 1.0 - _OVERLAP
    seconds = len(y) / rate
    blocks = int(np.round(((seconds - block) / (block * step)))) + 1
    squares = np.square(y)
    scale = 1.0 / (block * rate)
    add = np.add.reduce  # what np.sum runs, without its wrapper (50 blocks a line)
    z = np.array([scale * add(squares[int(block * (j * step) * rate):int(block * (j * step + 1) * rate)])
                  for j in np.arange(0, blocks)])
    with np.errstate(divide="ignore", invalid="ignore"):
        levels = [-0.691 + 10.0 * np.log10(z_j) for z_j in z]
        gated = [j for j, level in enumerate(levels) if level >= _GAMMA_A]
        # (np.mean of no block is NaN, as in pyloudnorm, without its warning)
        relative = -0.691 + 10.0 * np.log10(np.mean(z[gated]) if gated else np.nan) - 10.0
        gated = [j for j, level in enumerate(levels) if level > relative and level > _GAMMA_A]
        kept = np.nan_to_num(np.mean(z[gated]) if gated else np.nan)
        return float(-0.691 + 10.0 * np.log10(kept))


def normalise(audio: "NDArray[np.floating[Any]]", rate: int, target: float = VOICE_LUFS) -> "Audio":
    """`audio` scaled to `target` LUFS (or to the peak limit, if that is lower)."""
    import numpy as np

    x = np.asarray(audio, dtype=np.float64)
    level = measure(x, rate)
    if not np.isfinite(level):
        out: Audio = x.astype(np.float32)
        return out
    gain = 10 ** ((target - level) / 20)
    peak = float(np.max(np.abs(x)))
    if peak * gain > PEAK_LIMIT:
        gain = PEAK_LIMIT / peak
    out = (x * gain).astype(np.float32)
    return out

