"""The Villager-Villager (le Villageois-Villageois, Personnages): a Villager on both faces of his
card, never called, no power (docs/rules-spec.md#role-villager_villager).

- Public by design: his card shows a Villager on both faces, so the village knows he is
  innocent. Before the first call the narrator says his seat (the Opening), and the public board
  shows his card all game long. Nothing else is said about him.
- The Seer sees "Villager-Villager". The card is never one of the Thief's extra cards (a
  double-faced card in the centre would be public): the deal always gives it to a seat.
"""

from __future__ import annotations

from typing import Mapping

from narrator.roles.base import Card, PanelLine, RoleModule
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView


def opening(game: GameView) -> list[PanelLine]:
    return [("villager_villager.announce", {"seat": seat}) for seat in game.holders(Role.VILLAGER_VILLAGER)]


def public(game: GameView) -> Mapping[int, str]:
    return {seat: Role.VILLAGER_VILLAGER.value for seat in game.holders(Role.VILLAGER_VILLAGER)}


MODULE = RoleModule(
    Card(Role.VILLAGER_VILLAGER, Team.VILLAGE, moons=1, box="characters", extra_card=False),
    opening=opening,
    public=public,
)
