"""The night's steps: night falls, each role's call and its turn, the night's Captain election.

Secrecy: every possible role is called every night with the same lines and the same turn length,
whether it was dealt, is alive, answers early, late or never. The private panel opens at the end of
every wake line and closes when the turn ends, before every sleep line, whatever it shows. Every
night line has its place on the clock before the call starts (see `NightCall`): no journal write,
however slow the disk, can move one. Each answer is echoed on the panel and `-` takes the last one
back until the turn ends (`NightTurn`); the answers standing at the deadline go to the engine.
"""

from __future__ import annotations

from typing import Callable

from narrator.flow.context import Context
from narrator.flow.day import election
from narrator.flow.narration import opening
from narrator.ports import Cue, Heard, Prompt
from narrator.roles import PANELS, Call
from narrator.roles.base import NightTurn, PanelLine, powerless_turn
from narrator.rules import Phase


class NightFalls:
    """Everyone closes their eyes; the engine begins the night (after the roles' opening lines)."""

    name = "night_falls"

    def run(self, ctx: Context) -> None:
        opening(ctx)
        if ctx.game.state.phase is not Phase.NIGHT:
            ctx.game.begin_night()
        ctx.voice.hold = ctx.voice.line(Cue("night.falls", phase="night.falls"))


class NightElection:
    """`captain_election=night1_end`: the Captain elected with everyone awake, then night falls again."""

    name = "night_election"

    def run(self, ctx: Context) -> None:
        ctx.say(Cue("day.dawn", phase="day.captain"))
        election(ctx)
        ctx.voice.hold = ctx.voice.line(Cue("night.falls", phase="night.falls"))


class NightCall:
    """The one night call every role's declaration drives (narrator/roles/<role>.py): wake line, a
    turn of fixed length, sleep line, the same for every hidden state."""

    def __init__(self, call: Call) -> None:
        self.call = call
        self.name = call.name

    def run(self, ctx: Context) -> None:
        game, call = ctx.game, self.call
        tonight = call.run(game, ctx.rng)
        extra: list[PanelLine] = [line for lines in PANELS.get(call.name, ()) for line in lines(game)]
        if extra:
            # Private lines other roles add to this call's panel (the pack's: a Wild Child turned).
            panel = tonight.turn.panel
            tonight.turn.panel = lambda answers: [*panel(answers), *extra]
        turn = tonight.turn
        holder = game.living_holder(call.role)
        if call.by_holder and holder is not None and not game.powered(holder):
            # Powers lost: the same call, the same questions; the engine ignores the answers.
            turn = powerless_turn(turn)
        self._call(ctx, tonight.wake, turn, tonight.finish)

    def _call(self, ctx: Context, wake: str, turn: NightTurn, finish: Callable[[list[Heard]], None]) -> None:
        """Every moment of the call is fixed on the clock before it starts: the panel opens when the
        wake line ends, the turn ends `turn(call)` seconds later whatever is typed, and the sleep
        line starts `settle` seconds after that. Both lines are queued `queue_lead` ahead with their
        time, which the speaker keeps to the audio frame. Answers are journaled as they come (during
        the turn); after the deadline only the same pure work is done for every call (the engine is
        given the last answers standing, the panel is cleared), and the step's record is written
        while the sleep line plays (the sequencer). A slow disk can move nothing the table hears."""
        voice, name = ctx.voice, self.name
        phase = f"night.{name}"
        wake_at = voice.due  # the wake line is queued ahead, to start then (see `Voice.line`)
        wake_end = voice.line(Cue(wake, phase=phase))
        if wake_at is not None:
            voice.wait_until(wake_at)  # keys typed before the wake line starts are not its turn's
        self._too_early(ctx, wake_end)
        voice.wait_until(wake_end)
        deadline = wake_end + ctx.timing.turn(name)
        answers = self._turn(ctx, turn, deadline)
        finish(answers)
        ctx.display.clear_private()
        ctx.clock.sleep_until(deadline + ctx.timing.settle - voice.queue_lead)
        sleep_end = voice.line(Cue(f"{name}.sleep", phase=phase), at=deadline + ctx.timing.settle)
        voice.hold = sleep_end + ctx.timing.gap

    def _too_early(self, ctx: Context, wake_end: float) -> None:
        """Listen during the wake line: keys typed before the panel opens are not taken (a key
        typed then may be the previous role's, late); the panel's note says so to every role."""
        ctx.refuse_until(Prompt(f"night.{self.name}.early", night=True, deadline=wake_end,
                                number=ctx.game.state.night, idle=True))

    def _turn(self, ctx: Context, turn: NightTurn, deadline: float) -> list[Heard]:
        """The role's answers until the deadline; the last ones standing are returned. Each
        accepted input (an answer, or `-` taking the last one back) is journaled at once, then
        echoed on the panel; refused keys get silent feedback on the panel."""
        answers: list[Heard] = []
        number = ctx.game.state.night
        display = ctx.display
        _show(ctx, turn, answers)
        if turn.question(answers) is not None:
            # The same note whether or not keys came during the wake line: saying it only then
            # would tell the woken role that someone (maybe the role before) typed.
            display.feedback("input.too_early", {})
        while True:
            prompt = turn.prompt(answers, deadline, number)
            heard = ctx.asker.listener.listen(prompt)
            if heard is None:
                return answers
            if not prompt.allows(heard.choice):
                if heard.choice == "no" and not answers:
                    display.feedback("input.nothing_to_undo", {})  # not "Not possible: -."
                elif heard.choice == "pause":
                    # A night turn keeps its length whatever is typed (docs/secrecy.md): `/` says so.
                    display.feedback("input.no_pause", {})
                elif answers and turn.final:
                    # A final answer (the Seer's look, the Fox's sniff): `-` and any key after it
                    # get the same one message, never "to change it, press -".
                    display.feedback("input.final", {})
                elif turn.question(answers) is None:
                    display.feedback("input.change" if answers else "input.nothing", {})
                else:
                    display.feedback("input.refused", {"reason": heard.text or str(heard.choice)})
                continue
            ctx.asker.journal_turn(prompt, heard)
            turn.take(answers, heard)
            _show(ctx, turn, answers)


def _show(ctx: Context, turn: NightTurn, answers: list[Heard]) -> None:
    (key, slots), *more = turn.panel(answers)
    ctx.display.show_private(key, slots, more)
