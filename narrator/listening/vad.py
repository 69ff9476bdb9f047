"""Voice-activity detection for the listener: WebRTC's VAD, gated by a noise floor that learns
steady beds.

A chunk is speech when WebRTC's VAD calls most of its 10 ms frames voiced AND it stands clearly
above the room's noise floor. The floor is a low percentile of the recent chunk levels (minimum
statistics), so it follows any steady bed -- the program's own day or night ambience, a fan,
white noise -- whatever its level; the old detector only learned from chunks already under a
fixed level and stayed at 0 under a bed louder than about -42 dBFS.

Without the webrtcvad package (the `voice` extra) the energy gate alone decides.
"""

from __future__ import annotations

import collections
import math
from dataclasses import dataclass, field
from typing import Any

RATE = 16000
FRAME = 160  # 10 ms: one of the frame lengths WebRTC's VAD takes


def rms(data: bytes) -> float:
    import numpy as np

    if not data:
        return 0.0
    samples = np.frombuffer(data, dtype="<i2").astype(np.float32)
    return float(math.sqrt(float(np.mean(samples * samples))))


def _webrtc(mode: int) -> Any:
    try:
        import webrtcvad  # type: ignore[import-untyped]
    except ImportError:
        return None
    return webrtcvad.Vad(mode)


@dataclass
class SpeechGate:
    """Says, chunk by chunk, whether someone is speaking."""

    mode: int = 3  # WebRTC aggressiveness 0..3: 3 refuses the most non-speech
    min_level: float = 250.0  # RMS (16-bit) under which nothing is speech (about -42 dBFS)
    ratio: float = 2.5  # speech stands this much (8 dB) above the floor
    voiced_share: float = 0.5  # of the chunk's 10 ms frames WebRTC must call voiced
    window: float = 3.0  # seconds of levels the floor is learned from
    percentile: float = 0.2
    _vad: Any = None
    _levels: collections.deque[float] = field(default_factory=collections.deque)
    _chunk_seconds: float = 0.05
    floor: float = 0.0

    def __post_init__(self) -> None:
        self._vad = _webrtc(self.mode)

    @property
    def has_vad(self) -> bool:
        return self._vad is not None

    def is_speech(self, data: bytes) -> bool:
        level = rms(data)
        self._chunk_seconds = len(data) / (2 * RATE) or self._chunk_seconds
        self._levels.append(level)
        while len(self._levels) * self._chunk_seconds > self.window + 1e-9:
            self._levels.popleft()
        ordered = sorted(self._levels)
        self.floor = ordered[int(self.percentile * (len(ordered) - 1))]
        if level <= max(self.min_level, self.floor * self.ratio):
            return False
        if self._vad is None:
            return True
        frames = [data[i:i + 2 * FRAME] for i in range(0, len(data) - 2 * FRAME + 1, 2 * FRAME)]
        if not frames:
            return True
        voiced = sum(1 for f in frames if self._vad.is_speech(f, RATE))
        return voiced >= self.voiced_share * len(frames)
