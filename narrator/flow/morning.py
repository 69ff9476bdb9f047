"""The morning's steps: dawn, and the chain reactions' answers (the Hunter's shot, the Captain's
successor, the Scapegoat's voters, the card-taking window)."""

from __future__ import annotations

from dataclasses import replace

from narrator.flow.context import Context
from narrator.flow.narration import narrate
from narrator.ports import Cue, Prompt
from narrator.roles import MORNING
from narrator.rules import Awaiting


class Dawn:
    name = "dawn"

    def run(self, ctx: Context) -> None:
        ctx.morning_lines = []
        ctx.game.dawn()
        ctx.say(Cue("day.dawn", phase="day.morning"))
        ctx.wait_until(ctx.clock.now() + ctx.timing.suspense)
        narrate(ctx)
        if ctx.game.outcome is None:
            # Dawn step 9: the roles' public morning lines (the Raven's mark...), after the deaths;
            # they stay on the public board for the day.
            for lines in MORNING:
                for key, slots in lines(ctx.game):
                    ctx.morning_lines.append((key, slots))
                    ctx.say(Cue(key, dict(slots), phase="day.morning"))


class Chain:
    """One answer the chain reactions wait for, asked in public."""

    name = "chain"

    def run(self, ctx: Context) -> None:
        game = ctx.game
        seat = game.state.awaiting_seat
        assert seat is not None
        awaiting = game.state.awaiting
        if awaiting is Awaiting.WINDOW:
            window(ctx, seat)
        elif awaiting is Awaiting.HUNTER:
            end = ctx.voice.line(Cue("chain.hunter", {"seat": seat}, phase="day.chain"))
            # As a night turn: keys typed while his line is said are not taken, and his question says so.
            ctx.refuse_until(Prompt("day.hunter.early", deadline=end, idle=True))
            ctx.wait_until(end)
            ctx.note("input.too_early")
            heard = ctx.ask(ctx.day_prompt("day.hunter", game.hunter_targets(), ctx.timing.chain, risky=True,
                                           ask_back=True))
            game.hunter_shoot(None if heard is None else int(heard.choice))
        elif awaiting is Awaiting.VOTERS:
            ctx.say(Cue("scapegoat.designate", {"seat": seat}, phase="day.chain"))
            game.designate_voters(voters_list(ctx))
        else:
            ctx.say(Cue("chain.successor", {"seat": seat}, phase="day.chain"))
            heard = ctx.ask(ctx.day_prompt("day.successor", game.living(), ctx.timing.chain, risky=True,
                                           ask_back=True))
            game.name_successor(None if heard is None else int(heard.choice))
        narrate(ctx)


def window(ctx: Context, seat: int) -> None:
    """Day step 5: before seat's card is shown, the Devoted Servant may step forward: she
    types her own seat, then `+` (`day.window`, then `day.window.claim`). The claim names
    its claimer: it stands only if that seat may take the card; a claim from any other seat
    (or none) gets exactly what no claim gets, the same lines at the same times and the same
    screen (a bare `+` would have the game pick whichever Servant was eligible, naming her to
    anyone who pressed it). Public, and of fixed length whatever the deal: the window always
    runs to its end. At dawn (`servant_scope=any_death`) the same, once for each night death in
    turn; its prompts name the seat (`day.dawn_window.<seat>`)."""
    game = ctx.game
    ctx.say(Cue("devoted_servant.window", {"seat": seat}, phase="day.chain"))
    deadline = ctx.clock.now() + ctx.timing.chain
    ctx.panel("devoted_servant.prompt", seat=seat)
    name = f"day.dawn_window.{seat}" if game.state.queue else "day.window"
    seats = tuple(range(1, game.players + 1))  # any seat may be typed: refusing one would tell
    prompt = Prompt(name, seats, ("repeat", "pause"), deadline=deadline, number=ctx.day_number())
    claimer: int | None = None
    while True:
        heard = ctx.ask(prompt)
        if heard is None or heard.choice == "yes":
            break
        claimer = int(heard.choice)  # a seat typed again replaces the last one
        prompt = replace(prompt, name=f"{name}.claim", words=("yes", "repeat", "pause"))
    ctx.wait_until(deadline)
    ctx.display.clear_private()
    eligible = game.window_taker()
    taker = claimer if heard is not None and claimer is not None and claimer == eligible else None
    if taker is None:
        ctx.say(Cue("devoted_servant.none", phase="day.chain"))
    game.take_card(taker)


def voters_list(ctx: Context) -> tuple[int, ...] | None:
    """The Scapegoat's list, one seat at a time: a seat adds it, `-` takes back the last one,
    `+` ends the list (alone: everyone), `0` is nobody; the prompt running out ends it (nothing
    typed: everyone). The screen shows the list as it grows, with the keys to finish it."""
    game = ctx.game
    chosen: list[int] = []
    ctx.note("scapegoat.prompt")
    while True:
        seats = tuple(p for p in game.living() if p not in chosen)
        words = ("yes", "no") if chosen else ("yes", "nobody", "no")
        heard = ctx.ask(ctx.day_prompt("day.scapegoat", seats, ctx.timing.chain, words))
        if heard is None or heard.choice == "yes":
            return tuple(chosen) if chosen else None
        if heard.choice == "nobody":
            return ()
        if heard.choice == "no":
            if not chosen:
                ctx.note("input.nothing_to_undo")
                continue
            chosen.pop()
        else:
            chosen.append(int(heard.choice))
            if not seats[1:]:
                return tuple(chosen)
        if chosen:
            ctx.note("scapegoat.list", seats=", ".join(map(str, chosen)))
        else:
            ctx.note("scapegoat.prompt")
