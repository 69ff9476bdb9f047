"""`AudioSpeaker`: the real `Speaker` port. A cue becomes cached speech played over the ambience."""

from __future__ import annotations

import time
import wave
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Mapping

from narrator.packs import VoicePack, texts_of
from narrator.ports import Cue
from narrator.speech.player import MixSettings, Mixer, Player
from narrator.speech.recorded import RecordedPack
from narrator.speech.pool import render_with_progress
from narrator.speech.render import Pyttsx3Synth, Renderer, SpeechError, Synth, VoiceSettings

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Audio = NDArray[np.float32]

# The bed follows the story: night falls → the night bed, dawn → the day bed. It switches at the
# start of the line, under the voice, so the crossfade is heard through the ducking.
DEFAULT_BED_FOR_KEY: Mapping[str, str] = {
    "game.welcome": "day",
    "night.falls": "night",
    "day.dawn": "day",
}


def load_clip(path: Path, sample_rate: int) -> "Audio":
    """A 16-bit mono WAV as float32 at `sample_rate` (linear resampling when they differ)."""
    import numpy as np

    try:
        with wave.open(str(path), "rb") as w:
            rate, width, channels = w.getframerate(), w.getsampwidth(), w.getnchannels()
            raw = w.readframes(w.getnframes())
    except (OSError, wave.Error, EOFError) as exc:
        raise SpeechError("cached speech {path} is unreadable ({exc}); delete it and run 'narrator voices render'",
                          path=path, exc=exc) from None
    if width != 2:
        raise SpeechError("cached speech {path} is not 16-bit; delete it and run 'narrator voices render'", path=path)
    data = np.frombuffer(raw, dtype="<i2").astype(np.float32) / np.float32(32768.0)
    if channels > 1:
        data = data.reshape(-1, channels).mean(axis=1).astype(np.float32)
    if rate != sample_rate and len(data):
        n = int(round(len(data) * sample_rate / rate))
        data = np.interp(np.arange(n) * (rate / sample_rate), np.arange(len(data)), data).astype(np.float32)
    out: Audio = data
    return out


@dataclass
class SpokenLine:
    cue: Cue
    text: str
    token: int
    start: float
    end: float
    path: Path | None = None  # the WAV that was played
    source: str = ""  # "recorded", or the engine that rendered it


def pack_engine(synth_engine: str) -> str:
    """A synth's engine as packs name it (`[pack] engine`, `[spoken.espeak]`): "piper" or "espeak"."""
    from narrator.speech.piper import ENGINE as PIPER

    return "piper" if synth_engine == PIPER else "espeak"


@dataclass
class LineSource:
    """Where each line's audio comes from: the recorded pack where it has the line, else the engine.

    Variants of a line take turns per key, a rotation that depends only on how many times the key
    was said, never on hidden state. Every file it hands out is at the pack's loudness target.
    """

    pack: VoicePack
    renderer: Renderer
    voice: VoiceSettings | None = None  # the engine's voice; default: the pack's espeak-ng voice
    recorded: RecordedPack | None = None
    _turns: dict[str, int] = field(default_factory=dict)

    @property
    def settings(self) -> VoiceSettings:
        return self.voice or VoiceSettings(self.pack.voice, self.pack.rate, self.pack.volume)

    def turn(self, cue: Cue) -> int:
        turn = self._turns.get(cue.key, 0)
        self._turns[cue.key] = turn + 1
        return turn

    def audio(self, cue: Cue, variant: int) -> tuple[str, Path, str]:
        """(text as shown, WAV path, "recorded" or the engine) of one variant of a line; the
        engine is given the line's spoken text (numbers in words, respellings)."""
        text = self.pack.text(cue, variant)
        if self.recorded is not None:
            path = self.recorded.ensure(self.pack, cue, variant, self.renderer.root.parent, self.settings.target_lufs)
            if path is not None:
                return text, path, "recorded"
        spoken = self.pack.spoken(cue, variant, pack_engine(self.renderer.synth.engine))
        return text, self.renderer.ensure(spoken, self.settings), self.renderer.synth.engine

    def next(self, cue: Cue) -> tuple[str, Path, str]:
        return self.audio(cue, self.turn(cue))

    def seconds(self, cue: Cue) -> float:
        """How long the voice sounds in the line's first variant, rendered now if need be (a name
        the voice cannot say: narrator/speech/names.py)."""
        from narrator.speech.names import voiced_seconds
        from narrator.speech.render import SAMPLE_RATE

        return voiced_seconds(load_clip(self.audio(cue, 0)[1], SAMPLE_RATE), SAMPLE_RATE)

    def prepare(self, cues: Iterable[Cue]) -> None:
        """Join every recorded line these cues can produce, and render the rest with the engine."""
        cues = list(cues)
        if self.recorded is not None:
            engine_texts: list[str] = []
            for cue in cues:
                for v in range(len(self.pack.lines.get(cue.key, ("",)))):
                    if self.recorded.ensure(self.pack, cue, v, self.renderer.root.parent, self.settings.target_lufs) is None:
                        engine_texts.append(self.pack.spoken(cue, v, pack_engine(self.renderer.synth.engine)))
            texts = engine_texts
        else:
            texts = texts_of(self.pack, cues, engine=pack_engine(self.renderer.synth.engine))
        render_with_progress(self.renderer, texts, self.settings, f"rendering {self.pack.name} voice lines")


@dataclass
class AudioSpeaker:
    """Says cues through one `Player`; `say` starts the line and returns when it will end."""

    pack: VoicePack
    renderer: Renderer
    player: Player
    bed_for_key: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_BED_FOR_KEY))
    ambience: bool = True
    log: list[SpokenLine] = field(default_factory=list)
    voice: VoiceSettings | None = None
    recorded: RecordedPack | None = None
    _clips: "OrderedDict[Path, Audio]" = field(default_factory=OrderedDict)

    def __post_init__(self) -> None:
        self.lines = LineSource(self.pack, self.renderer, self.voice, self.recorded)

    @property
    def settings(self) -> VoiceSettings:
        return self.lines.settings

    def text(self, cue: Cue) -> str:
        return self.pack.text(cue, self.lines.turn(cue))

    def seconds(self, cue: Cue) -> float:
        """How long the voice sounds in a line (`LineSource.seconds`)."""
        return self.lines.seconds(cue)

    def say(self, cue: Cue, at: float | None = None) -> float:
        """Queue the line (to start at clock time `at`, on the exact frame, when given)."""
        bed = self.bed_for_key.get(cue.key) if self.ambience else None
        if bed is not None and at is None:
            self.player.mixer.set_bed(bed)
        text, path, source = self.lines.next(cue)
        # A line queued ahead switches the bed when it starts, not when it is queued.
        return self._play(cue, text, path, source, at, bed if at is not None else None)

    def say_text(self, text: str) -> float:
        """Say words that are not a line of the pack (`narrator say`)."""
        return self._play(Cue("say.text"), text, self.renderer.ensure(text, self.settings), self.renderer.synth.engine)

    def _play(self, cue: Cue, text: str, path: Path, source: str, at: float | None = None, bed: str | None = None) -> float:
        clip = self._clip(path)
        token, start, end = self.player.play(clip, at, bed)
        self.log.append(SpokenLine(cue, text, token, start, end, path, source))
        return end

    def prepare(self, cues: Iterable[Cue]) -> None:
        """Render every line these cues can produce (every variant), with a progress bar."""
        self.lines.prepare(cues)

    def set_ambience(self, bed: str | None) -> None:
        """Switch beds ("night", "day") or fade the ambience out (None)."""
        if self.ambience or bed is None:
            self.player.mixer.set_bed(bed)

    def listening(self, on: bool) -> None:
        """A prompt listens by voice (on) or stops (off): the bed ducks far under meanwhile, so
        the microphone does not take the program's own ambience for an answer."""
        self.player.mixer.listening = on

    def wait(self) -> None:
        """Block until every queued line has been written out."""
        while self.player.mixer.busy():
            time.sleep(0.01)
        if self.log:
            time.sleep(max(0.0, self.log[-1].end - time.monotonic()))

    def close(self, fade: float = 0.8) -> None:
        """Let the last line finish, fade the bed out (never a cut), and close the stream."""
        try:
            self.wait()
            if self.player.mixer.bed is not None and fade > 0:
                self.player.mixer.set_bed(None, fade)
                time.sleep(fade + 0.05)
        finally:
            try:
                self.player.close()
            finally:
                self.renderer.synth.close()

    def _clip(self, path: Path) -> "Audio":
        # Lines are read on demand from the page cache (under a millisecond) and a few hundred
        # kept, rather than holding a whole game's speech in memory.
        clip = self._clips.get(path)
        if clip is None:
            clip = load_clip(path, self.player.mixer.sample_rate)
            self._clips[path] = clip
            if len(self._clips) > 256:
                self._clips.popitem(last=False)
        else:
            self._clips.move_to_end(path)
        return clip


ENGINES = ("espeak", "piper")


def make_engine(pack: VoicePack, engine: str | None = None) -> tuple[Synth, VoiceSettings]:
    """The speech engine a pack asks for (or `engine`), started, and the voice settings to use."""
    name = engine or pack.engine
    if name == "piper":
        from narrator.speech.piper import PiperSynth, missing_voice_hint, voice_for

        piper = PiperSynth()
        voice = pack.piper_voice
        if not voice:
            found = voice_for(pack.language)
            if found is None:
                raise SpeechError(missing_voice_hint(pack.language))
            voice = found.name
        elif voice not in piper.voices():
            raise SpeechError("the {language} pack ({path}) asks for Piper voice {voice!r}, which is not installed; "
                              "{hint}",
                              language=pack.language, path=pack.path, voice=voice, hint=missing_voice_hint(pack.language))
        return piper, VoiceSettings(voice, pack.rate, pack.volume)
    if name != "espeak":
        raise SpeechError("no speech engine {name!r}; choose one of {engines}", name=name, engines=', '.join(ENGINES))
    synth = Pyttsx3Synth()
    try:
        check_voice(pack, synth)
    except BaseException:
        synth.close()
        raise
    return synth, VoiceSettings(pack.voice, pack.rate, pack.volume)


def engine_voice(pack: VoicePack, engine: str | None = None) -> tuple[str, VoiceSettings] | None:
    """The engine id and voice settings `make_engine` would give, without starting the engine; None
    when they cannot be known that way (an unknown engine, no Piper voice installed: `make_engine`
    says what is wrong)."""
    name = engine or pack.engine
    if name == "espeak":
        from narrator.speech.render import ENGINE

        return ENGINE, VoiceSettings(pack.voice, pack.rate, pack.volume)
    if name == "piper":
        from narrator.speech.piper import ENGINE as PIPER, available, installed, voice_for

        if not available():
            return None
        voice = pack.piper_voice
        if not voice:
            found = voice_for(pack.language)
            voice = found.name if found is not None else ""
        if not voice or voice not in {v.name for v in installed()}:
            return None
        return PIPER, VoiceSettings(voice, pack.rate, pack.volume)
    return None


def open_speaker(
    pack: VoicePack,
    device: str | None = None,
    ambience: bool = True,
    mix: MixSettings = MixSettings(),
    sample_rate: int = 22050,
    cache: Path | None = None,
    engine: str | None = None,
    recorded: RecordedPack | None = None,
) -> AudioSpeaker:
    """The real speaker, wired: the engine's renderer (and a recorded pack), beds, one output stream."""
    from narrator.speech.ambience import BEDS, generate

    from narrator.speech.player import DeviceOpenError, device_sample_rate

    synth, voice = make_engine(pack, engine)
    try:
        renderer = Renderer(synth, cache)
        # The voice's own rate first (no resampling); a device that refuses it gets its own rate,
        # the lines resampled as they are loaded and the beds generated at that rate.
        rates = list(dict.fromkeys(r for r in (sample_rate, device_sample_rate(device), 48000, 44100) if r))
        for i, rate in enumerate(rates):
            beds = {name: generate(name, rate) for name in BEDS} if ambience else {}
            try:
                player = Player(Mixer(rate, beds, mix), device)
                break
            except DeviceOpenError:
                if i == len(rates) - 1:
                    raise
    except BaseException:
        synth.close()
        raise
    return AudioSpeaker(pack, renderer, player, ambience=ambience, voice=voice, recorded=recorded)


def check_voice(pack: VoicePack, synth: Pyttsx3Synth) -> None:
    from narrator.speech.render import voice_aliases

    if pack.voice.lower() not in voice_aliases(synth.voices()):
        raise SpeechError(
            "the {language} pack ({path}) asks for voice {voice!r}, which espeak-ng does not have; set [pack] voice to "
            "an id from 'narrator voices list', or run 'narrator doctor'",
            language=pack.language, path=pack.path, voice=pack.voice
        )


if TYPE_CHECKING:
    from narrator.ports import Speaker

    def _is_a_speaker(s: AudioSpeaker) -> Speaker:  # mypy proves the port is implemented
        return s
