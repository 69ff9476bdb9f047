"""The Fox (le Renard, Personnages): called every night after the Seer (row 13); he may sniff a
living player, himself allowed, or nobody (docs/rules-spec.md#role-fox).

- The group is the chosen player and his nearest living neighbour on each side (fewer when fewer
  than three live). The answer, on his panel only: yes if a pack member is in the group, no
  otherwise; no card is shown. His answer is final: he has sniffed.
- After a "no" he loses his power for good (`fox_loses_power_on_miss`; event PowerLost): he is
  still called every night, his answer is taken, and his panel says his power is gone.
- Nobody sniffed: no answer, power kept. Nothing is said by day.
- Secrecy: called every night when possible, dealt or not, alive or dead, powered or not.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from narrator.ports import Heard
from narrator.roles.base import (Ask, Call, CallTurn, Card, NightTurn, Option, PanelLine, RoleModule, Schedule,
                                  closed_turn, living_neighbours)
from narrator.rules.events import Event, PowerLost
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView, Power

if TYPE_CHECKING:
    from narrator.rules.game import Game

ORDER = 13  # docs/rules-spec.md#night-order: after the Seer, before the pack


def group(game: GameView, centre: int) -> tuple[int, ...]:
    """The centre and his nearest living neighbour on each side (seat+1 clockwise, seat-1)."""
    if not game.is_alive(centre):
        return ()
    return tuple(sorted({centre, *living_neighbours(game, centre)}))


def smells_wolf(game: GameView, centre: int) -> bool:
    return any(game.is_pack(seat) for seat in group(game, centre))


def targets(game: GameView, fox: int) -> tuple[int, ...]:
    return game.living()


def check(game: GameView, fox: int, chosen: tuple[int, ...]) -> str | None:
    return None if len(chosen) <= 1 else "the Fox sniffs around one player, or nobody"


def effect(game: GameView, fox: int, chosen: tuple[int, ...]) -> tuple[Event, ...]:
    """A "no" costs a powered Fox his power (fox_loses_power_on_miss)."""
    if not chosen or not game.powered(fox) or not game.options.fox_loses_power_on_miss:
        return ()
    return () if smells_wolf(game, chosen[0]) else (PowerLost(fox, Role.FOX, "fox_miss"),)


def run(game: Game, rng: random.Random) -> CallTurn:
    fox = game.living_holder(Role.FOX)
    if fox is None:
        return CallTurn("fox.wake", closed_turn("fox"))
    choices = game.living()
    head: list[PanelLine] = [("fox.prompt", {})]
    shown: list[PanelLine] = []

    def question(answers: list[Heard]) -> Ask | None:
        return None if answers else Ask("night.fox", choices, ("nobody",))

    def panel(answers: list[Heard]) -> list[PanelLine]:
        return [*head, *shown]

    def sniff(answers: list[Heard]) -> None:
        # He sniffs at once: his answer is final (a second sniff would tell him twice).
        assert fox is not None
        choice = answers[-1].choice
        powered = game.powered(fox)
        if choice == "nobody":
            game.use_power("fox", ())
            shown.append(("echo.sniff_nobody", {}))
            return
        centre = int(choice)
        found = smells_wolf(game, centre)
        game.use_power("fox", (centre,))
        shown.append(("echo.sniff", {"seat": centre}))
        if not powered:
            shown.append(("power.none", {}))
            return
        # The seats sniffed, by number: the centre and his living neighbours.
        seats = ", ".join(str(s) for s in group(game, centre))
        shown.append(("fox.yes" if found else "fox.no", {"seat": centre, "seats": seats}))
        if not game.powered(fox):
            shown.append(("fox.power_lost", {}))

    return CallTurn("fox.wake", NightTurn("fox", question, panel, final=True, on_answer=sniff))


OPTIONS = (
    Option("fox_loses_power_on_miss", bool, True),
)


MODULE = RoleModule(
    Card(Role.FOX, Team.VILLAGE, moons=2, box="characters"),
    (Call("fox", ORDER, Schedule.EVERY_NIGHT, Role.FOX, run, turn=20.0,
          lines=("fox.prompt", "fox.yes", "fox.no", "fox.power_lost", "echo.sniff", "echo.sniff_nobody", "power.none")),),
    powers=(Power("fox", Role.FOX, ORDER, check, targets, effect=effect),),
    options=OPTIONS,
)
