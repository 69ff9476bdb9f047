"""Ambience beds generated with numpy: a night of soft rain and crickets, a quieter day of air and birds.

Each bed is built in the frequency domain (an inverse FFT is periodic) and every event or swell is
placed circularly, so a bed loops with no seam and no click. Generated at start (well under a
second), deterministic (a fixed seed per bed), no file to license.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Audio = NDArray[np.float32]

BEDS = ("night", "day")
LOOP_SECONDS = 24.0


def _noise(n: int, sr: int, rng: "np.random.Generator", shape: Callable[["NDArray[np.float64]"], "NDArray[np.float64]"]) -> "NDArray[np.float64]":
    """Periodic noise of length n with magnitude spectrum `shape(f)`, unit RMS."""
    import numpy as np

    freqs = np.fft.rfftfreq(n, 1.0 / sr)
    mag = shape(np.maximum(freqs, 1.0))
    mag[0] = 0.0
    spec = mag * np.exp(2j * np.pi * rng.random(len(freqs)))
    x = np.fft.irfft(spec, n)
    rms = float(np.sqrt(np.mean(x * x)))
    return x / rms if rms > 0 else x


def _band(f: "NDArray[np.float64]", lo: float, hi: float) -> "NDArray[np.float64]":
    """A gentle band-pass (2nd-order slopes on both sides)."""
    return 1.0 / (1.0 + (lo / f) ** 2) / (1.0 + (f / hi) ** 2)


def _lfo(n: int, cycles: int, phase: float, depth: float) -> "NDArray[np.float64]":
    """A slow swell with a whole number of cycles per loop, so it joins up at the seam."""
    import numpy as np

    t = np.arange(n) / n
    return 1.0 - depth * 0.5 * (1.0 + np.sin(2 * np.pi * cycles * t + phase))


def _add_circular(bed: "NDArray[np.float64]", event: "NDArray[np.float64]", at: int) -> None:
    import numpy as np

    idx = (at + np.arange(len(event))) % len(bed)
    np.add.at(bed, idx, event)


def _night(n: int, sr: int) -> "NDArray[np.float64]":
    import numpy as np

    rng = np.random.default_rng(20090)
    # Rain: pink hiss from 300 Hz to 7 kHz. Broadband and steady, so it masks keypad clicks
    # and the rustle of hands better than any tone could.
    rain = _noise(n, sr, rng, lambda f: _band(f, 300.0, 7000.0) / np.sqrt(f)) * _lfo(n, 3, 0.7, 0.25)
    # Wind: a low rumble that swells and fades a few times per loop.
    wind = _noise(n, sr, rng, lambda f: _band(f, 60.0, 500.0) / f) * _lfo(n, 2, 2.1, 0.8)
    bed = 0.55 * rain + 0.45 * wind
    # Drops: short damped pings on leaves, sparse and soft.
    t = np.arange(int(0.03 * sr)) / sr
    for at in rng.integers(0, n, size=int(n / sr * 6)):
        freq = rng.uniform(1800.0, 3800.0)
        drop = np.sin(2 * np.pi * freq * t) * np.exp(-t / 0.006) * rng.uniform(0.3, 0.9)
        _add_circular(bed, drop, int(at))
    # Crickets: three-pulse chirps near 4.4 kHz, now and then.
    pulse_t = np.arange(int(0.018 * sr)) / sr
    pulse = np.sin(2 * np.pi * 4400.0 * pulse_t) * np.sin(np.pi * pulse_t / pulse_t[-1]) ** 2
    for at in rng.integers(0, n, size=int(n / sr * 0.8)):
        for k in range(3):
            _add_circular(bed, 0.35 * pulse, int(at) + k * int(0.045 * sr))
    return bed


def _day(n: int, sr: int) -> "NDArray[np.float64]":
    import numpy as np

    rng = np.random.default_rng(20091)
    # Air: a soft, darker wash, quieter than the night.
    air = _noise(n, sr, rng, lambda f: _band(f, 80.0, 2500.0) / np.sqrt(f)) * _lfo(n, 2, 0.3, 0.4)
    bed = 0.5 * air
    # Birds: short rising and falling whistles, a few per loop.
    for at in rng.integers(0, n, size=int(n / sr * 0.4)):
        notes = int(rng.integers(2, 5))
        offset = int(at)
        for _ in range(notes):
            dur = rng.uniform(0.06, 0.14)
            t = np.arange(int(dur * sr)) / sr
            f0, f1 = rng.uniform(2500.0, 4200.0), rng.uniform(2500.0, 4200.0)
            phase = 2 * np.pi * (f0 * t + (f1 - f0) * t * t / (2 * dur))
            env = np.sin(np.pi * t / t[-1]) ** 2
            _add_circular(bed, 0.5 * np.sin(phase) * env, offset)
            offset += len(t) + int(rng.uniform(0.03, 0.09) * sr)
    return bed


_MAKERS = {"night": _night, "day": _day}


@lru_cache(maxsize=8)
def generate(name: str, sample_rate: int = 22050, seconds: float = LOOP_SECONDS) -> "Audio":
    """A loopable bed, its loudness set relative to the voice (`loudness.BED_OVER_VOICE_LU` above the
    lines' target): the player scales it by the ambience volume."""
    import numpy as np

    maker = _MAKERS.get(name)
    if maker is None:
        from narrator.errors import UsageError

        raise UsageError("no ambience bed {name!r}; choose one of {beds}", name=name, beds=', '.join(BEDS))
    n = int(round(seconds * sample_rate))
    bed = maker(n, sample_rate)
    from narrator.speech.loudness import BED_OVER_VOICE_LU, VOICE_LUFS, measure

    bed = bed / float(np.sqrt(np.mean(bed * bed))) * 0.25
    bed *= 10 ** ((VOICE_LUFS + BED_OVER_VOICE_LU - measure(bed, sample_rate)) / 20)
    peak = float(np.max(np.abs(bed)))
    if peak > 0.95:
        bed *= 0.95 / peak
    out: Audio = bed.astype(np.float32)
    out.setflags(write=False)
    return out
