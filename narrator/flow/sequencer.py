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
from typing import Any, Callable, Iterable, Mapping, cast

from transitions import Machine

from narrator.ports import JournalError
from narrator.flow.timing import Timing
from narrator.packs import VoicePack, every_cue
from narrator.ports import Clock, Cue, Display, Heard, Journal, Listener, Prompt, SlotValue, Speaker
from narrator.roles import ANNOUNCE, BOARD, CALLS, MORNING, NIGHT_ELECTION_ORDER, OPENING_LINES, PUBLIC, Call, Schedule, night_calls
from narrator.roles.base import powerless_turn
from narrator.roles.base import Ask, NightTurn, PanelLine, closed_turn
from narrator.rules import Awaiting, Ballot, Game, Phase, Side
from narrator.rules import hooks
from narrator.rules import events as ev
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
    # The opening (RULES-EXTENSIONS.md "Opening"): a Day 0 when a role asks for it (the Angel).
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
        """A call is made on its nights when its role is possible (RULES.md: dealt or not, alive or not)."""
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
                    f"the journal does not match the game at step {self.step} ({self.state}); "
                    "it was written by another version or edited"
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

    def wait_until(self, t: float) -> None:
        if not self.fast:
            self.clock.sleep_until(t)

    def ask(self, prompt: Prompt) -> Heard | None:
        """One accepted answer, or None when the deadline passed; refusals are silent at night."""
        if self.preloaded:
            name, answer = self.preloaded.pop(0)
            if name != prompt.name:
                raise JournalError(
                    f"the journal does not match the game at step {self.step} ({self.state}): "
                    f"it answers {name!r} where the game asks {prompt.name!r}"
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
            self.journal.append(
                {"kind": "input", "n": self.step, "prompt": prompt.name, "choice": choice, "source": heard.source}
            )
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

    # ---- the night ----------------------------------------------------------------------

    def do_night_falls(self) -> None:
        self._opening()
        if self.game.state.phase is not Phase.NIGHT:
            self.game.begin_night()
        end = self._line(Cue("night.falls", phase="night.falls"))
        if not self.fast:
            self.hold = end

    # The night's lines are queued this long before their time, and the speaker starts each at
    # its time on the audio clock: a thread late by less than this changes nothing audible.
    queue_lead = 0.3
    due: float | None = None  # when the first line of this step is due (the last step's hold)

    def _take_due(self) -> float | None:
        due, self.due = self.due, None
        return due

    def _line(self, cue: Cue, at: float | None = None) -> float:
        """Start a line (at clock time `at`, or when the step's first line is due, or now) and
        return when it will end, without waiting for it (the night's schedule)."""
        if self.fast:
            return self.clock.now()
        self.last_cue = cue
        due = self._take_due()
        return self.speaker.say(cue, at if at is not None else due)

    def _night_call(self, call: str, wake: str, turn: NightTurn, finish: Callable[[list[Heard]], None]) -> None:
        """Wake line, a turn of fixed length, sleep line: the same for every hidden state.

        Every moment of the call is fixed on the clock before it starts: the panel opens when the
        wake line ends, the turn ends `turn(call)` seconds later whatever is typed, and the sleep
        line starts `settle` seconds after that. Both lines are queued `queue_lead` ahead with
        their time, which the speaker keeps to the audio frame (`Speaker.say(cue, at)`). Answers
        are journaled as they come (during the turn); after the deadline only the same pure work is
        done for every call (the engine is given the last answers standing, the panel is cleared),
        and the step's record is written while the sleep line plays (see `_run_step`). A slow disk
        can move nothing the table hears.
        """
        phase = f"night.{call}"
        wake_at = self.due  # the wake line is queued ahead, to start then (see `_line`)
        wake_end = self._line(Cue(wake, phase=phase))
        if not self.fast:
            if wake_at is not None:
                self.wait_until(wake_at)  # keys typed before the wake line starts are not its turn's
            self._too_early(call, wake_end)
        self.wait_until(wake_end)
        deadline = wake_end + self.timing.turn(call)
        answers = self._turn(turn, deadline)
        finish(answers)
        if not self.fast:
            self.display.clear_private()
            self.clock.sleep_until(deadline + self.timing.settle - self.queue_lead)
        sleep_end = self._line(Cue(f"{call}.sleep", phase=phase), at=deadline + self.timing.settle)
        if not self.fast:
            self.hold = sleep_end + self.timing.gap

    def _too_early(self, call: str, wake_end: float) -> None:
        """Listen during the wake line: keys typed before the panel opens are not taken (a key
        typed then may be the previous role's, late); the panel's note says so to every role."""
        prompt = Prompt(f"night.{call}.early", night=True, deadline=wake_end, number=self.game.state.night, idle=True)
        while self.listener.listen(prompt) is not None:
            pass

    def _turn(self, turn: NightTurn, deadline: float) -> list[Heard]:
        """The role's answers until the deadline; the last ones standing are returned.

        Each accepted input (an answer, or `-` taking the last one back) is journaled at once,
        then echoed on the panel; refused keys get silent feedback on the panel. On resume the
        journaled inputs are fed again in order.
        """
        answers: list[Heard] = []
        number = self.game.state.night
        shown = False
        kept: list[str] = []
        while True:
            prompt = turn.prompt(answers, deadline, number)
            if self.preloaded:
                name, heard = self.preloaded.pop(0)
                if heard is None:
                    continue  # night turns always run to their deadline: nothing to place
                if name != prompt.name or not prompt.allows(heard.choice):
                    raise JournalError(
                        f"the journal does not match the game at step {self.step} ({self.state}): "
                        f"it answers {name!r} with {heard.choice!r} where the game asks {prompt.name!r}"
                    )
                turn.take(answers, heard)
                kept.append(str(heard.choice))
                continue
            if self.fast:
                return answers
            if not shown:
                self._show_turn(turn, answers)
                if kept:
                    # The turn cut off by the stop runs again: its role sees what it had typed.
                    self.display.feedback("input.kept", {"reason": ", ".join(kept)})
                if turn.question(answers) is not None:
                    # The same note whether or not keys came during the wake line: saying it only
                    # then would tell the woken role that someone (maybe the role before) typed.
                    self.display.feedback("input.too_early", {})
                shown = True
            heard = self.listener.listen(prompt)
            if heard is None:
                return answers
            if not prompt.allows(heard.choice):
                if heard.choice == "no" and not answers:
                    self.display.feedback("input.nothing_to_undo", {})  # not "Not possible: -."
                elif answers and turn.final:
                    # A final answer (the Seer's look, the Fox's sniff): `-` and any key after it
                    # get the same one message, never "to change it, press -".
                    self.display.feedback("input.final", {})
                elif turn.question(answers) is None:
                    self.display.feedback("input.change" if answers else "input.nothing", {})
                else:
                    self.display.feedback("input.refused", {"reason": heard.text or str(heard.choice)})
                continue
            self.journal.append(
                {"kind": "input", "n": self.step, "prompt": prompt.name, "choice": heard.choice, "source": heard.source}
            )
            turn.take(answers, heard)
            self._show_turn(turn, answers)

    def _show_turn(self, turn: NightTurn, answers: list[Heard]) -> None:
        (key, slots), *more = turn.panel(answers)
        self.display.show_private(key, slots, more)

    def _panel(self, key: str, **slots: Any) -> None:
        if not self.fast:
            self.display.show_private(key, slots)

    def _night_prompt(self, call: str, deadline: float, seats: Iterable[int] = (), words: Iterable[str] = ()) -> Prompt:
        return Prompt(f"night.{call}", tuple(seats), tuple(words), night=True, deadline=deadline, number=self.game.state.night)

    def do_call(self, call: Call) -> None:
        """The one night call every role's declaration drives (narrator/roles/<role>.py)."""
        tonight = call.run(self.game, self.rng)
        extra = [line for lines in hooks.PANEL.get(call.name, ()) for line in lines(self.game)]
        if extra:
            # Private lines other roles add to this call's panel (the pack's: a Wild Child turned).
            panel = tonight.turn.panel
            tonight.turn.panel = lambda answers: [*panel(answers), *cast(list[PanelLine], extra)]
        turn = tonight.turn
        holder = self.game.living_holder(call.role)
        if call.by_holder and holder is not None and not self.game.powered(holder):
            # Powers lost: the same call, the same questions; the engine ignores the answers.
            turn = powerless_turn(turn)
        self._night_call(call.name, tonight.wake, turn, tonight.finish)

    def do_night_election(self) -> None:
        self.say(Cue("day.dawn", phase="day.captain"))
        self._election()
        end = self._line(Cue("night.falls", phase="night.falls"))
        if not self.fast:
            self.hold = end

    # ---- the morning and chain reactions ------------------------------------------------

    morning_lines: list[PanelLine]  # this day's public morning lines, on the public board

    def do_dawn(self) -> None:
        self.morning_lines = []
        self.game.dawn()
        self.say(Cue("day.dawn", phase="day.morning"))
        self.wait_until(self.clock.now() + self.timing.suspense)
        self.narrate()
        if self.game.outcome is None:
            # Dawn step 9: the roles' public morning lines (the Raven's mark...), after the deaths;
            # they stay on the public board for the day.
            for lines in MORNING:
                for key, slots in lines(self.game):
                    self.morning_lines.append((key, slots))
                    self.say(Cue(key, dict(slots), phase="day.morning"))

    def do_chain(self) -> None:
        game = self.game
        seat = game.state.awaiting_seat
        assert seat is not None
        if game.state.awaiting is Awaiting.WINDOW:
            self._window(seat)
        elif game.state.awaiting is Awaiting.HUNTER:
            self.say(Cue("chain.hunter", {"seat": seat}, phase="day.chain"))
            heard = self.ask(self._day_prompt("day.hunter", game.hunter_targets(), self.timing.chain, risky=True))
            game.hunter_shoot(None if heard is None else int(heard.choice))
        elif game.state.awaiting is Awaiting.VOTERS:
            self.say(Cue("scapegoat.designate", {"seat": seat}, phase="day.chain"))
            game.designate_voters(self._voters_list())
        else:
            self.say(Cue("chain.successor", {"seat": seat}, phase="day.chain"))
            heard = self.ask(self._day_prompt("day.successor", game.living(), self.timing.chain, risky=True))
            game.name_successor(None if heard is None else int(heard.choice))
        self.narrate()

    def _window(self, seat: int) -> None:
        """Day step 5: before seat's card is shown, the Devoted Servant may step forward: she
        types her own seat, then `+` (`day.window`, then `day.window.claim`). The claim names
        its claimer: it stands only if that seat may take the card; a claim from any other seat
        (or none) gets exactly what no claim gets, the same lines at the same times and the same
        screen (issue 22 point 1: a bare `+` had the game pick whichever Servant was eligible,
        naming her to anyone who pressed it). Public, and of fixed length whatever the deal: the
        window always runs to its end. At dawn (`servant_scope=any_death`) the same, once for
        each night death in turn; its prompts name the seat (`day.dawn_window.<seat>`)."""
        game = self.game
        self.say(Cue("devoted_servant.window", {"seat": seat}, phase="day.chain"))
        deadline = self.clock.now() + self.timing.chain
        self._panel("devoted_servant.prompt", seat=seat)
        name = f"day.dawn_window.{seat}" if game.state.queue else "day.window"
        seats = tuple(range(1, game.players + 1))  # any seat may be typed: refusing one would tell
        prompt = Prompt(name, seats, ("repeat", "pause"), deadline=deadline, number=self.day_number())
        claimer: int | None = None
        while True:
            heard = self.ask(prompt)
            if heard is None or heard.choice == "yes":
                break
            claimer = int(heard.choice)  # a seat typed again replaces the last one
            prompt = replace(prompt, name=f"{name}.claim", words=("yes", "repeat", "pause"))
        self.wait_until(deadline)
        if not self.fast:
            self.display.clear_private()
        eligible = game.window_taker()
        taker = claimer if heard is not None and claimer is not None and claimer == eligible else None
        if taker is None:
            self.say(Cue("devoted_servant.none", phase="day.chain"))
        game.take_card(taker)

    def _voters_list(self) -> tuple[int, ...] | None:
        """The Scapegoat's list, one seat at a time: a seat adds it, `-` takes back the last one,
        `+` ends the list (alone: everyone), `0` is nobody; the prompt running out ends it (nothing
        typed: everyone). The screen shows the list as it grows, with the keys to finish it."""
        game = self.game
        chosen: list[int] = []
        self._note("scapegoat.prompt")
        while True:
            seats = tuple(p for p in game.living() if p not in chosen)
            words = ("yes", "no") if chosen else ("yes", "nobody", "no")
            heard = self.ask(self._day_prompt("day.scapegoat", seats, self.timing.chain, words))
            if heard is None or heard.choice == "yes":
                return tuple(chosen) if chosen else None
            if heard.choice == "nobody":
                return ()
            if heard.choice == "no":
                if not chosen:
                    self._note("input.nothing_to_undo")
                    continue
                chosen.pop()
            else:
                chosen.append(int(heard.choice))
                if not seats[1:]:
                    return tuple(chosen)
            if chosen:
                self._note("scapegoat.list", seats=", ".join(map(str, chosen)))
            else:
                self._note("scapegoat.prompt")

    def _note(self, key: str, **slots: Any) -> None:
        if not self.fast:
            self.display.feedback(key, slots)

    def narrate(self) -> None:
        """Say what the engine's new events mean for the table, in order."""
        reveal = self.game.options.reveal_role_on_death
        for event in self.game.events[self.narrated :]:
            self.narrated += 1
            for announce in ANNOUNCE:
                for key, slots in announce(self.game, event):
                    self.say(Cue(key, dict(slots), phase="day.vote"))
            if isinstance(event, ev.DawnBroke):
                if not event.deaths:
                    self.say(Cue("day.no_deaths", phase="day.morning"))
                    continue
                self.say(Cue("day.deaths", phase="day.morning"))
                for seat in event.deaths:
                    # A card the Devoted Servant may still take at dawn is shown when its window closes.
                    if reveal and not self.game.window_at_dawn(seat):
                        role = self.game.role(seat).value
                        self.say(Cue("day.death_role", {"seat": seat, "role": role}, phase="day.morning"))
                    else:
                        self.say(Cue("day.death", {"seat": seat}, phase="day.morning"))
            elif isinstance(event, ev.PlayerDied) and event.cause in (ev.Cause.GRIEF, ev.Cause.HUNTER, ev.Cause.VOTE, ev.Cause.ELDER):
                if event.cause is ev.Cause.GRIEF:
                    self.say(Cue("chain.grief", {"seat": event.seat}, phase="day.chain"))
                if reveal and event.seat not in self.game.state.taken:  # a taken card is never shown
                    self.say(Cue("day.role", {"seat": event.seat, "role": event.role.value}, phase="day.chain"))
            elif isinstance(event, ev.WindowClosed):  # a dawn window: the card is shown now, unless taken
                if reveal and event.seat not in self.game.state.taken:
                    self.say(Cue("day.role", {"seat": event.seat, "role": self.game.role(event.seat).value},
                                 phase="day.chain"))
            elif isinstance(event, ev.HunterShot):
                if event.target is None:
                    self.say(Cue("chain.hunter_missed", phase="day.chain"))
                else:
                    self.say(Cue("chain.hunter_shot", {"seat": event.target}, phase="day.chain"))
            elif isinstance(event, ev.CaptainSucceeded):
                if event.successor is None:
                    self.say(Cue("chain.no_successor", phase="day.chain"))
                else:
                    self.say(Cue("chain.new_captain", {"seat": event.successor}, phase="day.chain"))
            elif isinstance(event, ev.CaptainElected):
                key = "captain.draw" if event.by_draw else "captain.elected"
                self.say(Cue(key, {"seat": event.seat}, phase="day.captain"))
            elif isinstance(event, ev.PlayerEliminated):
                key = "vote.captain_chose" if event.by_captain else "vote.eliminated"
                self.say(Cue(key, {"seat": event.seat}, phase="day.vote"))
            elif isinstance(event, ev.NobodyEliminated):
                self.say(Cue("vote.none", phase="day.vote"))
            elif isinstance(event, ev.TieToBreak):
                self.say(Cue("vote.tie_captain", phase="day.vote"))
                for seat in event.tied:
                    self.say(Cue("vote.candidate", {"seat": seat}, phase="day.vote"))
            elif isinstance(event, ev.VoteOpened):
                self._announce_round(event)

    def _announce_round(self, event: ev.VoteOpened) -> None:
        phase = "day.captain" if event.ballot in (Ballot.CAPTAIN, Ballot.CAPTAIN_REVOTE) else "day.vote"
        opening = {
            Ballot.CAPTAIN: "captain.election",
            Ballot.CAPTAIN_REVOTE: "captain.revote",
            Ballot.VOTE: "vote.start",
            Ballot.REVOTE: "vote.revote",
            Ballot.RUNOFF: "vote.runoff",
            Ballot.ACCUSATION: "vote.accusation",
            Ballot.BALLOT: "vote.ballot",
        }[event.ballot]
        if event.ballot is Ballot.BALLOT:
            for seat in event.candidates:
                self.say(Cue("vote.accused", {"seat": seat}, phase=phase))
            self.say(Cue("vote.defence", {"seconds": int(self.timing.defence)}, phase=phase))
            self.wait_until(self.clock.now() + self.timing.defence)
            self.say(Cue(opening, phase=phase))
            return
        self.say(Cue(opening, phase=phase))
        if event.ballot in (Ballot.CAPTAIN_REVOTE, Ballot.REVOTE, Ballot.RUNOFF):
            key = "captain.candidate" if phase == "day.captain" else "vote.candidate"
            for seat in event.candidates:
                self.say(Cue(key, {"seat": seat}, phase=phase))

    # ---- the day ------------------------------------------------------------------------

    def _day_prompt(
        self, name: str, seats: Iterable[int], seconds: float, words: Iterable[str] = (), risky: bool = False
    ) -> Prompt:
        return Prompt(
            name,
            tuple(seats),
            tuple(words) + ("repeat", "pause"),
            deadline=self.clock.now() + seconds,
            risky=risky,
            number=self.day_number(),
        )

    def day_number(self) -> int:
        """The day a day prompt belongs to: the morning after night k is day k already."""
        return max(self.game.state.day, self.game.state.night)

    def do_election(self) -> None:
        self._opening()
        self._election()

    def _election(self) -> None:
        self.game.open_captain_election()
        self._rounds("day.captain")

    def do_debate(self) -> None:
        self._opening()
        t = self.timing
        self.say(minutes_cue("debate.start", t.debate))
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

    def do_vote(self) -> None:
        if self.game.second_vote_due():
            self.say(Cue("stuttering_judge.second_vote", phase="day.vote"))
        self.game.open_vote()
        self._rounds("day.vote")

    def _rounds(self, phase: str) -> None:
        """Every round of an election or a vote, until the engine awaits no more votes."""
        game = self.game
        self.narrate()
        while game.state.awaiting in (Awaiting.VOTE, Awaiting.TIEBREAK) and game.outcome is None:
            if game.state.awaiting is Awaiting.TIEBREAK:
                heard = self.ask(self._day_prompt("day.tiebreak", game.state.candidates, self.timing.chain, risky=True))
                game.break_tie(None if heard is None else int(heard.choice))
            else:
                game.cast_votes(self._roll_call(phase), self.rng)
            self.narrate()

    def _roll_call(self, phase: str) -> dict[int, int | None]:
        """Each voter in turn, alternating direction every day; no answer abstains."""
        s = self.game.state
        voters = list(self.game.roll_call())
        clockwise = voters == sorted(voters)
        ballot = s.ballot.value if s.ballot else "vote"
        self.say(Cue("vote.order_cw" if clockwise else "vote.order_ccw", {"seat": voters[0]}, phase=phase))
        votes: dict[int, int | None] = {}
        # The Stuttering Judge's sign (judge_signal=sign_during_vote): during the day's first vote,
        # `+` ("yes") before a vote is taken from every voter alike, with the same feedback and no
        # line, and counts only for the Judge (RULES-EXTENSIONS.md "Day", step 3).
        sign = ("yes",) if self.game.sign_taken() else ()
        # The second vote's prompts are named apart (`day.second.<ballot>.<voter>`): a script answers them.
        name = "day.second" if phase == "day.vote" and s.second_vote_day == s.day else phase
        for voter in voters:
            self.say(Cue("vote.voter", {"seat": voter}, phase=phase))
            prompt = self._day_prompt(f"{name}.{ballot}.{voter}", s.candidates, self.timing.vote, ("nobody", *sign))
            heard = self.ask(prompt)
            while heard is not None and heard.choice == "yes":
                self.game.signal_second_vote(voter)
                heard = self.ask(replace(prompt, words=tuple(w for w in prompt.words if w != "yes")))
            votes[voter] = None if heard is None or heard.choice == "nobody" else int(heard.choice)
        return votes

    def do_dusk(self) -> None:
        self.say(Cue("day.dusk", phase="day.dusk"))

    def do_game_over(self) -> None:
        outcome = self.game.outcome
        assert outcome is not None
        if outcome.winner is Side.NOBODY:
            self.say(Cue("game.over_nobody", phase="game.over"))
        else:
            self.say(Cue("game.over", {"side": outcome.winner.value}, phase="game.over"))
        for seat in range(1, self.game.players + 1):
            self.say(Cue("day.role", {"seat": seat, "role": self.game.role(seat).value}, phase="game.over"))

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


def minutes_cue(key: str, seconds: float) -> Cue:
    """A debate line that counts minutes; one minute has a line of its own (no "1 minutes")."""
    minutes = max(1, round(seconds / 60))
    if minutes == 1:
        return Cue(f"{key}_one", phase="day.debate")
    return Cue(key, {"minutes": minutes}, phase="day.debate")


def time_left_cue(seconds: float) -> Cue:
    """What `*` says during the debate: the time actually left, in minutes, or tens of seconds."""
    if seconds >= 90:
        return Cue("debate.left", {"minutes": round(seconds / 60)}, phase="day.debate")
    if seconds >= 50:
        return Cue("debate.one_minute", phase="day.debate")
    if seconds > 10:
        return Cue("debate.left_seconds", {"count": min(50, 10 * int((seconds + 9) // 10))}, phase="day.debate")
    return Cue("debate.ten_seconds", phase="day.debate")


def all_cues(pack: VoicePack, game: Game, timing: Timing) -> list[Cue]:
    """Every line this game can say, with every seat and role in play and its own timings."""
    roles = sorted({r.value for r in game.state.possible} | {r.value for r in game.state.roles})
    most = max(1, round(timing.debate / 60), round(timing.more_time / 60))
    # Every whole minute up to the longest debate: `*` tells the minutes left.
    minutes = list(range(1, most + 2))
    from narrator.rules.options import NUMBERS

    return every_cue(pack, game.players, roles,
                     {"minutes": minutes, "seconds": [int(timing.defence)],
                      # seconds left in a debate, and the Raven's extra votes (raven.votes)
                      "count": sorted({20, 30, 40, 50, *NUMBERS["raven_mark_votes"]})})
