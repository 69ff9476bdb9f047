"""The Big Bad Wolf (le Grand Méchant Loup, Personnages): a pack card who devours with the pack;
every night, alone after it, he devours a second victim (docs/rules-spec.md#role-big_bad_wolf).

- The extra victim is a living player who is neither a pack member nor the pack's victim; it is a
  devouring (Cause.BIG_BAD_WOLF): the Savior stops it (unless `savior_blocks=pack_only`), and
  night deaths carry no cause. No answer: no extra victim.
- His power lasts while no pack member other than himself has died (any cause; a Wild Child or a
  Wolf-Hound turned wolf and an infected player count): lost for good after that, unless
  `bbw_loses_power_on_wolf_death=false`. The loss is derived from who died, so it holds at once.
- Secrecy: called every night when possible, dealt or not, alive or not, powered or not: the same
  prompt; once the power is lost the answer is accepted and ignored.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from narrator.ports import Heard
from narrator.roles.base import (Ask, Call, CallTurn, Card, NightTurn, Option, PanelLine, RoleModule, Schedule,
                                  closed_turn)
from narrator.rules.events import Cause
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView, Hooks, Power

if TYPE_CHECKING:
    from narrator.rules.game import Game

ORDER = 17  # docs/rules-spec.md#night-order: after the pack (and the White Werewolf)


def power_lost(game: GameView, wolf: int) -> bool:
    if not game.powered(wolf):
        return True
    if not game.options.bbw_loses_power_on_wolf_death:
        return False
    s = game.state
    return any(not s.alive[p - 1] and game.is_pack(p) for p in range(1, s.players + 1) if p != wolf)


def targets(game: GameView, wolf: int) -> tuple[int, ...]:
    if power_lost(game, wolf):
        return ()
    victim = game.state.victim
    return tuple(p for p in game.living() if p != victim and not game.is_pack(p))


def check(game: GameView, wolf: int, chosen: tuple[int, ...]) -> str | None:
    if len(chosen) != 1:
        return "the Big Bad Wolf devours exactly one extra victim"
    if power_lost(game, wolf):
        return "the Big Bad Wolf has lost his power: a Werewolf has died"
    if game.is_pack(chosen[0]):
        return f"seat {chosen[0]} is a Werewolf; the Big Bad Wolf cannot devour one of his own"
    if chosen[0] == game.state.victim:
        return f"seat {chosen[0]} is already the pack's victim tonight"
    return None


def devours(game: GameView) -> tuple[tuple[int, Cause, bool], ...]:
    """Dawn step 1: his extra victim, stoppable like any devouring."""
    chosen = game.state.chosen_tonight.get("big_bad_wolf", ())
    return ((chosen[0], Cause.BIG_BAD_WOLF, True),) if chosen else ()


def run(game: Game, rng: random.Random) -> CallTurn:
    wolf = game.living_holder(Role.BIG_BAD_WOLF)
    if wolf is None:
        return CallTurn("big_bad_wolf.wake", closed_turn("big_bad_wolf"))
    legal = targets(game, wolf)
    head: list[PanelLine] = [("big_bad_wolf.prompt", {})]
    if not legal:
        head.append(("power.none", {}))  # lost: any seat is taken and changes nothing
    seats = legal or game.living()

    def question(answers: list[Heard]) -> Ask | None:
        return None if answers else Ask("night.big_bad_wolf", seats)

    def panel(answers: list[Heard]) -> list[PanelLine]:
        if not answers:
            return head
        return [*head, ("echo.extra_victim", {"seat": answers[-1].choice}), ("echo.change", {})]

    def finish(answers: list[Heard]) -> None:
        if answers and legal:
            game.use_power("big_bad_wolf", (int(answers[-1].choice),))

    return CallTurn("big_bad_wolf.wake", NightTurn("big_bad_wolf", question, panel), finish)


OPTIONS = (
    Option("bbw_loses_power_on_wolf_death", bool, True),
)


MODULE = RoleModule(
    Card(Role.BIG_BAD_WOLF, Team.WOLVES, moons=2, pack=True, box="characters"),
    (Call("big_bad_wolf", ORDER, Schedule.EVERY_NIGHT, Role.BIG_BAD_WOLF, run, turn=20.0,
          lines=("big_bad_wolf.prompt", "echo.extra_victim", "power.none")),),
    powers=(Power("big_bad_wolf", Role.BIG_BAD_WOLF, ORDER, check, targets),),
    hooks=Hooks(
        devourings=(devours,),
    ),
    options=OPTIONS,
)
