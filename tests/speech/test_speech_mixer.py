"""The mixer alone (no device): ducking ramps, bed crossfades, lines in order, never overlapping."""

from __future__ import annotations

import numpy as np

from narrator.speech.ambience import BEDS, generate
from narrator.speech.player import MixSettings, Mixer

SR = 22050


def _run(mixer: Mixer, seconds: float, block: int = 256) -> np.ndarray:
    return np.concatenate([mixer.render(block) for _ in range(int(seconds * SR / block))])


def test_beds_loop_without_a_seam() -> None:
    for name in BEDS:
        bed = generate(name, SR).astype(np.float64)
        steps = np.abs(np.diff(bed))
        # The jump from the last sample back to the first is an ordinary step of the bed.
        assert abs(bed[0] - bed[-1]) <= np.percentile(steps, 99.9)
        assert 0.1 < np.sqrt(np.mean(bed**2)) < 0.3


def test_night_bed_is_broadband_enough_to_mask_clicks() -> None:
    bed = generate("night", SR).astype(np.float64)
    spectrum = np.abs(np.fft.rfft(bed)) ** 2
    freqs = np.fft.rfftfreq(len(bed), 1 / SR)
    band = lambda lo, hi: spectrum[(freqs >= lo) & (freqs < hi)].sum() / spectrum.sum()  # noqa: E731
    # Keypad clicks and rustle sit around 1-6 kHz: the night bed has real energy there.
    assert band(1000, 6000) > 0.15
    assert band(50, 1000) > 0.2


def test_the_bed_ducks_under_a_line_and_comes_back() -> None:
    settings = MixSettings(ambience_volume=0.5, duck_db=12.0)
    mixer = Mixer(SR, {"night": generate("night", SR)}, settings)
    mixer.set_bed("night")
    _run(mixer, 2.0)
    level = lambda x: float(np.sqrt(np.mean(x.astype(np.float64) ** 2)))  # noqa: E731
    before = level(_run(mixer, 0.5))
    mixer.queue(np.zeros(int(1.0 * SR), dtype=np.float32))  # a silent line: only the bed is heard
    during = _run(mixer, 1.0)
    after = _run(mixer, 2.0)
    assert abs(level(during[int(0.3 * SR) :]) / before - 10 ** (-12 / 20)) < 0.06
    assert level(after[int(1.3 * SR) :]) / before > 0.8
    # The dip is a ramp, not a step: the first 50 ms are still louder than the ducked level.
    assert level(during[: int(0.05 * SR)]) > 1.5 * level(during[int(0.3 * SR) :])


def test_lines_play_in_order_and_never_overlap() -> None:
    mixer = Mixer(SR, {}, MixSettings())
    a = np.full(1000, 0.25, dtype=np.float32)
    b = np.full(700, -0.5, dtype=np.float32)
    _, a_start, a_end = mixer.queue(a)
    _, b_start, b_end = mixer.queue(b)
    assert b_start == a_end
    out = _run(mixer, 0.1)
    assert np.all(out[a_start:a_end] == 0.25) and np.all(out[b_start:b_end] == -0.5)
    assert np.all(out[b_end:] == 0.0)
    assert [s.frame for s in mixer.started] == [a_start, b_start]


def test_switching_beds_crossfades_at_steady_loudness() -> None:
    settings = MixSettings(ambience_volume=1.0, crossfade=1.0)
    mixer = Mixer(SR, {b: generate(b, SR) for b in BEDS}, settings)
    mixer.set_bed("day")
    _run(mixer, 2.0)
    mixer.set_bed("night")
    fade = _run(mixer, 1.0)
    fade = fade[: len(fade) // 441 * 441].astype(np.float64)
    rms = np.sqrt(np.mean(fade.reshape(-1, 441) ** 2, axis=1))  # 20 ms windows
    assert rms.min() > 0.5 * rms.max()  # no dip to silence in the middle
    assert mixer.bed == "night"


def test_the_bed_fades_out_rather_than_stops() -> None:
    bed = generate("night", SR)
    level = float(np.sqrt(np.mean(bed.astype(np.float64) ** 2)))
    mixer = Mixer(SR, {"night": bed}, MixSettings(ambience_volume=1.0))
    mixer.set_bed("night")
    _run(mixer, 2.0)
    mixer.set_bed(None, 0.5)
    out = _run(mixer, 1.0).astype(np.float64)
    rms = np.sqrt(np.mean(out[: len(out) // 441 * 441].reshape(-1, 441) ** 2, axis=1))
    assert rms[0] > 0.6 * level and rms[12] > 0.08 * level  # still sounding 0.25 s into the fade
    assert np.all(rms[30:] == 0.0)  # silent once the fade is over
    assert np.all(np.diff(rms[:25]) < 0.05)  # going down, gently


def test_a_line_queued_for_a_frame_starts_on_that_frame_even_mid_block() -> None:
    # The night's lines are queued ahead with their time: each starts on its own frame, not at
    # the next block, so the thread's lateness never shows in the audio.
    mixer = Mixer(SR, {}, MixSettings())
    a = np.full(300, 0.25, dtype=np.float32)
    b = np.full(200, -0.5, dtype=np.float32)
    _, a_start, a_end = mixer.queue(a, at_frame=1000)
    _, b_start, b_end = mixer.queue(b, at_frame=a_end + 77)
    assert (a_start, a_end, b_start) == (1000, 1300, 1377)
    out = _run(mixer, 0.1)
    voiced = np.flatnonzero(out)
    assert voiced[0] == 1000 and np.all(out[1000:1300] == 0.25)
    assert np.all(out[1300:1377] == 0) and np.all(out[1377:1577] == -0.5) and voiced[-1] == 1576
    assert [s.frame for s in mixer.started] == [1000, 1377]


def test_a_line_queued_for_a_frame_already_played_starts_at_once_after_the_line_playing() -> None:
    mixer = Mixer(SR, {}, MixSettings())
    _run(mixer, 0.1)
    done = mixer.frames
    _, start, _ = mixer.queue(np.full(100, 0.25, dtype=np.float32), at_frame=10)
    assert start == done
    _, after, _ = mixer.queue(np.full(100, 0.25, dtype=np.float32), at_frame=done + 50)
    assert after == done + 100  # never over the line still playing


def test_the_bed_ducks_when_a_scheduled_line_sounds_not_when_it_is_queued() -> None:
    settings = MixSettings(ambience_volume=0.5, duck_db=12.0)
    twins = [Mixer(SR, {"night": generate("night", SR)}, settings) for _ in range(2)]
    for mixer in twins:
        mixer.set_bed("night")
        _run(mixer, 2.0)
    mixer, quiet = twins
    start = mixer.frames + SR  # one second from now
    mixer.queue(np.zeros(SR, dtype=np.float32), at_frame=start)  # a silent line: only the bed is heard
    out, ref = _run(mixer, 2.5), _run(quiet, 2.5)
    power = lambda x: float(np.mean(x.astype(np.float64) ** 2))  # noqa: E731
    gain = lambda a, b: (power(out[a:b]) / power(ref[a:b])) ** 0.5  # noqa: E731
    assert gain(0, SR) > 0.999  # the bed stays up until the line's frame (one second after it was queued)
    assert abs(gain(SR + int(0.3 * SR), 2 * SR) - 10 ** (-12 / 20)) < 0.02  # then ducks under it


def test_a_scheduled_line_switches_the_bed_when_it_starts() -> None:
    beds = {"night": generate("night", SR), "day": generate("day", SR)}
    mixer = Mixer(SR, beds, MixSettings())
    mixer.set_bed("night")
    _run(mixer, 0.5)
    start = mixer.frames + SR // 2
    mixer.queue(np.zeros(1000, dtype=np.float32), at_frame=start, bed="day")
    while mixer.frames + 256 <= start:
        mixer.render(256)
        assert mixer.bed == "night"
    mixer.render(256)
    assert mixer.bed == "day"
