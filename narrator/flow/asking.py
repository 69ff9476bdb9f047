"""Asking the table by day: one accepted answer, or None when the prompt runs out.

An answer comes in through the `Listener`; what the table may do besides answering is handled here,
each in its own part: a seat heard as a look-alike is asked back (`_asked_back`), `*` says the last
line again (`_repeat`), `/` pauses the game (`_pause`), a refused key gets one note on the screen
(`_refuse`), and an accepted answer is journaled before anything else happens (`_accept`). At night
only the last two apply (nothing is ever said at night).
"""

from __future__ import annotations

from dataclasses import replace

from narrator.flow.lines import time_left_cue
from narrator.flow.timing import Timing
from narrator.flow.voice import Voice
from narrator.ports import Clock, Cue, Display, Heard, InputRecord, Journal, Listener, Prompt


class Asker:
    """Asks prompts through the listener, journaling each answer under the current step."""

    def __init__(self, listener: Listener, display: Display, clock: Clock, journal: Journal, voice: Voice,
                 timing: Timing) -> None:
        self.listener = listener
        self.display = display
        self.clock = clock
        self.journal = journal
        self.voice = voice
        self.timing = timing
        self.step = 0  # the step the answers are journaled under
        # While the debate runs: when its time is up (before pauses), and the time paused since.
        self.debate_end: float | None = None
        self.paused = 0.0

    def ask(self, prompt: Prompt) -> Heard | None:
        """One accepted answer, or None when the deadline passed; refusals are silent at night."""
        while True:
            heard = self.listener.listen(prompt)
            if heard is None:
                # A prompt that ran out is journaled too: on resume each answer goes to its own prompt.
                self.journal.append(InputRecord(kind="input", n=self.step, prompt=prompt.name, choice=None,
                                                source="timeout"))
                return None
            if heard.lookalike:
                prompt, confirmed = self._asked_back(prompt, heard)
                if confirmed is None:
                    continue
                heard = confirmed
            if not prompt.night and heard.choice == "repeat" and "repeat" in prompt.words:
                self._repeat(prompt)
            elif not prompt.night and heard.choice == "pause" and "pause" in prompt.words:
                prompt = self._pause(prompt)
            elif not prompt.allows(heard.choice):
                self._refuse(heard)
            else:
                self._accept(prompt, heard)
                return heard

    def _asked_back(self, prompt: Prompt, heard: Heard) -> tuple[Prompt, Heard | None]:
        """A seat heard by voice as a look-alike ("사" is also heard for 삼) is asked back at once:
        "4? Yes or no.", answered through the read-back's own yes/no path (its grammar, its
        table-talk rules, the room's level; `+` / `-` on the keypad). "Yes" takes the seat; "no",
        nothing within `ask_back` seconds, or anything else: "please repeat", and the prompt
        listens again (nothing is lost; a seat typed meanwhile is the answer), its deadline moved
        by the time the question took. By day only: it depends only on what the table heard,
        which is public by day (docs/voice.md, "Voice answers at a real table"); at night, and
        where the prompt does not ask back, a look-alike is a refusal like any other."""
        if prompt.night or not prompt.ask_back or not prompt.allows(heard.choice):
            return prompt, None
        started = self.clock.now()
        voice = self.voice
        phase = voice.last_cue.phase if voice.last_cue is not None else ""
        if heard.choice == "nobody":  # "없어요" is heard for 구, 육, 오 too
            voice.say(Cue("vote.ask_back_nobody", phase=phase))
        else:
            voice.say(Cue("vote.ask_back", {"seat": int(heard.choice)}, phase=phase))
        question = Prompt(f"{prompt.name}.ask_back", words=("yes", "no"),
                          deadline=self.clock.now() + self.timing.ask_back, number=prompt.number)
        answer = self.listener.listen(question)
        if answer is not None and answer.choice == "yes":
            return prompt, replace(heard, lookalike=False, confirmed=True)
        if answer is not None and answer.source != "voice" and prompt.allows(answer.choice) \
                and (isinstance(answer.choice, int) or answer.choice == "nobody"):
            return prompt, answer  # a vote typed meanwhile: the keypad answers at any time
        voice.say(Cue("prompt.repeat", phase=phase))
        if prompt.deadline is not None:
            # The question and its answer do not eat the time left to choose again.
            prompt = replace(prompt, deadline=prompt.deadline + self.clock.now() - started)
        return prompt, None

    def _repeat(self, prompt: Prompt) -> None:
        """`*`: the last line again; during the debate, the time actually left."""
        if prompt.name == "day.debate" and self.debate_end is not None:
            self.voice.say(time_left_cue(self.debate_end + self.paused - self.clock.now()))
        elif self.voice.last_cue is not None:
            self.voice.say(self.voice.last_cue)

    def _pause(self, prompt: Prompt) -> Prompt:
        """`/`: the game waits until `/` again; the prompt's deadline moves by the time paused."""
        started = self.clock.now()
        self.voice.say(Cue("game.paused", phase="game.pause"))
        self.display.feedback("game.paused_hint", {})
        while True:
            heard = self.listener.listen(Prompt("game.pause", words=("pause",), number=prompt.number))
            if heard is not None and heard.choice == "pause":
                break
        self.voice.say(Cue("game.resumed", phase="game.pause"))
        shift = self.clock.now() - started
        self.paused += shift
        return replace(prompt, deadline=None if prompt.deadline is None else prompt.deadline + shift)

    def _refuse(self, heard: Heard) -> None:
        if heard.choice == "no":  # `-` where there is nothing to take back: say so, not "Not possible: -"
            self.display.feedback("input.nothing_to_undo", {})
        else:
            self.display.feedback("input.refused", {"reason": heard.text or str(heard.choice)})

    def _accept(self, prompt: Prompt, heard: Heard) -> None:
        self.display.feedback("input.accepted", {})
        record = InputRecord(kind="input", n=self.step, prompt=prompt.name, choice=heard.choice, source=heard.source)
        if heard.confirmed:
            record["asked_back"] = True  # a resume then skips its said-back window too
        self.journal.append(record)

    def journal_turn(self, prompt: Prompt, heard: Heard) -> None:
        """An answer a night turn took (an answer, or `-` taking the last one back), journaled at once."""
        self.journal.append(InputRecord(kind="input", n=self.step, prompt=prompt.name, choice=heard.choice,
                                        source=heard.source))
