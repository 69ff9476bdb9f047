"""How far apart the night's line onsets fall, in the recorded audio, between games that
differ only in hidden state, with a normal journal and with a slow one. Prints the figures; run by
hand (not a test):

    .venv/bin/python bench/secrecy_audio.py [--pairs 20] [--nights 1]

Each pair is two games of the same table through the real path (the sequencer on the real clock,
AudioSpeaker with ambience into an ALSA file device, the journal on disk): one where every role
answers at the last moment of its turn (or the Werewolves kill the Witch), one where nobody
answers. Each night line is found in the recorded WAV by cross-correlation; its onset is counted
from the night's `night.falls`. The worst difference over all lines of all pairs is reported, in
milliseconds and in audio blocks (256 frames at 22,050 Hz = 11.6 ms). The slow journal sleeps a
random 0-100 ms before every sync.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SPEECH_TESTS = ROOT / "tests" / "speech"
sys.path.insert(0, str(SPEECH_TESTS))

from night_pairs import night_onsets  # noqa: E402


def record(tmp: Path, name: str, story: str, sync: str, nights: int) -> list[list[tuple[str, int]]]:
    wav = tmp / f"{name}.wav"
    env = dict(os.environ, ALSA_CONFIG_PATH=f"/usr/share/alsa/alsa.conf:{SPEECH_TESTS / 'alsa_file_devices.conf'}",
               VOICE_OUTFILE=str(wav), NARRATOR_CACHE=str(tmp / "cache"))
    proc = subprocess.run([sys.executable, str(SPEECH_TESTS / "night_pairs.py"), story, str(tmp / f"{name}.jsonl"), sync, str(nights)],
                          env=env, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise SystemExit(proc.stderr)
    report: dict[str, Any] = json.loads(proc.stdout)
    for key, asked, given in report.get("late", []):
        print(f"    {name}: {key} missed its frame by {given - asked} frames (queued too late)", flush=True)
    onsets = night_onsets(report, wav)
    wav.unlink()
    return onsets


def worst(a: list[list[tuple[str, int]]], b: list[list[tuple[str, int]]]) -> int:
    assert [[k for k, _ in n] for n in a] == [[k for k, _ in n] for n in b], "the two games said different lines"
    return max(abs(x - y) for na, nb in zip(a, b) for (_, x), (_, y) in zip(na, nb))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--nights", type=int, default=1, choices=(1, 2))
    parser.add_argument("--journal", choices=("both", "normal", "slow"), default="both")
    args = parser.parse_args()
    rate, block = 22050, 256
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        kinds = [("normal", "normal journal", "0"), ("slow", "slow journal (0-100 ms per sync)", "random")]
        for kind, label, sync in kinds:
            if args.journal not in ("both", kind):
                continue
            diffs = []
            for i in range(args.pairs):
                story = "answering" if i % 2 == 0 else "witch_dead"
                a = record(tmp, f"{kind}{i}a", story, sync, args.nights)
                b = record(tmp, f"{kind}{i}b", "silent", sync, args.nights)
                diffs.append(worst(a, b))
                print(f"  {label}, pair {i + 1} ({story} vs silent): worst onset difference {diffs[-1]} frames", flush=True)
            ms = [d * 1000 / rate for d in diffs]
            print(f"{label}: {args.pairs} pairs, worst {max(ms):.1f} ms ({max(diffs) / block:.2f} blocks), "
                  f"median of pair worsts {statistics.median(ms):.1f} ms", flush=True)


if __name__ == "__main__":
    main()
