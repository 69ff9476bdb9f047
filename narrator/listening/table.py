"""Listeners composed for the table: keypad and voice at once, risky choices read back and
confirmed, and the wiring that falls back to the keypad when voice cannot work."""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Callable, Protocol, Sequence

from narrator.errors import NarratorError
from narrator.i18n import message_of, tr
from narrator.listening.keypad import CONFIRM_SUFFIX
from narrator.packs import VoicePack
from narrator.ports import Cue, Heard, Prompt, Speaker

if TYPE_CHECKING:
    from narrator.listening.vosk_listener import VoiceListener

COUNTDOWN = 3.0  # seconds to say "no" after a risky choice is read back


class CancellableListener(Protocol):
    """A Listener that also stops early when `cancel` is set (another source answered first)."""

    def listen(self, prompt: Prompt, cancel: threading.Event | None = None) -> Heard | None: ...


class EitherListener:
    """Several listeners at once (keypad and voice): the first answer wins, the others stop.

    The first listener runs in the calling thread (the keypad needs it, to restore the terminal
    on a signal); the others run in helper threads for the length of the prompt.
    """

    def __init__(self, listeners: Sequence[CancellableListener]) -> None:
        if not listeners:
            raise ValueError("EitherListener needs at least one listener")
        self.listeners = list(listeners)

    def listen(self, prompt: Prompt, cancel: threading.Event | None = None) -> Heard | None:
        if len(self.listeners) == 1:
            return self.listeners[0].listen(prompt, cancel)
        done = threading.Event()
        answers: queue.Queue[Heard | BaseException] = queue.Queue()

        def run(listener: CancellableListener) -> None:
            try:
                heard = listener.listen(prompt, done)
            except BaseException as exc:  # noqa: BLE001 - re-raised in the calling thread
                answers.put(exc)
                done.set()
                return
            if heard is not None:
                answers.put(heard)
                done.set()

        def relay() -> None:  # an outside cancel stops everyone
            if cancel is not None:
                while not done.wait(0.05):
                    if cancel.is_set():
                        done.set()

        helpers = [threading.Thread(target=run, args=(lst,), daemon=True) for lst in self.listeners[1:]]
        helpers.append(threading.Thread(target=relay, daemon=True))
        for t in helpers:
            t.start()
        try:
            run(self.listeners[0])
        finally:
            done.set()
            for t in helpers:
                t.join(2.0)
        try:
            first = answers.get_nowait()
        except queue.Empty:
            return None
        if isinstance(first, BaseException):
            raise first
        return first


class ConfirmingListener:
    """Risky choices (an elimination, the Hunter's shot, a successor) are read back and stand
    after a countdown unless someone says "no" (or presses `-`); "yes" confirms at once.

    A risky choice taken by voice needs a second, independent error to go wrong: it stands only
    on a clear "yes" (or `+`), or when the countdown ends with no speech heard at all. Speech
    that was neither a clear "yes" nor a clear "no" (noise, a mumble) cancels it out loud and
    the question is asked again: noise can neither confirm nor cancel silently.
    `speech_since(t)` tells whether the microphone heard speech after monotonic time t.
    """

    def __init__(self, inner: CancellableListener, speaker: Speaker, countdown: float = COUNTDOWN,
                 speech_since: Callable[[float], bool] | None = None, keypad_only: bool = False) -> None:
        self.inner = inner
        # A table that plays by keypad is told to press `-` to cancel, not to say no.
        self.confirm_line = "vote.confirm_keypad" if keypad_only else "vote.confirm"
        self.speaker = speaker
        self.countdown = countdown
        self.speech_since = speech_since
        self._unclear = False

    def listen(self, prompt: Prompt, cancel: threading.Event | None = None) -> Heard | None:
        while True:
            heard = self.inner.listen(prompt, cancel)
            # A look-alike is no choice yet: the sequencer asks it back ("4? Yes or no."), and a
            # "yes" to that question confirms it as this read-back's "yes" would.
            if heard is None or heard.lookalike or not prompt.risky or not isinstance(heard.choice, int) \
                    or not prompt.allows(heard.choice):
                return heard
            asked = time.monotonic()
            spoken = self.speaker.say(Cue(self.confirm_line, {"seat": heard.choice}))
            ends = spoken + self.countdown
            verdict = self._confirm(prompt, ends, cancel)
            if verdict and heard.source == "voice" and self._unclear and self.speech_since is not None \
                    and self.speech_since(spoken):
                verdict = False  # something was said, and it was no clear "yes": not taken
            if verdict is None:
                return None
            if verdict:
                return heard
            self.speaker.say(Cue("vote.cancelled"))
            if prompt.deadline is not None:
                # The read-back and its countdown do not eat the time left to choose again.
                prompt = replace(prompt, deadline=prompt.deadline + time.monotonic() - asked)

    def _confirm(self, prompt: Prompt, ends: float, cancel: threading.Event | None) -> bool | None:
        """True: confirmed (countdown over, or "yes"); False: "no"; None: cancelled from outside."""
        confirm = Prompt(f"{prompt.name}{CONFIRM_SUFFIX}", words=("yes", "no"), night=prompt.night, deadline=ends)
        self._unclear = False
        while True:
            answer = self.inner.listen(confirm, cancel)
            if cancel is not None and cancel.is_set():
                return None
            if answer is None:
                self._unclear = True  # the countdown ran out: stands only if nothing was said
                return True
            if answer.choice == "yes":
                return True
            if answer.choice == "no":
                return False
            # Anything else (a seat typed on the keypad) does not stop the countdown.


@dataclass
class TableListener:
    """What `open_table_listener` built: the listener, and what to close at the end."""

    listener: CancellableListener
    notes: list[str] = field(default_factory=list)  # one line each: why voice is off, missing words
    voice: object | None = None  # the VoiceListener, if voice works
    _closers: list[Callable[[], None]] = field(default_factory=list)

    def listen(self, prompt: Prompt, cancel: threading.Event | None = None) -> Heard | None:
        return self.listener.listen(prompt, cancel)

    def close(self) -> None:
        while self._closers:
            self._closers.pop()()

    def __enter__(self) -> TableListener:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_table_listener(
    pack: VoicePack,
    speaker: Speaker,
    mute_until: Callable[[], float] | None = None,
    keypad: bool = True,
    voice: bool = True,
    echo: Callable[[str], None] | None = None,
    device: int | str | None = None,
    keypad_fd: int | None = None,
    extra: Sequence[CancellableListener] = (),
    seats_by_voice: bool = True,
) -> TableListener:
    """Keypad and voice for a game (and `extra` sources: the players' phones). Whatever stops voice
    (no model, no microphone, no vosk) becomes one line in `notes`, and the game goes on with the keypad."""
    from narrator.listening.keypad import KeypadListener

    parts: list[CancellableListener] = []
    table = TableListener(listener=EitherListener([_Never()]))
    if keypad:
        kp = KeypadListener(fd=keypad_fd, echo=echo)
        kp.__enter__()
        table._closers.append(lambda: kp.__exit__(None, None, None))
        parts.append(kp)
    if voice:
        try:
            vl = _open_voice(pack, speaker, mute_until, device, table.notes)
        except NarratorError as exc:
            table.notes.append(tr("{problem}; using the keypad only", problem=message_of(exc)))
        else:
            table._closers.append(vl.close)
            table.voice = vl
            # The voice check picked yes/no only (config voice_mode): seats come from the keypad.
            parts.append(vl if seats_by_voice else WordsOnly(vl))
    parts.extend(extra)
    if not parts:
        parts.append(_Never())
    speech_since = vl.speech_since if table.voice is not None else None
    table.listener = ConfirmingListener(EitherListener(parts), speaker, speech_since=speech_since,
                                        keypad_only=table.voice is None)
    return table


def _open_voice(pack: VoicePack, speaker: Speaker, mute_until: Callable[[], float] | None,
                device: int | str | None, notes: list[str]) -> VoiceListener:
    from narrator.listening.audio import MicrophoneSource
    from narrator.listening.models import info, require_model
    from narrator.listening.vosk_listener import describe_missing, load_model, missing_words

    path = require_model(pack.language)
    name = info(pack.language).name if pack.language in _catalog() else path.name
    model = load_model(path, name)
    missing = missing_words(model, pack)
    if missing:
        notes.append(describe_missing(missing, pack, model.name))
    from narrator.listening.vosk_listener import VoiceListener

    listener = VoiceListener(model, pack, MicrophoneSource(device), speaker=speaker, mute_until=mute_until,
                             missing=missing)
    listener.start()
    return listener


def _catalog() -> set[str]:
    from narrator.listening.models import CATALOG

    return set(CATALOG)


class WordsOnly:
    """A listener that takes words (yes, no, nobody...) but no seat: the voice check found that
    this table's seats are not heard reliably (narrator/listening/check.py)."""

    def __init__(self, inner: CancellableListener) -> None:
        self.inner = inner

    def listen(self, prompt: Prompt, cancel: threading.Event | None = None) -> Heard | None:
        return self.inner.listen(replace(prompt, seats=()), cancel)


class _Never:
    """No input at all (keypad and voice both off): every prompt runs to its deadline."""

    def listen(self, prompt: Prompt, cancel: threading.Event | None = None) -> Heard | None:
        from narrator.listening.vosk_listener import wait_out

        wait_out(prompt.deadline, cancel)
        return None
