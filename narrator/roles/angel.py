"""The Angel (l'Ange, Personnages): never called; wins alone if the village or the pack kills him
in the first turn (docs/rules-spec.md#role-angel).

- When the Angel is a possible role the game opens with a Day 0 (`angel_opening=day_first`):
  Captain election (with `captain_election=day1`), debate and an elimination vote before Night 1;
  the opening line warns the table that an Angel may be among them.
- He wins alone, and the game stops at once, if he is eliminated by Day 0's vote (any round, the
  Captain's tie-break) or devoured and killed on Night 1. Poison, the Hunter's shot and grief do not
  count. With `angel_opening=night_first` there is no Day 0: Day 1's vote and Nights 1 and 2 count.
- `angel_vote_tie=random_among_tied`: a tie in that first vote is drawn by lot among the tied.
- After the first turn he is a Villager with no power (he wins with the village).
"""

from __future__ import annotations

from typing import Literal

from narrator.roles.base import Card, Option, PanelLine, RoleModule
from narrator.rules.errors import RulesError
from narrator.rules.events import Cause, DayBegan, GameEnded, GameStarted, NightBegan, PlayerDied
from narrator.rules.roles import Role, Side, Team
from narrator.rules.view import GameView, Hooks, Settled, Tie, Win


# Deaths that are a devouring (docs/rules-spec.md#terms: the pack, the Big Bad Wolf, the White Werewolf).
DEVOURED = frozenset(c for c in Cause if c.value in ("wolves", "big_bad_wolf", "white_werewolf"))


def _window(game: GameView) -> tuple[int, int]:
    """The last day whose vote counts, and the last night whose devouring counts."""
    return (0, 1) if game.options.angel_opening == "day_first" else (1, 2)


def day_zero(game: GameView) -> bool:
    return Role.ANGEL in game.state.possible and game.options.angel_opening == "day_first"


def opening(game: GameView) -> list[PanelLine]:
    return [("angel.day_zero", {})] if day_zero(game) else []


def _angels(game: GameView) -> tuple[int, ...]:
    """The seats that hold or were dealt the Angel card (a Thief may take it on Night 1)."""
    s = game.state
    started = game.events[0]
    dealt = started.roles if isinstance(started, GameStarted) else ()
    return tuple(p for p in range(1, s.players + 1)
                 if s.roles[p - 1] is Role.ANGEL or (p <= len(dealt) and dealt[p - 1] is Role.ANGEL))


def wins(game: GameView) -> tuple[int, ...] | None:
    """End of the game, 2: the Angel killed by the vote or devoured within the first turn."""
    s = game.state
    if Role.ANGEL not in s.possible:
        return None
    last_day, last_night = _window(game)
    if s.day > last_day or s.night > last_night:
        return None
    dead = [p for p in _angels(game) if not s.alive[p - 1]]
    if not dead:
        return None
    day: int | None = None
    night = 0
    for event in game.events:
        if isinstance(event, NightBegan):
            day, night = None, event.night
        elif isinstance(event, DayBegan):
            day = event.day
        elif isinstance(event, PlayerDied) and event.seat in dead:
            if event.cause is Cause.VOTE and day is not None and day <= last_day:
                return (event.seat,)
            if event.cause in DEVOURED and day is None and 1 <= night <= last_night:
                return (event.seat,)
    return None


def team(game: GameView, seat: int) -> Team | None:
    """A loner during the first turn, then a Villager."""
    if game.state.roles[seat - 1] is not Role.ANGEL:
        return None
    return Team.VILLAGE if game.state.day > _window(game)[0] else None


def tie(game: GameView, tie: Tie) -> Settled | None:
    """`angel_vote_tie=random_among_tied`: the round's count of the Angel's first vote always
    eliminates someone, drawn by lot among the tied."""
    s = game.state
    if not tie.by_lot or game.options.angel_vote_tie != "random_among_tied" or Role.ANGEL not in s.possible:
        return None
    if s.day != _window(game)[0]:
        return None
    if tie.rng is None:
        raise RulesError("a tie in the Angel's first vote is drawn by lot (angel_vote_tie=random_among_tied): give an rng")
    return Settled(tie.rng.choice(tie.tied), instead=False)


def announce(game: GameView, event: object) -> list[PanelLine]:
    if isinstance(event, GameEnded) and event.winner is Side.ANGEL and event.winners:
        return [("angel.wins", {"seat": event.winners[0]})]
    return []


Opening = Literal["day_first", "night_first"]
VoteTie = Literal["base", "random_among_tied"]
OPTIONS = (
    Option("angel_opening", Opening, "day_first"),
    Option("angel_vote_tie", VoteTie, "base"),
)


MODULE = RoleModule(
    Card(Role.ANGEL, Team.ANGEL, moons=3, box="characters"),
    opening=opening,
    announce=announce,
    hooks=Hooks(
        day_zero=(day_zero,),
        wins=(Win(2, Side.ANGEL, wins, Role.ANGEL, at_once=True),),
        team=(team,),
        ties=(tie,),
    ),
    options=OPTIONS,
)
