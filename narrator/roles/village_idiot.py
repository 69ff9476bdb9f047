"""The Village Idiot (l'Idiot du Village, Nouvelle Lune): never called (docs/rules-spec.md#role-village_idiot).

- When an elimination vote designates him and his card is still hidden, his card is shown and he
  is spared: that vote eliminates nobody, and from then on he does not vote (day step 5).
- If he was the Captain, the office is lost for good (`idiot_captain_office=lost`), or he names a
  successor as a dying Captain does (`successor`).
- Voted again later, he dies (the pardon is spent). Any other death kills him normally.
"""

from __future__ import annotations

from typing import Literal

from narrator.roles.base import Card, Option, PanelLine, RoleModule
from narrator.rules.events import PlayerSpared
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView, Hooks


def spares(game: GameView, seat: int) -> bool:
    """The designated player holds the Idiot's power (his card, or the Actor holding it), not yet pardoned."""
    return game.acts_as(seat, Role.VILLAGE_IDIOT) and seat not in game.state.spared


def names_successor(game: GameView) -> bool:
    return game.options.idiot_captain_office == "successor"


def announce(game: GameView, event: object) -> list[PanelLine]:
    if not isinstance(event, PlayerSpared) or not (event.role is Role.VILLAGE_IDIOT
                                                   or game.acts_as(event.seat, Role.VILLAGE_IDIOT)):
        return []
    lines: list[PanelLine] = [("village_idiot.pardoned", {"seat": event.seat})]
    if event.office_lost:
        lines.append(("village_idiot.office_lost", {"seat": event.seat}))
    return lines


CaptainOffice = Literal["lost", "successor"]
OPTIONS = (
    Option("idiot_captain_office", CaptainOffice, "lost"),
)


MODULE = RoleModule(
    Card(Role.VILLAGE_IDIOT, Team.VILLAGE, moons=2, box="new_moon"),
    announce=announce,
    hooks=Hooks(
        spares=(spares,),
        spared_captain_names_successor=(names_successor,),
    ),
    options=OPTIONS,
)
