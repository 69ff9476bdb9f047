"""Build setups and scripts from dicts, run headless games, and read their timelines."""

from __future__ import annotations

from typing import Any

from narrator.headless import HeadlessResult, play_headless
from narrator.flow.script import parse_script, parse_setup

FAST = {"debate": 120, "defence": 5}


def play(setup: dict[str, Any], script: dict[str, Any], seed: int = 0) -> HeadlessResult:
    setup = {"language": "en", **setup}
    setup.setdefault("timing", {}).update({k: v for k, v in FAST.items() if k not in setup["timing"]})
    s = parse_setup(setup, "SETUP")
    return play_headless(s, parse_script(script, s.players, "SCRIPT"), seed)


def keys(result: HeadlessResult, phase_prefix: str = "") -> list[str]:
    return [e["key"] for e in result.timeline if e["kind"] == "say" and e["phase"].startswith(phase_prefix)]


def said(result: HeadlessResult) -> list[str]:
    return [e["text"] for e in result.timeline if e["kind"] == "say"]


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
