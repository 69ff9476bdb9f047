"""The White Werewolf (le Loup-Garou Blanc, Le Village): a pack member who plays alone
(docs/rules-spec.md#role-white_werewolf).

- Every night he wakes with the pack (row 14, the Werewolves' call: his card is a pack card) and
  counts as a Werewolf for every rule: the pack cannot choose him, the Seer in `team` mode sees a
  wolf, the village cannot win while he lives.
- On his nights only (`white_werewolf_nights`: even nights 2, 4... or odd nights 1, 3...) he wakes
  alone right after the pack (row 16) and may devour one other living pack member, or nobody.
  The schedule is public: the call is made on those nights whenever he is possible, dealt or not,
  alive or not, with or without a pack member to devour (Secrecy).
- His victim is devoured (dawn step 1): the Savior stops it (`savior_blocks=all_devouring`)
  unless `white_werewolf_kill_blockable=false`; so may the Witch's healing potion, which she may
  pour on his victim with `witch_sees=all_devoured` (the default; narrator/roles/witch.py).
  By day it is a normal night death.
- He wins alone when he is the only living player (rank 5 of the end check, `hooks.WINS`); a
  Werewolves' win does not include him.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Literal

from narrator.ports import Heard
from narrator.roles.base import (Ask, Call, CallTurn, Card, NightTurn, Option, PanelLine, RoleModule, Schedule,
                                  closed_turn)
from narrator.rules.events import Cause
from narrator.rules.options import Options
from narrator.rules.roles import Role, Side, Team
from narrator.rules.view import GameView, Hooks, Power, Win

if TYPE_CHECKING:
    from narrator.rules.game import Game

ORDER = 16  # docs/rules-spec.md#night-order: right after the pack


def his_night(options: Options, night: int) -> bool:
    """Whether he wakes alone tonight: public (the option and the night number)."""
    return night % 2 == (0 if options.white_werewolf_nights == "even" else 1)


def targets(game: GameView, white: int) -> tuple[int, ...]:
    """The other living pack members."""
    return tuple(p for p in game.living_wolves() if p != white)


def check(game: GameView, white: int, chosen: tuple[int, ...]) -> str | None:
    if len(chosen) > 1:
        return "the White Werewolf devours one Werewolf, or nobody"
    if chosen and chosen[0] == white:
        return f"seat {chosen[0]} is the White Werewolf himself"
    if chosen and not game.is_pack(chosen[0]):
        return f"seat {chosen[0]} is not a Werewolf; the White Werewolf devours only a Werewolf"
    return None


def devours(game: GameView) -> tuple[tuple[int, Cause, bool], ...]:
    """Dawn step 1: tonight's victim, stoppable unless `white_werewolf_kill_blockable=false`."""
    victim = game.state.chosen_tonight.get("white_werewolf", ())
    if not victim:
        return ()
    return ((victim[0], Cause.WHITE_WEREWOLF, game.options.white_werewolf_kill_blockable),)


def wins(game: GameView) -> tuple[int, ...] | None:
    """End check, rank 5: he is the only living player."""
    living = game.living()
    if len(living) == 1 and game.state.roles[living[0] - 1] is Role.WHITE_WEREWOLF:
        return living
    return None


def run(game: Game, rng: random.Random) -> CallTurn:
    white = game.living_holder(Role.WHITE_WEREWOLF)
    if white is None:
        return CallTurn("white_werewolf.wake", closed_turn("white_werewolf"))
    choices = targets(game, white)
    head: list[PanelLine] = [("white_werewolf.prompt", {}), *(("white_werewolf.pack", {"seat": s}) for s in choices)]

    def question(answers: list[Heard]) -> Ask | None:
        return None if answers else Ask("night.white_werewolf", choices, ("nobody",))

    def panel(answers: list[Heard]) -> list[PanelLine]:
        if not answers:
            return head
        choice = answers[-1].choice
        echo: PanelLine = (
            ("echo.white_victim_nobody", {}) if choice == "nobody" else ("echo.white_victim", {"seat": choice})
        )
        return [*head, echo, ("echo.change", {})]

    def finish(answers: list[Heard]) -> None:
        if answers:
            choice = answers[-1].choice
            game.use_power("white_werewolf", () if choice == "nobody" else (int(choice),))

    return CallTurn("white_werewolf.wake", NightTurn("white_werewolf", question, panel), finish)


Nights = Literal["even", "odd"]
OPTIONS = (
    Option("white_werewolf_nights", Nights, "even"),
    Option("white_werewolf_kill_blockable", bool, True),
)


MODULE = RoleModule(
    Card(Role.WHITE_WEREWOLF, Team.WHITE_WEREWOLF, moons=3, pack=True, box="village"),
    (Call("white_werewolf", ORDER, Schedule.ALTERNATE, Role.WHITE_WEREWOLF, run, turn=20.0, nights=his_night,
          lines=("white_werewolf.prompt", "white_werewolf.pack", "echo.white_victim", "echo.white_victim_nobody")),),
    powers=(Power("white_werewolf", Role.WHITE_WEREWOLF, ORDER, check, targets, nights=his_night),),
    hooks=Hooks(
        devourings=(devours,),
        wins=(Win(5, Side.WHITE_WEREWOLF, wins, Role.WHITE_WEREWOLF),),
    ),
    options=OPTIONS,
)
