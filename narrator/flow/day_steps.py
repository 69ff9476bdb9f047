"""The sequencer's day steps: the Captain election, the debate, the votes and their roll call,
dusk and the end of the game.

Each function is a method of `Sequencer` (bound in narrator/flow/sequencer.py), written with
`self: Sequencer`; moved whole from the class, with its name.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, TYPE_CHECKING

from narrator.ports import Cue, Heard, Prompt
from narrator.rules import Awaiting, Side

if TYPE_CHECKING:
    from narrator.flow.sequencer import Sequencer


def _day_prompt(
    self: Sequencer, name: str, seats: Iterable[int], seconds: float, words: Iterable[str] = (), risky: bool = False,
    ask_back: bool = False,
) -> Prompt:
    return Prompt(
        name,
        tuple(seats),
        tuple(words) + ("repeat", "pause"),
        deadline=self.clock.now() + seconds,
        risky=risky,
        number=self.day_number(),
        ask_back=ask_back,
    )


def day_number(self: Sequencer) -> int:
    """The day a day prompt belongs to: the morning after night k is day k already."""
    return max(self.game.state.day, self.game.state.night)


def do_election(self: Sequencer) -> None:
    self._opening()
    self._election()


def _election(self: Sequencer) -> None:
    self.game.open_captain_election()
    self._rounds("day.captain")


def do_debate(self: Sequencer) -> None:
    self._opening()
    t = self.timing
    self.say(debate_cue(t.debate))
    end = self.clock.now() + t.debate
    warnings = [(60.0, "debate.one_minute"), (10.0, "debate.ten_seconds")]
    pending = [w for w in warnings if w[0] < t.debate]
    while True:
        if self.fast and not self.preloaded:
            return
        pending = [w for w in pending if end - w[0] > self.clock.now()]
        stop = end - pending[0][0] if pending else end
        self.pause_shift = 0.0
        self.debate_end = end
        # On the keypad "+" is "ready to vote" and "-" is "not yet": vote now, more time.
        heard = self.ask(
            Prompt("day.debate", (), ("more_time", "vote_now", "yes", "no", "repeat", "pause"), deadline=stop,
                   number=self.day_number())
        )
        end += self.pause_shift
        self.debate_end = None
        if heard is not None and heard.choice in ("yes", "no"):
            heard = Heard("vote_now" if heard.choice == "yes" else "more_time", heard.source, heard.text)
        if heard is None:
            if not pending:
                self.say(Cue("debate.end", phase="day.debate"))
                return
            self.say(Cue(pending.pop(0)[1], phase="day.debate"))
        elif heard.choice == "vote_now":
            return
        elif heard.choice == "more_time":
            end += t.more_time
            pending = list(warnings)
            self.say(minutes_cue("debate.more_time", t.more_time))


def do_vote(self: Sequencer) -> None:
    if self.game.second_vote_due():
        self.say(Cue("stuttering_judge.second_vote", phase="day.vote"))
    self.game.open_vote()
    self._rounds("day.vote")


def _rounds(self: Sequencer, phase: str) -> None:
    """Every round of an election or a vote, until the engine awaits no more votes."""
    game = self.game
    self.narrate()
    while game.state.awaiting in (Awaiting.VOTE, Awaiting.TIEBREAK) and game.outcome is None:
        if game.state.awaiting is Awaiting.TIEBREAK:
            heard = self.ask(self._day_prompt("day.tiebreak", game.state.candidates, self.timing.chain, risky=True,
                                              ask_back=True))
            game.break_tie(None if heard is None else int(heard.choice))
        else:
            game.cast_votes(self._roll_call(phase), self.rng)
        self.narrate()


def _roll_call(self: Sequencer, phase: str) -> dict[int, int | None]:
    """Each voter in turn, alternating direction every day; no answer abstains."""
    s = self.game.state
    voters = list(self.game.roll_call())
    clockwise = voters == sorted(voters)
    ballot = s.ballot.value if s.ballot else "vote"
    self.say(Cue("vote.order_cw" if clockwise else "vote.order_ccw", {"seat": voters[0]}, phase=phase))
    votes: dict[int, int | None] = {}
    # The Stuttering Judge's sign (judge_signal=sign_during_vote): during the day's first vote,
    # `+` ("yes") before a vote is taken from every voter alike, with the same feedback and no
    # line, and counts only for the Judge (docs/rules-spec.md#day, step 3).
    sign = ("yes",) if self.game.sign_taken() else ()
    # The second vote's prompts are named apart (`day.second.<ballot>.<voter>`): a script answers them.
    name = "day.second" if phase == "day.vote" and s.second_vote_day == s.day else phase
    for voter in voters:
        self.say(Cue("vote.voter", {"seat": voter}, phase=phase))
        words = ("nobody", *sign)
        while True:
            # A seat heard as a look-alike is asked back ("4? Yes or no.", `_ask_back`).
            prompt = self._day_prompt(f"{name}.{ballot}.{voter}", s.candidates, self.timing.vote, words, ask_back=True)
            heard = self.ask(prompt)
            while heard is not None and heard.choice == "yes":
                self.game.signal_second_vote(voter)
                words = ("nobody",)
                heard = self.ask(replace(prompt, words=tuple(w for w in prompt.words if w != "yes")))
            # A seat the voter confirmed when it was asked back is not said back a second time.
            if heard is None or heard.source != "voice" or heard.confirmed \
                    or not _taken_back(self, voter, heard, prompt.name, phase):
                break
        votes[voter] = None if heard is None or heard.choice == "nobody" else int(heard.choice)
    return votes


def _taken_back(self: Sequencer, voter: int, heard: Heard, name: str, phase: str) -> bool:
    """A vote taken by voice is said back at once (votes are public: this tells nothing
    hidden), and "no" or `-` within `take_back` seconds of the line's end takes it back: the
    voter is asked again. A wrong vote then needs two errors: a seat misheard, and nobody
    saying no. Votes typed on the keypad are not said back (docs/voice.md, "Voice answers at a real table")."""
    if heard.choice == "nobody":
        self.say(Cue("vote.said_nobody", {"seat": voter}, phase=phase))
    else:
        self.say(Cue("vote.said", {"seat": voter, "other": int(heard.choice)}, phase=phase))
    window = Prompt(f"{name}.undo", words=("no",), deadline=self.clock.now() + self.timing.take_back,
                    number=self.day_number(), idle=True)
    if self.ask(window) is None:
        return False
    self.say(Cue("vote.taken_back", {"seat": voter}, phase=phase))
    return True


def _ask_back(self: Sequencer, prompt: Prompt, heard: Heard) -> Heard | None:
    """A seat heard by voice as a look-alike ("사" is also heard for 삼) is asked back at once:
    "4? Yes or no.", answered through the read-back's own yes/no path (its grammar, its
    table-talk rules, the room's level; `+` / `-` on the keypad). "Yes" takes the seat; "no",
    nothing within `ask_back` seconds, or anything else: "please repeat", and the prompt listens
    again (nothing is lost; a seat typed meanwhile is the answer). By day only (`Sequencer.ask`
    never asks at night): it depends only on what the table heard, which is public by day
    (docs/voice.md, "Voice answers at a real table")."""
    phase = self.last_cue.phase if self.last_cue is not None else ""
    if heard.choice == "nobody":  # "없어요" is heard for 구, 육, 오 too
        self.say(Cue("vote.ask_back_nobody", phase=phase))
    else:
        self.say(Cue("vote.ask_back", {"seat": int(heard.choice)}, phase=phase))
    question = Prompt(f"{prompt.name}.ask_back", words=("yes", "no"),
                      deadline=self.clock.now() + self.timing.ask_back, number=prompt.number)
    answer = self.listener.listen(question)
    if answer is not None and answer.choice == "yes":
        return replace(heard, lookalike=False, confirmed=True)
    if answer is not None and answer.source != "voice" and prompt.allows(answer.choice) \
            and (isinstance(answer.choice, int) or answer.choice == "nobody"):
        return answer  # a vote typed meanwhile: the keypad answers at any time
    self.say(Cue("prompt.repeat", phase=phase))
    return None


def do_dusk(self: Sequencer) -> None:
    self.say(Cue("day.dusk", phase="day.dusk"))


def do_game_over(self: Sequencer) -> None:
    outcome = self.game.outcome
    assert outcome is not None
    if outcome.winner is Side.NOBODY:
        self.say(Cue("game.over_nobody", phase="game.over"))
    else:
        self.say(Cue("game.over", {"side": outcome.winner.value}, phase="game.over"))
    for seat in range(1, self.game.players + 1):
        self.reveal(seat, phase="game.over")


def minutes_cue(key: str, seconds: float) -> Cue:
    """A debate line that counts minutes; one minute has a line of its own (no "1 minutes")."""
    minutes = max(1, round(seconds / 60))
    if minutes == 1:
        return Cue(f"{key}_one", phase="day.debate")
    return Cue(key, {"minutes": minutes}, phase="day.debate")


def debate_cue(seconds: float) -> Cue:
    """The debate's opening line: its length in minutes, or under 50 s in seconds (a 20-second
    debate is not "one minute")."""
    if seconds < 50:
        return Cue("debate.start_seconds", {"seconds": round(seconds)}, phase="day.debate")
    return minutes_cue("debate.start", seconds)


def time_left_cue(seconds: float) -> Cue:
    """What `*` says during the debate: the time actually left, in minutes, or tens of seconds."""
    if seconds >= 90:
        return Cue("debate.left", {"minutes": round(seconds / 60)}, phase="day.debate")
    if seconds >= 50:
        return Cue("debate.one_minute", phase="day.debate")
    if seconds > 10:
        return Cue("debate.left_seconds", {"count": min(50, 10 * int((seconds + 9) // 10))}, phase="day.debate")
    return Cue("debate.ten_seconds", phase="day.debate")
