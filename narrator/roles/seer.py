"""The Seer: every night looks at one other living player's card (or team: `seer_sees`).
Her answer is final: she has seen the card."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Literal

from narrator.ports import Heard
from narrator.roles.base import (Ask, Call, CallTurn, Card, NightTurn, Option, PanelLine, RoleModule, Schedule,
                                  closed_turn)
from narrator.rules.errors import IllegalActionError, InvalidTargetError
from narrator.rules.events import Event, SeerSaw
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView, Power

if TYPE_CHECKING:
    from narrator.rules.game import Game

ORDER = 12  # docs/rules-spec.md#night-order


def targets(game: GameView, seer: int) -> tuple[int, ...]:
    """Any other living player."""
    return tuple([p for p in game.state.living if p != seer])


def saw(game: GameView, seer: int, chosen: tuple[int, ...]) -> tuple[Event, ...]:
    """Her look, checked: one other player's card."""
    if len(chosen) != 1:
        raise IllegalActionError("{said}: {problem}", said=said(chosen), problem="the Seer looks at exactly one card")
    if chosen[0] == seer:
        raise InvalidTargetError("seat {target} is the Seer herself; she looks at another player's card", target=seer)
    return (SeerSaw(seer, chosen[0], game.state.roles[chosen[0] - 1]),)


def said(chosen: tuple[int, ...]) -> str:
    return f"the Seer on seat {chosen[0]!r}" if len(chosen) == 1 else f"the Seer on seats {chosen!r}"


def shows(game: GameView, chosen: tuple[int, ...]) -> Role | Team:
    """What she is shown of her choice: his card, or whether he is a Werewolf (`seer_sees`)."""
    target = chosen[0]
    role = game.state.roles[target - 1]
    if game.state.options.seer_sees != "team":
        return role
    return Team.WOLVES if game.is_pack(target) else role.team


def seen(game: GameView, target: int) -> Role | Team:
    """What the Seer is shown of `target` (any seat)."""
    game.check_seat(target)
    return shows(game, (target,))


def run(game: Game, rng: random.Random) -> CallTurn:
    seer = game.living_holder(Role.SEER)
    if seer is None:
        return CallTurn("seer.wake", closed_turn("seer"))
    shown: list[PanelLine] = []

    def question(answers: list[Heard]) -> Ask | None:
        return None if answers else Ask("night.seer", targets(game, seer))

    def panel(answers: list[Heard]) -> list[PanelLine]:
        return shown if answers else [("seer.prompt", {})]

    def look(answers: list[Heard]) -> None:
        # She sees the card at once: her answer is final (a second look would show two cards).
        target = int(answers[-1].choice)
        result = game.use_power("seer", (target,))
        if result is None:  # her power is lost: she sees nothing (the turn's panel says so)
            return
        if isinstance(result, Team):
            shown.append(("seer.result_wolf" if result is Team.WOLVES else "seer.result_not_wolf", {"seat": target}))
        else:
            shown.append(("seer.result", {"seat": target, "role": result.value}))

    return CallTurn("seer.wake", NightTurn("seer", question, panel, final=True, on_answer=look))


Sees = Literal["role", "team"]
OPTIONS = (
    Option("seer_sees", Sees, "role"),
)


MODULE = RoleModule(
    Card(Role.SEER, Team.VILLAGE, moons=1),
    (Call("seer", ORDER, Schedule.EVERY_NIGHT, Role.SEER, run, turn=20.0,
          lines=("seer.prompt", "seer.result", "seer.result_wolf", "seer.result_not_wolf")),),
    powers=(Power("seer", Role.SEER, ORDER, None, targets, record=saw, shows=shows, who="the Seer", said=said),),
    options=OPTIONS,
)
