"""The Abominable Sectarian (l'Abominable Sectaire, Personnages): never called; plays alone
(docs/rules-spec.md#role-abominable_sectarian).

- Before the game every seat is put in group A or B (`sectarian_groups`: one letter a seat in seat
  order; not given, the first half of the seats is group A and the rest group B). The groups are
  public by design: said before the first call and shown on the public board all game, whenever
  the role is possible, dealt or not.
- He wins alone (End of the game, priority 6) when he is alive, powered, and every player of the
  other group is dead. Infected (`sectarian_infected=powerless`) he loses that goal.
"""

from __future__ import annotations

from typing import Literal

from narrator.roles.base import Card, Option, PanelLine, RoleModule
from narrator.rules.errors import CompositionError, OptionError
from narrator.rules.options import Options
from narrator.rules.roles import Role, Side, Team
from narrator.rules.view import GameView, Hooks, Win


def groups(game: GameView) -> str:
    """One letter A or B a seat (index 0 is seat 1)."""
    given = game.options.sectarian_groups.upper()
    n = game.players
    if len(given) == n:
        return given
    half = (n + 1) // 2
    return "A" * half + "B" * (n - half)


def setup_check(players: int, possible: frozenset[Role], options: Options) -> CompositionError | None:
    given = options.sectarian_groups.upper()
    if Role.ABOMINABLE_SECTARIAN not in possible or not given:
        return None
    if len(given) != players:
        return CompositionError("sectarian_groups={given}: {letters} letters for {players} players; "
                                "give one letter A or B a seat, e.g. {example}", given=given, letters=len(given),
                                players=players, example="A" * (players // 2) + "B" * (players - players // 2))
    if "A" not in given or "B" not in given:
        return CompositionError("sectarian_groups={given}: both groups need at least one seat", given=given)
    return None


def _lines(game: GameView) -> list[PanelLine]:
    return [(f"abominable_sectarian.group_{g.lower()}", {"seat": seat}) for seat, g in enumerate(groups(game), 1)]


def opening(game: GameView) -> list[PanelLine]:
    if Role.ABOMINABLE_SECTARIAN not in game.state.possible:
        return []
    return [("abominable_sectarian.groups", {}), *_lines(game)]


def board(game: GameView) -> list[PanelLine]:
    return _lines(game) if Role.ABOMINABLE_SECTARIAN in game.state.possible else []


def powered(game: GameView, seat: int) -> bool:
    """Whether his goal holds (docs/rules-spec.md#powers-lost): lost with his power
    (`GameView.powered`), and lost when he is infected (a pack member: the Accursed Wolf-Father's
    infection) unless `sectarian_infected=keeps_goal`."""
    if not game.powered(seat):
        return False
    return not (game.is_pack(seat) and game.options.sectarian_infected == "powerless")


def wins(game: GameView) -> tuple[int, ...] | None:
    """End of the game, 6: alive, powered, and every player of the other group dead."""
    s = game.state
    if Role.ABOMINABLE_SECTARIAN not in s.possible:
        return None
    seat = game.living_holder(Role.ABOMINABLE_SECTARIAN)
    if seat is None or not powered(game, seat):
        return None
    split = groups(game)
    mine = split[seat - 1]
    if any(s.alive[p - 1] for p in range(1, s.players + 1) if split[p - 1] != mine):
        return None
    return (seat,)


def groups_check(name: str, text: str) -> OptionError | None:
    """One letter A or B a seat."""
    if all(c in "ABab" for c in text):
        return None
    return OptionError("option {name} cannot be {value!r}; give one letter A or B a seat, in seat order, e.g. AAAABBBB",
                       name=name, value=text)


Infected = Literal["powerless", "keeps_goal"]
OPTIONS = (
    Option("sectarian_groups", str, "", check=groups_check, read=lambda text: text.replace(" ", "").replace(",", "")),
    Option("sectarian_infected", Infected, "powerless"),
)


MODULE = RoleModule(
    Card(Role.ABOMINABLE_SECTARIAN, Team.ABOMINABLE_SECTARIAN, moons=3, box="characters"),
    opening=opening,
    board=board,
    hooks=Hooks(
        wins=(Win(6, Side.ABOMINABLE_SECTARIAN, wins, Role.ABOMINABLE_SECTARIAN),),
        setup_checks=(setup_check,),
    ),
    options=OPTIONS,
)
