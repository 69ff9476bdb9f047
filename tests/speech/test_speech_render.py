"""The TTS cache: real pyttsx3 and espeak-ng, a temporary cache folder."""

from __future__ import annotations

import wave
from pathlib import Path

import pytest

from narrator.packs import load_pack
from narrator.packs import every_cue, texts_of
from narrator.speech.render import Pyttsx3Synth, Renderer, SpeechError, VoiceSettings, cache_root
from wavcheck import espeak_ng_seconds

EN = VoiceSettings("en", 150, 1.0)


@pytest.fixture(scope="module")
def synth() -> Pyttsx3Synth:
    s = Pyttsx3Synth()
    yield s  # type: ignore[misc]
    s.close()


def test_a_line_is_a_22050_hz_mono_16_bit_wav_of_speech(synth: Pyttsx3Synth, tmp_path: Path) -> None:
    path = Renderer(synth, tmp_path).ensure("Seer, wake up.", EN)
    with wave.open(str(path)) as w:
        assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (22050, 1, 2)
        assert 0.6 < w.getnframes() / 22050 < 3.0


@pytest.mark.slow
def test_a_rendered_line_lasts_as_long_as_espeak_ng_says_it(synth: Pyttsx3Synth, tmp_path: Path) -> None:
    """pyttsx3 drives espeak-ng asynchronously; a line cut short (or run on) by a
    late callback would be cached and heard that way at every game. Its length must be the
    command line's, which is synchronous."""
    pack = load_pack("en")
    settings = VoiceSettings(pack.voice, pack.rate, pack.volume)
    renderer = Renderer(synth, tmp_path)
    for key in ("night.falls", "seer.wake", "witch.wake", "werewolves.sleep", "vote.start"):
        text = pack.lines[key][0]
        with wave.open(str(renderer.ensure(text, settings))) as w:
            rendered = w.getnframes() / w.getframerate()
        said = espeak_ng_seconds(text, pack.voice, pack.rate, tmp_path)
        assert abs(rendered - said) < 0.05 * said, f"{key}: rendered {rendered:.3f} s, espeak-ng says it in {said:.3f} s"


def test_a_rate_change_is_never_lost(synth: Pyttsx3Synth, tmp_path: Path) -> None:
    """pyttsx3 cancelled espeak's queued rate change when espeak still looked
    busy, and the line came out at the previous line's rate (1 in 6 renders with alternating
    rates on a loaded machine; the cause of test_estimates_are_close_to_espeak's failures)."""
    text = "Night falls on the village. Everyone, close your eyes."
    seconds: dict[int, set[float]] = {150: set(), 220: set()}
    for i in range(24):
        rate = (150, 220)[i % 2]
        path = tmp_path / f"{i}.wav"
        synth.synthesize(text, VoiceSettings("en", rate, 1.0), path)
        with wave.open(str(path)) as w:
            seconds[rate].add(round(w.getnframes() / w.getframerate(), 1))
    assert len(seconds[150]) == len(seconds[220]) == 1, seconds
    assert seconds[150] != seconds[220]


def test_a_cached_line_is_not_rendered_again(synth: Pyttsx3Synth, tmp_path: Path) -> None:
    first = Renderer(synth, tmp_path)
    path = first.ensure("Werewolves, go back to sleep.", EN)
    assert first.rendered == 1
    stamp = path.stat().st_mtime_ns
    again = Renderer(synth, tmp_path)  # a later run: a new renderer over the same cache
    assert again.ensure("Werewolves, go back to sleep.", EN) == path
    assert again.render_all(["Werewolves, go back to sleep."], EN) == 0
    assert again.rendered == 0 and path.stat().st_mtime_ns == stamp
    # Any change of voice, rate, volume or text is another line.
    keys = {again.path("Werewolves, go back to sleep.", s) for s in
            (EN, VoiceSettings("en-us", 150, 1.0), VoiceSettings("en", 151, 1.0), VoiceSettings("en", 150, 0.9))}
    keys.add(again.path("Werewolves, go back to sleep!", EN))
    assert len(keys) == 5


@pytest.mark.slow
def test_render_all_reports_progress_and_leaves_no_temporary_file(synth: Pyttsx3Synth, tmp_path: Path) -> None:
    renderer = Renderer(synth, tmp_path)
    seen: list[tuple[int, int]] = []
    texts = ["Seat 1.", "Seat 2.", "Seat 1.", "Seat 3."]
    assert renderer.render_all(texts, EN, lambda done, total: seen.append((done, total))) == 3
    assert seen == [(1, 3), (2, 3), (3, 3)]
    assert not [p for p in tmp_path.rglob("*") if p.is_file() and not p.name.endswith(".wav") or ".tmp." in p.name]


def test_an_unknown_voice_is_refused_with_the_fix(synth: Pyttsx3Synth, tmp_path: Path) -> None:
    with pytest.raises(SpeechError, match=r"voice 'xx-nowhere' is not installed.*narrator voices list"):
        Renderer(synth, tmp_path).ensure("Hello.", VoiceSettings("xx-nowhere", 150, 1.0))


def test_the_cache_folder_follows_narrator_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NARRATOR_CACHE", str(tmp_path))
    assert cache_root() == tmp_path
    monkeypatch.delenv("NARRATOR_CACHE")
    assert "narrator" in str(cache_root())


def test_every_cue_covers_every_seat_and_role() -> None:
    pack = load_pack("en")
    cues = every_cue(pack, 18)
    texts = texts_of(pack, cues)
    assert "Seat 18." in texts and "Their card: Little Girl." in texts
    assert "Seat 19." not in texts
    # A card shown is two lines ("Seat 3." "Their card: Werewolf."): no line names a seat and a role
    # together, so the lines grow with seats plus roles, not seats times roles (docs/voice.md).
    assert not any("Seat 3" in t and "Werewolf" in t for t in texts)
    assert len(texts) < 1400  # linear lines for 18 seats (the secret vote, the two-player game: 58 more)
    assert "The game is over. Victory for the Lovers." in texts
    # Every variant of a line is rendered ahead too.
    assert set(pack.lines["vote.start"]) <= set(texts)
    assert {c.key for c in cues} == set(pack.lines)
