"""A human narrator's own voice: a recorded pack of WAV files, one per unit of the voice pack.

Units: every line without slots (`seer.wake`, a second variant `seer.wake~2`), the words between
the slots of a line with slots (`day.victim#1`, `day.victim#2`), and each slot value once:
`number.1` .. `number.30` (seats, counts, minutes), `role.seer`, `side.village`. A line with
slots is joined at play time from its parts and slot values. A line that needs what was typed
(`{reason}`) or a unit not recorded yet is said by the engine instead, at the same loudness.

Recorded packs live in DATA/recorded/<lang>/<name>/ as 22,050 Hz mono 16-bit WAVs named by unit.
"""

from __future__ import annotations

import hashlib
import os
import queue
import shutil
import string
import tempfile
import wave
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from narrator.folders import move_into_place
from narrator.i18n import tr
from narrator.listening.models import data_dir
from narrator.packs import ROLE_SLOTS, SIDE_SLOTS, VoicePack
from narrator.ports import Cue
from narrator.speech.render import SpeechError, write_wav

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Audio = NDArray[np.float32]

SAMPLE_RATE = 22050
NUMBER_SLOTS = frozenset({"seat", "other", "count", "minutes", "seconds"})
GAP = 0.07  # seconds of silence between the joined pieces of a line
MARGIN = 0.05  # seconds kept before and after the voice when trimming


def recorded_root() -> Path:
    return data_dir() / "recorded"


def pack_dir(lang: str, name: str) -> Path:
    return recorded_root() / lang / name


@dataclass(frozen=True)
class Unit:
    name: str
    text: str  # what the narrator reads out


def _pieces(template: str) -> list[tuple[str, str | None]]:
    """A template as (literal text, slot name or None) pairs, in order."""
    return [(lit, slot) for lit, slot, _, _ in string.Formatter().parse(template)]


def _speakable(text: str) -> bool:
    return any(ch.isalnum() for ch in text)


def line_unit_name(key: str, variant: int, part: int | None) -> str:
    name = key if variant == 0 else f"{key}~{variant + 1}"
    return name if part is None else f"{name}#{part}"


def recordable(template: str) -> bool:
    return all(slot is None or slot in NUMBER_SLOTS | ROLE_SLOTS | SIDE_SLOTS for _, slot in _pieces(template))


def units(pack: VoicePack) -> list[Unit]:
    """Everything a narrator records for this pack, in pack order: lines, then numbers, roles, sides."""
    out: list[Unit] = []
    for key, variants in pack.lines.items():
        for v, template in enumerate(variants):
            if not recordable(template):
                continue
            pieces = _pieces(template)
            if all(slot is None for _, slot in pieces):
                out.append(Unit(line_unit_name(key, v, None), template.strip()))
                continue
            parts = [lit.strip() for lit, _ in pieces if _speakable(lit)]
            for i, text in enumerate(parts, 1):
                out.append(Unit(line_unit_name(key, v, i), text))
    for n, word in sorted(pack.numbers.items()):
        out.append(Unit(f"number.{n}", word))
    out += [Unit(f"role.{k}", v) for k, v in pack.roles.items()]
    out += [Unit(f"side.{k}", v) for k, v in pack.sides.items()]
    return out


# --- audio helpers --------------------------------------------------------------------------------

def read_audio(path: Path, rate: int = SAMPLE_RATE) -> "Audio":
    """A WAV (8/16/24/32-bit integer PCM, any channels, any rate) as mono float32 at `rate`."""
    import numpy as np

    try:
        with wave.open(str(path), "rb") as w:
            sr, width, channels = w.getframerate(), w.getsampwidth(), w.getnchannels()
            raw = w.readframes(w.getnframes())
    except (OSError, wave.Error, EOFError) as exc:
        raise SpeechError("{path} is not a readable WAV file ({exc}); save it as 16-bit PCM WAV", path=path, exc=exc) from None
    if width == 1:
        data = (np.frombuffer(raw, dtype=np.uint8).astype(np.float64) - 128.0) / 128.0
    elif width == 2:
        data = np.frombuffer(raw, dtype="<i2").astype(np.float64) / 32768.0
    elif width == 3:
        b = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 3).astype(np.int32)
        ints = (b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16))
        ints = np.where(ints >= 1 << 23, ints - (1 << 24), ints)
        data = ints.astype(np.float64) / float(1 << 23)
    elif width == 4:
        data = np.frombuffer(raw, dtype="<i4").astype(np.float64) / float(1 << 31)
    else:
        raise SpeechError("{path}: {value}-bit samples are not supported; save it as 16-bit PCM WAV", path=path, value=8 * width)
    if channels > 1:
        data = data.reshape(-1, channels).mean(axis=1)
    if sr != rate and len(data):
        n = int(round(len(data) * rate / sr))
        data = np.interp(np.arange(n) * (sr / rate), np.arange(len(data)), data)
    out: Audio = data.astype(np.float32)
    return out


def trim(audio: "Audio", rate: int = SAMPLE_RATE, floor_db: float = -45.0) -> "Audio":
    """The voice without the silence before and after it (a margin kept); empty if nothing was said.

    The threshold follows the take: 35 dB under its loudest 20 ms, and never under `floor_db`.
    """
    import numpy as np

    w = max(1, int(0.02 * rate))
    n = len(audio) // w
    if n == 0:
        out: Audio = audio[:0]
        return out
    levels = np.sqrt(np.mean(audio[: n * w].astype(np.float64).reshape(n, w) ** 2, axis=1))
    loudest = float(levels.max())
    if loudest <= 0.0 or 20 * np.log10(loudest) < floor_db:
        out = audio[:0]
        return out
    threshold = max(loudest * 10 ** (-35 / 20), 10 ** (floor_db / 20))
    voiced = np.nonzero(levels >= threshold)[0]
    margin = int(MARGIN * rate)
    start = max(0, int(voiced[0]) * w - margin)
    end = min(len(audio), (int(voiced[-1]) + 1) * w + margin)
    out = audio[start:end]
    return out


def clean(audio: "Audio", target: float, rate: int = SAMPLE_RATE) -> "Audio":
    """Trimmed and brought to `target` LUFS: how every take and imported file is stored."""
    from narrator.speech.loudness import normalise

    return normalise(trim(audio, rate), rate, target)


# --- a recorded pack ------------------------------------------------------------------------------

@dataclass
class RecordedPack:
    lang: str
    name: str
    folder: Path
    _clips: dict[str, "Audio"] = field(default_factory=dict)

    @classmethod
    def open(cls, lang: str, name: str) -> "RecordedPack":
        folder = pack_dir(lang, name)
        if not folder.is_dir():
            have = sorted(p.name for p in (recorded_root() / lang).iterdir()) if (recorded_root() / lang).is_dir() else []
            raise SpeechError("no recorded {lang} pack {name!r} in {parent}; have {value} (make one with 'narrator "
                              "voices record --lang {lang} --name {name}')",
                              lang=lang, name=name, parent=folder.parent, value=', '.join(have) or 'none')
        return cls(lang, name, folder)

    def recorded(self) -> set[str]:
        return {p.stem for p in self.folder.glob("*.wav")}

    def stamp(self) -> str:
        """Changes whenever a unit is added, removed or re-recorded."""
        h = hashlib.sha256()
        for p in sorted(self.folder.glob("*.wav")):
            st = p.stat()
            h.update(f"{p.name}\x1f{st.st_size}\x1f{st.st_mtime_ns}\n".encode())
        return h.hexdigest()[:16]

    def _unit(self, name: str) -> "Audio | None":
        clip = self._clips.get(name)
        if clip is None:
            path = self.folder / f"{name}.wav"
            if not path.is_file():
                return None
            clip = read_audio(path)
            self._clips[name] = clip
        return clip

    def assemble(self, pack: VoicePack, cue: Cue, variant: int) -> "Audio | None":
        """The line said in the recorded voice, joined from its units; None if any unit is missing."""
        import numpy as np

        variants = pack.lines.get(cue.key)
        if not variants:
            return None
        v = variant % len(variants)
        template = variants[v]
        if not recordable(template):
            return None
        pieces = _pieces(template)
        if all(slot is None for _, slot in pieces):
            clip = self._unit(line_unit_name(cue.key, v, None))
            return clip
        parts: list[Audio] = []
        part = 0
        for lit, slot in pieces:
            if _speakable(lit):
                part += 1
                clip = self._unit(line_unit_name(cue.key, v, part))
                if clip is None:
                    return None
                parts.append(clip)
            if slot is not None:
                clip = self._unit(slot_unit(slot, cue.slots.get(slot)))
                if clip is None:
                    return None
                parts.append(clip)
        gap = np.zeros(int(GAP * SAMPLE_RATE), dtype=np.float32)
        joined: list[Audio] = []
        for i, p in enumerate(parts):
            if i:
                joined.append(gap)
            joined.append(p)
        out: Audio = np.concatenate(joined).astype(np.float32)
        return out

    def ensure(self, pack: VoicePack, cue: Cue, variant: int, cache: Path, target: float) -> Path | None:
        """The recorded line as a WAV in the cache (joined and levelled once), or None."""
        from narrator.speech.loudness import normalise

        text = pack.text(cue, variant)
        raw = "\x1f".join((self.lang, self.name, self.stamp_cached(), cue.key, str(variant), text, f"{target:g}"))
        key = hashlib.sha256(raw.encode("utf-8")).hexdigest()
        path = cache / "recorded" / key[:2] / f"{key}.wav"
        if path.is_file():
            return path
        clip = self.assemble(pack, cue, variant)
        if clip is None or len(clip) == 0:
            return None
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.wav")
        try:
            write_wav(tmp, normalise(clip, SAMPLE_RATE, target), SAMPLE_RATE)
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
        return path

    _stamp: str | None = None

    def stamp_cached(self) -> str:
        if self._stamp is None:
            self._stamp = self.stamp()
        return self._stamp

    def save(self, unit: str, audio: "Audio") -> Path:
        """Write one unit (already cleaned), atomically."""
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{unit}.wav"
        tmp = self.folder / f".{unit}.{os.getpid()}.tmp.wav"
        try:
            write_wav(tmp, audio, SAMPLE_RATE)
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
        self._clips.pop(unit, None)
        self._stamp = None
        return path


def slot_unit(slot: str, value: Any) -> str:
    if slot in ROLE_SLOTS:
        return f"role.{value}"
    if slot in SIDE_SLOTS:
        return f"side.{value}"
    return f"number.{value}"


# --- import -------------------------------------------------------------------------------------

def import_folder(pack: VoicePack, source: Path, name: str, target: float) -> tuple[Path, int, list[str]]:
    """Take a folder of WAVs named by unit; returns (pack folder, files taken, units still missing).

    Built in a temporary folder next to the pack and moved into place with one rename, so a bad
    file leaves the recorded pack as it was.
    """
    if not source.is_dir():
        raise SpeechError("{source!r} is not a folder; give the folder that holds the WAV files", source=str(source))
    wanted = {u.name for u in units(pack)}
    files = sorted(source.glob("*.wav")) + sorted(source.glob("*.WAV"))
    if not files:
        raise SpeechError("no .wav files in {source}; name each file by its line, e.g. seer.wake.wav or number.3.wav",
                          source=source)
    unknown = [f.name for f in files if f.stem not in wanted]
    if unknown:
        shown = ", ".join(unknown[:5]) + (f" and {len(unknown) - 5} more" if len(unknown) > 5 else "")
        raise SpeechError("{shown}: not a line of the {language} pack; name files by unit ('narrator voices record "
                          "--list --lang {language}' shows them), nothing was imported",
                          shown=shown, language=pack.language)
    final = pack_dir(pack.language, name)
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SpeechError("the recorded voices folder {parent} cannot be made ({reason}); set NARRATOR_DATA to a "
                          "folder you can write", parent=final.parent, reason=exc.strerror or exc) from None
    work = Path(tempfile.mkdtemp(prefix=f".import-{name}-", dir=final.parent))
    try:
        if final.is_dir():
            for p in final.glob("*.wav"):
                shutil.copy2(p, work / p.name)
        for f in files:
            audio = clean(read_audio(f), target)
            if len(audio) == 0:
                raise SpeechError("{f} holds no speech (silence only); nothing was imported", f=f)
            write_wav(work / f"{f.stem}.wav", audio, SAMPLE_RATE)
        move_into_place(work, final)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    have = {p.stem for p in final.glob("*.wav")}
    return final, len(files), sorted(wanted - have)


# --- recording ------------------------------------------------------------------------------------

class Microphone:
    """One take from the default input device: waits for the voice, stops after a second of silence.

    Captured as 16-bit 16 kHz mono, the format the listening path uses (and the one the ALSA file
    capture device of the tests delivers byte for byte), then resampled to the pack's 22,050 Hz.
    Frames are counted rather than the wall clock watched, so a device that delivers faster than
    real time records the same way.
    """

    def __init__(self, device: str | None = None, rate: int = 16000, wait: float = 10.0,
                 silence: float = 1.0, longest: float = 30.0, threshold_db: float = -42.0) -> None:
        self.device = device
        self.rate = rate
        self.wait = wait
        self.silence = silence
        self.longest = longest
        self.threshold = 10 ** (threshold_db / 20)

    def take(self) -> "Audio":
        import numpy as np

        try:
            import sounddevice as sd
        except OSError as exc:
            raise SpeechError("audio input is unavailable ({exc}); install libportaudio2 or run 'narrator doctor'",
                              exc=exc) from None
        block = int(0.05 * self.rate)
        # The callback only copies: a device that delivers faster than we judge loses nothing.
        chunks: queue.Queue[bytes] = queue.Queue()

        def on_audio(indata: Any, frames: int, time_info: Any, status: Any) -> None:
            chunks.put(bytes(indata))

        got: list[Audio] = []
        heard = False
        quiet = 0
        frames = 0
        try:
            dev: Any = int(self.device) if self.device and self.device.isdigit() else self.device
            with sd.RawInputStream(samplerate=self.rate, channels=1, dtype="int16", blocksize=block, device=dev,
                                   callback=on_audio):
                while True:
                    try:
                        chunk = np.frombuffer(chunks.get(timeout=5.0), dtype="<i2").astype(np.float32) / np.float32(32768.0)
                    except queue.Empty:
                        break  # the device stopped delivering
                    frames += len(chunk)
                    loud = float(np.sqrt(np.mean(chunk.astype(np.float64) ** 2))) >= self.threshold
                    if loud:
                        heard = True
                        quiet = 0
                    elif heard:
                        quiet += len(chunk)
                    got.append(chunk)
                    if not heard:
                        got = got[-4:]  # keep a little of the room before the voice starts
                    if heard and quiet >= self.silence * self.rate:
                        break
                    if not heard and frames >= self.wait * self.rate:
                        break
                    if frames >= (self.wait + self.longest) * self.rate:
                        break
        except sd.PortAudioError as exc:
            raise SpeechError("the microphone cannot be opened ({exc}); choose one with --input-device, or import WAV "
                              "files with 'narrator voices import'", exc=exc) from None
        if not heard or not got:
            return np.zeros(0, dtype=np.float32)
        audio = np.concatenate(got)
        n = int(round(len(audio) * SAMPLE_RATE / self.rate))
        out: Audio = np.interp(np.arange(n) * (self.rate / SAMPLE_RATE), np.arange(len(audio)), audio).astype(np.float32)
        return out


def play_back(audio: "Audio", rate: int = SAMPLE_RATE) -> None:
    try:
        import sounddevice as sd

        sd.play(audio, rate, blocking=True)
    except Exception as exc:  # noqa: BLE001 - playback is a courtesy: say why, go on
        print("  " + tr("(cannot play it back: {error})", error=exc))


def record_session(
    pack: VoicePack,
    recorded: RecordedPack,
    take: Callable[[], "Audio"],
    ask: Callable[[str], str],
    say: Callable[[str], None],
    target: float,
    only: str | None = None,
    again: bool = False,
    playback: Callable[["Audio"], None] | None = None,
) -> tuple[int, int]:
    """Walk the narrator through the units; returns (recorded now, still missing).

    Each unit: its text, Enter to record (s skip, q stop); after a take: Enter to keep, r to redo,
    p to hear it, q to stop. Units already recorded are passed over unless `again`. Every kept
    take is saved at once, so stopping half way loses nothing.
    """
    todo = [u for u in units(pack) if (only is None or u.name.startswith(only))]
    if not todo:
        raise SpeechError("no line of the {language} pack starts with {only!r}; 'narrator voices record --list --lang "
                          "{language}' shows them", language=pack.language, only=only)
    done = recorded.recorded()
    if not again:
        todo = [u for u in todo if u.name not in done]
    say(tr("lines to record into {folder}: {count} (Enter: record, s: skip, q: stop and keep what is saved)",
           folder=recorded.folder, count=len(todo)))
    saved = 0
    for i, unit in enumerate(todo, 1):
        say(f"[{i}/{len(todo)}] {unit.name}\n    \u201c{unit.text}\u201d")
        answer = ask("  " + tr("Enter to record > ")).strip().lower()
        if answer == "q":
            break
        if answer == "s":
            continue
        while True:
            say("  " + tr("recording: speak now; it stops after a second of silence"))
            audio = clean(take(), target)
            if len(audio) == 0:
                say("  " + tr("heard nothing: check the microphone and try again"))
                answer = ask("  " + tr("Enter to try again, s to skip, q to stop > ")).strip().lower()
                if answer in ("s", "q"):
                    break
                continue
            say("  " + tr("took {seconds} s", seconds=f"{len(audio) / SAMPLE_RATE:.1f}"))
            answer = ask("  " + tr("Enter to keep, r to redo, p to hear it, q to stop > ")).strip().lower()
            while answer == "p":
                (playback or play_back)(audio)
                answer = ask("  " + tr("Enter to keep, r to redo, q to stop > ")).strip().lower()
            if answer == "r":
                continue
            if answer in ("", "y", "k", "q"):
                recorded.save(unit.name, audio)
                saved += 1
            break
        if answer == "q":
            break
    missing = len([u for u in units(pack) if u.name not in recorded.recorded()])
    return saved, missing

