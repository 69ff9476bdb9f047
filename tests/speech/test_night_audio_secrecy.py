"""Night timing that no disk can betray, checked on the schedule and in the recorded audio.

Games that differ only in hidden state (the Seer dead or alive, roles silent or answering at the
last moment of their turn, the Witch's potions full, spent, or the Witch dead) are each played for
two nights on the real clock, through the real audio path (AudioSpeaker with ambience into an ALSA
file device), journaled on disk through a journal whose every sync is slow: a random 0-100 ms
("answering", "silent") or a steady 50 ms ("witch_dead"). One recording of each story serves every
test here (it used to be made twice: once here, once with the timeline speaker in
tests/flow/test_night_timing.py, with the same stories):

- the schedule: every wake -> sleep interval, as the sequencer had each line start, is the same
  within 5 ms in every story (tests/flow/test_night_timing.py's property);
- the recording: each night line is found in the recorded WAV and its onset, counted from that
  night's `night.falls`, is the same within one audio block.

The night's lines are queued `Sequencer.queue_lead` ahead with their time and start on that frame
(`Speaker.say(cue, at)`), so a thread woken late on a loaded machine moves none of them: this
held in three runs next to a busy-looping CPU spinner (see docs/secrecy.md), and the
three stories are recorded at the same time, in three processes, for that reason as much as for
speed: each is the others' load.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from night_pairs import night_onsets

HERE = Path(__file__).resolve().parent
# The journal's sync of each story: the stories' journals are slowed differently, too.
SYNC = {"answering": "random", "silent": "random", "witch_dead": "0.05"}

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("audio")]  # real time: one at a time (docs/testing.md)


@pytest.fixture(scope="module")
def recordings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("pairs")
    # The three stories are one table, so one set of lines: rendered once here, before they start,
    # not three times over into the same cache by three games starting at once.
    subprocess.run([sys.executable, str(HERE / "night_pairs.py"), "prepare"], env=dict(os.environ, NARRATOR_CACHE=str(tmp / "cache")),
                   check=True, capture_output=True)
    procs: dict[str, subprocess.Popen[str]] = {}
    for story, sync in SYNC.items():
        env = dict(os.environ, ALSA_CONFIG_PATH=f"/usr/share/alsa/alsa.conf:{HERE / 'alsa_file_devices.conf'}",
                   VOICE_OUTFILE=str(tmp / f"{story}.wav"), NARRATOR_CACHE=str(tmp / "cache"))
        procs[story] = subprocess.Popen([sys.executable, str(HERE / "night_pairs.py"), story, str(tmp / f"{story}.jsonl"), sync],
                                        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out: dict[str, Any] = {}
    for story, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=900)
        assert proc.returncode == 0, stderr
        report = json.loads(stdout)
        assert report["rendered"] == 0, f"{story}: the game rendered lines the prepared cache lacked"
        out[story] = {"report": report, "onsets": night_onsets(report, tmp / f"{story}.wav"),
                      "journal": (tmp / f"{story}.jsonl").read_text()}
    return out


def intervals(report: dict[str, Any]) -> list[tuple[str, str, float]]:
    """Every night call: (wake key, sleep key, seconds from the wake line's start to the sleep line's)."""
    out: list[tuple[str, str, float]] = []
    wake: dict[str, Any] | None = None
    for line in report["lines"]:
        if not line["phase"].startswith("night.") or line["key"] == "night.falls":
            continue
        if line["key"].endswith(".sleep"):
            assert wake is not None
            out.append((wake["key"], line["key"], line["start"] - wake["start"]))
            wake = None
        else:
            wake = line
    return out


def test_wake_to_sleep_is_the_same_whatever_the_hidden_state_and_the_sync(recordings: dict[str, Any]) -> None:
    base = intervals(recordings["silent"]["report"])
    assert len(base) == 8  # five calls on night 1, three on night 2
    for name in ("answering", "witch_dead"):
        got = intervals(recordings[name]["report"])
        assert [(w, s) for w, s, _ in got] == [(w, s) for w, s, _ in base]
        for (wake, _, a), (_, _, b) in zip(got, base):
            assert abs(a - b) <= 0.005, f"{name}: {wake} -> sleep took {a * 1000:.1f} ms vs {b * 1000:.1f} ms when silent"


@pytest.mark.parametrize("story", ["answering", "witch_dead"])
def test_night_line_onsets_in_the_recording_match_within_one_block(recordings: dict[str, Any], story: str) -> None:
    block = recordings["silent"]["report"]["block"]
    got, silent = recordings[story]["onsets"], recordings["silent"]["onsets"]
    # Lines that missed their frame (the thread later than the schedule's lead), to explain a failure.
    late = {name: recordings[name]["report"]["late"] for name in (story, "silent")}
    assert len(got) == len(silent) == 2
    for night, (a, b) in enumerate(zip(got, silent), start=1):
        assert [k for k, _ in a] == [k for k, _ in b]
        for (key, x), (_, y) in zip(a, b):
            assert abs(x - y) <= block, (f"night {night}, {key}: {x - y} frames off the silent game's (one block is {block}); "
                                         f"lines that missed their frame (key, asked, given): {late}")


def test_the_stories_really_differ_in_hidden_state(recordings: dict[str, Any]) -> None:
    """The journals hold different night answers: the games above did differ in what was hidden."""
    answered = {}
    for name, rec in recordings.items():
        records = [json.loads(line) for line in rec["journal"].splitlines()]
        answered[name] = sum(1 for r in records if r["kind"] == "input" and str(r["prompt"]).startswith("night.")
                             and r["choice"] is not None)
    assert answered["answering"] > answered["witch_dead"] > answered["silent"] == 0, answered
