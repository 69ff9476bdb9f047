"""Run in a subprocess by test_korean_e2e: the real Vosk listener over a real sounddevice input
stream, which ALSA_CONFIG_PATH (set before sounddevice is imported) points at a file device.

Prints one JSON line per prompt: the choice heard, or null.
"""

from __future__ import annotations

import json
import sys
import time

from narrator.listening.audio import MicrophoneSource
from narrator.listening.models import require_model
from narrator.listening.vosk_listener import VoiceListener, VoskModel, missing_words
from narrator.packs import load_pack
from narrator.ports import Prompt


def main() -> int:
    prompts, timeout = int(sys.argv[1]), float(sys.argv[2])
    pack = load_pack("ko")
    model = VoskModel(require_model("ko"))
    source = MicrophoneSource()
    listener = VoiceListener(model, pack, source, missing=missing_words(model, pack))
    with listener:
        print(json.dumps({"ready": True}), flush=True)
        for _ in range(prompts):
            heard = listener.listen(Prompt("day.vote", seats=tuple(range(1, 9)), words=("no",),
                                           deadline=time.monotonic() + timeout))
            print(json.dumps({"choice": None if heard is None else heard.choice,
                              "text": None if heard is None else heard.text,
                              "source": None if heard is None else heard.source}, ensure_ascii=False), flush=True)
    print(json.dumps({"chunks": listener.chunks, "overruns": source.overruns}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
