"""Every line at the same loudness, whatever said it: integrated loudness (ITU-R BS.1770, measured
with pyloudnorm) brought to one target, and the ambience beds set relative to that target.

The target is -23 LUFS (EBU R128): loud enough over a quiet bed, with room for the peaks of a
neural voice (Piper's lines peak about 16 dB above their loudness). A line that would clip at
the target is scaled to a 0.98 peak instead, which is the only way it can end up quieter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
    import pyloudnorm

    x = np.asarray(audio, dtype=np.float64)
    if len(x) == 0 or not np.any(x):
        return float("-inf")
    need = int(_BLOCK * rate) + 1
    if len(x) < need:
        # A single short word ("two"): measured as if said a few times over, its own loudness.
        x = np.tile(x, need // len(x) + 1)
    return float(pyloudnorm.Meter(rate).integrated_loudness(x))


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

