"""Where role modules plug into the engine: filled by the catalogue (narrator/roles) on load.

The engine calls these at fixed points of its algorithms (RULES-EXTENSIONS.md "Dawn"); a role
module declares them and never edits the engine. Every hook is pure: it reads the game, and
the engine emits the events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from narrator.rules.events import Cause, Event
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
    # Events that follow the choice at once (a player joins the pack...), emitted after PowerUsed.
    effect: Callable[[Game, int, tuple[int, ...]], Sequence[Event]] | None = None
    # Its choices last the whole game (the Wild Child's model): kept in `State.lasting[call]`.
    lasting: bool = False


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
# Dawn step 1: devourings of the night besides the pack's victim (the Big Bad Wolf's...).
# (seat, cause, stoppable: whether the Savior and the Witch can stop it).
DEVOURINGS: list[Callable[[Game], Sequence[tuple[int, Cause, bool]]]] = []
# Dawn step 6 / Day step 5: chain reactions to a death, after grief and the Hunter's shot, in
# the catalogue's order (the Wild Child turns...): the events they bring, emitted by the engine.
CHAIN: list[Callable[[Game, int, Cause], Sequence[Event]]] = []
# Whether a seat is powerless now (RULES-EXTENSIONS.md "Powers lost"; the Elder's revenge...).
POWERLESS: list[Callable[[Game, int], bool]] = []
# Whether an infection aimed at a seat fails (the Elder with a spare life).
RESISTS_INFECTION: list[Callable[[Game, int], bool]] = []
# Private lines a role adds to another call's panel (call -> functions), e.g. the pack's panel
# tells a Wild Child he has turned. (key, slots) pairs, as the roles' panels are.
PANEL: dict[str, list[Callable[[Game], Sequence[tuple[str, Mapping[str, object]]]]]] = {}


@dataclass(frozen=True)
class Window:
    """Day step 5: after the village designates a player, before his card is shown, a window in
    which a card may be taken (the Devoted Servant). `opens(game, seat)` reads public facts only;
    `check(game, taker, seat)` refuses a taker (a message) or accepts him (None); `taker(game,
    seat)` is the seat who may take it now, if any (the sequencer's `+` during the window)."""

    opens: Callable[[Game, int], bool]
    check: Callable[[Game, int, int], str | None]
    taker: Callable[[Game, int], int | None]


WINDOW: list[Window] = []
