"""Voice detectors compared (run by hand): the listener's gate (WebRTC VAD + a noise floor that
learns steady beds) against Silero VAD through onnxruntime, on half the vote and noise files of
bench/listening_robustness.py's corpus. Silero is not a dependency; to run this:

    .venv/bin/pip install onnxruntime
    .venv/bin/pip download --no-deps silero-vad==6.2.3 -d /tmp/silero && (cd /tmp/silero && unzip -o -q *.whl)
    nice -n 10 .venv/bin/python bench/vad_compare.py /tmp/silero/silero_vad/data/silero_vad.onnx
"""
import sys, time
from pathlib import Path
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / "bench"))
import numpy as np, onnxruntime as ort
from listening_robustness import corpus
from narrator.listening.vad import SpeechGate
items = corpus(Path("/tmp/narrator-robustness-corpus"))
items = [i for i in items if i.kind in ("noise", "vote")][::2]
opts = ort.SessionOptions(); opts.intra_op_num_threads = 1; opts.inter_op_num_threads = 1
sess = ort.InferenceSession(sys.argv[1], opts)
def silero_chunks(pcm, thr=0.5):
    x = np.frombuffer(pcm, dtype="<i2").astype(np.float32) / 32768
    state = np.zeros((2, 1, 128), dtype=np.float32); ctx = np.zeros(64, dtype=np.float32)
    probs = []
    for i in range(0, len(x) - 511, 512):
        frame = np.concatenate([ctx, x[i:i+512]])[None, :]
        out, state = sess.run(None, {"input": frame, "state": state, "sr": np.array(16000, dtype=np.int64)})
        ctx = x[i+448:i+512]; probs.append(float(out[0, 0]))
    # per 50 ms chunk: speech if any 32 ms frame inside is above thr
    t = np.arange(len(probs)) * 512 / 16000
    n = len(x) // 800
    return [max([p for p, tt in zip(probs, t) if c*0.05 - 0.032 < tt <= c*0.05 + 0.018] or [0]) > thr for c in range(n)]
def webrtc_chunks(pcm):
    g = SpeechGate()
    return [g.is_speech(pcm[i:i+1600]) for i in range(0, len(pcm) - 1599, 1600)]
for name, fn in (("webrtc+floor", webrtc_chunks), ("silero", silero_chunks)):
    t0 = time.process_time(); audio = 0.0
    noise_files_with_speech = 0; noise_chunks = 0; noise_total = 0; hit = 0; words = 0; cover = []
    for it in items:
        ch = fn(it.pcm); audio += len(it.pcm) / 32000
        if it.kind == "noise":
            noise_total += len(ch); noise_chunks += sum(ch); noise_files_with_speech += any(ch)
        else:
            a, b = int(0.8 / 0.05), int(it.speech_end / 0.05)
            words += 1; hit += any(ch[a:b + 1]); cover.append(np.mean(ch[a:b + 1]))
    cpu = time.process_time() - t0
    nn = sum(1 for i in items if i.kind == "noise")
    print(f"{name}: noise files with any speech chunk {noise_files_with_speech}/{nn}, noise chunks called speech "
          f"{100*noise_chunks/noise_total:.1f} %, words detected {hit}/{words}, mean share of word chunks "
          f"{100*np.mean(cover):.0f} %, CPU {1000*cpu/audio:.1f} ms per s of audio")
import collections
for name, fn in (("webrtc+floor", webrtc_chunks), ("silero", silero_chunks)):
    miss = collections.Counter(); tot = collections.Counter()
    for it in items:
        if it.kind != "vote": continue
        ch = fn(it.pcm); a, b = int(0.8 / 0.05), int(it.speech_end / 0.05)
        tot[it.condition] += 1; miss[it.condition] += not any(ch[a:b + 1])
    print(name, "missed words by condition:", {c: f"{miss[c]}/{tot[c]}" for c in tot})
