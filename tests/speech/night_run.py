"""Runs night_scenario.py in a subprocess against the ALSA file devices and finds each line in the WAV."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from wavcheck import locate, read_wav

HERE = Path(__file__).resolve().parent
ALSA = f"/usr/share/alsa/alsa.conf:{HERE / 'alsa_file_devices.conf'}"


def alsa_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(ALSA_CONFIG_PATH=ALSA, VOICE_INFILE=os.devnull)  # nothing is captured unless asked
    env.update(extra)
    return env


def play_night(tmp: Path, **extra: str) -> dict[str, Any]:
    """The night played once: its report, the recording, and where each line is in it."""
    tmp.mkdir(parents=True, exist_ok=True)
    out = tmp / "out.wav"
    env = alsa_env(VOICE_OUTFILE=str(out), NARRATOR_CACHE=str(tmp / "cache"), **extra)
    proc = subprocess.run([sys.executable, str(HERE / "night_scenario.py")], env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    report: dict[str, Any] = json.loads(proc.stdout)
    signal, rate = read_wav(out)
    spans = []
    for line in report["lines"]:
        clip, clip_rate = read_wav(Path(line["path"]))
        assert clip_rate == rate
        at, quality = locate(signal, clip)
        spans.append((at, at + len(clip), quality))
    return {"report": report, "signal": signal, "rate": rate, "spans": spans}
