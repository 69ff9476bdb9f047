"""The Knight with the Rusty Sword (le Chevalier à l'Épée Rouillée, Personnages): never called
(docs/rules-spec.md#role-knight_rusty_sword).

- Devoured and killed while powered (not saved, not infected), he diseases one Werewolf: when the
  dawn's chain reactions are done (dawn step 7), the first living candidate to his left, scanning
  seat+1, seat+2... Candidates (`knight_disease_victim`): `guilty` (default), the wolves who killed
  him: the pack for the pack's victim, the Big Bad Wolf for his; `nearest_pack_member`, any pack
  member. No candidate: nothing.
- The diseased wolf lives through the day and dies "la nuit suivante": with `next_dusk` (default)
  he dies as the next night begins and takes no part in it; with `next_dawn` he acts that night and
  dies at dawn. Either way his death is announced the next morning with the others, with no cause
  (a normal night death), and its chain reactions are resolved then. Voted out first: nothing more.
"""

from __future__ import annotations

from typing import Literal

from narrator.roles.base import Card, Option, RoleModule
from narrator.rules.events import DEVOURING, Cause, DawnBroke, Event, Marked, PlayerDied
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView, Hooks


DISEASED = "diseased"


def _this_dawn(game: GameView) -> list[Event]:
    """The events since the last DawnBroke (this dawn's deaths and reactions)."""
    events = game.events
    for i in range(len(events) - 1, -1, -1):
        if isinstance(events[i], DawnBroke):
            return events[i + 1:]
    return []


def candidates(game: GameView, cause: Cause) -> list[int]:
    living = game.living()
    if game.options.knight_disease_victim == "guilty" and cause is not Cause.WOLVES:
        # Another devourer (the Big Bad Wolf's victim): that role alone is guilty.
        return [p for p in living if game.state.roles[p - 1].value == cause.value]
    return [p for p in living if game.is_pack(p)]


def first_to_the_left(game: GameView, knight: int, among: list[int]) -> int | None:
    n = game.players
    for step in range(1, n):
        seat = (knight - 1 + step) % n + 1
        if seat in among:
            return seat
    return None


def dawn_settled(game: GameView) -> tuple[Event, ...]:
    """Dawn step 7: the Knight devoured tonight diseases his wolf (once a dawn)."""
    tonight = _this_dawn(game)
    if any(isinstance(e, Marked) and e.mark == DISEASED for e in tonight):
        return ()
    for e in tonight:
        if (isinstance(e, PlayerDied) and game.acts_as(e.seat, Role.KNIGHT_RUSTY_SWORD) and e.cause in DEVOURING
                and game.powered(e.seat)):
            wolf = first_to_the_left(game, e.seat, candidates(game, e.cause))
            if wolf is not None:
                return (Marked(DISEASED, wolf, e.seat),)
    return ()


def _diseased(game: GameView) -> tuple[int, ...]:
    return tuple(p for p in game.marked(DISEASED) if game.state.alive[p - 1])


def dusk_deaths(game: GameView) -> tuple[int, ...]:
    return _diseased(game) if game.options.knight_disease_timing == "next_dusk" else ()


def dawn_deaths(game: GameView) -> tuple[tuple[int, Cause], ...]:
    if game.options.knight_disease_timing != "next_dawn":
        return ()
    return tuple((seat, Cause.DISEASE) for seat in _diseased(game))


DiseaseVictim = Literal["guilty", "nearest_pack_member"]
DiseaseTiming = Literal["next_dusk", "next_dawn"]
OPTIONS = (
    Option("knight_disease_victim", DiseaseVictim, "guilty"),
    Option("knight_disease_timing", DiseaseTiming, "next_dusk"),
)


MODULE = RoleModule(
    Card(Role.KNIGHT_RUSTY_SWORD, Team.VILLAGE, moons=2, box="characters"),
    hooks=Hooks(
        dusk_deaths=(dusk_deaths,),
        dawn_deaths=(dawn_deaths,),
        dawn_settled=(dawn_settled,),
    ),
    options=OPTIONS,
)
