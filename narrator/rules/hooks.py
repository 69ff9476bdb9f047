"""Where role modules plug into the engine: filled by the catalogue (narrator/roles) on load.

The engine calls these at fixed points of its algorithms (RULES-EXTENSIONS.md "Dawn"); a role
module declares them and never edits the engine. Every hook is pure: it reads the game, and
the engine emits the events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Mapping

from narrator.rules.events import Cause
from narrator.rules.roles import Role

if TYPE_CHECKING:
    from narrator.rules.game import Game


@dataclass(frozen=True)
class Power:
    """A night power answered through `Game.use_power`: its call, its role, its place in the
    night (`order`, as in the merged night order), and its check of a choice (an error message
    quoting the choice, or None when legal)."""

    call: str
    role: Role
    order: float
    check: Callable[[Game, int, tuple[int, ...]], str | None]
    # The seats it may choose tonight, for the simulator and the sequencer's prompt.
    targets: Callable[[Game, int], tuple[int, ...]]
    count: int = 1  # seats chosen at once
    first_night_only: bool = False


# call -> its power
POWERS: dict[str, Power] = {}
# Dawn step 2: whether a devoured seat is saved tonight (besides the Witch's potion).
SAVES: list[Callable[[Game, int, Cause], bool]] = []
# Day, elimination vote step 5: whether the designated seat is spared by his card (it is then
# shown, and he votes no more); (seat, captain office kept by a successor?) read by the engine.
SPARES: list[Callable[[Game, int], bool]] = []
# Whether a spared Captain names a successor (True) or the office is lost (False).
SPARED_CAPTAIN_NAMES_SUCCESSOR: list[Callable[[Game], bool]] = []
# Day, elimination vote step 2: votes added to the first count of the day (seat -> votes).
VOTE_BONUS: list[Callable[[Game], Mapping[int, int]]] = []
