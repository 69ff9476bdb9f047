"""The sequencer: a `transitions` state machine that runs a whole game at the table.

It decides *when*: it says cues, opens prompts with fixed deadlines, passes accepted choices to
the rules engine, and journals every accepted input and every event before moving on. It talks
only to the ports (Speaker, Listener, Display, Clock, Journal).

Secrecy: every possible role is called every night with the same lines and the same turn
length, whether it was dealt, is alive, answers early, late or never. The private panel opens
at the end of every wake line and closes when the turn ends, before every sleep line, whatever
it shows. Every night line has its place on the clock before the call starts (see
`_night_call`): no journal write, however slow the disk, can move one.

At night each answer is echoed on the panel and `-` takes the last one back until the turn ends
(`NightTurn`); the answers standing at the deadline are the ones given to the engine.

Resume: the game is run again from its setup, feeding the journal's inputs to the steps it
records as complete, silently and without waiting; the first incomplete step restarts from its
wake line with the inputs it had already accepted (at night, answers and `-` alike, in order).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Callable

from transitions import Machine

from narrator.ports import JournalError
from narrator.flow import day_steps as _day_steps, morning as _morning, night_steps as _night_steps
from narrator.flow.day_steps import debate_cue as debate_cue, minutes_cue as minutes_cue, time_left_cue as time_left_cue
from narrator.flow.timing import Timing
from narrator.packs import VoicePack, every_cue
from narrator.ports import Clock, Cue, Display, Heard, Journal, Listener, Prompt, Speaker
from narrator.roles import BOARD, CALLS, NIGHT_ELECTION_ORDER, OPENING_LINES, PUBLIC, Call, Schedule, night_calls
from narrator.roles.base import PanelLine
from narrator.rules import Awaiting, Game, Phase
from narrator.rules.codec import event_to_dict

# ---- the machine, as data ---------------------------------------------------------------

# The night's calls in order, each with the condition under which it is called, derived from
# the role catalogue (narrator/roles: the night order table is there). Conditions depend only
# on public facts (the night number, the possible roles, the options), never on who holds a
# role or whether they live.
def _night_order() -> tuple[tuple[str, str | None], ...]:
    entries: list[tuple[float, str, str | None]] = [
        (NIGHT_ELECTION_ORDER, "night_election", "captain_election_due")
    ]
    entries += [(c.order, c.name, c.condition) for c in night_calls()]
    return (*((name, cond) for _, name, cond in sorted(entries, key=lambda e: e[0])), ("dawn", None))


NIGHT_ORDER: tuple[tuple[str, str | None], ...] = _night_order()
_NIGHT_CALLS = frozenset(name for name, _ in NIGHT_ORDER) - {"dawn"}
# A call that always follows another one (the Lovers after Cupid) is reached only through it.
FOLLOWS: dict[str, str] = {c.after: c.name for c in night_calls() if c.after is not None}

STATES: tuple[str, ...] = (
    "setup",
    "night_falls",
    *(name for name, _ in NIGHT_ORDER),
    "chain",
    "election",
    "debate",
    "vote",
    "dusk",
    "game_over",
)


def _night_transitions() -> list[dict[str, Any]]:
    """From each night state, to the first later call whose condition holds."""
    out: list[dict[str, Any]] = []
    sources = ["night_falls", *(name for name, _ in NIGHT_ORDER[:-1])]
    for i, source in enumerate(sources):
        later = NIGHT_ORDER[i:]  # sources[i] stands just before NIGHT_ORDER[i]
        if source in FOLLOWS:
            later = ((FOLLOWS[source], None),)
        for dest, condition in later:
            if dest in FOLLOWS.values() and FOLLOWS.get(source) != dest:
                continue
            t: dict[str, Any] = {"trigger": "advance", "source": source, "dest": dest}
            if condition:
                t["conditions"] = condition
            out.append(t)
            if condition is None:
                break
    return out


# After the night's states, the day, top to bottom. `advance` takes the first that holds.
DAY_TRANSITIONS: tuple[dict[str, Any], ...] = (
    # The opening (docs/rules-spec.md#opening): a Day 0 when a role asks for it (the Angel).
    {"trigger": "advance", "source": "setup", "dest": "election", "conditions": "day_zero_election_due"},
    {"trigger": "advance", "source": "setup", "dest": "debate", "conditions": "day_zero_due"},
    {"trigger": "advance", "source": "setup", "dest": "night_falls"},
    {"trigger": "advance", "source": "dawn", "dest": "chain", "conditions": "awaiting_chain"},
    {"trigger": "advance", "source": "dawn", "dest": "game_over", "conditions": "is_over"},
    {"trigger": "advance", "source": "dawn", "dest": "election", "conditions": "captain_election_due"},
    {"trigger": "advance", "source": "dawn", "dest": "debate"},
    {"trigger": "advance", "source": "chain", "dest": "chain", "conditions": "awaiting_chain"},
    {"trigger": "advance", "source": "chain", "dest": "game_over", "conditions": "is_over"},
    {"trigger": "advance", "source": "chain", "dest": "dusk", "conditions": "day_is_done"},
    {"trigger": "advance", "source": "chain", "dest": "vote", "conditions": "second_vote_due"},
    {"trigger": "advance", "source": "chain", "dest": "election", "conditions": "captain_election_due"},
    {"trigger": "advance", "source": "chain", "dest": "debate"},
    {"trigger": "advance", "source": "election", "dest": "debate"},
    {"trigger": "advance", "source": "debate", "dest": "vote"},
    {"trigger": "advance", "source": "vote", "dest": "chain", "conditions": "awaiting_chain"},
    {"trigger": "advance", "source": "vote", "dest": "game_over", "conditions": "is_over"},
    {"trigger": "advance", "source": "vote", "dest": "vote", "conditions": "second_vote_due"},
    {"trigger": "advance", "source": "vote", "dest": "dusk"},
    {"trigger": "advance", "source": "dusk", "dest": "night_falls"},
)


OPENING = 3  # the first rows of DAY_TRANSITIONS leave `setup`


def transitions_table() -> list[dict[str, Any]]:
    night = _night_transitions()
    return [*DAY_TRANSITIONS[:OPENING], *night, *DAY_TRANSITIONS[OPENING:]]


# ---- the sequencer ----------------------------------------------------------------------


@dataclass
class Resume:
    """What a journal says about an interrupted game."""

    # step → its answers in order: (prompt name, the accepted choice, or None when the prompt ran out)
    inputs: dict[int, list[tuple[str, Heard | None]]] = field(default_factory=dict)
    steps: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # step → its events

    @property
    def completed(self) -> int:
        return max(self.steps, default=0)


class Sequencer:
    """Runs one game through the ports. `run()` returns when the game is over."""

    state: str  # set by transitions

    def __init__(
        self,
        game: Game,
        pack: VoicePack,
        speaker: Speaker,
        listener: Listener,
        display: Display,
        clock: Clock,
        journal: Journal,
        rng: random.Random,
        timing: Timing | None = None,
        resume: Resume | None = None,
        on_step: Callable[[int, str], None] | None = None,
    ) -> None:
        self.game = game
        self.pack = pack
        self.speaker = speaker
        self.listener = listener
        self.display = display
        self.clock = clock
        self.journal = journal
        self.rng = rng
        self.timing = timing or Timing()
        self.resume = resume or Resume()
        self.on_step = on_step
        self.step = 0
        self.hold: float | None = None  # the night's next line is not before this clock time
        self.fast = False
        self.preloaded: list[tuple[str, Heard | None]] = []
        self.last_cue: Cue | None = None
        self.narrated = len(game.events)
        self.morning_lines = []
        self.step_start = len(game.events)
        self.machine = Machine(
            model=self,
            states=list(STATES),
            transitions=transitions_table(),
            initial="setup",
            auto_transitions=False,
            send_event=False,
        )
        for name in STATES[1:]:
            getattr(self.machine, f"on_enter_{name}")(self._run_step)
        for call in night_calls():
            if call.condition is not None:
                setattr(self, call.condition, partial(self._call_due, call))

    # ---- conditions (public facts only) -------------------------------------------------

    def _call_due(self, call: Call) -> bool:
        """A call is made on its nights when its role is possible (docs/rules-spec.md#terms: dealt or not, alive or
        not)."""
        if not call.always and call.role not in self.game.state.possible:
            return False
        if call.due is not None and not call.due(self.game):
            return False
        if call.nights is not None and not call.nights(self.game.options, self.game.state.night):
            return False
        return call.schedule is not Schedule.FIRST_NIGHT or self.game.state.night == 1

    def captain_election_due(self) -> bool:
        return self.game.captain_election_due()

    def day_zero_due(self) -> bool:
        return self.game.day_zero_due()

    def day_zero_election_due(self) -> bool:
        return self.game.day_zero_due() and self.game.options.captain_election == "day1"

    def _opening(self) -> None:
        """Before the first call (Day 0 or Night 1): the roles' public opening lines (the
        Sectarian's groups, the Actor's cards...), then Day 0 if a role asks for it."""
        if self.game.state.phase is not Phase.SETUP:
            return
        for lines in OPENING_LINES:
            for key, slots in lines(self.game):
                self.say(Cue(key, dict(slots), phase="game.start"))
        if self.game.day_zero_due():
            self.game.open_day_zero()
            # Day 0 is a day from its first line: the board (its seats, "Day 0") before the debate,
            # not after the step (issue 23 point 8: the screen kept the night layout, "Night 1").
            self.display.board(self.public_board())

    def awaiting_chain(self) -> bool:
        return self.game.state.awaiting in (Awaiting.HUNTER, Awaiting.SUCCESSOR, Awaiting.VOTERS, Awaiting.WINDOW)

    def second_vote_due(self) -> bool:
        """The second vote the Stuttering Judge asked for: at once, without debate."""
        return self.game.second_vote_due()

    def is_over(self) -> bool:
        return self.game.outcome is not None

    def day_is_done(self) -> bool:
        return self.game.state.phase is Phase.DUSK

    # ---- running ------------------------------------------------------------------------

    def run(self) -> None:
        # Everything the game can say is rendered before the first line: nothing waits at the table.
        self.speaker.prepare(all_cues(self.pack, self.game, self.timing))
        if not self.journal.records()[1:]:
            self.say(Cue("game.welcome", phase="game.start"))
        while self.state != "game_over":
            self.advance()  # type: ignore[attr-defined]

    def _run_step(self) -> None:
        self.step += 1
        self.step_start = len(self.game.events)
        recorded = self.resume.steps.get(self.step)
        self.fast = recorded is not None
        self.preloaded = list(self.resume.inputs.get(self.step, []))
        if not self.fast and self.step == self.resume.completed + 1 and self.resume.completed:
            # Resuming into the night: everyone closes their eyes before any role is called.
            night = self.state == "night_falls" or self.state in {name for name, _ in NIGHT_ORDER} - {"dawn"}
            self.say(Cue("game.resume_night" if night else "game.resume_journal", phase="game.resume"))
        if self._at_night() and self.night_board is None:
            # The board as the day left it, before nightfall's own changes (a diseased wolf dead).
            self.night_board = self.public_board()
        call = CALLS.get(self.state)
        if call is not None:
            self.do_call(call)
        else:
            getattr(self, f"do_{self.state}")()
        events = [event_to_dict(e) for e in self.game.events[self.step_start :]]
        if recorded is not None:
            if recorded != events:
                raise JournalError(
                    "the journal does not match the game at step {step} ({state}); it was written by another version "
                    "or edited", step=self.step, state=self.state
                )
        else:
            self.journal.append({"kind": "step", "n": self.step, "state": self.state, "events": events})
        self.display.board(self._board_now())
        if self.on_step is not None:
            self.on_step(self.step, self.state)
        self.due = None
        if self.hold is not None:
            # A night step ends on its last line, still playing: the step was journaled under it,
            # and the next line keeps its place on the clock however long the write took. It is
            # queued `queue_lead` ahead, to start at `hold` exactly (see `_line`).
            hold, self.hold = self.hold, None
            self.due = hold
            self.wait_until(hold - self.queue_lead)

    # The public board changes only at dawn and by day (issue 22 point 5): through the night it
    # stays as the day left it, but for the night's number and the Captain a night election
    # names with everyone awake. A night step that kills (the Knight's diseased wolf at
    # nightfall) or changes a public card (the Actor's) shows nothing before dawn.
    night_board: dict[str, Any] | None = None

    def _at_night(self) -> bool:
        """A night step: nightfall or a night call (not the dawn)."""
        return self.state == "night_falls" or self.state in _NIGHT_CALLS

    def _board_now(self) -> dict[str, Any]:
        if not self._at_night() or self.night_board is None:
            self.night_board = None
            return self.public_board()
        if self.state == "night_election":  # the Captain elected at the end of the first night, in public
            self.night_board = {**self.night_board, "captain": self.game.state.captain}
        return {**self.night_board, "night": self.game.state.night}

    # ---- speaking, waiting, asking ------------------------------------------------------

    def say(self, cue: Cue) -> None:
        if self.fast:
            return
        self.last_cue = cue
        end = self.speaker.say(cue, self._take_due())
        self.clock.sleep_until(end)

    def reveal(self, seat: int, phase: str, role: str | None = None) -> None:
        """A card shown to the table: the seat, then its card, as two lines ("Seat 3." "Their card:
        Werewolf."). Said as one line, every seat and role would be a line of its own to render
        (576 for 18 seats and 32 roles, twice); as two, 18 and 32. espeak-ng ends each line with
        the pause it makes between two sentences, so the table hears the same rhythm
        (docs/voice.md, "Lines made to be joined")."""
        self.say(Cue("day.death", {"seat": seat}, phase=phase))
        self.say(Cue("day.card", {"role": role if role is not None else self.game.role(seat).value}, phase=phase))

    def wait_until(self, t: float) -> None:
        if not self.fast:
            self.clock.sleep_until(t)

    def ask(self, prompt: Prompt) -> Heard | None:
        """One accepted answer, or None when the deadline passed; refusals are silent at night."""
        if self.preloaded:
            name, answer = self.preloaded.pop(0)
            if name != prompt.name:
                raise JournalError(
                    "the journal does not match the game at step {step} ({state}): it answers {name!r} where the game "
                    "asks {name2!r}", step=self.step, state=self.state, name=name, name2=prompt.name
                )
            if answer is not None and not self.fast:
                # The turn cut off by the stop runs again: its role sees the answer it had given.
                self.display.feedback("input.kept", {"reason": str(answer.choice)})
            return answer
        if self.fast:
            return None
        while True:
            heard = self.listener.listen(prompt)
            if heard is None:
                # A prompt that ran out is journaled too: on resume each answer goes to its own prompt.
                self.journal.append({"kind": "input", "n": self.step, "prompt": prompt.name, "choice": None, "source": "timeout"})
                return None
            if heard.lookalike:
                if prompt.night or not prompt.ask_back or not prompt.allows(heard.choice):
                    continue  # a refusal like any other: nothing is ever asked at night
                started = self.clock.now()
                asked = self._ask_back(prompt, heard)
                if asked is None:
                    if prompt.deadline is not None:
                        # The question and its answer do not eat the time left to choose again.
                        prompt = replace(prompt, deadline=prompt.deadline + self.clock.now() - started)
                    continue
                heard = asked
            choice = heard.choice
            if not prompt.night and choice == "repeat" and "repeat" in prompt.words:
                if prompt.name == "day.debate" and self.debate_end is not None:
                    self.say(time_left_cue(self.debate_end + self.pause_shift - self.clock.now()))
                elif self.last_cue is not None:
                    self.say(self.last_cue)
                continue
            if not prompt.night and choice == "pause" and "pause" in prompt.words:
                prompt = self._pause(prompt)
                continue
            if not prompt.allows(choice):
                if choice == "no":  # `-` where there is nothing to take back: say so, not "Not possible: -"
                    self.display.feedback("input.nothing_to_undo", {})
                else:
                    self.display.feedback("input.refused", {"reason": heard.text or str(choice)})
                continue
            self.display.feedback("input.accepted", {})
            record: dict[str, Any] = {"kind": "input", "n": self.step, "prompt": prompt.name, "choice": choice,
                                      "source": heard.source}
            if heard.confirmed:
                record["asked_back"] = True  # a resume then skips its said-back window too
            self.journal.append(record)
            return heard

    def _pause(self, prompt: Prompt) -> Prompt:
        started = self.clock.now()
        self.say(Cue("game.paused", phase="game.pause"))
        self.display.feedback("game.paused_hint", {})
        while True:
            heard = self.listener.listen(Prompt("game.pause", words=("pause",), number=prompt.number))
            if heard is not None and heard.choice == "pause":
                break
        self.say(Cue("game.resumed", phase="game.pause"))
        shift = self.clock.now() - started
        self.pause_shift += shift
        return replace(prompt, deadline=None if prompt.deadline is None else prompt.deadline + shift)

    pause_shift = 0.0
    debate_end: float | None = None  # while the debate runs: when its time is up (before pauses)

    # The night's lines are queued this long before their time, and the speaker starts each at
    # its time on the audio clock: a thread late by less than this changes nothing audible.
    queue_lead = 0.3
    due: float | None = None  # when the first line of this step is due (the last step's hold)

    morning_lines: list[PanelLine]  # this day's public morning lines, on the public board

    # ---- the steps, by subject (methods written in their own modules) -------------------

    # the night (narrator/flow/night_steps.py)
    do_night_falls = _night_steps.do_night_falls
    _take_due = _night_steps._take_due
    _line = _night_steps._line
    _night_call = _night_steps._night_call
    _too_early = _night_steps._too_early
    _turn = _night_steps._turn
    _show_turn = _night_steps._show_turn
    _panel = _night_steps._panel
    _night_prompt = _night_steps._night_prompt
    do_call = _night_steps.do_call
    do_night_election = _night_steps.do_night_election

    # the morning and chain reactions (narrator/flow/morning.py)
    do_dawn = _morning.do_dawn
    do_chain = _morning.do_chain
    _window = _morning._window
    _voters_list = _morning._voters_list
    _note = _morning._note
    narrate = _morning.narrate
    _announce_round = _morning._announce_round

    # the day (narrator/flow/day_steps.py)
    _day_prompt = _day_steps._day_prompt
    day_number = _day_steps.day_number
    do_election = _day_steps.do_election
    _election = _day_steps._election
    do_debate = _day_steps.do_debate
    do_vote = _day_steps.do_vote
    _rounds = _day_steps._rounds
    _roll_call = _day_steps._roll_call
    _ask_back = _day_steps._ask_back
    do_dusk = _day_steps.do_dusk
    do_game_over = _day_steps.do_game_over

    # ---- the public board ---------------------------------------------------------------

    def public_board(self) -> dict[str, Any]:
        """Only what the whole table may know: seats alive or dead, roles revealed, the Captain."""
        s = self.game.state
        revealed: dict[int, str] = {}
        if s.options.reveal_role_on_death or s.phase is Phase.OVER:
            # A night death's card the Devoted Servant may still take at dawn is not shown yet.
            waiting = {p for p, _ in s.queue if p >= s.awaiting_seat and self.game.window_at_dawn(p)} \
                if s.awaiting is Awaiting.WINDOW and s.awaiting_seat is not None else set()
            for seat in range(1, s.players + 1):
                if s.phase is Phase.OVER or (not s.alive[seat - 1] and seat not in s.taken and seat not in waiting):
                    revealed[seat] = s.roles[seat - 1].value
        night_state = self._at_night()
        return {
            "phase": "night" if night_state else self.state,
            "night": s.night,
            "day": self.day_number(),  # the day the table is in: a pending dawn chain is no secret count
            "alive": [seat for seat in range(1, s.players + 1) if s.alive[seat - 1]],
            "revealed": self._public_cards(revealed),
            "captain": s.captain,
            # Public by design, line keys: the Sectarian's groups, the Actor's cards on the table;
            # then, by day, this day's morning lines (the Bear Tamer's growl, the Raven's mark).
            "public": [[key, dict(slots)] for board in BOARD for key, slots in board(self.game)]
            + [[key, dict(slots)] for key, slots in (self.morning_lines if not night_state else [])],
        }

    def _public_cards(self, revealed: dict[int, str]) -> dict[int, str]:
        for cards in PUBLIC:  # cards public by design (the Villager-Villager)
            for seat, role in cards(self.game).items():
                revealed.setdefault(seat, role)
        return revealed


def all_cues(pack: VoicePack, game: Game, timing: Timing) -> list[Cue]:
    """Every line this game can say, with every seat and role in play and its own timings."""
    roles = sorted({r.value for r in game.state.possible} | {r.value for r in game.state.roles})
    most = max(1, round(timing.debate / 60), round(timing.more_time / 60))
    # Every whole minute up to the longest debate: `*` tells the minutes left.
    minutes = list(range(1, most + 2))
    from narrator.rules.options import NUMBERS

    return every_cue(pack, game.players, roles,
                     {"minutes": minutes, "seconds": sorted({int(timing.defence), round(timing.debate)}),
                      # seconds left in a debate, and the Raven's extra votes (raven.votes)
                      "count": sorted({20, 30, 40, 50, *NUMBERS["raven_mark_votes"]})})
