"""The Wolf-Hound (le Chien-Loup, Personnages): on the first night chooses his side for good
(docs/rules-spec.md#role-wolf_hound): the village (a plain Villager) or the Werewolves: he joins
the pack that very night (event JoinedPack) and wakes with it at its call, later that night.

- He answers 1 (village) or 2 (Werewolves). No answer: `wolf_hound_timeout` (`villager`, or
  `random`: a side drawn by lot).
- `wolf_hound_choice_public`: his side is said on the first morning, whenever the role is
  possible: a card out of play adds no wolf and gets the village line (the line must not tell
  whether the card is dealt).
- Secrecy: the call is made on the first night whenever the role is possible, dealt or not,
  alive or not; his choice is echoed on his panel only. The Seer in `role` mode sees his card.
- A Devoted Servant who takes his card chooses a side of her own in the reset call.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Callable, Literal, Sequence

from narrator.ports import Heard
from narrator.roles.base import (Ask, Call, CallTurn, Card, NightTurn, Option, PanelLine, RoleModule, Schedule,
                                  closed_turn)
from narrator.rules.events import Event, JoinedPack
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView, Power

if TYPE_CHECKING:
    from narrator.rules.game import Game

ORDER = 4  # docs/rules-spec.md#night-order: first night, before Cupid
VILLAGE, WOLVES = 1, 2  # the keys he answers with


def targets(game: GameView, hound: int) -> tuple[int, ...]:
    """Choosing himself is choosing the Werewolves (no choice: the village)."""
    return (hound,)


def check(game: GameView, hound: int, chosen: tuple[int, ...]) -> str | None:
    if chosen not in ((), (hound,)):
        return f"the Wolf-Hound chooses his own side: his seat ({hound}) for the Werewolves, nobody for the village"
    return None


def effect(game: GameView, hound: int, chosen: tuple[int, ...]) -> Sequence[Event]:
    # Already a pack member (an infected Devoted Servant choosing again in her reset call): no change.
    return (JoinedPack(hound, "wolf_hound"),) if chosen and hound not in game.state.joined else ()


def chose_wolves(game: GameView) -> bool:
    return bool(game.state.lasting_choices.get("wolf_hound"))


def morning(game: GameView) -> list[PanelLine]:
    """`wolf_hound_choice_public`: his side, said on the first morning whenever his card is
    possible, dealt or not: out of play (a Thief's extra card left in the
    centre, a possible role not dealt) it adds no wolf, and the village line is said, as for a
    Wolf-Hound who chose the village. Said only when dealt, the line told the table he was."""
    if (not game.options.wolf_hound_choice_public or game.state.night != 1
            or Role.WOLF_HOUND not in game.state.possible):
        return []
    return [("wolf_hound.chose_wolves" if chose_wolves(game) else "wolf_hound.chose_village", {})]


def turn(game: GameView, hound: int) -> NightTurn:
    def question(answers: list[Heard]) -> Ask | None:
        return None if answers else Ask("night.wolf_hound", (VILLAGE, WOLVES))

    def panel(answers: list[Heard]) -> list[PanelLine]:
        if not answers:
            return [("wolf_hound.prompt", {})]
        echo = "echo.hound_wolves" if int(answers[-1].choice) == WOLVES else "echo.hound_village"
        return [("wolf_hound.prompt", {}), (echo, {}), ("echo.change", {})]

    return NightTurn("wolf_hound", question, panel)


def finish(game: Game, hound: int, rng: random.Random, reset: bool = False) -> Callable[[list[Heard]], None]:
    def done(answers: list[Heard]) -> None:
        if answers:
            wolves = int(answers[-1].choice) == WOLVES
        else:
            wolves = game.options.wolf_hound_timeout == "random" and rng.random() < 0.5
        game.use_power("wolf_hound", (hound,) if wolves else (), reset=reset)
    return done


def run(game: Game, rng: random.Random) -> CallTurn:
    hound = game.living_holder(Role.WOLF_HOUND)
    if hound is None:
        return CallTurn("wolf_hound.wake", closed_turn("wolf_hound"))
    return CallTurn("wolf_hound.wake", turn(game, hound), finish(game, hound, rng))


Timeout = Literal["villager", "random"]
OPTIONS = (
    Option("wolf_hound_timeout", Timeout, "villager"),
    Option("wolf_hound_choice_public", bool, False),
)


MODULE = RoleModule(
    Card(Role.WOLF_HOUND, Team.VILLAGE, moons=2, box="characters"),
    (Call("wolf_hound", ORDER, Schedule.FIRST_NIGHT, Role.WOLF_HOUND, run, turn=20.0,
          lines=("wolf_hound.prompt", "echo.hound_village", "echo.hound_wolves",
                 "wolf_hound.chose_village", "wolf_hound.chose_wolves")),),
    powers=(Power("wolf_hound", Role.WOLF_HOUND, ORDER, check, targets, first_night_only=True,
                  effect=effect, lasting=True),),
    morning=morning,
    options=OPTIONS,
)
