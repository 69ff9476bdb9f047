"""Offline speech recognition with Vosk: per-prompt grammars, utterances cut by our own silence
timeout, half-duplex muting while the narrator speaks, and "please repeat" on a miss.

Vosk's own endpointing fires late or not at all, so an utterance ends when a simple energy
detector has heard `silence` seconds of quiet after speech. Between utterances no audio reaches
Vosk at all (a short pre-roll is kept), which keeps the idle CPU near zero.
"""

from __future__ import annotations

import collections
import copy
import json
import queue
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Protocol, Sequence

from narrator.errors import NarratorError
from narrator.i18n import tr
from narrator.listening.audio import BYTES_PER_SECOND, RATE, AudioSource
from narrator.listening.grammar import MIN_CONFIDENCE, UNK, Grammar, Interpretation, build_grammar, pack_vocabulary
from narrator.listening.rejection import (DEFAULT_ALTERNATIVE_MARGIN, MAX_ALTERNATIVES, RoomLevel,
                                          alternative_margin, confusions, loud_part, prompt_rejects, reject_words,
                                          table_talk)
from narrator.listening.vad import SpeechGate, rms
from narrator.packs import VoicePack
from narrator.ports import Cue, Heard, Prompt, Speaker

SILENCE = 0.3  # trailing quiet that ends an utterance (seconds)
MUTE_TAIL = 0.3  # after the narrator stops, its echo in the room still fades
PREROLL = 0.3  # audio kept from before the speech onset, so the first consonant is not lost
MAX_UTTERANCE = 6.0  # a table that never falls silent still gets an answer (or a miss)


class SpeechModelError(NarratorError):
    """A speech model that cannot be loaded."""


class Recognizer(Protocol):
    def AcceptWaveform(self, data: bytes) -> bool: ...  # noqa: N802 - Vosk's names

    def Result(self) -> str: ...  # noqa: N802

    def FinalResult(self) -> str: ...  # noqa: N802


class SpeechModel(Protocol):
    """A loaded model: knows its words and makes a recognizer restricted to a grammar."""

    name: str

    def knows(self, word: str) -> bool: ...

    def recognizer(self, phrases: Sequence[str]) -> Recognizer: ...


def model_rejects(model: SpeechModel, pack: VoicePack) -> tuple[str, ...]:
    """The model's "not a choice" words for this pack's grammars (none if it has [unk])."""
    return reject_words(pack.language, model, bool(getattr(model, "has_unk", False)), pack_vocabulary(pack))


def listening_grammar(prompt: Prompt, pack: VoicePack, model: SpeechModel, missing: Iterable[str] = ()) -> Grammar:
    """The grammar a prompt listens with: its phrases, the model's "not a choice" words and the
    language's calibrated confusions."""
    return build_grammar(prompt, pack, missing, prompt_rejects(pack.language, model_rejects(model, pack), bool(prompt.seats)),
                         confusions(pack.language))


class VoskModel:
    """A Vosk model loaded from a folder (once: it takes seconds and hundreds of MB)."""

    def __init__(self, path: Path, name: str = "") -> None:
        try:
            import vosk
        except ImportError:
            raise SpeechModelError("speech recognition needs the vosk package: pip install vosk "
                                   "(or scripts/setup.sh voice)") from None
        vosk.SetLogLevel(-1)
        self.name = name or path.name
        self.path = path
        started = time.perf_counter()
        try:
            self._model = vosk.Model(str(path))
        except Exception as exc:  # vosk raises a bare Exception for an unreadable model
            raise SpeechModelError("cannot load the speech model at {path} ({exc}); check it with 'narrator models "
                                   "verify'", path=path, exc=exc) from None
        self.load_seconds = time.perf_counter() - started
        self.has_unk = self.knows(UNK)

    def knows(self, word: str) -> bool:
        return bool(self._model.vosk_model_find_word(word) >= 0)

    def recognizer(self, phrases: Sequence[str]) -> Recognizer:
        import vosk

        words = list(phrases) + ([UNK] if self.has_unk else [])
        # ensure_ascii=False: escaped Korean or accented words silently miss the vocabulary.
        rec = vosk.KaldiRecognizer(self._model, RATE, json.dumps(words, ensure_ascii=False))
        rec.SetWords(True)
        # Several readings of each utterance: an answer another close reading contradicts is refused.
        rec.SetMaxAlternatives(MAX_ALTERNATIVES)
        return rec  # type: ignore[no-any-return]


_loaded: tuple[tuple[str, int, int], VoskModel] | None = None
_loading = threading.Lock()


def load_model(path: Path, name: str = "") -> VoskModel:
    """The model in `path`, loaded once per process: the last one loaded is kept, so a second
    table, voice check or `listen` in the same process does not wait seconds for the same files
    again. A model fetched again into the same folder is a new folder (a new inode): loaded anew.
    The name is only what messages call it: another name shares the loaded files."""
    global _loaded
    try:
        st = path.stat()
        key = (str(path.resolve()), st.st_ino, st.st_mtime_ns)
    except OSError:  # VoskModel says why it cannot be read
        return VoskModel(path, name)
    with _loading:
        if _loaded is None or _loaded[0] != key:
            _loaded = None  # let go of the old model before the new one loads
            _loaded = (key, VoskModel(path, name))
        model = _loaded[1]
    if model.name != (name or path.name):
        model = copy.copy(model)
        model.name = name or path.name
    return model


def missing_words(model: SpeechModel, pack: VoicePack) -> dict[str, list[str]]:
    """Words of the pack's grammars the model does not know → the phrases that use them."""
    return {w: phrases for w, phrases in pack_vocabulary(pack).items() if not model.knows(w)}


def describe_missing(missing: dict[str, list[str]], pack: VoicePack, model_name: str) -> str:
    """One line: the unknown words, and for each choice they affect another way to say it, or
    the keypad when there is none."""
    from narrator.listening.grammar import phrases_for
    from narrator.ports import WORDS

    lost_phrases = {p for ps in missing.values() for p in ps}
    say_instead: list[str] = []
    keypad: list[str] = []
    choices: list[int | str] = [*sorted(pack.number_variants or pack.numbers), *(w for w in WORDS if w in pack.words)]
    for choice in choices:
        phrases = phrases_for(choice, pack)
        lost = [p for p in phrases if p in lost_phrases]
        if not lost:
            continue
        kept = [p for p in phrases if p not in lost_phrases]
        if kept:
            say_instead.append(tr("{said!r} for {lost!r}", said=kept[0], lost=lost[0]))
        else:
            keypad.append(repr(lost[0]))
    slots = dict(language=pack.language, model=model_name, words=", ".join(sorted(missing)),
                 instead=", ".join(say_instead), keys=" / ".join(keypad))
    if say_instead and keypad:
        return tr("the {language} speech model {model} does not know {words}: say {instead}; "
                  "answer {keys} with the keypad", **slots)
    if say_instead:
        return tr("the {language} speech model {model} does not know {words}: say {instead}", **slots)
    if keypad:
        return tr("the {language} speech model {model} does not know {words}: answer {keys} with the keypad", **slots)
    return tr("the {language} speech model {model} does not know {words}:", **slots) + " "


@dataclass(frozen=True)
class Utterance:
    """One stretch of speech as the recogniser understood it."""

    words: tuple[tuple[str, float], ...]
    speech_end: float  # stream time of the end of the last loud chunk
    decided: float  # stream time of the chunk that closed the utterance
    received: float  # time.monotonic() when that chunk arrived
    finished: float  # time.monotonic() when the recogniser answered
    alternatives: tuple[tuple[str, float], ...] = ()  # (text, score), best first
    # What the table-talk rules look at (narrator/listening/rejection.py, `table_talk`):
    started: float = 0.0  # stream time of the first chunk called speech
    level: float = 0.0  # median RMS of its speech chunks
    room: float = 0.0  # the room's running speech level before it began (0: not known yet)
    # Its loud part alone, decoded again when the room was talking (`loud_part`): the reading, its
    # alternatives, its length and median level. `decide` judges it when the whole is no choice.
    core: tuple[tuple[str, float], ...] = ()
    core_alternatives: tuple[tuple[str, float], ...] = ()
    core_seconds: float = 0.0
    core_level: float = 0.0

    @property
    def text(self) -> str:
        return " ".join(w for w, _ in self.words)

    @property
    def latency_ms(self) -> float:
        """From the end of speech to the answer: the silence wait plus the recogniser's time."""
        return 1000 * ((self.decided - self.speech_end) + (self.finished - self.received))


@dataclass
class Detector:
    """Cuts a stream into utterances (`SpeechGate` decides what is speech) and runs the
    recogniser on them only. `room` is the room's running speech level: the listener hands the
    same one to every prompt's detector, so it carries over from prompt to prompt."""

    new_recognizer: Callable[[], Recognizer]
    silence: float = SILENCE
    preroll: float = PREROLL
    max_utterance: float = MAX_UTTERANCE
    gate: SpeechGate = field(default_factory=SpeechGate)
    _rec: Recognizer | None = None
    _start: float | None = None
    _last_loud: float = 0.0
    _pre: collections.deque[bytes] = field(default_factory=collections.deque)
    speech_chunks: int = 0  # chunks the gate called speech, in this detector's life
    room: RoomLevel = field(default_factory=RoomLevel)
    _loud_levels: list[float] = field(default_factory=list)
    _chunks: list[tuple[bytes, float]] = field(default_factory=list)  # the utterance's own, with their levels
    _room: float = 0.0

    @property
    def in_speech(self) -> bool:
        return self._start is not None

    @property
    def floor(self) -> float:
        return self.gate.floor

    def abort(self) -> None:
        """Forget the utterance under way (it overlapped the narrator's voice)."""
        self._rec = None
        self._start = None
        self._chunks = []
        self._pre.clear()

    def feed(self, data: bytes, t_end: float) -> Utterance | None:
        loud = self.gate.is_speech(data)
        self.speech_chunks += loud
        duration = len(data) / BYTES_PER_SECOND
        level = rms(data)
        if self._start is None:
            self.room.hear(level, t_end, duration)
            if not loud:
                self._pre.append(data)
                while len(self._pre) * duration > self.preroll + 1e-9:
                    self._pre.popleft()
                return None
            self._rec = self.new_recognizer()
            self._start = t_end - duration
            self._loud_levels = []
            self._chunks = []
            self._room = self.room.level(t_end, skip_last=1)
            for chunk in self._pre:
                self._rec.AcceptWaveform(chunk)
            self._pre.clear()
        assert self._rec is not None
        if loud:
            self._last_loud = t_end
            self._loud_levels.append(level)
        self._chunks.append((data, level))
        received = time.monotonic()
        self._rec.AcceptWaveform(data)  # Vosk's own endpoint is late or absent: ours decides
        if t_end - self._last_loud >= self.silence or t_end - self._start >= self.max_utterance:
            return self._close(self._rec.FinalResult(), t_end, received)
        return None

    def finish(self, t_end: float) -> Utterance | None:
        """End of the stream: close an utterance under way."""
        if self._rec is None:
            return None
        return self._close(self._rec.FinalResult(), t_end, time.monotonic())

    def _close(self, result: str, t_end: float, received: float) -> Utterance:
        started = self._start if self._start is not None else t_end
        self._rec = None
        self._start = None
        words, alternatives = parse_result(result)
        level = _median(self._loud_levels)
        core: tuple[tuple[str, float], ...] = ()
        core_alternatives: tuple[tuple[str, float], ...] = ()
        core_seconds = core_level = 0.0
        span = loud_part([lv for _, lv in self._chunks], self._room)
        if span is not None:
            # The room talks: decode the part that stands out from it again, on its own.
            chunks = self._chunks[span[0]:span[1]]
            rec = self.new_recognizer()
            for data, _ in chunks:
                rec.AcceptWaveform(data)
            core, core_alternatives = parse_result(rec.FinalResult())
            core_seconds = sum(len(data) for data, _ in chunks) / BYTES_PER_SECOND
            core_level = _median([lv for _, lv in chunks])
        self._chunks = []
        return Utterance(words, self._last_loud, t_end, received, time.monotonic(), alternatives,
                         started=started, level=level, room=self._room, core=core,
                         core_alternatives=core_alternatives, core_seconds=core_seconds, core_level=core_level)


def _median(levels: list[float]) -> float:
    """The level an utterance (or its loud part) is judged by: the median of its chunks' (the
    upper one of an even count; 0.0 for none)."""
    ordered = sorted(levels)
    return ordered[len(ordered) // 2] if ordered else 0.0


def parse_result(result: str) -> tuple[tuple[tuple[str, float], ...], tuple[tuple[str, float], ...]]:
    """Vosk's JSON result → (word, confidence) pairs of the best reading, and every alternative
    reading as (text, score) when the recogniser gives alternatives (`SetMaxAlternatives`)."""
    try:
        data = json.loads(result)
    except ValueError:
        return (), ()
    alternatives: tuple[tuple[str, float], ...] = ()
    alts = data.get("alternatives")
    if isinstance(alts, list) and alts:
        alternatives = tuple((" ".join(str(a.get("text", "")).split()), float(a.get("confidence", 0.0)))
                             for a in alts if isinstance(a, dict))
        data = alts[0]
    words = data.get("result")
    if isinstance(words, list) and words and "conf" in words[0]:
        return tuple((str(w.get("word", "")), float(w.get("conf", 0.0))) for w in words if w.get("word")), alternatives
    text = str(data.get("text", "")).split()
    return tuple((w, 1.0) for w in text), alternatives  # no per-word confidences: trust the grammar


@dataclass(frozen=True)
class Recognised:
    """One utterance and what it meant: a line of `narrator listen`."""

    heard: str
    choice: Any
    conf: float
    latency_ms: float
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"heard": self.heard, "choice": self.choice, "conf": round(self.conf, 3),
                "latency_ms": round(self.latency_ms, 1)}


def recognise_pcm(model: SpeechModel, grammar: Grammar, pcm: bytes, block: int = 800,
                  min_confidence: float = MIN_CONFIDENCE, silence: float = SILENCE,
                  margin: float | None = None) -> Iterator[Recognised]:
    """Run a whole recording through the same detector and grammar as the live listener."""
    for d in decide_stream(model, grammar, pcm, block, min_confidence, silence, margin):
        yield d.recognised


@dataclass(frozen=True)
class Decision:
    """One utterance of a stream: what it meant, and when (stream time) it was closed."""

    recognised: Recognised
    closed_at: float
    processing_ms: float
    utterance: Utterance | None = None

    @property
    def heard(self) -> str:
        return self.recognised.heard

    @property
    def choice(self) -> Any:
        return self.recognised.choice


def decide_stream(model: SpeechModel, grammar: Grammar, pcm: bytes, block: int = 800,
                  min_confidence: float = MIN_CONFIDENCE, silence: float = SILENCE,
                  margin: float | None = None, room: RoomLevel | None = None) -> Iterator[Decision]:
    """Each utterance of a recording, decided as the live listener decides it. `room`: the room's
    level as the listener knew it when the prompt opened (see `hear_room`); none: learned afresh."""
    lang_margin = DEFAULT_ALTERNATIVE_MARGIN if margin is None else margin
    detector = Detector(lambda: model.recognizer(grammar.vosk_words()), silence=silence,
                        room=room if room is not None else RoomLevel())
    size = block * 2
    pcm += b"\0" * int((silence + 0.2) * BYTES_PER_SECOND)  # let the last utterance end
    for pos in range(0, len(pcm), size):
        chunk = pcm[pos:pos + size]
        utt = detector.feed(chunk, (pos + len(chunk)) / BYTES_PER_SECOND)
        if utt is not None and utt.words:
            yield _decision(utt, grammar, min_confidence, lang_margin)
    utt = detector.finish(len(pcm) / BYTES_PER_SECOND)
    if utt is not None and utt.words:
        yield _decision(utt, grammar, min_confidence, lang_margin)


def hear_room(room: RoomLevel, pcm: bytes, ends_at: float = 0.0, block: int = 800) -> RoomLevel:
    """Let `room` hear a recording of the room that ended at stream time `ends_at` (what the
    listener heard before a prompt opened, no prompt listening)."""
    size = block * 2
    start = ends_at - len(pcm) / BYTES_PER_SECOND
    for pos in range(0, len(pcm) - size + 1, size):
        room.hear(rms(pcm[pos:pos + size]), start + (pos + size) / BYTES_PER_SECOND, size / BYTES_PER_SECOND)
    return room


def _decision(utt: Utterance, grammar: Grammar, min_confidence: float, margin: float) -> Decision:
    meaning = decide(grammar, utt, min_confidence, margin)
    rec = Recognised(utt.text, meaning.choice, meaning.confidence, utt.latency_ms, meaning.reason)
    return Decision(rec, utt.decided, 1000 * (utt.finished - utt.received), utt)


def decide(grammar: Grammar, utt: Utterance, min_confidence: float, margin: float) -> Interpretation:
    """What an utterance means for the prompt: nothing if it is table talk (see `table_talk`),
    else what the grammar makes of it."""
    meaning = grammar.decide(utt.words, utt.alternatives, min_confidence, margin)
    if meaning.choice is None and meaning.candidate is None:
        if utt.core:
            # The room talks and the whole is no choice: its loud part alone may be the answer
            # (the talk around it read as "not a choice" words; rejection.py, `loud_part`).
            core = grammar.decide(utt.core, utt.core_alternatives, min_confidence, margin)
            if core.choice is not None or core.candidate is not None:
                talk = table_talk(utt.core_seconds, utt.core_level, utt.room)
                return core if talk is None else Interpretation(None, core.confidence, talk)
        return meaning
    # A look-alike's candidate seat is judged as an answer too: table talk is never asked back.
    talk = table_talk(utt.speech_end - utt.started, utt.level, utt.room)
    if talk is not None:
        return Interpretation(None, meaning.confidence, talk)
    return meaning


@dataclass
class _Session:
    grammar: Grammar
    detector: Detector
    results: queue.Queue[Utterance] = field(default_factory=queue.Queue)


class VoiceListener:
    """The `Listener` port by voice: a recogniser thread fed by an audio source.

    Only choices of the prompt's grammar come back. At night it takes nothing. What the
    microphone hears while the narrator speaks (up to `mute_until()` plus a tail) is dropped.
    """

    POLL = 0.05

    def __init__(
        self,
        model: SpeechModel,
        pack: VoicePack,
        source: AudioSource,
        speaker: Speaker | None = None,
        mute_until: Callable[[], float] | None = None,
        missing: Iterable[str] = (),
        min_confidence: float = MIN_CONFIDENCE,
        silence: float = SILENCE,
        tail: float = MUTE_TAIL,
        observer: Callable[[Recognised], None] | None = None,
        on_listening: Callable[[bool], None] | None = None,
    ) -> None:
        self.model = model
        self.pack = pack
        self.source = source
        self.speaker = speaker
        self.mute_until = mute_until or (lambda: 0.0)
        self.missing = tuple(missing)
        self.min_confidence = min_confidence
        self.silence = silence
        self.tail = tail
        self.observer = observer
        # Told when a prompt starts and stops listening by voice: the speaker ducks its bed.
        self.on_listening = on_listening or getattr(speaker, "listening", None)
        self.last_speech = 0.0  # capture time of the last chunk the gate called speech
        # The room's running speech level, learned from every chunk heard (outside the narrator's
        # lines and utterances), whether a prompt listens or not: each prompt starts knowing it.
        self.room = RoomLevel()
        self.rejects = model_rejects(model, pack)
        self.margin = alternative_margin(pack.language)
        self._own_line_ends = 0.0  # our own "please repeat" is speech too
        self._session: _Session | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None
        self.chunks = 0

    # lifecycle
    def start(self) -> VoiceListener:
        if self._thread is None:
            self.source.start()
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="vosk-listener", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2.0)
            self._thread = None
        self.source.stop()

    def __enter__(self) -> VoiceListener:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # the recogniser thread
    def _muted(self, t_start: float) -> bool:
        return t_start < max(self.mute_until(), self._own_line_ends) + self.tail

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                item = self.source.read(0.1)
                if item is None:
                    continue
                data, t_end = item
                self.chunks += 1
                with self._lock:
                    session = self._session
                seconds = len(data) / BYTES_PER_SECOND
                if session is None:
                    if not self._muted(t_end - seconds):
                        self.room.hear(rms(data), t_end, seconds)
                    continue
                if self._muted(t_end - seconds):
                    if session.detector.in_speech:
                        session.detector.abort()
                    continue
                before = session.detector.speech_chunks
                utt = session.detector.feed(data, t_end)
                if session.detector.speech_chunks > before:
                    self.last_speech = t_end
                if utt is not None:
                    session.results.put(utt)
        except BaseException as exc:  # noqa: BLE001 - handed to the listening thread
            self._error = exc

    # the port
    def grammar_for(self, prompt: Prompt) -> Grammar:
        return build_grammar(prompt, self.pack, self.missing,
                             prompt_rejects(self.pack.language, self.rejects, bool(prompt.seats)),
                             confusions(self.pack.language))

    def listen(self, prompt: Prompt, cancel: threading.Event | None = None) -> Heard | None:
        if self._thread is None:
            self.start()
        grammar = self.grammar_for(prompt)
        if prompt.night or grammar.empty:
            # The microphone takes no choices now: wait out the prompt for the keypad.
            wait_out(prompt.deadline, cancel)
            return None
        detector = Detector(lambda: self.model.recognizer(grammar.vosk_words()), silence=self.silence,
                            room=self.room)
        session = _Session(grammar, detector)
        with self._lock:
            self._session = session
        misses = 0
        if self.on_listening is not None:
            self.on_listening(True)
        try:
            while True:
                if self._error is not None:
                    raise self._error
                if cancel is not None and cancel.is_set():
                    return None
                remaining = None if prompt.deadline is None else prompt.deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return None
                try:
                    utt = session.results.get(timeout=self.POLL if remaining is None else min(self.POLL, remaining))
                except queue.Empty:
                    continue
                if not utt.words:
                    continue  # a cough or a click: not worth a "please repeat"
                meaning = decide(grammar, utt, self.min_confidence, self.margin)
                if self.observer is not None:
                    self.observer(Recognised(utt.text, meaning.choice, meaning.confidence, utt.latency_ms, meaning.reason))
                if meaning.choice is not None:
                    return Heard(meaning.choice, source="voice", text=utt.text, confidence=meaning.confidence)
                if meaning.candidate is not None and prompt.ask_back and not prompt.idle:
                    # A look-alike by day: the sequencer asks it back rather than "please repeat".
                    return Heard(meaning.candidate, source="voice", text=utt.text, confidence=meaning.confidence,
                                 lookalike=True)
                if prompt.idle:
                    continue  # a window only watched for a word (a vote's take-back): no "please repeat"
                misses += 1
                self._say_miss(misses)
        finally:
            with self._lock:
                if self._session is session:
                    self._session = None
            if self.on_listening is not None:
                self.on_listening(False)

    def speech_since(self, t: float) -> bool:
        """Whether anyone (or anything like speech) was heard after monotonic time `t`."""
        return self.last_speech > t

    def _say_miss(self, misses: int) -> None:
        # One "please repeat", then one "use the keypad"; after that silence, or a noisy table
        # would hear the narrator nag all through the debate.
        if self.speaker is None or misses > 2:
            return
        key = "prompt.repeat" if misses == 1 else "prompt.use_keypad"
        self._own_line_ends = max(self._own_line_ends, self.speaker.say(Cue(key)))


def wait_out(deadline: float | None, cancel: threading.Event | None) -> None:
    """Block until the deadline (or a cancel): a prompt this listener cannot answer."""
    while True:
        if cancel is not None and cancel.is_set():
            return None
        remaining = None if deadline is None else deadline - time.monotonic()
        if remaining is not None and remaining <= 0:
            return None
        wait = 0.05 if remaining is None else min(0.05, remaining)
        if cancel is not None:
            cancel.wait(wait)
        else:
            time.sleep(wait)
