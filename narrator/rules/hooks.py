"""The registry the role catalogue (narrator/roles) fills as it loads: each role's hooks and powers.

The engine never imports its catalogue: the role modules declare their hooks (`Hooks`, declared
once in narrator/rules/view.py) and the catalogue records them here with their role
(`declare`); a game asks for the hooks of its possible roles (`of_game`). The engine's own rows
(the end check's base rows, narrator/rules/ends.py) are declared without a role and kept in every game.
"""

from __future__ import annotations

from narrator.rules.roles import Role
from narrator.rules.state import Awaiting
from narrator.rules.view import Answer, Chain, Hooks, Power, Reaction, Settled, Tie, Win, Window

__all__ = ["Answer", "Chain", "DECLARED", "Hooks", "KEEPS_POWER", "PACK", "POWERS", "Power", "Reaction", "Settled",
           "Tie", "WINS", "Win", "Window", "add_win", "answer", "declare", "of_game"]

# call -> its power
POWERS: dict[str, Power] = {}
# Roles whose holders wake with the pack and count as Werewolves (docs/rules-spec.md#terms):
# the cards with `pack=True`.
PACK: set[Role] = set()
# Cards that keep their power against the Elder's revenge (True), or keep it unless the named
# boolean option is true (a string); from each card's `keeps_power`. Others: the team decides.
KEEPS_POWER: dict[Role, bool | str] = {}
# Every declaration, in the catalogue's order: the role it belongs to (None: the engine's own, in
# every game) and its hooks.
DECLARED: list[tuple[Role | None, Hooks]] = []

# The end check, ONE table in rank order, every row of every role (a game checks the rows of its
# possible roles only). The base rows are declared in narrator/rules/ends.py, a loner's row in
# its module (`Hooks.wins`); a new loner only adds its row:
#
#   rank  side                   declared in
#   1     nobody                 rules/ends.py   nobody alive
#   2     angel                  roles/angel.py  eliminated as `angel` says (at_once)
#   3     lovers                 rules/ends.py   a mixed couple are the only living players
#   4     pied_piper             roles/pied_piper.py      alive, every other living player charmed
#   5     white_werewolf         roles/white_werewolf.py  the only living player
#   6     abominable_sectarian   roles/abominable_sectarian.py  alive, powered, the other group dead
#   7     village                rules/ends.py   no pack member alive
#   8     werewolves             rules/ends.py   every living player a pack member (parity option)
WINS: list[Win] = []


def add_win(win: Win) -> None:
    """Put a row in the end-check table at its rank (a rank is taken once)."""
    if any(w.rank == win.rank for w in WINS):
        raise ValueError(f"two end-check rows at rank {win.rank}")
    WINS.append(win)
    WINS.sort(key=lambda w: w.rank)


def declare(owner: Role | None, hooks: Hooks) -> None:
    """Record `owner`'s hooks (None: the engine's own, kept in every game)."""
    for win in hooks.wins:
        add_win(win)
    DECLARED.append((owner, hooks))
    _GAME_HOOKS.clear()


def answer(awaiting: Awaiting) -> Answer:
    """The role's answer the chain reactions wait for when the game awaits this (any game's)."""
    for _owner, hooks in DECLARED:
        for found in hooks.answers:
            if found.awaiting is awaiting:
                return found
    raise LookupError(f"no role's answer is awaited as {awaiting.value!r}")  # a game never awaits one


_GAME_HOOKS: dict[frozenset[Role], Hooks] = {}


def of_game(possible: frozenset[Role]) -> Hooks:
    """The hooks of a game with these possible roles, in the catalogue's order (made once per set of possible roles)."""
    found = _GAME_HOOKS.get(possible)
    if found is None:
        found = Hooks.join([hooks for owner, hooks in DECLARED if owner is None or owner in possible])
        _GAME_HOOKS[possible] = found
    return found
