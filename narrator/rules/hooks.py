"""Where role modules plug into the engine: filled by the catalogue (narrator/roles) on load.

The engine calls these at fixed points of its algorithms (RULES-EXTENSIONS.md "Dawn"); a role
module declares them and never edits the engine. Every hook is pure: it reads the game, and
the engine emits the events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Mapping

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
    # What the answer does at once, as events emitted right after its PowerUsed (the Fox's
    # power lost on a miss); reads the game as it is before them.
    effect: Callable[[Game, int, tuple[int, ...]], tuple[Event, ...]] | None = None


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
# Dusk (RULES-EXTENSIONS.md `knight_rusty_sword`): seats that die as the night begins, silently;
# their deaths are announced at dawn with the others, and their chain reactions resolved then.
DUSK_DEATHS: list[Callable[[Game], tuple[int, ...]]] = []
# Dawn step 4: seats that die at dawn whatever protects them (the disease with `next_dawn`).
DAWN_DEATHS: list[Callable[[Game], tuple[int, ...]]] = []
# Dawn step 7: when the chain reactions are done, events a role emits (the Knight's diseased
# wolf), before dead Captains name successors; called again after a successor is named, so a
# hook emits only what it has not emitted since the last DawnBroke.
DAWN_SETTLED: list[Callable[[Game], tuple[Event, ...]]] = []
# Day step 3: whether a voter's secret sign during the day's first vote asks for a second vote
# (the Stuttering Judge's sign); False for everyone else, who may press the same key for nothing.
SIGNALS: list[Callable[[Game, int], bool]] = []
# Whether signs are taken during the day's first vote at all (a signing role is possible and its
# option says so): public facts only, the same for every voter.
SIGN_OPEN: list[Callable[[Game], bool]] = []
# Day step 3, `judge_signal: night_arm`: the seat that armed a second vote for today, if any.
ARMED: list[Callable[[Game], int | None]] = []
# Whether a second vote asked by this seat still happens once the first vote is resolved.
SECOND_VOTE_STANDS: list[Callable[[Game, int], bool]] = []
