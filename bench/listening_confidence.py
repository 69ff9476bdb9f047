"""Can a word confidence refuse wrong answers? (run by hand, not a test)

    nice -n 10 .venv/bin/python bench/listening_confidence.py

With alternatives on (`SetMaxAlternatives`), Vosk gives no word confidence: every word scores 1.0
and `MIN_CONFIDENCE` can never act. This bench decodes each vote file of the calibration voices of
bench/listening_table.py (--quick subset) twice at once: the listener's own recogniser (with
alternatives) decides, and a second recogniser on the same audio, without alternatives, gives the
chosen reading's word confidences. The look-alike table is left out, so that the wrong answers a
confidence would have to refuse are there. Printed: how many right and wrong answers each
confidence threshold keeps.

Measured on 5 calibration voices, 55 answers: right kept 27/26/25/25/24/24 and wrong kept
28/28/28/27/27/27 at 0.5/0.6/0.7/0.8/0.9/0.95: wrong answers come back at 1.0, a threshold only
refuses right ones. No confidence rule is added; the look-alike table and the alternatives margin
do that work.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "bench"))


def main() -> None:
    import vosk

    import listening_table as lt
    from narrator.listening.grammar import build_grammar
    from narrator.listening.models import require_model
    from narrator.listening.vosk_listener import Detector, VoskModel, listening_grammar
    from narrator.packs import load_pack

    cache = ROOT / "bench" / ".cache" / "listening_table"
    model = VoskModel(require_model("ko"))
    pack = load_pack("ko")
    prompt = lt.prompt_for("vote")
    grammar = listening_grammar(prompt, pack, model)
    raw = build_grammar(prompt, pack, (), grammar.rejects, {})  # no look-alike table
    words = grammar.vosk_words()

    def plain() -> object:
        rec = vosk.KaldiRecognizer(model._model, lt.RATE, json.dumps(words, ensure_ascii=False))
        rec.SetWords(True)
        return rec

    rows: list[tuple[bool, float]] = []
    for item in (i for i in lt.corpus("calibration", cache, quick=True) if i.kind == "vote"):
        listener = Detector(lambda: model.recognizer(words))
        second = Detector(plain)  # type: ignore[arg-type]
        pcm = item.pcm + b"\0" * lt.RATE
        for pos in range(0, len(pcm), 1600):
            chunk = pcm[pos:pos + 1600]
            t = (pos + len(chunk)) / (2 * lt.RATE)
            a, b = listener.feed(chunk, t), second.feed(chunk, t)
            if a is not None and a.words:
                choice = raw.decide(a.words, a.alternatives, 0.0, 2.0).choice
                if choice is not None and b is not None and b.words:
                    rows.append((choice == item.expected, min(c for _, c in b.words)))
                    break
    right = [c for ok, c in rows if ok]
    wrong = [c for ok, c in rows if not ok]
    print(f"answers: {len(right)} right, {len(wrong)} wrong")
    for th in (0.5, 0.6, 0.7, 0.8, 0.9, 0.95):
        print(f"confidence >= {th}: right kept {sum(c >= th for c in right)}, wrong kept {sum(c >= th for c in wrong)}")


if __name__ == "__main__":
    main()
