"""Build setups and scripts from dicts, run headless games, and read their timelines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Mapping

from narrator.clock import VirtualClock
from narrator.fakes import FakeListener
from narrator.headless import (HeadlessResult, Timeline, TimelineDisplay, TimelineSpeaker, play_headless,
                               resume_headless, run_game)
from narrator.listening.automatic import ScriptPlayers
from narrator.packs import load_pack
from narrator.flow.script import parse_script, parse_setup
from narrator.ports import Heard, Prompt

FAST = {"debate": 120, "defence": 5}


def play(setup: dict[str, Any], script: dict[str, Any], seed: int = 0) -> HeadlessResult:
    setup = {"language": "en", **setup}
    setup.setdefault("timing", {}).update({k: v for k, v in FAST.items() if k not in setup["timing"]})
    s = parse_setup(setup, "SETUP")
    return play_headless(s, parse_script(script, s.players, "SCRIPT"), seed)


def typed(setup: dict[str, Any], script: dict[str, Any], call: str, night: int, answers: list[Any],
          asked: list[Prompt] | None = None) -> HeadlessResult:
    """A game in which `call`'s player types `answers` in turn on night `night` (seats, "nobody",
    or "no" for `-`), one a second, and stops when they run out (his turn then runs out); every other
    prompt is answered by `script`. Every prompt asked is appended to `asked` if given."""
    s = parse_setup({"language": "en", **setup, "timing": dict(FAST)}, "SETUP")
    base = parse_script(script, s.players, "SCRIPT")
    queue = list(answers)

    def answer(prompt: Prompt) -> Heard | None:
        if asked is not None:
            asked.append(prompt)
        if prompt.name.startswith(f"night.{call}") and prompt.number == night:
            if not queue or (prompt.idle and queue[0] != "no"):
                return None
            choice = queue.pop(0)
            return Heard(choice, "script", "-" if choice == "no" else str(choice))
        return base.answer(prompt)

    clock = VirtualClock()
    return run_game(s, FakeListener(clock, answer, delay=1.0), 0, clock)


def keys(result: HeadlessResult, phase_prefix: str = "") -> list[str]:
    return [e["key"] for e in result.timeline if e["kind"] == "say" and e["phase"].startswith(phase_prefix)]


def said(result: HeadlessResult) -> list[str]:
    return [e["text"] for e in result.timeline if e["kind"] == "say"]


def reveals(result: HeadlessResult, phase_prefix: str = "") -> list[str]:
    """Every card shown to the table, as the two lines say it, joined: "Seat 3. Their card: Hunter."
    (`day.death` then `day.card`; a seat named with no card after it is not a reveal)."""
    says = [e for e in result.timeline if e["kind"] == "say" and e["phase"].startswith(phase_prefix)]
    return [f"{a['text']} {b['text']}" for a, b in zip(says, says[1:]) if a["key"] == "day.death" and b["key"] == "day.card"]


def private(result: HeadlessResult) -> list[dict[str, Any]]:
    return [e for e in result.timeline if e["kind"] == "private"]


def index_of(result: HeadlessResult, key: str, start: int = 0) -> int:
    for i, e in enumerate(result.timeline[start:], start):
        if e.get("key") == key and e["kind"] == "say":
            return i
    raise AssertionError(f"{key} never said")


def during(result: HeadlessResult, wake: str, sleep: str) -> list[dict[str, Any]]:
    """Private entries between a wake line and the sleep line that follows it (first night)."""
    a = index_of(result, wake)
    b = index_of(result, sleep, a)
    return [e for e in result.timeline[a:b] if e["kind"] == "private"]


def panel_lines(entries: list[dict[str, Any]]) -> list[str]:
    """Every line the private panel showed, in order (a panel may hold several lines)."""
    return [line for e in entries if e.get("text") for line in e["text"].splitlines()]


def resumes_after_every_line(full: bytes, last: dict[str, Any], folder: Path) -> None:
    """The journal `full` cut after each of its lines but the last and resumed (what `narrator
    resume` does): every resumed game writes the same journal and ends on the same last entry."""
    lines = full.splitlines(keepends=True)
    for cut in range(1, len(lines) - 1):
        path = folder / f"cut{cut}.jsonl"
        path.write_bytes(b"".join(lines[:cut]))
        resumed = resume_headless(path)
        assert path.read_bytes() == full, f"resumed after line {cut}: the journal differs"
        assert resumed.timeline[-1] == last, f"resumed after line {cut}: the game ends differently"


class BoardTimelineDisplay(TimelineDisplay):
    """The timeline's display, also recording every public board on the timeline (`kind`
    "board"): what the screen shows the whole table."""

    def board(self, state: Mapping[str, Any]) -> None:
        self.timeline.add(kind="board", state=json.loads(json.dumps(dict(state))))


def play_screen(setup: dict[str, Any], script: dict[str, Any], seed: int = 0) -> HeadlessResult:
    """`play`, with the public boards on the timeline too."""
    setup = {"language": "en", **setup}
    setup.setdefault("timing", {}).update({k: v for k, v in FAST.items() if k not in setup["timing"]})
    s = parse_setup(setup, "SETUP")
    parsed = parse_script(script, s.players, "SCRIPT")
    clock = VirtualClock()
    pack = load_pack(s.language)
    timeline = Timeline(clock)  # one timeline for what is said and what is shown
    result = run_game(s, ScriptPlayers(clock, parsed.answer, delay=parsed.answer_delay), seed, clock,
                      speaker=TimelineSpeaker(pack, timeline, scale=s.speech_scale),
                      display=BoardTimelineDisplay(pack, timeline))
    return HeadlessResult(result.game, timeline.entries, result.journal)


def nights(timeline: Iterable[Mapping[str, Any]]) -> list[list[tuple[str, float]]]:
    """Each night's spoken lines (night.* phases) with their offsets from its `night.falls`: what a
    table hears at night, for the secrecy tests to compare between games."""
    out: list[list[tuple[str, float]]] = []
    start = 0.0
    for e in timeline:
        if e["kind"] != "say" or not e["phase"].startswith("night."):
            continue
        if e["key"] == "night.falls":
            start = e["t"]
            out.append([])
        out[-1].append((e["key"], round(e["t"] - start, 6)))
    return out
