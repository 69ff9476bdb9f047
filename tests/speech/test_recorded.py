"""Recorded packs without a device: units, import, the walk-through, and mixing with engine lines.

Recordings are stood in for by espeak-ng's own speech at odd levels, rates and channel counts, so
trimming, resampling and levelling are tested on real speech.
"""

from __future__ import annotations

import subprocess
import wave
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest

from narrator.cli import main
from narrator.packs import load_pack
from narrator.ports import Cue
from narrator.speech.loudness import measure
from narrator.speech.recorded import SAMPLE_RATE, RecordedPack, clean, import_folder, pack_dir, read_audio, record_session, units
from narrator.speech.render import Pyttsx3Synth, Renderer, VoiceSettings
from narrator.speech.speaker import LineSource

TARGET = -23.0
EN = load_pack("en")


def speech(text: str, path: Path, gain: float = 1.0, rate: int = 22050, channels: int = 1, pad: float = 0.5) -> Path:
    """espeak-ng saying `text`, scaled, with `pad` seconds of quiet room noise around it."""
    raw = path.with_suffix(".raw.wav")
    subprocess.run(["espeak-ng", "-v", "en", "-w", str(raw), text], check=True)
    audio = read_audio(raw, rate).astype(np.float64) * gain
    rng = np.random.default_rng(len(text))
    quiet = lambda: rng.normal(0, 0.0005, int(pad * rate))  # noqa: E731 - room noise, -66 dBFS
    audio = np.concatenate([quiet(), audio, quiet()])
    data = np.clip(np.round(audio * 32767), -32768, 32767).astype("<i2")
    if channels == 2:
        data = np.repeat(data, 2)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(data.tobytes())
    raw.unlink()
    return path


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("NARRATOR_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("NARRATOR_CACHE", str(tmp_path / "cache"))
    return tmp_path


@pytest.fixture(scope="module")
def synth() -> Iterator[Pyttsx3Synth]:
    s = Pyttsx3Synth()
    yield s
    s.close()


def test_units_cover_every_line_once_and_each_slot_value_once() -> None:
    names = [u.name for u in units(EN)]
    assert len(names) == len(set(names))
    assert "seer.wake" in names and "vote.voter~2#1" in names
    # "Seat {seat} was in love, and dies of grief." → two parts, joined with number.N at play time.
    assert {"chain.grief#1", "chain.grief#2", "day.card#1"} <= set(names) and "chain.grief" not in names
    assert [n for n in names if n.startswith("number.")] == [f"number.{i}" for i in range(1, 31)]
    assert {f"role.{r}" for r in EN.roles} <= set(names) and {f"side.{s}" for s in EN.sides} <= set(names)
    # Lines that repeat what was typed cannot be recorded: the engine says them.
    reason_keys = {k for k, v in EN.lines.items() if any("{reason}" in t for t in v)}
    assert all(not any(n.split("~")[0].split("#")[0] == k for n in names) for k in reason_keys)
    texts = {u.name: u.text for u in units(EN)}
    assert texts["chain.grief#1"] == "Seat" and texts["chain.grief#2"] == "was in love, and dies of grief."
    assert texts["day.card#1"] == "Their card:" and texts["number.3"] == "three"


@pytest.mark.slow
def test_import_levels_trims_and_resamples_and_refuses_strangers(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = data / "takes"
    src.mkdir()
    speech("Seer, wake up.", src / "seer.wake.wav", gain=0.05)  # very quiet
    speech("Seer, go back to sleep.", src / "seer.sleep.wav", gain=1.0, rate=44100, channels=2)
    speech("Seat", src / "day.death#1.wav")
    speech("three", src / "number.3.wav", gain=0.3, rate=16000)
    assert main(["voices", "import", str(src), "--lang", "en", "--name", "mine"]) == 0
    assert ": 4; lines still missing" in capsys.readouterr().out
    folder = pack_dir("en", "mine")
    for name in ("seer.wake", "seer.sleep", "day.death#1", "number.3"):
        with wave.open(str(folder / f"{name}.wav")) as w:
            assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (SAMPLE_RATE, 1, 2)
        audio = read_audio(folder / f"{name}.wav")
        assert abs(measure(audio, SAMPLE_RATE) - TARGET) <= 1.0, name
        original = read_audio(src / f"{name}.wav")
        assert len(audio) < len(original) - 0.7 * SAMPLE_RATE, f"{name}: the silence around it was not trimmed"

    (src / "seer.wakes.wav").write_bytes((src / "seer.wake.wav").read_bytes())
    before = sorted(p.name for p in folder.iterdir())
    assert main(["voices", "import", str(src), "--lang", "en", "--name", "mine"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "seer.wakes.wav: not a line of the en pack" in err[0] and "nothing was imported" in err[0]
    assert sorted(p.name for p in folder.iterdir()) == before


@pytest.mark.slow
def test_recorded_and_engine_lines_mix_at_one_loudness(data: Path, synth: Pyttsx3Synth) -> None:
    src = data / "takes"
    src.mkdir()
    speech("Night falls on the village. Everyone, close your eyes.", src / "night.falls.wav", gain=0.1)
    speech("votes", src / "vote.said#1.wav", gain=2.0)
    speech("four", src / "number.4.wav", gain=0.2)
    speech("seven", src / "number.7.wav", gain=1.5)
    import_folder(EN, src, "mine", TARGET)
    source = LineSource(EN, Renderer(synth, data / "cache" / "tts"), VoiceSettings("en", 150, 1.0), RecordedPack.open("en", "mine"))

    text, path, how = source.next(Cue("night.falls"))
    assert how == "recorded" and text.startswith("Night falls")
    # Joined from three units: four · votes · seven.
    _, joined, how = source.next(Cue("vote.said", {"seat": 4, "other": 7}))
    parts = [read_audio(pack_dir("en", "mine") / f"{u}.wav") for u in ("number.4", "vote.said#1", "number.7")]
    assert how == "recorded"
    assert abs(len(read_audio(joined)) - sum(len(p) for p in parts) - 2 * int(0.07 * SAMPLE_RATE)) <= 1
    # A seat with no recording, or a line never recorded: the engine says it.
    assert source.next(Cue("vote.said", {"seat": 5, "other": 7}))[2] == "pyttsx3-espeak-ng"
    assert source.next(Cue("seer.wake"))[2] == "pyttsx3-espeak-ng"

    levels = [measure(read_audio(p), SAMPLE_RATE) for p in
              (path, joined, source.next(Cue("seer.wake"))[1], source.next(Cue("werewolves.wake"))[1])]
    assert all(abs(level - TARGET) <= 2.0 for level in levels), levels


@pytest.mark.slow
def test_the_walk_through_keeps_redoes_skips_and_resumes(data: Path) -> None:
    takes = [read_audio(speech(t, data / f"take{i}.wav")) for i, t in enumerate(["first try", "Seer, wake up.", "Seer, go back to sleep."])]
    given = iter(takes)
    answers = iter(["", "r", "", "", ""])  # record, redo, keep the second take; record, keep
    out: list[str] = []
    recorded = RecordedPack("en", "mine", pack_dir("en", "mine"))
    saved, missing = record_session(EN, recorded, lambda: next(given), lambda prompt: next(answers), out.append,
                                    TARGET, only="seer.")
    assert saved == 2
    assert recorded.recorded() == {"seer.wake", "seer.sleep"}
    kept = read_audio(pack_dir("en", "mine") / "seer.wake.wav")
    # The second take was kept (the redo replaced "first try").
    assert len(kept) == len(clean(takes[1], TARGET)) != len(clean(takes[0], TARGET))
    assert missing == len(units(EN)) - 2
    assert any('"Seer, wake up.' in line or "Seer, wake up." in line for line in out)

    # A second session passes over what is recorded.
    out.clear()
    assert record_session(EN, recorded, lambda: next(given), lambda p: "", out.append, TARGET, only="seer.") == (0, missing)
    assert out[0].startswith("lines to record into") and ": 0 (" in out[0]
    # Silence is not saved: the narrator is asked again.
    answers = iter(["", "", "s"])
    silence = lambda: np.zeros(SAMPLE_RATE, dtype=np.float32)  # noqa: E731
    saved, _ = record_session(EN, recorded, silence, lambda p: next(answers), out.append, TARGET, only="werewolves.sleep")
    assert saved == 0 and " ".join(out).count("heard nothing") == 2
    assert recorded.recorded() == {"seer.wake", "seer.sleep"}
