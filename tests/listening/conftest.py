"""Shared fixtures: a tiny Korean voice pack built in a temp dir (independent of the real one), and
the FIFO microphone that feeds the ALSA file device in the end-to-end test."""

from __future__ import annotations

import errno
import os
import subprocess
import threading
import time
from pathlib import Path

import pytest

from narrator.listening.audio import BLOCK, BYTES_PER_SECOND
from narrator.packs import VoicePack, load_pack

# Sino-Korean seat numbers; 4, 6, 7, 8 also in native Korean, which espeak-ng and the Korean
# model agree on better (VOICE-LAB.md).
TINY_KO_PACK = """
[pack]
language = "ko"
name = "Korean (test)"
voice = "ko"

[numbers]
1 = "일"
2 = "이"
3 = "삼"
4 = ["사", "넷"]
5 = "오"
6 = ["육", "여섯"]
7 = ["칠", "일곱"]
8 = ["팔", "여덟"]
9 = "구"
10 = "십"
11 = "십일"
12 = "십이"

[words]
nobody = ["아무도"]
yes = ["네"]
no = ["아니요"]
repeat = ["다시"]
pause = ["멈춤"]
more_time = ["시간 더"]
vote_now = ["투표"]

[lines]
"prompt.repeat" = "다시 말해 주세요."
"prompt.use_keypad" = "키패드를 사용하세요."
"vote.confirm" = "{seat}번. 취소하려면 아니요라고 말하세요."
"vote.cancelled" = "취소되었습니다."
"""


def write_tiny_ko_pack(root: Path) -> Path:
    (root / "ko").mkdir(parents=True, exist_ok=True)
    (root / "ko" / "pack.toml").write_text(TINY_KO_PACK, encoding="utf-8")
    return root


@pytest.fixture
def ko_pack(tmp_path: Path) -> VoicePack:
    return load_pack("ko", write_tiny_ko_pack(tmp_path / "voices"))


@pytest.fixture(scope="session")
def en_pack() -> VoicePack:
    return load_pack("en")


class FifoMicrophone:
    """A talking table at the far end of a FIFO that the ALSA `file` capture plugin reads.

    The reader may open and close the FIFO any number of times -- importing sounddevice makes
    PortAudio open every capture device once, before the real input stream -- so a closed FIFO
    (`BrokenPipeError`) is never the end: the writer waits for the next reader. The old writer gave
    up at the first close, and the child then hung on its second open until the test's timeout.

    The room is quiet (silence, paced in real time, 100 ms every 100 ms) until `talk()`; then the
    speech is played once, then quiet again. Speech only moves on when a chunk was written whole,
    so no word is lost to a reader that closed. Nothing here knows how the listener opens its
    stream: only the FIFO's opens and closes count.
    """

    CHUNK = 3200  # 100 ms of 16 kHz mono S16_LE; under PIPE_BUF, so a write is whole or not at all

    def __init__(self, fifo: Path, speech: bytes) -> None:
        if not fifo.exists():
            os.mkfifo(fifo)
        self.fifo = fifo
        self.speech = speech
        self.opens = 0  # how many readers it has fed
        self.spoken = 0  # bytes of speech written
        self._talk = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="fifo-microphone", daemon=True)

    def __enter__(self) -> FifoMicrophone:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(10)

    def talk(self) -> None:
        self._talk.set()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                fd = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as exc:
                if exc.errno != errno.ENXIO:  # ENXIO: nobody reads the FIFO yet
                    raise
                self._stop.wait(0.01)
                continue
            self.opens += 1
            os.set_blocking(fd, True)
            try:
                self._feed(fd)
            except BrokenPipeError:
                pass  # the reader closed the FIFO: wait for the next one
            finally:
                os.close(fd)

    def _feed(self, fd: int) -> None:
        due = time.monotonic()
        while not self._stop.is_set():
            talking = self._talk.is_set() and self.spoken < len(self.speech)
            chunk = self.speech[self.spoken:self.spoken + self.CHUNK] if talking else b""
            os.write(fd, chunk + b"\0" * (self.CHUNK - len(chunk)))
            if talking:
                self.spoken += len(chunk)
            due += self.CHUNK / 32000
            time.sleep(max(0.0, due - time.monotonic()))


class ChildLines:
    """The stdout lines of a child process, read as they come (the test reacts to them)."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.lines: list[str] = []
        self.closed = False
        self._new = threading.Condition()
        self._proc = proc
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            with self._new:
                self.lines.append(line)
                self._new.notify_all()
        with self._new:
            self.closed = True
            self._new.notify_all()

    def wait_for(self, needle: str, timeout: float) -> bool:
        """Whether a line containing `needle` came before the child's stdout closed or `timeout`."""
        with self._new:
            self._new.wait_for(lambda: self.closed or any(needle in line for line in self.lines), timeout)
            return any(needle in line for line in self.lines)

    def join(self, timeout: float) -> list[str]:
        self._thread.join(timeout)
        return list(self.lines)


class StreamAudioSource:
    """A microphone that plays queued audio as fast as the listener reads it, each chunk stamped
    with its stream time (the start plus the audio played so far, as a real-time source stamps
    it): the listener cuts utterances and learns the room on those stamps, so it hears what
    `FakeAudioSource` would give it at speed 1, without the test waiting out the audio in real time
    (`FakeAudioSource`'s `speed` shrinks the stamps too, and with them the quiet that ends an
    utterance). Queue a prompt's audio when the prompt opens (`on_listening`): audio queued before
    is played before any prompt listens.

    With nothing queued it waits for `add` (up to the read's timeout), or with `then_silence` plays
    silence in real time: a listener left running is not fed a flood of it."""

    def __init__(self, pcm: bytes = b"", then_silence: bool = True) -> None:
        self.then_silence = then_silence
        self._pcm = bytearray(pcm)
        self._added = threading.Condition()
        self._pos = 0  # bytes of the queued audio played
        self._sent = 0  # bytes played in all, silence too: the stream time
        self._t0: float | None = None
        self._quiet_since: tuple[float, int] | None = None  # (real time, bytes sent) when the audio ran out

    def add(self, pcm: bytes) -> None:
        with self._added:
            self._pcm += pcm
            self._added.notify_all()

    def start(self) -> None:
        self._t0 = time.monotonic()
        self._pos = self._sent = 0
        self._quiet_since = None

    def read(self, timeout: float) -> tuple[bytes, float] | None:
        if self._t0 is None:
            time.sleep(timeout)
            return None
        size = BLOCK * 2
        with self._added:
            if self._pos >= len(self._pcm) and not self.then_silence:
                self._added.wait(timeout)
            chunk = bytes(self._pcm[self._pos:self._pos + size])
        if chunk:
            self._pos += len(chunk)
            self._quiet_since = None
        elif not self.then_silence:
            return None
        else:
            if self._quiet_since is None:
                self._quiet_since = (time.monotonic(), self._sent)
            since, sent = self._quiet_since
            wait = since + (self._sent + size - sent) / BYTES_PER_SECOND - time.monotonic()
            if wait > 0:
                with self._added:  # audio added meanwhile is played at the next read
                    self._added.wait(min(wait, timeout))
                return None
        self._sent += size
        return chunk + b"\0" * (size - len(chunk)), self._t0 + self._sent / BYTES_PER_SECOND

    def stop(self) -> None:
        self._t0 = None
