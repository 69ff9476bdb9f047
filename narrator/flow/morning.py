"""The sequencer's morning: dawn, chain reactions, the card-taking window, the Scapegoat's voters,
and the narration of the engine's events (deaths, votes, their rounds).

Each function is a method of `Sequencer` (bound in narrator/flow/sequencer.py), written with
`self: Sequencer`; moved whole from the class, with its name.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, TYPE_CHECKING

from narrator.ports import Cue, Prompt
from narrator.roles import ANNOUNCE, MORNING
from narrator.rules import Awaiting, Ballot, events as ev

if TYPE_CHECKING:
    from narrator.flow.sequencer import Sequencer


def do_dawn(self: Sequencer) -> None:
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


def do_chain(self: Sequencer) -> None:
    game = self.game
    seat = game.state.awaiting_seat
    assert seat is not None
    if game.state.awaiting is Awaiting.WINDOW:
        self._window(seat)
    elif game.state.awaiting is Awaiting.HUNTER:
        end = self._line(Cue("chain.hunter", {"seat": seat}, phase="day.chain"))
        if not self.fast:
            # As a night turn: keys typed while his line is said are not taken, and his question says so.
            early = Prompt("day.hunter.early", deadline=end, idle=True)
            while self.listener.listen(early) is not None:
                pass
            self.wait_until(end)
            self.display.feedback("input.too_early", {})
        heard = self.ask(self._day_prompt("day.hunter", game.hunter_targets(), self.timing.chain, risky=True,
                                          ask_back=True))
        game.hunter_shoot(None if heard is None else int(heard.choice))
    elif game.state.awaiting is Awaiting.VOTERS:
        self.say(Cue("scapegoat.designate", {"seat": seat}, phase="day.chain"))
        game.designate_voters(self._voters_list())
    else:
        self.say(Cue("chain.successor", {"seat": seat}, phase="day.chain"))
        heard = self.ask(self._day_prompt("day.successor", game.living(), self.timing.chain, risky=True,
                                          ask_back=True))
        game.name_successor(None if heard is None else int(heard.choice))
    self.narrate()


def _window(self: Sequencer, seat: int) -> None:
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


def _voters_list(self: Sequencer) -> tuple[int, ...] | None:
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


def _note(self: Sequencer, key: str, **slots: Any) -> None:
    if not self.fast:
        self.display.feedback(key, slots)


def narrate(self: Sequencer) -> None:
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
                    self.reveal(seat, phase="day.morning")
                else:
                    self.say(Cue("day.death", {"seat": seat}, phase="day.morning"))
        elif isinstance(event, ev.PlayerDied) and event.cause in (ev.Cause.GRIEF, ev.Cause.HUNTER, ev.Cause.VOTE, ev.Cause.ELDER):
            if event.cause is ev.Cause.GRIEF:
                self.say(Cue("chain.grief", {"seat": event.seat}, phase="day.chain"))
            if reveal and event.seat not in self.game.state.taken:  # a taken card is never shown
                self.reveal(event.seat, phase="day.chain", role=event.role.value)
        elif isinstance(event, ev.WindowClosed):  # a dawn window: the card is shown now, unless taken
            if reveal and event.seat not in self.game.state.taken:
                self.reveal(event.seat, phase="day.chain")
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


def _announce_round(self: Sequencer, event: ev.VoteOpened) -> None:
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
