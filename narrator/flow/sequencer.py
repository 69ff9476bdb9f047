"""The sequencer: runs a whole game at the table, step after step, through the ports.

It decides *when*: the table's steps follow one another as narrator/flow/machine.py's table says,
each one a small object (narrator/flow/night.py, morning.py, day.py) working through a `Context`
that holds the game and the ports. After every step the sequencer journals its events (before the
game moves on) and draws the public board. It talks only to the ports (Speaker, Listener, Display,
Clock, Journal).

Resume: the game is run again from its setup through the replay's ports (narrator/flow/resume.py):
the steps the journal records as done are replayed silently from its inputs, and the first one it
does not restarts from its first line with the inputs it had already accepted.
"""

from __future__ import annotations

import random
from typing import Callable, Protocol

from narrator.flow.asking import Asker
from narrator.flow.board import at_night
from narrator.flow.context import Context
from narrator.flow.day import Debate, Dusk, Election, GameOver, Vote
from narrator.flow.lines import debate_cue as debate_cue, minutes_cue as minutes_cue, time_left_cue as time_left_cue
from narrator.flow.machine import NIGHT_ORDER as NIGHT_ORDER, STATES as STATES, next_step
from narrator.flow.machine import transitions_table as transitions_table
from narrator.flow.morning import Chain, Dawn
from narrator.flow.night import NightCall, NightElection, NightFalls
from narrator.flow.resume import Replay, Resume as Resume
from narrator.flow.timing import Timing
from narrator.flow.voice import Voice
from narrator.packs import VoicePack, every_cue
from narrator.ports import Clock, Cue, Display, Journal, Listener, Speaker, StepRecord
from narrator.roles import COUNTS, night_calls
from narrator.rules import Game
from narrator.rules.codec import event_to_dict


class Step(Protocol):
    """One step of the table: it says its lines, asks its prompts and hands the answers to the engine."""

    name: str

    def run(self, ctx: Context) -> None: ...


def steps() -> dict[str, Step]:
    """Every step of the table's machine, by its name (the night's calls from the catalogue)."""
    table: list[Step] = [NightFalls(), NightElection(), *(NightCall(call) for call in night_calls()), Dawn(), Chain(),
                         Election(), Debate(), Vote(), Dusk(), GameOver()]
    return {step.name: step for step in table}


class Sequencer:
    """Runs one game through the ports. `run()` returns when the game is over."""

    queue_lead = Voice.queue_lead

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
        self.timing = timing or Timing()
        self.on_step = on_step
        # The steps are given the replay's ports: while a journal is replayed they say nothing,
        # wait for nothing, draw nothing and write nothing (narrator/flow/resume.py).
        replay = self.replay = Replay(resume or Resume(), speaker, listener, display, clock, journal)
        self.voice = Voice(replay.speaker, replay.clock)
        self.asker = Asker(replay.listener, replay.display, replay.clock, replay.journal, self.voice, self.timing)
        self.context = Context(game, pack, self.voice, self.asker, replay.display, replay.clock, replay.journal, rng,
                               self.timing)
        self.steps = steps()
        self.step = 0
        self.state = "setup"

    def run(self) -> None:
        # Everything the game can say is rendered before the first line: nothing waits at the table.
        self.speaker.prepare(all_cues(self.pack, self.game, self.timing))
        if not self.replay.journal.records()[1:]:
            self.voice.say(Cue("game.welcome", phase="game.start"))
        while self.state != "game_over":
            self.state = next_step(self.state, self.game)
            self._run_step(self.state)

    def _run_step(self, name: str) -> None:
        game, ctx, voice = self.game, self.context, self.voice
        self.step += 1
        ctx.step, self.asker.step = name, self.step
        start = len(game.events)
        if self.replay.begin(self.step, name):
            # Back at the table after a stop: nothing is queued from the replayed steps, and
            # everyone closes their eyes before any role is called at night.
            voice.due = voice.hold = None
            voice.say(Cue("game.resume_night" if at_night(name) else "game.resume_journal", phase="game.resume"))
        ctx.board.before(game, name, ctx.morning_lines)
        self.steps[name].run(ctx)
        events = [event_to_dict(e) for e in game.events[start:]]
        ctx.journal.append(StepRecord(kind="step", n=self.step, state=name, events=events))
        ctx.display.board(ctx.board.after(game, name, ctx.morning_lines))
        if self.on_step is not None:
            self.on_step(self.step, name)
        voice.due = None
        if voice.hold is not None:
            # A night step ends on its last line, still playing: the step was journaled under it,
            # and the next line keeps its place on the clock however long the write took. It is
            # queued `queue_lead` ahead, to start at `hold` exactly (see `Voice.line`).
            hold, voice.hold = voice.hold, None
            voice.due = hold
            voice.wait_until(hold - voice.queue_lead)


def all_cues(pack: VoicePack, game: Game, timing: Timing) -> list[Cue]:
    """Every line this game can say, with every seat and role in play and its own timings."""
    roles = sorted({r.value for r in game.state.possible} | {r.value for r in game.state.roles})
    most = max(1, round(timing.debate / 60), round(timing.more_time / 60))
    # Every whole minute up to the longest debate: `*` tells the minutes left.
    minutes = list(range(1, most + 2))
    return every_cue(pack, game.players, roles,
                     {"minutes": minutes, "seconds": sorted({int(timing.defence), round(timing.debate)}),
                      # seconds left in a debate, and the counts the roles' lines say (the Raven's extra votes)
                      "count": sorted({20, 30, 40, 50, *COUNTS})})
