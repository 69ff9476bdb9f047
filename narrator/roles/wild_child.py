"""The Wild Child (l'Enfant Sauvage, Personnages): on the first night chooses a model among the
other living players (docs/rules-spec.md#role-wild_child).

- While the model lives he is a villager. When the model dies (any cause, day or night) he joins
  the pack at once (event JoinedPack) and wakes with it from its next call; the pack's panel tells
  him so that night (`wild_child.you`). He wins with the team he holds at the end.
- No answer: no model, a villager for the whole game. Powerless, he does not turn.
- `wild_child_transformation_public`: the change is said aloud when it happens.
- Secrecy: the call is made on the first night whenever the role is possible, dealt or not,
  alive or not; his model is shown on his panel only.
- A Devoted Servant who takes his card chooses a model of her own in the reset call.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Callable

from narrator.ports import Heard
from narrator.roles.base import (Ask, Call, CallTurn, Card, NightTurn, Option, PanelLine, RoleModule, Schedule,
                                  closed_turn, joined_pack_panel)
from narrator.rules.events import Cause, JoinedPack
from narrator.rules.roles import Role, Team
from narrator.rules.view import Chain, GameView, Hooks, Power, Reaction

if TYPE_CHECKING:
    from narrator.rules.game import Game

ORDER = 10  # docs/rules-spec.md#night-order: first night, after the siblings


def targets(game: GameView, child: int) -> tuple[int, ...]:
    return tuple(p for p in game.living() if p != child)


def check(game: GameView, child: int, chosen: tuple[int, ...]) -> str | None:
    if len(chosen) != 1:
        return "the Wild Child chooses exactly one model"
    if chosen[0] == child:
        return f"seat {child} is the Wild Child himself; his model is another player"
    return None


def model(game: GameView) -> int | None:
    chosen = game.state.lasting_choices.get("wild_child", ())
    return chosen[-1] if chosen else None  # the last: a Devoted Servant's, after a takeover


def turns(game: GameView, seat: int, cause: Cause) -> Reaction | None:
    """Dawn step 6: his model died: the living, powered Wild Child joins the pack at once."""
    if seat != model(game):
        return None
    child = game.living_holder(Role.WILD_CHILD)
    if child is None or child in game.state.joined or not game.powered(child):
        return None
    return Reaction(events=(JoinedPack(child, "wild_child"),))


def announce(game: GameView, event: object) -> list[PanelLine]:
    if isinstance(event, JoinedPack) and event.reason == "wild_child" and game.options.wild_child_transformation_public:
        return [("wild_child.transformed", {})]
    return []


def turn(game: GameView, child: int, reset: bool = False) -> NightTurn:
    """His choice of a model (also the Devoted Servant's, in the reset call, with `reset`)."""
    choices = targets(game, child)

    def question(answers: list[Heard]) -> Ask | None:
        return None if answers else Ask("night.wild_child", choices)

    def panel(answers: list[Heard]) -> list[PanelLine]:
        if not answers:
            return [("wild_child.prompt", {})]
        return [("wild_child.prompt", {}), ("echo.model", {"seat": answers[-1].choice}), ("echo.change", {})]

    return NightTurn("wild_child", question, panel)


def finish(game: Game, reset: bool = False) -> Callable[[list[Heard]], None]:
    def done(answers: list[Heard]) -> None:
        if answers:
            game.use_power("wild_child", (int(answers[-1].choice),), reset=reset)
    return done


def run(game: Game, rng: random.Random) -> CallTurn:
    child = game.living_holder(Role.WILD_CHILD)
    if child is None:
        return CallTurn("wild_child.wake", closed_turn("wild_child"))
    return CallTurn("wild_child.wake", turn(game, child), finish(game))


OPTIONS = (
    Option("wild_child_transformation_public", bool, False),
)


MODULE = RoleModule(
    Card(Role.WILD_CHILD, Team.VILLAGE, moons=2, box="characters"),
    (Call("wild_child", ORDER, Schedule.FIRST_NIGHT, Role.WILD_CHILD, run, turn=20.0,
          lines=("wild_child.prompt", "echo.model", "wild_child.you", "wild_child.transformed")),),
    powers=(Power("wild_child", Role.WILD_CHILD, ORDER, check, targets, first_night_only=True, lasting=True),),
    # The pack's first call after his change tells him (and the pack) he is one of them now.
    panels=(("werewolves", joined_pack_panel("wild_child", "wild_child.you")),),
    announce=announce,
    hooks=Hooks(
        chain=(Chain(2, turns),),
    ),
    options=OPTIONS,
)
