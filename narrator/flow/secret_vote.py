"""The secret accusation vote (docs/rules-spec.md#secret-vote, `accusation_vote`): eyes closed, the
narrator calls each voter in turn, each accuses one player on their own phone, and only the totals
are said; the defence and the open ballot follow as with the open accusation vote.

Every voter's turn lasts the same time whatever he chose, or whether he chose: nothing is said
back, the next voter is called at the turn's end. The phones carry it on the fixed schedule like
the night (narrator/phones/table.py: a view changes only on a beat, sealed to one length).
"""

from __future__ import annotations

import re
from dataclasses import replace

from narrator.errors import UsageError
from narrator.flow.context import Context
from narrator.flow.script import Setup
from narrator.ports import Cue, Prompt
from narrator.rules import Ballot, Game
from narrator.rules import events as ev

# A secret vote's prompts are the open accusation's (`day.vote.accusation.<voter>`, the second
# vote's `day.second.accusation.<voter>`): a script and a journal answer them alike; the phones
# route each to that voter's phone only.
PROMPT = re.compile(r"^day\.(?:vote|second)\.accusation\.\d+$")


def secret_round(game: Game) -> bool:
    """This round is the secret accusation vote."""
    s = game.state
    return s.ballot is Ballot.ACCUSATION and game.options.accusation_vote == "secret"


def secret_roll_call(ctx: Context, phase: str) -> dict[int, int | None]:
    """Each voter called in turn, eyes closed, answering on their own phone within the turn; the
    turn ends at its deadline whatever happened (its length tells nothing). No answer abstains."""
    game = ctx.game
    s = game.state
    name = "day.second" if s.second_vote_day == s.day else "day.vote"
    ctx.say(Cue("vote.secret_start", phase=phase))
    votes: dict[int, int | None] = {}
    for voter in game.roll_call():
        ctx.say(Cue("vote.secret_voter", {"seat": voter}, phase=phase))
        end = ctx.clock.now() + ctx.timing.vote
        heard = ctx.ask(Prompt(f"{name}.accusation.{voter}", s.candidates, ("nobody",), deadline=end,
                               number=ctx.day_number(), secret=True))
        ctx.wait_until(end)
        votes[voter] = None if heard is None or heard.choice == "nobody" else int(heard.choice)
    ctx.say(Cue("vote.secret_end", phase=phase))
    return votes


def say_totals(ctx: Context, phase: str) -> None:
    """Only the totals, in seat order, never who voted for whom."""
    cast = next(e for e in reversed(ctx.game.events) if isinstance(e, ev.VotesCast))
    for seat, count in cast.counts:
        if count:
            # Two lines ("Seat 2." "3 accusations."): seats plus counts to render, not seats times counts.
            ctx.say(Cue("vote.candidate", {"seat": seat}, phase=phase))
            ctx.say(Cue("vote.secret_count_one", phase=phase) if count == 1
                    else Cue("vote.secret_count", {"count": count}, phase=phase))


def with_phones(setup: Setup, phones: bool) -> Setup:
    """The setup as played: `accusation_vote=secret` refused without a phone for every seat (a
    shared keypad or a voice cannot keep a vote secret); `secret_with_phones` made secret with
    phones, open without."""
    vote = setup.options.accusation_vote
    if vote == "secret" and not phones:
        raise UsageError("accusation_vote=secret needs a phone on every seat (--phones): a shared keypad or a voice "
                         "cannot keep a vote secret; play with --phones, or choose accusation_vote=secret_with_phones")
    if vote == "secret_with_phones":
        return replace(setup, options=replace(setup.options, accusation_vote="secret" if phones else "open"))
    return setup
