"""The Elder (l'Ancien, Nouvelle Lune): never called (docs/rules-spec.md#role-elder).

- Lives against devouring (`elder_lives`, default 2): a devouring that is not saved (Witch,
  Savior) costs a life; while he has more than one he survives and nothing is said (dawn step 2).
  Saved devourings cost nothing. The vote, the poison, the Hunter and grief kill him at once.
- Revenge: killed by a cause of `elder_revenge_causes` (vote, poison, shot by default), every
  living village-team player loses his power for the rest of the game (`PowersLost`); cards that
  declare `keeps_power` keep it. Said in public if `elder_revenge_announced`, and only for a
  death whose cause is public (the vote, the Hunter's shot): never for a night death (poison).
- A pardoned Village Idiot dies with him, whatever killed him (`idiot_dies_with_elder`).
- A powerless Elder has no spare life and takes no revenge.
"""

from __future__ import annotations

from typing import Literal

from narrator.roles.base import Card, Option, PanelLine, RoleModule
from narrator.rules import hooks
from narrator.rules.events import DEVOURING, Cause, Event, PlayerDied, PowersLost
from narrator.rules.roles import Role, Team
from narrator.rules.view import Chain, GameView, Hooks, Reaction


REVENGE_CAUSES = {
    "vote_poison_shot": frozenset({Cause.VOTE, Cause.POISON, Cause.HUNTER}),
    "vote_only": frozenset({Cause.VOTE}),
    "none": frozenset(),
}


def lives_left(game: GameView, seat: int) -> int:
    return game.options.elder_lives - game.state.lives_lost.get(seat, 0)


def absorbs(game: GameView, seat: int, cause: Cause) -> bool:
    """Dawn step 2: a devoured, unsaved, powered Elder with a spare life loses it and lives."""
    return (cause in DEVOURING and game.acts_as(seat, Role.ELDER) and game.powered(seat)
            and lives_left(game, seat) > 1)


def struck(game: GameView) -> tuple[int, ...]:
    """Who loses his power to the revenge: the living village-team players, but the cards that
    keep it (`Card.keeps_power`: True, or a boolean option that is false)."""
    options = game.options.to_dict()
    seats = []
    for seat in game.living():
        keeps = hooks.KEEPS_POWER.get(game.state.roles[seat - 1], False)
        if isinstance(keeps, str):
            if options.get(keeps) is True:
                seats.append(seat)
        elif not keeps and game.team_of(seat) is Team.VILLAGE:
            seats.append(seat)
    return tuple(seats)


def reaction(game: GameView, seat: int, cause: Cause) -> Reaction | None:
    """Dawn step 6: the Elder's revenge, then the pardoned Idiot dies with him (a seat that holds
    the Elder's power: his card, or the Actor holding it)."""
    s = game.state
    events: tuple[Event, ...] = ()
    if cause in REVENGE_CAUSES[game.options.elder_revenge_causes] and game.powered(seat):
        events = (PowersLost(struck(game), "elder"),)
    deaths: tuple[tuple[int, Cause], ...] = ()
    if game.options.idiot_dies_with_elder:
        # Every pardoned player: the Idiot's pardon (the Actor holding his card too) is the only one.
        deaths = tuple((p, Cause.ELDER) for p in s.spared if s.alive[p - 1])
    if not events and not deaths:
        return None
    return Reaction(events, deaths)


# Night deaths: said at dawn without their cause (docs/rules-spec.md "Dawn"), so a revenge they bring is
# never said in public: the line would tell the table that the dead player
# was the Elder and how he died (the Witch's poison). The powerless learn it on their own panel.
HIDDEN_CAUSES = frozenset({Cause.POISON, Cause.DISEASE, *DEVOURING})


def death_cause(game: GameView, lost: PowersLost) -> Cause | None:
    """The cause of the death that brought this revenge: the Elder's own, the last death before it
    of a seat that holds his power. Not merely the last death before it: at the same dawn a Hunter
    devoured before the poisoned Elder shoots first, and his shot is public."""
    causes = REVENGE_CAUSES[game.options.elder_revenge_causes]
    events = game.events
    at = next((i for i in range(len(events) - 1, -1, -1) if events[i] is lost), len(events))
    for earlier in reversed(events[:at]):
        if isinstance(earlier, PlayerDied) and earlier.cause in causes and game.acts_as(earlier.seat, Role.ELDER):
            return earlier.cause
    return None


def announce(game: GameView, event: object) -> list[PanelLine]:
    if isinstance(event, PowersLost) and event.cause == "elder" and game.options.elder_revenge_announced:
        return [] if death_cause(game, event) in HIDDEN_CAUSES else [("elder.revenge", {})]
    if isinstance(event, PlayerDied) and event.cause is Cause.ELDER:
        return [("village_idiot.dies_with_elder", {"seat": event.seat})]
    return []


RevengeCauses = Literal["vote_poison_shot", "vote_only", "none"]
OPTIONS = (
    Option("elder_lives", int, 2, span=range(1, 6)),
    Option("elder_revenge_causes", RevengeCauses, "vote_poison_shot"),
    Option("elder_revenge_announced", bool, True),
    Option("idiot_dies_with_elder", bool, True),
)


MODULE = RoleModule(
    Card(Role.ELDER, Team.VILLAGE, moons=2, box="new_moon"),
    announce=announce,
    hooks=Hooks(
        absorbs=(absorbs,),
        chain=(Chain(3, reaction, Role.ELDER),),
    ),
    options=OPTIONS,
)
