"""What the engine's events mean for the table, said in order; and the roles' public opening lines."""

from __future__ import annotations

from narrator.flow.context import Context
from narrator.ports import Cue
from narrator.roles import ANNOUNCE, OPENING_LINES
from narrator.rules import Ballot, Phase, events as ev


def narrate(ctx: Context) -> None:
    """Say what the engine's new events mean for the table, in order."""
    game = ctx.game
    reveal = game.options.reveal_role_on_death
    for event in game.events[ctx.narrated:]:
        ctx.narrated += 1
        for announce in ANNOUNCE:
            for key, slots in announce(game, event):
                ctx.say(Cue(key, dict(slots), phase="day.vote"))
        if isinstance(event, ev.DawnBroke):
            if not event.deaths:
                ctx.say(Cue("day.no_deaths", phase="day.morning"))
                continue
            ctx.say(Cue("day.deaths", phase="day.morning"))
            for seat in event.deaths:
                # A card the Devoted Servant may still take at dawn is shown when its window closes.
                if reveal and not game.window_at_dawn(seat):
                    ctx.reveal(seat, phase="day.morning")
                else:
                    ctx.say(Cue("day.death", {"seat": seat}, phase="day.morning"))
        elif isinstance(event, ev.PlayerDied) and event.cause in _SAID_CAUSES:
            if event.cause is ev.Cause.GRIEF:
                ctx.say(Cue("chain.grief", {"seat": event.seat}, phase="day.chain"))
            elif event.cause is ev.Cause.LAST_TWO:
                ctx.say(Cue("day.last_two", {"seat": event.seat}, phase="day.morning"))
            if reveal and event.seat not in game.state.taken:  # a taken card is never shown
                ctx.reveal(event.seat, phase="day.chain", role=event.role.value)
        elif isinstance(event, ev.WindowClosed):  # a dawn window: the card is shown now, unless taken
            if reveal and event.seat not in game.state.taken:
                ctx.reveal(event.seat, phase="day.chain")
        elif isinstance(event, ev.HunterShot):
            if event.target is None:
                ctx.say(Cue("chain.hunter_missed", phase="day.chain"))
            else:
                ctx.say(Cue("chain.hunter_shot", {"seat": event.target}, phase="day.chain"))
        elif isinstance(event, ev.CaptainSucceeded):
            if event.successor is None:
                ctx.say(Cue("chain.no_successor", phase="day.chain"))
            else:
                ctx.say(Cue("chain.new_captain", {"seat": event.successor}, phase="day.chain"))
        elif isinstance(event, ev.CaptainElected):
            key = "captain.draw" if event.by_draw else "captain.elected"
            ctx.say(Cue(key, {"seat": event.seat}, phase="day.captain"))
        elif isinstance(event, ev.PlayerEliminated):
            key = "vote.captain_chose" if event.by_captain else "vote.eliminated"
            ctx.say(Cue(key, {"seat": event.seat}, phase="day.vote"))
        elif isinstance(event, ev.NobodyEliminated):
            ctx.say(Cue("vote.none", phase="day.vote"))
        elif isinstance(event, ev.TieToBreak):
            ctx.say(Cue("vote.tie_captain", phase="day.vote"))
            for seat in event.tied:
                ctx.say(Cue("vote.candidate", {"seat": seat}, phase="day.vote"))
        elif isinstance(event, ev.VoteOpened):
            _announce_round(ctx, event)


# Deaths said with their cause as they come (the night's are said at dawn, without one).
_SAID_CAUSES = frozenset({ev.Cause.GRIEF, ev.Cause.HUNTER, ev.Cause.VOTE, ev.Cause.ELDER, ev.Cause.LAST_TWO})

_OPENING = {
    Ballot.CAPTAIN: "captain.election",
    Ballot.CAPTAIN_REVOTE: "captain.revote",
    Ballot.VOTE: "vote.start",
    Ballot.REVOTE: "vote.revote",
    Ballot.RUNOFF: "vote.runoff",
    Ballot.ACCUSATION: "vote.accusation",
    Ballot.BALLOT: "vote.ballot",
}


def _announce_round(ctx: Context, event: ev.VoteOpened) -> None:
    phase = "day.captain" if event.ballot in (Ballot.CAPTAIN, Ballot.CAPTAIN_REVOTE) else "day.vote"
    opening = _OPENING[event.ballot]
    if event.ballot is Ballot.BALLOT:
        for seat in event.candidates:
            ctx.say(Cue("vote.accused", {"seat": seat}, phase=phase))
        ctx.say(Cue("vote.defence", {"seconds": int(ctx.timing.defence)}, phase=phase))
        ctx.wait_until(ctx.clock.now() + ctx.timing.defence)
        ctx.say(Cue(opening, phase=phase))
        return
    ctx.say(Cue(opening, phase=phase))
    if event.ballot in (Ballot.CAPTAIN_REVOTE, Ballot.REVOTE, Ballot.RUNOFF):
        key = "captain.candidate" if phase == "day.captain" else "vote.candidate"
        for seat in event.candidates:
            ctx.say(Cue(key, {"seat": seat}, phase=phase))


def opening(ctx: Context) -> None:
    """Before the first call (Day 0 or Night 1): the roles' public opening lines (the
    Sectarian's groups, the Actor's cards...), then Day 0 if a role asks for it."""
    game = ctx.game
    if game.state.phase is not Phase.SETUP:
        return
    for lines in OPENING_LINES:
        for key, slots in lines(game):
            ctx.say(Cue(key, dict(slots), phase="game.start"))
    if game.day_zero_due():
        game.open_day_zero()
        # Day 0 is a day from its first line: the board (its seats, "Day 0") before the debate,
        # not after the step (else the screen keeps the night layout, "Night 1").
        ctx.show_board()
