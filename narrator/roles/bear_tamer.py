"""The Bear Tamer (le Montreur d'Ours, Personnages): never called (docs/rules-spec.md#role-bear_tamer).

- Every morning (dawn step 9, from Day 1, if the game goes on), while he is alive and powered,
  the narrator growls if at least one of his two nearest living neighbours is a pack member.
  If he is himself a pack member (infected) the bear growls every morning until he dies
  (`bear_growls_if_infected`; with `false` his neighbours decide, as for anyone).
- Public by design: the growl line is said and shown on the public board for the day, and
  nothing else: no line when the bear is quiet (it would exist only while a Bear Tamer lives).
"""

from __future__ import annotations


from narrator.roles.base import Card, Option, PanelLine, RoleModule, living_neighbours
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView


def growls(game: GameView) -> bool:
    tamer = game.living_holder(Role.BEAR_TAMER)
    if tamer is None or not game.powered(tamer):
        return False
    if game.options.bear_growls_if_infected and game.is_pack(tamer):
        return True
    return any(game.is_pack(seat) for seat in living_neighbours(game, tamer))


def morning(game: GameView) -> list[PanelLine]:
    return [("bear_tamer.growl", {})] if growls(game) else []


OPTIONS = (
    Option("bear_growls_if_infected", bool, True),
)


MODULE = RoleModule(
    Card(Role.BEAR_TAMER, Team.VILLAGE, moons=1, box="characters"),
    morning=morning,
    morning_order=20,  # dawn step 9: after the Elder's revenge, before the Raven's mark,
    options=OPTIONS,
)
