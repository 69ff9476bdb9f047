"""What saying back every vote taken by voice costs a roll call (run by hand, not a test):

    nice -n 10 .venv/bin/python bench/vote_read_back.py [--voters 12]

For each pack, every `vote.said` line a 12-voter roll call can say (seat s votes seat t) and the
`vote.said_nobody` lines are rendered with espeak-ng at the pack's voice and rate; the cost of one
voter is the line plus the take-back window (`Timing.take_back`). Reported: mean and worst line,
and the seconds added to a roll call of `--voters` voters, all by voice (the keypad adds none).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from narrator.flow.timing import Timing  # noqa: E402
from narrator.packs import load_pack  # noqa: E402
from narrator.ports import Cue  # noqa: E402


def seconds(text: str, voice: str, rate: int, work: Path) -> float:
    """The line's length from its first to its last sound (espeak-ng pads both ends)."""
    import numpy as np

    wav = work / "line.wav"
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(rate), "-w", str(wav), text], check=True, capture_output=True)
    with wave.open(str(wav), "rb") as w:
        x = np.abs(np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64))
        loud = np.nonzero(x > 0.01 * x.max())[0]
        return float(loud[-1] - loud[0]) / w.getframerate()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--voters", type=int, default=12)
    args = ap.parse_args()
    window = Timing().take_back
    print(f"take-back window {window:.1f} s after each line; {args.voters} voters, every vote by voice")
    with tempfile.TemporaryDirectory() as tmp:
        for lang in ("en", "fr", "es", "it", "ko"):
            pack = load_pack(lang)
            texts = [pack.text(Cue("vote.said", {"seat": s, "other": t}))
                     for s in range(1, args.voters + 1) for t in range(1, args.voters + 1) if s != t]
            texts += [pack.text(Cue("vote.said_nobody", {"seat": s})) for s in range(1, args.voters + 1)]
            durations = [seconds(t, pack.voice, pack.rate, Path(tmp)) for t in texts[::7]]
            mean = statistics.mean(durations)
            print(f"{lang}: line mean {mean:.2f} s, worst {max(durations):.2f} s; "
                  f"roll call +{args.voters * (mean + window):.0f} s (worst +{args.voters * (max(durations) + window):.0f} s)")


if __name__ == "__main__":
    main()
