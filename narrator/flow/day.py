"""The day's steps: the Captain election, the debate, the votes and their roll call, dusk, the end."""

from __future__ import annotations

from dataclasses import replace

from narrator.flow.context import Context
from narrator.flow.lines import debate_cue, minutes_cue
from narrator.flow.narration import narrate, opening
from narrator.flow.secret_vote import say_totals, secret_roll_call, secret_round
from narrator.ports import Cue, Heard, Prompt
from narrator.rules import Awaiting, Side


class Election:
    name = "election"

    def run(self, ctx: Context) -> None:
        opening(ctx)
        election(ctx)


def election(ctx: Context) -> None:
    """The Captain election, every round of it."""
    ctx.game.open_captain_election()
    rounds(ctx, "day.captain")


class Debate:
    """The debate: its minutes told, a minute and ten seconds before the end; `+` ("ready to
    vote") ends it, `-` asks for more time."""

    name = "debate"
    warnings = ((60.0, "debate.one_minute"), (10.0, "debate.ten_seconds"))

    def run(self, ctx: Context) -> None:
        opening(ctx)
        t, clock, asker = ctx.timing, ctx.clock, ctx.asker
        ctx.say(debate_cue(t.debate))
        end = clock.now() + t.debate
        pending = [w for w in self.warnings if w[0] < t.debate]
        while True:
            pending = [w for w in pending if end - w[0] > clock.now()]
            stop = end - pending[0][0] if pending else end
            asker.paused, asker.debate_end = 0.0, end
            heard = ctx.ask(Prompt("day.debate", (), ("more_time", "vote_now", "yes", "no", "repeat", "pause"),
                                   deadline=stop, number=ctx.day_number()))
            end += asker.paused
            asker.debate_end = None
            if heard is not None and heard.choice in ("yes", "no"):
                heard = Heard("vote_now" if heard.choice == "yes" else "more_time", heard.source, heard.text)
            if heard is None:
                if not pending:
                    ctx.say(Cue("debate.end", phase="day.debate"))
                    return
                ctx.say(Cue(pending.pop(0)[1], phase="day.debate"))
            elif heard.choice == "vote_now":
                return
            elif heard.choice == "more_time":
                end += t.more_time
                pending = list(self.warnings)
                ctx.say(minutes_cue("debate.more_time", t.more_time))


class Vote:
    name = "vote"

    def run(self, ctx: Context) -> None:
        if ctx.game.second_vote_due():
            ctx.say(Cue("stuttering_judge.second_vote", phase="day.vote"))
        ctx.game.open_vote()
        rounds(ctx, "day.vote")


def rounds(ctx: Context, phase: str) -> None:
    """Every round of an election or a vote, until the engine awaits no more votes."""
    game = ctx.game
    narrate(ctx)
    while game.state.awaiting in (Awaiting.VOTE, Awaiting.TIEBREAK) and game.outcome is None:
        if game.state.awaiting is Awaiting.TIEBREAK:
            heard = ctx.ask(ctx.day_prompt("day.tiebreak", game.state.candidates, ctx.timing.chain, risky=True,
                                           ask_back=True))
            game.break_tie(None if heard is None else int(heard.choice))
        elif secret_round(game):
            game.cast_votes(secret_roll_call(ctx, phase), ctx.rng)
            say_totals(ctx, phase)
        else:
            game.cast_votes(roll_call(ctx, phase), ctx.rng)
        narrate(ctx)


def roll_call(ctx: Context, phase: str) -> dict[int, int | None]:
    """Each voter in turn, alternating direction every day; no answer abstains."""
    game = ctx.game
    s = game.state
    voters = list(game.roll_call())
    clockwise = voters == sorted(voters)
    ballot = s.ballot.value if s.ballot else "vote"
    ctx.say(Cue("vote.order_cw" if clockwise else "vote.order_ccw", {"seat": voters[0]}, phase=phase))
    votes: dict[int, int | None] = {}
    # The Stuttering Judge's sign (judge_signal=sign_during_vote): during the day's first vote,
    # `+` ("yes") before a vote is taken from every voter alike, with the same feedback and no
    # line, and counts only for the Judge (docs/rules-spec.md#day, step 3).
    sign = ("yes",) if game.sign_taken() else ()
    # The second vote's prompts are named apart (`day.second.<ballot>.<voter>`): a script answers them.
    name = "day.second" if phase == "day.vote" and s.second_vote_day == s.day else phase
    for voter in voters:
        ctx.say(Cue("vote.voter", {"seat": voter}, phase=phase))
        words = ("nobody", *sign)
        while True:
            # A seat heard as a look-alike is asked back ("4? Yes or no.", narrator/flow/asking.py).
            prompt = ctx.day_prompt(f"{name}.{ballot}.{voter}", s.candidates, ctx.timing.vote, words, ask_back=True)
            heard = ctx.ask(prompt)
            while heard is not None and heard.choice == "yes":
                game.signal_second_vote(voter)
                words = ("nobody",)
                heard = ctx.ask(replace(prompt, words=tuple(w for w in prompt.words if w != "yes")))
            # A seat the voter confirmed when it was asked back is not said back a second time.
            if heard is None or heard.source != "voice" or heard.confirmed \
                    or not taken_back(ctx, voter, heard, prompt.name, phase):
                break
        votes[voter] = None if heard is None or heard.choice == "nobody" else int(heard.choice)
    return votes


def taken_back(ctx: Context, voter: int, heard: Heard, name: str, phase: str) -> bool:
    """A vote taken by voice is said back at once (votes are public: this tells nothing
    hidden), and "no" or `-` within `take_back` seconds of the line's end takes it back: the
    voter is asked again. A wrong vote then needs two errors: a seat misheard, and nobody
    saying no. Votes typed on the keypad are not said back (docs/voice.md, "Voice answers at a real table")."""
    if heard.choice == "nobody":
        ctx.say(Cue("vote.said_nobody", {"seat": voter}, phase=phase))
    else:
        ctx.say(Cue("vote.said", {"seat": voter, "other": int(heard.choice)}, phase=phase))
    window = Prompt(f"{name}.undo", words=("no",), deadline=ctx.clock.now() + ctx.timing.take_back,
                    number=ctx.day_number(), idle=True)
    if ctx.ask(window) is None:
        return False
    ctx.say(Cue("vote.taken_back", {"seat": voter}, phase=phase))
    return True


class Dusk:
    name = "dusk"

    def run(self, ctx: Context) -> None:
        ctx.say(Cue("day.dusk", phase="day.dusk"))


class GameOver:
    name = "game_over"

    def run(self, ctx: Context) -> None:
        outcome = ctx.game.outcome
        assert outcome is not None
        if outcome.winner is Side.NOBODY:
            ctx.say(Cue("game.over_nobody", phase="game.over"))
        else:
            ctx.say(Cue("game.over", {"side": outcome.winner.value}, phase="game.over"))
        for seat in range(1, ctx.game.players + 1):
            ctx.reveal(seat, phase="game.over")
