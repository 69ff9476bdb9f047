"""Why right answers are lost under babble (run by hand, not a test):

    nice -n 10 .venv/bin/python bench/listening_babble.py [--split calibration|held-out] [--quick]
                                                          [--narrator PATH] [--out FILE.json]

Builds the babble part of bench/listening_table.py's corpus (its own generator: the in-grammar
answer files in the four babble rooms, and the 20-s vote and 4-s read-back windows of table talk
with nobody answering), runs them through the live listener's code path (`decide_stream`, the
room heard before the prompt) and says, per file, what became of the answer:

  - "no utterance over the answer": the detector never opened one while it was said;
  - "decoded wrong": the utterance over the answer, read by the grammar without the table-talk
    rules, is no choice or another one (with the grammar's reason: not a choice, ambiguous...);
  - "refused: does not stand out" (with its level / room ratio) or "refused: too long" (with its
    length: babble merged with the answer), or a look-alike, or taken.

The same for the table-talk windows: every utterance the grammar took as a choice, and what
refused it. `--out` writes every utterance with its chunk levels, to try rules offline.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import listening_table as lt  # noqa: E402


def babble_corpus(split: str, cache: Path, quick: bool) -> list[lt.Item]:
    """The babble answer files (in-grammar words) and the table-talk windows of `lt.corpus`, built
    by the same generator with the same seeds (a subset of it, file for file)."""
    voices = lt.corpus_voices(split, quick)
    items: list[lt.Item] = []
    for vi, voice in enumerate(voices):
        for wi, (kind, prompt, (text, expected)) in enumerate(lt.corpus_words()):
            if kind not in ("vote", "confirm"):
                continue
            for k in range(4):
                cond = lt.CONDITIONS[(vi * 3 + wi + k * 3) % len(lt.CONDITIONS)]
                if cond[2] is not None:
                    items.append(lt.answer_item(split, voice, vi, wi, kind, prompt, text, expected, cond, cache))
    windows = {"vote": 6 if quick else 16, "confirm": 30 if quick else lt.READ_BACK_WINDOWS}
    for prompt in ("vote", "confirm"):
        items += [lt.talk_window(split, prompt, k, cache) for k in range(windows[prompt])]
    return items


def run(items: list[lt.Item], model: Any, pack: Any) -> list[dict[str, Any]]:
    from narrator.listening import vosk_listener as vl
    from narrator.listening.audio import BYTES_PER_SECOND
    from narrator.listening.grammar import MIN_CONFIDENCE
    from narrator.listening.rejection import RoomLevel, alternative_margin
    from narrator.listening.vad import SpeechGate, rms

    grammars = {k: vl.listening_grammar(lt.prompt_for(k), pack, model, vl.missing_words(model, pack))
                for k in ("vote", "confirm")}
    margin = alternative_margin(pack.language)
    out: list[dict[str, Any]] = []
    for item in items:
        grammar = grammars[item.prompt]
        utts = []
        for d in vl.decide_stream(model, grammar, item.pcm, margin=margin, room=vl.hear_room(RoomLevel(), item.before)):
            u = d.utterance
            assert u is not None
            raw = grammar.decide(u.words, u.alternatives, MIN_CONFIDENCE, margin)
            utts.append({"words": [w for w, _ in u.words], "started": u.started, "end": u.speech_end,
                         "closed": d.closed_at, "level": u.level, "room": u.room, "choice": d.choice,
                         "reason": d.recognised.reason, "raw": raw.choice if raw.choice is not None else raw.candidate,
                         "raw_reason": raw.reason})
        # The chunk levels and the gate's verdicts, as the detector saw them (800-sample chunks).
        size = 1600
        gate = SpeechGate()
        levels, loud = [], []
        for pos in range(0, len(item.pcm), size):
            chunk = item.pcm[pos:pos + size]
            loud.append(bool(gate.is_speech(chunk)))
            levels.append(rms(chunk))
        before = [rms(item.before[p:p + size]) for p in range(0, len(item.before) - size + 1, size)]
        out.append({"name": item.name, "kind": item.kind, "prompt": item.prompt, "expected": item.expected,
                    "condition": item.condition, "start": item.speech_start, "end": item.speech_end,
                    "chunk": size / BYTES_PER_SECOND, "levels": levels, "loud": loud, "before": before,
                    "utterances": utts})
    return out


def overlaps(u: dict[str, Any], f: dict[str, Any]) -> bool:
    return bool(u["started"] < f["end"] and u["end"] > f["start"])


def verdict(f: dict[str, Any]) -> tuple[str, str]:
    """What became of the answer of one answer file: (category, detail)."""
    over = [u for u in f["utterances"] if overlaps(u, f)]
    first = next((u for u in f["utterances"] if u["choice"] is not None), None)
    if first is not None and first["choice"] == f["expected"]:
        return "taken right", ""
    if first is not None and first["end"] < f["start"]:
        return "taken wrong before the answer", str(first["choice"])
    if not over:
        return "no utterance over the answer", ""
    right = [u for u in over if u["raw"] == f["expected"]]
    if not right:
        u = over[0]
        why = u["raw_reason"] or ("another choice" if u["raw"] is not None else "no choice")
        return f"decoded wrong: {why}", f"{len(u['words'])} words, {u['end'] - u['started']:.1f} s"
    u = right[0]
    secs = u["end"] - u["started"]
    ratio = u["level"] / u["room"] if u["room"] > 0 else 0.0
    if u["reason"] == "too long for an answer":
        return "refused: too long", f"{secs:.1f} s, ratio {ratio:.2f}"
    if u["reason"] == "does not stand out from the table":
        return "refused: does not stand out", f"{secs:.1f} s, ratio {ratio:.2f}"
    if u["raw_reason"] == "confusable":
        return "refused: look-alike", f"ratio {ratio:.2f}"
    if first is not None:
        return "another choice taken first", str(first["choice"])
    return f"refused: {u['reason']}", ""


def report(files: list[dict[str, Any]]) -> list[str]:
    lines: list[str] = []
    answers = [f for f in files if f["kind"] in ("vote", "confirm")]
    conds = sorted({f["condition"] for f in answers})
    for cond in conds + ["all babble"]:
        sel = [f for f in answers if cond == "all babble" or f["condition"] == cond]
        counts: dict[str, int] = {}
        for f in sel:
            counts[verdict(f)[0]] = counts.get(verdict(f)[0], 0) + 1
        lines.append(f"{cond} ({len(sel)} answer files): " + "; ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda x: -x[1])))
    # Distributions of the answer's own utterance (the first over it the grammar read right).
    secs, ratios = [], []
    for f in answers:
        u = next((u for u in f["utterances"] if overlaps(u, f) and u["raw"] == f["expected"]), None)
        if u is not None:
            secs.append(u["end"] - u["started"])
            ratios.append(u["level"] / u["room"] if u["room"] > 0 else 0.0)
    lines.append(f"answers read right by the grammar: {len(secs)}; seconds p50 {lt.pct(secs, 0.5):.2f} "
                 f"p90 {lt.pct(secs, 0.9):.2f} max {max(secs, default=0):.2f}; level/room p10 {lt.pct(ratios, 0.1):.2f} "
                 f"p50 {lt.pct(ratios, 0.5):.2f} p90 {lt.pct(ratios, 0.9):.2f}")
    over = [u for f in answers for u in f["utterances"] if overlaps(u, f)]
    lines.append(f"utterances over the answer: {len(over)} in {len(answers)} files; seconds p50 "
                 f"{lt.pct([u['end'] - u['started'] for u in over], 0.5):.2f} p90 {lt.pct([u['end'] - u['started'] for u in over], 0.9):.2f}; "
                 f"words p50 {lt.pct([len(u['words']) for u in over], 0.5):.0f}")
    for prompt, label in (("vote", "20-s vote windows"), ("confirm", "4-s read-back windows")):
        talk = [f for f in files if f["kind"] == "talk" and f["prompt"] == prompt]
        taken = [u for f in talk for u in f["utterances"] if u["raw"] is not None]
        reasons: dict[str, int] = {}
        for u in taken:
            key = u["reason"] or ("look-alike" if u["raw_reason"] == "confusable" else "TAKEN")
            reasons[key] = reasons.get(key, 0) + 1
        ratios = [u["level"] / u["room"] for u in taken if u["room"] > 0]
        lines.append(f"table talk, {label} ({len(talk)}): {sum(len(f['utterances']) for f in talk)} utterances, "
                     f"{len(taken)} read as a choice by the grammar: " + "; ".join(f"{k} {v}" for k, v in reasons.items())
                     + f"; their level/room p50 {lt.pct(ratios, 0.5):.2f} p95 {lt.pct(ratios, 0.95):.2f} max {max(ratios, default=0):.2f}"
                     + f"; seconds max {max((u['end'] - u['started'] for u in taken), default=0):.2f}")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description="What babble does to right answers (issue 24)")
    ap.add_argument("--split", choices=["held-out", "calibration"], default="calibration")
    ap.add_argument("--narrator", type=Path, default=ROOT)
    ap.add_argument("--cache", type=Path, default=ROOT / "bench" / ".cache" / "listening_table")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", type=Path, help="every file's utterances and chunk levels (JSON)")
    ap.add_argument("--load", type=Path, help="report from a --out file instead of decoding")
    args = ap.parse_args()
    if args.load:
        files = json.loads(args.load.read_text())
    else:
        sys.path.insert(0, str(args.narrator.resolve()))
        import narrator
        from narrator.listening.models import require_model
        from narrator.listening.vosk_listener import VoskModel
        from narrator.packs import load_pack

        print(f"narrator package: {Path(narrator.__file__).parent}; split: {args.split}")
        t0 = time.monotonic()
        items = babble_corpus(args.split, args.cache, args.quick)
        print(f"corpus: {len(items)} files, built in {time.monotonic() - t0:.0f} s")
        t0 = time.monotonic()
        files = run(items, VoskModel(require_model("ko")), load_pack("ko", args.narrator / "voices"))
        print(f"decoded in {time.monotonic() - t0:.0f} s")
        if args.out:
            args.out.write_text(json.dumps(files, ensure_ascii=False))
    for line in report(files):
        print(line)


if __name__ == "__main__":
    main()
