"""One output stream for the whole game: voice lines mixed over a looping ambience bed, ducked.

The `Mixer` is plain numpy (tested without a device); `Player` runs it in a sounddevice callback.
The stream is opened once and never stopped between lines, so the bed never has a gap.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

from narrator.speech.render import SpeechError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Audio = NDArray[np.float32]


class NoOutputDevice(SpeechError):
    """There is no audio output device to play on."""


class DeviceOpenError(SpeechError):
    """An output device exists but will not open with these settings."""


@dataclass(frozen=True, slots=True)
class MixSettings:
    """How loud things are and how the bed makes room for the voice."""

    voice_volume: float = 1.0
    ambience_volume: float = 0.35  # bed gain; the beds are generated at about -12 dBFS RMS
    duck_db: float = 14.0  # how far the bed dips under the voice
    attack: float = 0.12  # seconds to dip
    release: float = 0.8  # seconds to come back, slow so the room swells back gently
    hold: float = 0.25  # stay ducked this long after a line, so close lines do not pump the bed
    listen_duck_db: float = 30.0  # how far the bed goes under while a prompt listens by voice
    crossfade: float = 2.5  # seconds to pass from one bed to another
    fade_in: float = 1.5  # the first bed rises from silence


@dataclass(frozen=True, slots=True)
class Started:
    """A line's first sample was written to the stream."""

    token: int
    frame: int
    wall: float  # time.monotonic() when it was written


class Mixer:
    """Sums the ambience bed (looped, crossfaded, ducked) and the queued voice lines, block by block."""

    def __init__(self, sample_rate: int, beds: Mapping[str, "Audio"], settings: MixSettings = MixSettings()) -> None:
        self.sample_rate = sample_rate
        self.settings = settings
        self._beds = dict(beds)
        self._lock = threading.Lock()
        # (token, clip, start frame, the bed to switch to when it starts: "" for none)
        self._queue: deque[tuple[int, Audio, int, str]] = deque()
        self._voice: Audio | None = None
        self._voice_token = 0
        self._voice_pos = 0
        self._next_token = 1
        self.frames = 0  # frames produced so far
        self._queued_end = 0  # frame at which the last queued line ends
        # Bed state: current and outgoing beds with their loop positions, the crossfade progress.
        self._bed: str | None = None
        self._bed_pos = 0
        self._old: str | None = None
        self._old_pos = 0
        self._fade = 1.0  # 0 → 1 over the crossfade
        self._fade_span: float | None = None
        self._duck = 1.0  # current bed gain factor from ducking
        self._since_voice = 1e9  # seconds since the voice last sounded
        # While a prompt listens by voice the bed goes far under (the microphone hears it too).
        self.listening = False
        self.started: deque[Started] = deque(maxlen=1024)
        # Lines queued for a frame they could not start on (already rendered, or a line still
        # playing then): (token, frame asked, frame given). Empty while the schedule's lead holds.
        self.late: deque[tuple[int, int, int]] = deque(maxlen=1024)

    @property
    def duck_gain(self) -> float:
        return float(10 ** (-self.settings.duck_db / 20))

    def set_bed(self, name: str | None, fade: float | None = None) -> None:
        """Crossfade to another bed (None fades to silence) over `fade` seconds (default: the
        settings' crossfade); the same bed again changes nothing."""
        if name is not None and name not in self._beds:
            raise SpeechError("no ambience bed {name!r} loaded; have {value}",
                              name=name, value=', '.join(sorted(self._beds)) or 'none')
        with self._lock:
            self._switch_bed(name, fade)

    def _switch_bed(self, name: str | None, fade: float | None) -> None:
        self._fade_span = fade
        if name == self._bed:
            return
        self._old, self._old_pos = self._bed, self._bed_pos
        self._bed, self._bed_pos = name, 0
        self._fade = 0.0

    @property
    def bed(self) -> str | None:
        return self._bed

    def queue(
        self, clip: "Audio", lead_frames: int = 0, at_frame: int | None = None, bed: str | None = None
    ) -> tuple[int, int, int]:
        """Queue a line after any line still playing: (token, start frame, end frame).

        With `at_frame` the line starts on exactly that frame (silence until then), unless that
        frame is already rendered or a line queued before still plays then: it starts as soon
        as it can after. The start is kept to the frame: the bed ducks when the voice sounds,
        and switches to `bed` (if given) in the block where the line starts.
        """
        if bed is not None and bed not in self._beds:
            raise SpeechError("no ambience bed {bed!r} loaded; have {value}",
                              bed=bed, value=', '.join(sorted(self._beds)) or 'none')
        with self._lock:
            token = self._next_token
            self._next_token += 1
            start = max(self.frames + lead_frames, self._queued_end)
            if at_frame is not None:
                if start > at_frame:
                    self.late.append((token, at_frame, start))
                start = max(start, at_frame)
            self._queued_end = start + len(clip)
            self._queue.append((token, clip, start, bed or ""))
            return token, start, self._queued_end

    def cancel(self) -> None:
        """Stop the line being said and drop the queued ones (the bed plays on, and swells back)."""
        with self._lock:
            self._queue.clear()
            self._voice = None
            self._queued_end = self.frames

    def busy(self) -> bool:
        with self._lock:
            return self._voice is not None or bool(self._queue)

    def render(self, n: int) -> "Audio":
        import numpy as np

        s = self.settings
        sr = self.sample_rate
        out = np.zeros(n, dtype=np.float32)
        with self._lock:
            voiced = self._mix_voice(out)
            if voiced:
                self._since_voice = 0.0
            else:
                self._since_voice += n / sr
            target = self.duck_gain if self._since_voice < s.hold else 1.0
            if self.listening:
                target = min(target, float(10 ** (-s.listen_duck_db / 20)))
            g0 = self._duck
            if target < g0:
                g1 = max(target, g0 - (1.0 - self.duck_gain) * n / sr / max(s.attack, 1e-3))
            else:
                g1 = min(target, g0 + (1.0 - self.duck_gain) * n / sr / max(s.release, 1e-3))
            self._duck = g1
            duck = np.linspace(g0, g1, n, endpoint=False, dtype=np.float32) if g0 != g1 else np.float32(g0)
            bed = self._mix_beds(n)
            self.frames += n
        if bed is not None:
            out += bed * duck * np.float32(s.ambience_volume)
        np.clip(out, -1.0, 1.0, out=out)
        return out

    def _mix_voice(self, out: "Audio") -> bool:
        n = len(out)
        filled = 0
        voiced = False
        while filled < n:
            if self._voice is None:
                if not self._queue:
                    break
                start = self._queue[0][2] - self.frames
                if start >= n:
                    break  # the next line starts in a later block
                filled = max(filled, start)  # silence until its frame
                self._voice_token, self._voice, _, bed = self._queue.popleft()
                self._voice_pos = 0
                if bed:
                    self._switch_bed(bed, None)
                self.started.append(Started(self._voice_token, self.frames + filled, time.monotonic()))
            take = min(n - filled, len(self._voice) - self._voice_pos)
            out[filled : filled + take] = self._voice[self._voice_pos : self._voice_pos + take] * self.settings.voice_volume
            self._voice_pos += take
            filled += take
            voiced = True
            if self._voice_pos >= len(self._voice):
                self._voice = None
        return voiced

    def _loop(self, name: str, pos: int, n: int) -> tuple["Audio", int]:
        import numpy as np

        bed = self._beds[name]
        idx = (pos + np.arange(n)) % len(bed)
        return bed[idx], (pos + n) % len(bed)

    def _mix_beds(self, n: int) -> "Audio | None":
        import numpy as np

        s = self.settings
        if self._bed is None and self._old is None:
            return None
        f0 = self._fade
        span = self._fade_span if self._fade_span is not None else s.fade_in if self._old is None else s.crossfade
        f1 = min(1.0, f0 + n / self.sample_rate / max(span, 1e-3))
        self._fade = f1
        fade = np.linspace(f0, f1, n, endpoint=False)
        # Equal-power curves: two uncorrelated beds crossfaded this way keep a steady loudness.
        gain_in = np.sin(fade * np.pi / 2).astype(np.float32)
        gain_out = np.cos(fade * np.pi / 2).astype(np.float32)
        mix = np.zeros(n, dtype=np.float32)
        if self._bed is not None:
            chunk, self._bed_pos = self._loop(self._bed, self._bed_pos, n)
            mix += chunk * gain_in
        if self._old is not None:
            chunk, self._old_pos = self._loop(self._old, self._old_pos, n)
            mix += chunk * gain_out
            if f1 >= 1.0:
                self._old = None
        return mix


def _sounddevice() -> Any:
    try:
        import sounddevice
    except OSError as exc:  # PortAudio missing
        raise SpeechError("audio output is unavailable ({exc}); install libportaudio2 or run 'narrator doctor'",
                          exc=exc) from None
    return sounddevice


def output_devices() -> list[tuple[int, str]]:
    sd = _sounddevice()
    return [(i, str(d["name"])) for i, d in enumerate(sd.query_devices()) if int(d["max_output_channels"]) > 0]


def device_sample_rate(device: str | None) -> int | None:
    """The default sample rate of the output device that `device` names, if known."""
    sd = _sounddevice()
    try:
        info = sd.query_devices(resolve_device(device), kind="output") if device else sd.query_devices(kind="output")
        return int(info["default_samplerate"])
    except (sd.PortAudioError, ValueError, KeyError, TypeError):
        return None


def resolve_device(device: str | None) -> int | str | None:
    """An --output-device value (index or part of a name) → what sounddevice takes; None = default."""
    devices = output_devices()
    if not devices:
        raise NoOutputDevice("no audio output device found")
    if device is None or device == "":
        sd = _sounddevice()
        default = sd.default.device[1]
        if default is None or int(default) < 0:
            return devices[0][0]
        return None
    if device.isdigit():
        if int(device) in {i for i, _ in devices}:
            return int(device)
    else:
        matches = [i for i, name in devices if device.lower() in name.lower()]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            exact = [i for i, name in devices if name.lower() == device.lower()]
            if exact:
                return exact[0]
    listing = "; ".join(f"{i}: {name}" for i, name in devices)
    raise SpeechError("--output-device {device!r} matches no single output device; have {listing}",
                      device=device, listing=listing)


class Player:
    """Plays a `Mixer` through one sounddevice output stream until closed."""

    BLOCK = 256  # frames per callback: ~12 ms at 22,050 Hz, so a line starts within a block

    def __init__(self, mixer: Mixer, device: str | None = None) -> None:
        sd = _sounddevice()
        self.mixer = mixer
        self._sd = sd
        self._t0 = 0.0
        self._paced = False
        self._lead = 0.1
        self._dac_delay = 0.0
        self._last_cb = (0, time.monotonic())  # (frame at callback, wall time) for frame → time
        self._base: float | None = None  # monotonic time at which frame 0 is heard: the reference
        dev = resolve_device(device)
        error: Exception | None = None
        # Mono first; some hardware devices only take stereo (the same signal on both sides).
        for channels in (1, 2):
            try:
                self._stream = sd.OutputStream(
                    samplerate=mixer.sample_rate,
                    blocksize=self.BLOCK,
                    channels=channels,
                    dtype="float32",
                    latency="low",
                    device=dev,
                    callback=self._callback,
                )
                break
            except (sd.PortAudioError, ValueError) as exc:
                error = exc
        else:
            raise DeviceOpenError("the audio output device cannot be opened at {sample_rate} Hz ({error})",
                                  sample_rate=mixer.sample_rate, error=error)
        self._dac_delay = float(self._stream.latency)
        self._lead = max(0.05, 1.5 * self._dac_delay)
        self._t0 = time.monotonic()
        self._stream.start()

    def _callback(self, outdata: Any, frames: int, info: Any, status: Any) -> None:
        now = time.monotonic()
        self._last_cb = (self.mixer.frames, now)
        try:
            delay = float(info.outputBufferDacTime - info.currentTime)
            if 0.0 < delay < 2.0:
                self._dac_delay = delay
        except (AttributeError, TypeError):
            pass
        outdata[:] = self.mixer.render(frames)[:, None]
        # A file or null sink asks for audio as fast as we can make it. A real device can never
        # run half a second ahead of the wall clock, so that is the sign to pace ourselves.
        ahead = self.mixer.frames / self.mixer.sample_rate - (now - self._t0)
        if ahead > 0.5:
            self._paced = True
        if self._paced and ahead > self._lead:
            time.sleep(ahead - self._lead)

    def play(self, clip: "Audio", at: float | None = None, bed: str | None = None) -> tuple[int, float, float]:
        """Queue a line; returns (token, monotonic start, monotonic end) as heard.

        Without `at` the line starts at the next block (or after the line still playing). With
        `at` (a time.monotonic() time) it starts on the frame heard at `at`: clock times become
        frames through one reference point (`frame_at`), so lines given times a fixed interval
        apart are that many frames apart in the output, however late the caller's thread was,
        as long as it queues them before their frame is rendered.
        """
        sr = self.mixer.sample_rate
        if self._base is None or (at is None and not self.mixer.busy()):
            # (Re)anchor only where nothing scheduled depends on the old reference: a line said
            # now on a silent stream (a night's schedule starts from such a line, night.falls).
            frame0, wall0 = self._last_cb
            self._base = wall0 + self._dac_delay - frame0 / sr
        token, start, end = self.mixer.queue(clip, lead_frames=0, at_frame=None if at is None else self.frame_at(at), bed=bed)
        return token, self.time_of(start), self.time_of(end)

    def frame_at(self, t: float) -> int:
        """The output frame heard at monotonic time `t` (by the current reference point)."""
        assert self._base is not None
        return int(round((t - self._base) * self.mixer.sample_rate))

    def time_of(self, frame: int) -> float:
        """The monotonic time at which output frame `frame` is heard (the inverse of `frame_at`)."""
        assert self._base is not None
        return self._base + frame / self.mixer.sample_rate

    def close(self) -> None:
        try:
            self._stream.stop()
            self._stream.close()
        except self._sd.PortAudioError:
            pass
