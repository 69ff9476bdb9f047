"""Audio input: 16 kHz mono 16-bit chunks from a microphone (sounddevice) or from a file.

A source hands out `(data, t_end)` pairs, `t_end` being the `time.monotonic()` at which the
chunk's last sample was captured, so the listener can drop what was heard while the narrator
was speaking.
"""

from __future__ import annotations

import queue
import time
import wave
from pathlib import Path
from typing import Any, Protocol

from narrator.errors import NarratorError

RATE = 16000
BYTES_PER_SECOND = RATE * 2
BLOCK = 800  # frames per chunk: 50 ms, a small part of the latency budget


class MicrophoneError(NarratorError):
    """No usable microphone (no sound card, no PortAudio, a device that refuses 16 kHz)."""


class AudioSource(Protocol):
    def start(self) -> None: ...

    def read(self, timeout: float) -> tuple[bytes, float] | None:
        """The next chunk and its capture end time, or None if none came within `timeout`."""
        ...

    def stop(self) -> None: ...


class MicrophoneSource:
    """A sounddevice RawInputStream (no numpy needed) feeding a bounded queue."""

    def __init__(self, device: int | str | None = None, block: int = BLOCK, max_seconds: float = 10.0) -> None:
        self.device = device
        self.block = block
        # Bounded: if the recogniser falls behind, the oldest audio goes, not the memory.
        self._queue: queue.Queue[tuple[bytes, float]] = queue.Queue(maxsize=int(max_seconds * RATE / block))
        self._stream: Any = None
        self.overruns = 0
        self.status_flags = 0

    def start(self) -> None:
        try:
            import sounddevice as sd
        except OSError as exc:  # PortAudio missing
            raise MicrophoneError("no audio input: {exc} (install libportaudio2)", exc=exc) from None
        try:
            self._stream = sd.RawInputStream(samplerate=RATE, blocksize=self.block, channels=1, dtype="int16",
                                             device=self.device, callback=self._callback)
            self._stream.start()
        except (sd.PortAudioError, ValueError) as exc:
            self._stream = None
            raise MicrophoneError("no microphone found ({one_line}); plug one in, or pick one with --device (python -m "
                                  "sounddevice lists them)", one_line=_one_line(exc)) from None

    def _callback(self, indata: Any, frames: int, time_info: Any, status: Any) -> None:
        if status:
            self.status_flags += 1
        item = (bytes(indata), time.monotonic())
        try:
            self._queue.put_nowait(item)
        except queue.Full:
            self.overruns += 1
            try:
                self._queue.get_nowait()
            except queue.Empty:
                pass
            self._queue.put_nowait(item)

    def read(self, timeout: float) -> tuple[bytes, float] | None:
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def stop(self) -> None:
        stream, self._stream = self._stream, None
        if stream is not None:
            try:
                stream.stop()
                stream.close()
            except Exception:  # noqa: BLE001 - a device that vanished cannot be closed twice
                pass


def read_wav(path: Path) -> bytes:
    """A WAV file as 16 kHz mono 16-bit PCM (mixed down and resampled if need be)."""
    try:
        with wave.open(str(path), "rb") as w:
            channels, width, rate = w.getnchannels(), w.getsampwidth(), w.getframerate()
            frames = w.readframes(w.getnframes())
    except FileNotFoundError:
        raise NarratorError("no such file: {path}", path=path) from None
    except (OSError, wave.Error, EOFError) as exc:
        raise NarratorError("{path} is not a readable WAV file ({exc}); convert it with: sox {path} -r 16000 -c 1 -b "
                            "16 out.wav", path=path, exc=exc) from None
    if width != 2:
        raise NarratorError("{path} has {value}-bit samples; use 16-bit: sox {path} -b 16 out.wav", path=path, value=8 * width)
    if channels == 1 and rate == RATE:
        return frames
    import numpy as np

    samples = np.frombuffer(frames, dtype="<i2").astype(np.float64)
    if channels > 1:
        samples = samples.reshape(-1, channels).mean(axis=1)
    if rate != RATE and len(samples):
        n = int(round(len(samples) * RATE / rate))
        samples = np.interp(np.linspace(0, len(samples) - 1, n), np.arange(len(samples)), samples)
    return bytes(np.clip(samples, -32768, 32767).astype("<i2").tobytes())


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__
