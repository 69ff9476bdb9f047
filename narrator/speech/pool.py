"""Rendering at the speed of the machine: lines are synthesised and levelled in worker processes,
one engine per process, most needed first.

espeak-ng is not thread-safe and pyttsx3's loop waits in 10 ms sleeps for its asynchronous mode,
so each worker starts the library pyttsx3 loads (`pyttsx3.drivers._espeak`) in espeak-ng's
*synchronous* mode instead: `Synth` returns when the line is done, with no thread and no polling.
pyttsx3 stays the front door: its driver sets the voice, rate and volume exactly as the in-process
engine does, so a line rendered here is byte-identical to the same line rendered by
`Pyttsx3Synth` (tests/speech/test_render_pool.py compares them). Piper runs one voice per worker,
each with one onnxruntime thread (processes measured faster than threads for short lines).

Loudness levelling (BS.1770 as pyloudnorm measures it, with scipy's IIR filter; narrator/speech/loudness.py)
happens in the workers too: the process that asks for lines never imports scipy.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import multiprocessing
import os
import sys
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Protocol

from narrator.speech.render import ENGINE as ESPEAK_ENGINE
from narrator.speech.render import (POOLED_ENGINES, Renderer, SpeechError, VoiceSettings, line_path, progress_bar,
                                   voice_aliases)

PIPER_ENGINE = "piper"
URGENT = float("-inf")  # the priority of a line someone is waiting for


def default_jobs() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


# --- the workers' side --------------------------------------------------------------------------

class RawSynth(Protocol):
    """A worker's engine: one line as 16-bit mono samples, and their rate."""

    def raw(self, text: str, settings: VoiceSettings) -> tuple[bytes, int]: ...


class EspeakSyncSynth:
    """espeak-ng in synchronous mode through the library pyttsx3 loads; one per process."""

    def __init__(self) -> None:
        import ctypes

        import pyttsx3
        import pyttsx3.drivers.espeak as espeak_driver
        from pyttsx3.drivers import _espeak

        driver_class: Any = espeak_driver.EspeakDriver
        if driver_class._moduleInitialized:
            raise SpeechError("espeak-ng is already started in its asynchronous mode in this process")
        if _espeak.Initialize(_espeak.AUDIO_OUTPUT_SYNCHRONOUS, 1000) == -1:
            raise SpeechError("espeak-ng cannot start; install libespeak-ng1 and espeak-ng-data, or run 'narrator doctor'")
        # What pyttsx3's driver does after its own Initialize, so its engine takes this one.
        current = _espeak.GetCurrentVoice()
        driver_class._defaultVoice = current.contents.name.decode("utf-8") if current and current.contents.name else "gmw/en"
        driver_class._moduleInitialized = True
        setattr(espeak_driver, "print", lambda *a, **k: None)
        engine = pyttsx3.init("espeak")
        self._driver = engine.proxy._driver
        self._engine = engine  # kept alive: the driver holds only a weak reference to it
        self._accepted = voice_aliases(v.id for v in engine.getProperty("voices"))
        self._espeak = _espeak
        self._chunks: list[bytes] = []
        chunks = self._chunks

        def on_synth(wav: Any, numsamples: int, events: Any) -> int:
            if numsamples > 0:
                chunks.append(ctypes.string_at(wav, numsamples * 2))
            return 0

        _espeak.SetSynthCallback(on_synth)  # replaces the driver's: the samples come straight here
        self._settings: VoiceSettings | None = None

    def raw(self, text: str, settings: VoiceSettings) -> tuple[bytes, int]:
        from narrator.speech.render import SAMPLE_RATE

        if settings != self._settings:
            if settings.voice.lower() not in self._accepted:
                raise SpeechError("voice {voice!r} is not installed in espeak-ng; pick one from 'narrator voices list' "
                                  "(espeak-ng --voices) or run 'narrator doctor'", voice=settings.voice)
            # pyttsx3's own setters: the same voice lookup and volume rounding as the in-process engine.
            self._driver.setProperty("voice", settings.voice)
            self._driver.setProperty("rate", settings.rate)
            self._driver.setProperty("volume", settings.volume)
            self._settings = settings
        self._chunks.clear()
        # PHONEMES: a pack's espeak-only respelling may give a word as espeak-ng's phonemes, "[[...]]"
        # (docs/languages.md), as the espeak-ng command reads them.
        self._espeak.Synth(text.encode("utf-8"),
                           flags=self._espeak.ENDPAUSE | self._espeak.CHARS_UTF8 | self._espeak.PHONEMES)
        audio = b"".join(self._chunks)
        if not audio:
            raise SpeechError("espeak-ng produced no audio for {text!r} (voice {voice!r}); run 'narrator doctor'",
                              text=text, voice=settings.voice)
        return audio, SAMPLE_RATE


class PiperProcessSynth:
    """Piper voices loaded in this process, each on one onnxruntime thread."""

    def __init__(self, threads: int = 1) -> None:
        self._threads = threads
        self._loaded: dict[str, Any] = {}

    def raw(self, text: str, settings: VoiceSettings) -> tuple[bytes, int]:
        from piper import SynthesisConfig

        voice = self._voice(settings.voice)
        config = SynthesisConfig(length_scale=150.0 / max(settings.rate, 1), normalize_audio=False)
        chunks = list(voice.synthesize(text, config))
        if not chunks:
            raise SpeechError("Piper produced no audio for {text!r} (voice {voice!r})", text=text, voice=settings.voice)
        return b"".join(c.audio_int16_bytes for c in chunks), int(chunks[0].sample_rate)

    def _voice(self, name: str) -> Any:
        voice = self._loaded.get(name)
        if voice is None:
            from narrator.speech.piper import load_voice

            voice = load_voice(name, self._threads)
            self._loaded[name] = voice
        return voice


_worker: RawSynth | None = None
_made: set[Path] = set()


def _start_worker(engine: str, threads: int) -> None:
    global _worker
    import signal

    # Ctrl-C reaches the whole process group: the asking process stops the render (what a worker
    # is doing finishes, the rest is dropped); a worker printing its own traceback would only add noise.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker = EspeakSyncSynth() if engine == ESPEAK_ENGINE else PiperProcessSynth(threads)
    import numpy  # noqa: F401 - the first line pays no import

    from narrator.speech.loudness import linear_filter

    linear_filter()


def render_batch(engine: str, root: str, settings: VoiceSettings, texts: list[str]) -> list[float]:
    """Render each line into the cache (skipping those there already); their lengths in seconds."""
    assert _worker is not None, "render_batch runs in a started worker"
    return [render_line(_worker, engine, Path(root), settings, text) for text in texts]


def render_line(synth: RawSynth, engine: str, root: Path, settings: VoiceSettings, text: str) -> float:
    """One line synthesised, levelled to the pack's loudness and written into the cache; its seconds."""
    import numpy as np

    from narrator.speech.loudness import normalise
    from narrator.speech.render import write_wav

    path = line_path(root, engine, settings, text)
    if path.is_file():
        return -1.0
    raw, rate = synth.raw(text, settings)
    audio = normalise(np.frombuffer(raw, dtype="<i2").astype(np.float32) / np.float32(32768.0), rate, settings.target_lufs)
    try:
        if path.parent not in _made:  # one mkdir per cache folder, not per line
            path.parent.mkdir(parents=True, exist_ok=True)
            _made.add(path.parent)
    except OSError as exc:
        raise SpeechError("cannot create the speech cache {parent}: {exc}; set NARRATOR_CACHE to a writable folder",
                          parent=path.parent, exc=exc) from None
    # Written aside then renamed: an interrupted render never leaves half a line.
    tmp = path.with_suffix(f".{os.getpid()}.tmp.wav")
    try:
        write_wav(tmp, audio, rate)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return len(raw) / 2 / rate


# --- the asking side -----------------------------------------------------------------------------

Line = tuple[str, VoiceSettings]


@dataclass
class _Batch:
    settings: VoiceSettings
    texts: list[str]


class RenderPool:
    """Worker processes that render lines into the cache, the most needed first.

    `want` queues lines with a priority (lower is sooner: the moment they can first be said);
    `wait` makes lines urgent and blocks until they are in the cache. A line already in the cache
    is never sent to a worker.
    """

    def __init__(self, engine: str, root: Path, jobs: int | None = None, batch: int | None = None) -> None:
        self.engine = engine
        self.root = root
        self.jobs = max(1, jobs or default_jobs())
        # espeak-ng lines take a few ms: a few per task hide the cost of the round trip. A Piper line
        # takes a tenth of a second or more: one per task, so an urgent line never queues behind a batch.
        self.batch = batch or (8 if engine == ESPEAK_ENGINE else 1)
        threads = 1
        if engine == PIPER_ENGINE and self.jobs == 1:
            threads = default_jobs()
        self._executor = ProcessPoolExecutor(self.jobs, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_start_worker, initargs=(engine, threads))
        self._cond = threading.Condition()
        self._heap: list[tuple[float, int, str, VoiceSettings]] = []
        self._order = itertools.count()
        self._best: dict[Line, float] = {}  # queued, not yet sent: its best priority
        self._in_worker: set[Line] = set()
        self.sent: list[Line] = []  # every line sent to a worker, in order
        self._done: dict[Line, float] = {}  # in the cache (seconds, -1 when found there)
        self._failed: dict[Line, BaseException] = {}
        self._in_flight = 0
        self.rendered = 0
        self.started = time.monotonic()
        self.on_done: Callable[[int], None] | None = None  # called with how many lines just finished
        self._closed = False

    def path(self, text: str, settings: VoiceSettings) -> Path:
        return line_path(self.root, self.engine, settings, text)

    def want(self, texts: Iterable[str], settings: VoiceSettings, priority: float = 0.0) -> int:
        """Queue the lines not in the cache yet (or move them up); how many are still to render."""
        return self.plan(((text, priority) for text in texts), settings)

    def plan(self, lines: Iterable[tuple[str, float]], settings: VoiceSettings, replace: bool = False) -> int:
        """Queue lines, each with its own priority (the moment it can first be said), all at once:
        none goes to a worker before the soonest-needed has; how many are still to render. With
        `replace`, what was queued and not yet sent to a worker is dropped first (an earlier plan
        for a table that changed: its lines may not be needed)."""
        todo = 0
        with self._cond:
            if replace:
                self._heap.clear()
                self._best.clear()
            for text, priority in lines:
                todo += self._queue(text, settings, priority)
            self._feed()
        return todo

    def _queue(self, text: str, settings: VoiceSettings, priority: float) -> bool:
        line = (text, settings)
        if line in self._done:
            return False
        if line in self._in_worker:
            return True
        best = self._best.get(line)
        if best is None and self.path(text, settings).is_file():
            self._done[line] = -1.0
            return False
        if best is None or priority < best:
            self._best[line] = priority
            heapq.heappush(self._heap, (priority, next(self._order), text, settings))
        return True

    def ready(self, text: str, settings: VoiceSettings) -> bool:
        with self._cond:
            if (text, settings) in self._done:
                return True
        return self.path(text, settings).is_file()

    def pending(self) -> int:
        """Lines queued or being rendered."""
        with self._cond:
            return len(self._best) + len(self._in_worker)

    def wait(self, texts: Iterable[str], settings: VoiceSettings, priority: float = URGENT,
             timeout: float | None = None) -> bool:
        """Block until every line is in the cache (False if `timeout` passed first); a worker's error is raised."""
        lines = [(t, settings) for t in dict.fromkeys(texts)]
        self.want((t for t, _ in lines), settings, priority)
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while True:
                for line in lines:
                    if line in self._failed:
                        raise self._failed[line]
                if all(line in self._done for line in lines):
                    return True
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cond.wait(left)

    def _feed(self) -> None:
        # Called with the lock held. A few tasks per worker in flight: enough to keep each busy,
        # few enough that a line made urgent later does not queue behind the whole game.
        while self._heap and self._in_flight < 2 * self.jobs and not self._closed:
            priority, _, text, settings = heapq.heappop(self._heap)
            line = (text, settings)
            if self._best.get(line) != priority:
                continue  # moved up since, or sent already
            batch = _Batch(settings, [text])
            del self._best[line]
            self._in_worker.add(line)
            self.sent.append(line)
            while self._heap and len(batch.texts) < self.batch:
                p2, _, t2, s2 = self._heap[0]
                other = (t2, s2)
                if self._best.get(other) != p2:
                    heapq.heappop(self._heap)
                    continue
                if s2 != settings:
                    break
                heapq.heappop(self._heap)
                del self._best[other]
                self._in_worker.add(other)
                self.sent.append(other)
                batch.texts.append(t2)
            try:
                fut = self._executor.submit(render_batch, self.engine, str(self.root), settings, batch.texts)
            except Exception as exc:  # noqa: BLE001 - a broken pool: every waiter hears it once
                failure = SpeechError("the render workers stopped ({error_type}: {exc}); run 'narrator doctor'",
                                      error_type=type(exc).__name__, exc=exc)
                for text in batch.texts:
                    self._in_worker.discard((text, settings))
                    self._failed[(text, settings)] = failure
                for _, _, text, settings in self._heap:
                    self._failed[(text, settings)] = failure
                self._heap.clear()
                self._best.clear()
                self._closed = True
                self._cond.notify_all()
                return
            self._in_flight += 1
            fut.add_done_callback(functools.partial(self._finished, batch=batch))

    def _finished(self, fut: Future[list[float]], *, batch: _Batch) -> None:
        with self._cond:
            self._in_flight -= 1
            exc = fut.exception() if not fut.cancelled() else SpeechError("the render was stopped")
            lines = [(t, batch.settings) for t in batch.texts]
            for line in lines:
                self._in_worker.discard(line)
            if exc is not None:
                if not isinstance(exc, SpeechError):
                    exc = SpeechError("a render worker failed ({error_type}: {exc}); run 'narrator doctor'",
                                      error_type=type(exc).__name__, exc=exc)
                for line in lines:
                    self._failed[line] = exc
            else:
                for line, seconds in zip(lines, fut.result()):
                    self._done[line] = seconds
                    self.rendered += seconds >= 0
            self._feed()
            self._cond.notify_all()
        if exc is None and self.on_done is not None:
            self.on_done(len(lines))

    def close(self) -> None:
        """Stop: what is being rendered finishes, what is queued is dropped."""
        with self._cond:
            self._closed = True
            self._heap.clear()
            self._best.clear()
        self._executor.shutdown(wait=True, cancel_futures=True)


def render_lines(engine: str, root: Path, texts: Iterable[str], settings: VoiceSettings, jobs: int | None = None,
                 progress: Callable[[int, int], None] | None = None) -> int:
    """Render every line not in the cache yet on `jobs` workers (default: every core); how many were rendered."""
    unique = list(dict.fromkeys(texts))
    todo = [t for t in unique if not line_path(root, engine, settings, t).is_file()]
    if not todo:
        return 0
    jobs = min(jobs or default_jobs(), len(todo))
    # Batches small enough that every worker gets several (and the progress moves), at most 8 lines.
    pool = RenderPool(engine, root, jobs, max(1, min(8, len(todo) // (4 * jobs))) if engine == ESPEAK_ENGINE else 1)
    done = [0]
    if progress is not None:
        def step(n: int) -> None:
            done[0] += n
            progress(done[0], len(todo))

        pool.on_done = step
    try:
        pool.wait(todo, settings, priority=0.0)
    finally:
        pool.close()
    return pool.rendered


def render_with_progress(renderer: Renderer, texts: Iterable[str], settings: VoiceSettings, label: str,
                         jobs: int | None = None) -> int:
    """Render every line not cached yet, with one progress bar on stderr (lines, lines/s, time left)
    when it is a terminal: espeak-ng's and Piper's on `jobs` worker processes (default: every
    core), another engine's here, one line at a time. How many were rendered."""
    unique = list(dict.fromkeys(texts))

    def render(progress: Callable[[int, int], None] | None) -> int:
        if renderer.synth.engine in POOLED_ENGINES and jobs != 0:
            rendered = render_lines(renderer.synth.engine, renderer.root, unique, settings, jobs, progress)
            renderer.counted(rendered)
            return rendered
        return renderer.render_all(unique, settings, progress, jobs=jobs)

    if not sys.stderr.isatty():
        return render(None)
    with progress_bar(label) as step:
        return render(step)
