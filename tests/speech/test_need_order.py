"""Lines rendered in the order of need, never late (narrator/speech/need.py), with a
fake slow synth on a virtual clock (narrator/fakes.py SlowLines): no wall clock anywhere."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from narrator.clock import VirtualClock
from narrator.fakes import RandomListener, SlowLines
from narrator.flow.script import Setup
from narrator.flow.sequencer import all_cues
from narrator.flow.timing import Timing
from narrator.headless import Timeline, TimelineSpeaker, run_game
from narrator.packs import every_cue, load_pack
from narrator.rules import Deal, Options, Role
from narrator.flow.run import start_game
from narrator.ports import Cue
from narrator.speech.need import FIRST, WAIT_KEY, NeedSpeaker, need_of, role_of_key, roles_not_in_play, texts_of_cue

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "flow"))
from flow_helpers import nights  # noqa: E402

# 12 players, 8 roles: 3 werewolves and 7 special cards.
CARDS = (Role.WEREWOLF, Role.SEER, Role.VILLAGER, Role.WITCH, Role.WEREWOLF, Role.HUNTER, Role.CUPID,
         Role.VILLAGER, Role.LITTLE_GIRL, Role.SAVIOR, Role.WEREWOLF, Role.RAVEN)


def _setup() -> Setup:
    timing = Timing().with_values({"debate": 60, "defence": 5, "vote": 5, "chain": 5})
    return Setup(12, "en", Deal(CARDS, ()), frozenset(CARDS), Options(), timing)


def _play(cost: float, warm: bool = False, seed: int = 7) -> tuple[list[dict[str, Any]], SlowLines, NeedSpeaker]:
    setup = _setup()
    pack = load_pack("en")
    clock = VirtualClock()
    timeline = Timeline(clock)
    slow = SlowLines(clock, cost, warm=warm)
    speaker = NeedSpeaker(TimelineSpeaker(pack, timeline), pack, slow)
    listener = RandomListener(clock, random.Random(seed), silence=0.25, late=0.15, illegal=0.1)
    run_game(setup, listener, seed, clock, speaker=speaker)
    return timeline.entries, slow, speaker


def _late(entries: list[dict[str, Any]], slow: SlowLines) -> list[str]:
    """Lines the table heard before they were rendered (checked on the timeline, not by the speaker):
    the timeline holds a line as shown, the renderer is given it as said."""
    pack = load_pack("en")
    said = {pack.text(c, v): pack.spoken(c, v) for c in every_cue(pack, 12, domains={"count": range(61)})
            for v in range(len(pack.lines[c.key]))}
    said.update({pack.text(Cue(WAIT_KEY)): pack.spoken(Cue(WAIT_KEY))})
    return [e["text"] for e in entries
            if e["kind"] == "say" and slow.done_at.get(said[e["text"]], float("inf")) > e["t"] + 1e-9]


def test_night_timelines_are_the_same_with_a_cold_and_a_warm_cache() -> None:
    cold, slow, speaker = _play(cost=0.05)
    warm, _, _ = _play(cost=0.05, warm=True)
    assert nights(cold) == nights(warm)
    assert len(nights(cold)) >= 2
    assert _late(cold, slow) == [] and speaker.late == []


def test_a_very_slow_machine_waits_openly_at_a_public_moment_never_late() -> None:
    entries, slow, speaker = _play(cost=5.0)
    assert speaker.waits, "the day's lines cannot be ready on time at five seconds a line"
    assert _late(entries, slow) == [] and speaker.late == []
    said_wait = [e for e in entries if e["kind"] == "say" and e["key"] == WAIT_KEY]
    assert said_wait and all(not e["phase"].startswith("night.") for e in said_wait)
    assert all(not cue.phase.startswith("night.") and need_of(cue.key) != FIRST for cue in speaker.waits)
    # The nights are still those of a warm cache: the wait moved only the day.
    warm, _, _ = _play(cost=5.0, warm=True)
    assert nights(entries) == nights(warm)


def test_the_first_line_comes_once_the_first_nights_lines_are_rendered() -> None:
    entries, slow, _ = _play(cost=0.01)
    pack = load_pack("en")
    cues = all_cues(pack, start_game(_setup()), _setup().timing)
    absent = roles_not_in_play(pack, cues)
    assert "seer" not in absent and "devoted_servant" in absent
    first = {t for c in [Cue(WAIT_KEY), *cues] if need_of(c.key) == FIRST and role_of_key(pack, c.key) not in absent
             for t in texts_of_cue(pack, c)}
    day = {t for c in cues if need_of(c.key) != FIRST for t in texts_of_cue(pack, c)} - first
    unlikely = {t for c in cues for t in texts_of_cue(pack, c)} - first - day
    first_said = min(e["t"] for e in entries if e["kind"] == "say")
    # Every first-night line before the first line, and nothing else held it back.
    assert first_said == pytest.approx(max(slow.done_at[t] for t in first), abs=1e-3)
    assert slow.order[: len(first)] and set(slow.order[: len(first)]) == first
    # The day's lines next, while the night plays; the lines of roles not in the game last.
    assert set(slow.order[len(first): len(first) + len(day)]) == day
    assert set(slow.order[len(first) + len(day):]) == unlikely
    assert all(slow.done_at[t] > first_said for t in day)


@pytest.mark.slow
def test_the_render_workers_take_the_first_nights_lines_first(tmp_path: Path) -> None:
    """Real espeak-ng workers (narrator/speech/pool.py) behind the same speaker: `prepare` returns with
    every first-night line in the cache, sent to the workers before any line of the day."""
    from narrator.fakes import EstimatedSpeaker
    from narrator.ports import Cue
    from narrator.speech.need import PoolLines
    from narrator.speech.pool import RenderPool
    from narrator.speech.render import ENGINE, VoiceSettings

    pack = load_pack("en")
    settings = VoiceSettings(pack.voice, pack.rate, pack.volume)
    pool = RenderPool(ENGINE, tmp_path, jobs=1, batch=1)
    lines = PoolLines(pool, settings)
    speaker = NeedSpeaker(EstimatedSpeaker(pack, VirtualClock()), pack, lines)
    day = [Cue("vote.start"), Cue("debate.end"), Cue("captain.election")]
    night = [Cue("game.welcome"), Cue("night.falls"), Cue("seer.wake")]
    try:
        speaker.prepare([*day, *night])  # the day's given first: the need decides, not the order
        first = [t for c in [Cue(WAIT_KEY), *night] for t in texts_of_cue(pack, c)]
        assert all(pool.path(t, settings).is_file() for t in first)
        sent = [text for text, _ in pool.sent]
        assert set(sent[: len(first)]) == set(first)
        speaker.say(Cue("vote.start", phase="day.vote"))  # waits for its line if the workers are behind
        assert all(lines.ready(t) for t in texts_of_cue(pack, Cue("vote.start")))
    finally:
        speaker.close()
