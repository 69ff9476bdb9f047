"""The TTS cache: each line rendered once (pyttsx3, or Piper) to a WAV at the common loudness,
keyed by engine, voice settings, loudness target and text."""

from __future__ import annotations

import hashlib
import os
import queue
import threading
import wave
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Protocol

from narrator.errors import NarratorError
from narrator import i18n
from narrator.i18n import tr

ENGINE = "pyttsx3-espeak-ng"
POOLED_ENGINES = (ENGINE, "piper")  # the engines narrator.speech.pool's workers run
SAMPLE_RATE = 22050  # what espeak-ng writes: mono, 16-bit


class SpeechError(NarratorError):
    """Speech cannot be produced: no TTS engine, an unknown voice, no output device."""


@dataclass(frozen=True, slots=True)
class VoiceSettings:
    """How a pack wants its lines said."""

    voice: str
    rate: int
    volume: float

    @property
    def target_lufs(self) -> float:
        """The loudness every line of this pack is brought to: the common target, less the pack's volume."""
        import math

        from narrator.speech.loudness import VOICE_LUFS

        return VOICE_LUFS + 20 * math.log10(max(self.volume, 1e-3))


def cache_root() -> Path:
    """$NARRATOR_CACHE, else the user's cache folder."""
    env = os.environ.get("NARRATOR_CACHE")
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("narrator"))


def cache_key(engine: str, settings: VoiceSettings, text: str) -> str:
    from narrator.speech.loudness import VOICE_LUFS

    raw = "\x1f".join((engine, settings.voice, str(settings.rate), f"{settings.volume:.3f}", f"{VOICE_LUFS:g}LUFS", text))
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def line_path(root: Path, engine: str, settings: VoiceSettings, text: str) -> Path:
    """Where a line sits in the cache folder `root` (the cache's tts/ folder)."""
    key = cache_key(engine, settings, text)
    return root / key[:2] / f"{key}.wav"


class Synth(Protocol):
    """Writes one line of speech to a WAV file; blocks until the file is complete."""

    engine: str

    def synthesize(self, text: str, settings: VoiceSettings, path: Path) -> None: ...

    def voices(self) -> list[str]:
        """The voice ids this engine accepts."""
        ...

    def close(self) -> None: ...


def voice_aliases(identifiers: Iterable[str]) -> set[str]:
    """espeak-ng takes a voice by its file id (`roa/fr`) or the id's last part (`fr`)."""
    out: set[str] = set()
    for ident in identifiers:
        ident = ident.lower()
        out.add(ident)
        out.add(ident.rsplit("/", 1)[-1])
    return out


class Pyttsx3Synth:
    """pyttsx3 on one worker thread that owns the engine (two threads driving it lose output)."""

    engine = ENGINE

    def __init__(self, timeout: float = 30.0) -> None:
        self._jobs: queue.Queue[tuple[Callable[[Any], object], Future[object]] | None] = queue.Queue()
        self._timeout = timeout
        self._thread = threading.Thread(target=self._run, name="narrator-tts", daemon=True)
        self._started = threading.Event()
        self._init_error: BaseException | None = None
        self._voices: list[str] = []
        self._accepted: set[str] = set()
        self._thread.start()
        self._started.wait()
        if self._init_error is not None:
            raise SpeechError(
                "the speech engine cannot start ({init_error}); install espeak-ng (apt-get install libespeak-ng1 "
                "espeak-ng-data) or run 'narrator doctor'", init_error=self._init_error
            )

    def _run(self) -> None:
        try:
            import pyttsx3
            import pyttsx3.drivers.espeak as espeak_driver

            # The driver prints "Audio saved to ..." after every file: silence it for this
            # module only, so `narrator say --to` and progress bars stay clean.
            setattr(espeak_driver, "print", lambda *a, **k: None)
            engine = pyttsx3.init("espeak")
            self._voices = [v.id for v in engine.getProperty("voices")]
            self._accepted = voice_aliases(self._voices)
        except BaseException as exc:  # noqa: BLE001 - reported to the caller as one line
            self._init_error = exc
            self._started.set()
            return
        finished = threading.Event()
        idle = threading.Event()
        errors: list[BaseException] = []
        engine.connect("finished-utterance", lambda name, completed: finished.set())
        engine.connect("error", lambda name, exception: errors.append(exception))
        # finished-utterance fires inside espeak's synth callback, which then goes on to pump
        # pyttsx3's command queue and end its loop on espeak's thread. The next line is only
        # queued once that callback has returned, so the two threads never pump at once.
        from pyttsx3.drivers import _espeak

        driver = engine.proxy._driver

        # The driver writes its file when it sees the end-of-message event, before appending the
        # samples delivered in that same callback, which would then be lost. The samples are
        # collected here instead and the WAV is written from them.
        import ctypes

        chunks: list[bytes] = []

        def on_synth(wav: Any, numsamples: int, events: Any) -> int:
            speaking = bool(driver._speaking)
            rc = int(driver._onSynth(wav, numsamples, events))
            if speaking and numsamples > 0:
                chunks.append(ctypes.string_at(wav, numsamples * 2))
            if finished.is_set():
                idle.set()
            return rc

        _espeak.SetSynthCallback(on_synth)
        # pyttsx3 synthesizes without espeak-ng's PHONEMES flag: with it, a pack's espeak-only
        # respelling may give a word as phonemes, "[[...]]" (docs/languages.md), as the espeak-ng
        # command reads them. This worker thread is the only one that synthesizes here.
        if not getattr(_espeak.Synth, "phonemes", False):
            synth = _espeak.Synth

            def with_phonemes(text: bytes, *a: Any, flags: int = 0, **k: Any) -> Any:
                return synth(text, *a, flags=flags | _espeak.PHONEMES, **k)

            setattr(with_phonemes, "phonemes", True)
            setattr(_espeak, "Synth", with_phonemes)
        self._espeak = _espeak
        self._engine = engine
        self._finished = finished
        self._done = idle
        self._errors = errors
        self._chunks = chunks
        self._started.set()
        while True:
            job = self._jobs.get()
            if job is None:
                return
            fn, fut = job
            try:
                fut.set_result(fn(engine))
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting caller
                fut.set_exception(exc)

    def _call(self, fn: Callable[[Any], object]) -> object:
        fut: Future[object] = Future()
        self._jobs.put((fn, fut))
        return fut.result()

    def voices(self) -> list[str]:
        return list(self._voices)

    def synthesize(self, text: str, settings: VoiceSettings, path: Path) -> None:
        if settings.voice.lower() not in self._accepted:
            raise SpeechError(
                "voice {voice!r} is not installed in espeak-ng; pick one from 'narrator voices list' (espeak-ng "
                "--voices) or run 'narrator doctor'", voice=settings.voice
            )
        self._call(lambda engine: self._synth(engine, text, settings, path))

    def _synth(self, e: Any, text: str, settings: VoiceSettings, path: Path) -> None:
        self._espeak.Synchronize()  # the last line is wholly done before the voice changes
        e.setProperty("voice", settings.voice)
        e.setProperty("rate", settings.rate)
        e.setProperty("volume", settings.volume)
        # About one message in three hundred, espeak-ng's asynchronous mode ends a message at
        # once with no audio at all; saying it again works, so an empty result is retried.
        for _attempt in range(4):
            audio = self._synth_once(e, text, path)
            if audio:
                break
        else:
            raise SpeechError("espeak-ng produced no audio for {text!r} (voice {voice!r}); run 'narrator doctor'",
                              text=text, voice=settings.voice)
        with wave.open(str(path), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(SAMPLE_RATE)
            w.writeframes(audio)

    def _synth_once(self, e: Any, text: str, path: Path) -> bytes:
        # In espeak-ng's asynchronous mode a rate or volume change is a queued command, and
        # pyttsx3's runAndWait cancels what espeak still has queued if it looks busy (the
        # driver's stop()): on a loaded machine the new rate was thrown away and the line said
        # at the last one's (1 line in 6 with alternating rates). Wait until espeak has taken
        # every setting before the line starts.
        self._espeak.Synchronize()
        self._finished.clear()
        self._done.clear()
        self._errors.clear()
        self._chunks.clear()
        e.save_to_file(text, str(path))
        # runAndWait may return before espeak has finished: the line is complete only once
        # finished-utterance has fired (and its callback returned).
        e.runAndWait()
        if not self._done.wait(self._timeout):
            raise SpeechError("espeak-ng did not finish the line {text!r} within {timeout:.0f} s",
                              text=text, timeout=self._timeout)
        if self._errors:
            raise SpeechError("espeak-ng failed on {text!r}: {errors}", text=text, errors=self._errors[0])
        return b"".join(self._chunks)

    def close(self) -> None:
        if self._thread.is_alive():
            self._jobs.put(None)
            self._thread.join(timeout=5)


class Renderer:
    """Renders lines into the cache once; later asks for the same line are a file lookup."""

    def __init__(self, synth: Synth, root: Path | None = None) -> None:
        self.synth = synth
        self.root = (root or cache_root()) / "tts"
        self.rendered = 0  # lines actually synthesised by this renderer (the rest were cached)
        self._lock = threading.Lock()

    def path(self, text: str, settings: VoiceSettings) -> Path:
        return line_path(self.root, self.synth.engine, settings, text)

    def cached(self, text: str, settings: VoiceSettings) -> bool:
        return self.path(text, settings).is_file()

    def ensure(self, text: str, settings: VoiceSettings) -> Path:
        """The WAV of a line, rendering it now if it is not in the cache yet."""
        path = self.path(text, settings)
        if path.is_file():
            return path
        with self._lock:
            if path.is_file():
                return path
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise SpeechError("cannot create the speech cache {parent}: {exc}; set NARRATOR_CACHE to a writable "
                                  "folder", parent=path.parent, exc=exc) from None
            # Written aside then renamed, so an interrupted render never leaves half a line.
            tmp = path.with_suffix(f".{os.getpid()}.tmp.wav")
            try:
                self.synth.synthesize(text, settings, tmp)
                normalise_file(tmp, settings.target_lufs)
                os.replace(tmp, path)
            finally:
                if tmp.exists():
                    tmp.unlink()
            self.rendered += 1
        return path

    def counted(self, rendered: int) -> None:
        """Lines rendered for this renderer's cache elsewhere (by the worker processes)."""
        with self._lock:
            self.rendered += rendered

    def render_all(
        self,
        texts: Iterable[str],
        settings: VoiceSettings,
        progress: Callable[[int, int], None] | None = None,
        jobs: int | None = None,
    ) -> int:
        """Render every line not cached yet, here, one line at a time; returns how many were rendered
        (narrator/speech/pool.py's `render_with_progress` gives espeak-ng's and Piper's to worker
        processes)."""
        unique = list(dict.fromkeys(texts))
        todo = [t for t in unique if not self.cached(t, settings)]
        for i, text in enumerate(todo, 1):
            self.ensure(text, settings)
            if progress is not None:
                progress(i, len(todo))
        return len(todo)


def normalise_file(path: Path, target: float) -> None:
    """Rewrite a 16-bit mono WAV at `target` LUFS."""
    import numpy as np

    from narrator.speech.loudness import normalise

    with wave.open(str(path), "rb") as w:
        rate, width, channels = w.getframerate(), w.getsampwidth(), w.getnchannels()
        raw = w.readframes(w.getnframes())
    if width != 2 or channels != 1:
        raise SpeechError("{path}: expected 16-bit mono speech, got {value}-bit, {channels} channel(s)",
                          path=path, value=8 * width, channels=channels)
    audio = normalise(np.frombuffer(raw, dtype="<i2").astype(np.float32) / np.float32(32768.0), rate, target)
    write_wav(path, audio, rate)


def write_wav(path: Path, audio: "Any", rate: int) -> None:
    """float samples in [-1, 1] → a 16-bit mono WAV."""
    import numpy as np

    import struct

    scaled = np.asarray(audio, dtype=np.float64) * 32767.0  # a new array: rounded and clipped in place
    np.round(scaled, out=scaled)
    np.clip(scaled, -32768, 32767, out=scaled)
    data = scaled.astype("<i2").tobytes()
    # The 44-byte header the wave module writes for 16-bit mono PCM, and the samples, in one write
    # (the wave module writes four times and seeks back to patch the sizes).
    header = b"RIFF" + struct.pack("<L4s4sLHHLLHH4sL", 36 + len(data), b"WAVE", b"fmt ", 16, 1, 1, rate, 2 * rate, 2,
                                   16, b"data", len(data))
    with open(path, "wb") as f:
        f.write(header + data)


@contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int, int], None]]:
    """One Rich bar on stderr: lines done of all, lines a second, time left; gone when done."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn, TimeRemainingColumn
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            return Text(tr("{speed} lines/s", speed=i18n.number(round(speed)) if speed else "…"))

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), Rate(), TextColumn(tr("left")),
               TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None)

        def step(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield step
