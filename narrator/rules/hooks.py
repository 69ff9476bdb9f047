"""Where role modules plug into the engine: filled by the catalogue (narrator/roles) on load.

The engine calls these at fixed points of its algorithms (docs/rules-spec.md#dawn); a role
module declares them and never edits the engine. Every hook is pure: it reads the game, and
the engine emits the events.
"""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from narrator.rules.errors import CompositionError
from narrator.rules.events import Cause, Event
from narrator.rules.options import Options
from narrator.rules.roles import Role, Side, Team

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
    # On which nights it may be used (public facts only: the options and the night number);
    # None: every night (or the first only, with `first_night_only`). The role's call has the
    # same schedule (`Call.nights`).
    nights: Callable[[Options, int], bool] | None = None
    # How many seats it chooses tonight, when that depends on the game (the Piper: his option, or
    # all that remain); None: `count`. The simulator asks this; `check` enforces it.
    count_of: Callable[[Game, int], int] | None = None
    # Its choices last the whole game (the Piper's charm): they are kept in `State.lasting_choices[call]`.
    lasting: bool = False
    # Its lasting choices are statuses of the chosen players (the Piper's charm): they stay when the
    # Devoted Servant takes the card (the new holder "is shown who is charmed"), and a Servant loses
    # her own when she takes any card (docs/rules-spec.md#role-devoted_servant). Other
    # lasting choices (a model, a once-a-game infection) belong to the card: a taken card starts fresh.
    status: bool = False
    # The players it designates must be told (docs/rules-spec.md#designation): the engine emits `Notified(targets,
    # call)` after it (narrator/roles/designation.py).
    notifies: bool = False
    seats: bool = True  # the choices are seats (checked as living players); False: numbers `check` reads
    # Events that follow the choice at once (a player joins the pack...), emitted after PowerUsed.
    effect: Callable[[Game, int, tuple[int, ...]], Sequence[Event]] | None = None

    def called(self, options: Options, night: int) -> bool:
        """Whether the power's call is made on night `night`."""
        if self.first_night_only and night != 1:
            return False
        return self.nights is None or self.nights(options, night)


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
# Dusk (docs/rules-spec.md#role-knight_rusty_sword): seats that die as the night begins, silently;
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
# Dawn step 1: devourings of the night besides the pack's victim (the White Werewolf's, the Big Bad Wolf's):
# (seat, cause, stoppable: whether the Savior and the Witch can stop it).
DEVOURINGS: list[Callable[[Game], tuple[tuple[int, Cause, bool], ...]]] = []
# Roles whose holders wake with the pack and count as Werewolves (docs/rules-spec.md#terms):
# the cards with `pack=True`.
PACK: set[Role] = set()


@dataclass(frozen=True)
class Win:
    """One row of the end check (docs/rules-spec.md#end; first match wins).

    `rank` is the row's number in that list; `check` returns the winning seats, or None when the
    row does not hold. `role`: the row is checked only in games where this role is possible."""

    rank: int
    side: Side
    check: Callable[[Game], tuple[int, ...] | None]
    role: Role | None = None
    at_once: bool = False  # the game stops at once, before a dead Captain names a successor (the Angel)


# The end check, ONE table in rank order. The base rows are declared in narrator/rules/ends.py,
# a loner's row in its module (`RoleModule.wins`); a new loner only adds its row:
#
#   rank  side                   declared in
#   1     nobody                 rules/game.py   nobody alive
#   2     angel                  roles/angel.py  eliminated as `angel` says (at_once)
#   3     lovers                 rules/game.py   a mixed couple are the only living players
#   4     pied_piper             roles/pied_piper.py      alive, every other living player charmed
#   5     white_werewolf         roles/white_werewolf.py  the only living player
#   6     abominable_sectarian   roles/abominable_sectarian.py  alive, powered, the other group dead
#   7     village                rules/game.py   no pack member alive
#   8     werewolves             rules/game.py   every living player a pack member (parity option)
WINS: list[Win] = []


def add_win(win: Win) -> None:
    """Put a row in the end-check table at its rank (a rank is taken once)."""
    if any(w.rank == win.rank for w in WINS):
        raise ValueError(f"two end-check rows at rank {win.rank}")
    bisect.insort(WINS, win, key=lambda w: w.rank)


# Dawn step 2, after the saves: a devouring that was not saved costs a spare life instead of a
# death (the Elder). The engine emits `LifeLost`; nothing is said.
ABSORBS: list[Callable[[Game, int, Cause], bool]] = []


@dataclass(frozen=True)
class Reaction:
    """What a death sets off (Dawn step 6, after grief and the Hunter): events to emit, then
    deaths to enqueue with their cause (each is resolved with its own reactions)."""

    events: tuple[Event, ...] = ()
    deaths: tuple[tuple[int, Cause], ...] = ()


# Dawn step 6: chain reactions of a death, in the catalogue's order (the Elder's revenge, the
# Idiot dying with him...). Called with the dead seat and the cause; None: nothing happens.
REACTIONS: list[Callable[[Game, int, Cause], Reaction | None]] = []
# Day step 4: on a tie for the elimination, the seat eliminated instead (the Scapegoat), or None.
# `captain_can_break` says whether a living Captain could break this tie now.
TIE_VICTIM: list[Callable[[Game, bool], int | None]] = []
# Dawn step 6 (day only): whether this dead seat now names who may vote the next day (the
# Scapegoat eliminated by a tie); the engine then awaits `Game.designate_voters`.
DESIGNATES_VOTERS: list[Callable[[Game, int, Cause], bool]] = []
# Cards that keep their power against the Elder's revenge (True), or keep it unless the named
# boolean option is true (a string); from each card's `keeps_power`. Others: the team decides.
KEEPS_POWER: dict[Role, bool | str] = {}

# ---- Personnages (issue 12): the opening, loners' wins, teams that change, ties, acting roles ----


# The team a seat plays for now, when a role changes it (the Angel after turn 1); None: its card's.
TEAM: list[Callable[[Game, int], Team | None]] = []
# Opening: whether the game opens with a Day 0 (public facts only: the possible roles, the options).
DAY_ZERO: list[Callable[[Game], bool]] = []
# Day, elimination vote step 4: a tie settled by a role (the tied seats, the draw) -> the
# eliminated seat, or None to leave it to the base rules.
TIE: list[Callable[[Game, tuple[int, ...], random.Random | None], int | None]] = []
# Setup: cards laid face up for a role (the Actor's), from the possible roles before they are laid;
# the laid cards become possible roles (their calls are made every night, dealt or not).
LAID: list[Callable[[frozenset[Role], Options], tuple[Role, ...]]] = []
# Setup: a problem with the table for a role (players, possible roles, options), or None.
SETUP_CHECKS: list[Callable[[int, frozenset[Role], Options], CompositionError | None]] = []
# A seat that acts as this role now, besides its holders (the Actor holding a card): alive or not.
ACTING: list[Callable[[Game, Role], int | None]] = []
# Dawn step 6 / Day step 5: chain reactions to a death, after grief and the Hunter's shot, in
# the catalogue's order (the Wild Child turns...): the events they bring, emitted by the engine.
CHAIN: list[Callable[[Game, int, Cause], Sequence[Event]]] = []
# What an infection that took does to the infected seat's own role, besides joining the pack (the
# Actor loses his power with `actor_infected=powerless`): the events it brings.
INFECTED: list[Callable[[Game, int], Sequence[Event]]] = []
# Private lines a role adds to another call's panel (call -> functions), e.g. the pack's panel
# tells a Wild Child he has turned. (key, slots) pairs, as the roles' panels are.
PANEL: dict[str, list[Callable[[Game], Sequence[tuple[str, Mapping[str, object]]]]]] = {}


@dataclass(frozen=True)
class Window:
    """Day step 5: after the village designates a player, before his card is shown, a window in
    which a card may be taken (the Devoted Servant). `opens(game, seat)` reads public facts only;
    `check(game, taker, seat)` refuses a taker (a message) or accepts him (None); `taker(game,
    seat)` is the seat who may take it now, if any (the sequencer's `+` during the window).
    `at_dawn(game, seat)`, public facts only too: the window also opens at dawn for this night
    death, before his card is shown (the Devoted Servant's `servant_scope=any_death`)."""

    opens: Callable[[Game, int], bool]
    check: Callable[[Game, int, int], str | None]
    taker: Callable[[Game, int], int | None]
    at_dawn: Callable[[Game, int], bool] | None = None


WINDOW: list[Window] = []


# ---- one game's hooks: only those of its possible roles ----

# The roles whose modules declared each hook (filled by the catalogue with the lists above).
OWNERS: dict[object, set[Role]] = {}

# The hook lists a game filters by its possible roles (the engine reads them from `Game.hooks`).
FILTERED = (
    "SAVES", "SPARES", "SPARED_CAPTAIN_NAMES_SUCCESSOR", "VOTE_BONUS", "DUSK_DEATHS", "DAWN_DEATHS",
    "DAWN_SETTLED", "SIGNALS", "SIGN_OPEN", "ARMED", "SECOND_VOTE_STANDS", "DEVOURINGS", "ABSORBS",
    "REACTIONS", "TIE_VICTIM", "DESIGNATES_VOTERS", "TEAM", "DAY_ZERO", "TIE", "ACTING", "CHAIN", "WINDOW",
    "SETUP_CHECKS", "LAID",
)


def declare(owner: Role, hook: object) -> None:
    """Record that `owner`'s module declared `hook` (a function or a `Window`)."""
    OWNERS.setdefault(hook, set()).add(owner)


class GameHooks:
    """The hooks of one game: each list of this module (`FILTERED`) kept to the hooks whose role is
    possible in it, in the catalogue's order. A role that cannot be in play costs nothing in the
    game's hot paths (every death, vote and night used to call every role's hooks). A hook with no
    declared owner is always kept."""

    SAVES: tuple[Callable[[Game, int, Cause], bool], ...]
    SPARES: tuple[Callable[[Game, int], bool], ...]
    SPARED_CAPTAIN_NAMES_SUCCESSOR: tuple[Callable[[Game], bool], ...]
    VOTE_BONUS: tuple[Callable[[Game], Mapping[int, int]], ...]
    DUSK_DEATHS: tuple[Callable[[Game], tuple[int, ...]], ...]
    DAWN_DEATHS: tuple[Callable[[Game], tuple[int, ...]], ...]
    DAWN_SETTLED: tuple[Callable[[Game], tuple[Event, ...]], ...]
    SIGNALS: tuple[Callable[[Game, int], bool], ...]
    SIGN_OPEN: tuple[Callable[[Game], bool], ...]
    ARMED: tuple[Callable[[Game], int | None], ...]
    SECOND_VOTE_STANDS: tuple[Callable[[Game, int], bool], ...]
    DEVOURINGS: tuple[Callable[[Game], tuple[tuple[int, Cause, bool], ...]], ...]
    ABSORBS: tuple[Callable[[Game, int, Cause], bool], ...]
    REACTIONS: tuple[Callable[[Game, int, Cause], Reaction | None], ...]
    TIE_VICTIM: tuple[Callable[[Game, bool], int | None], ...]
    DESIGNATES_VOTERS: tuple[Callable[[Game, int, Cause], bool], ...]
    TEAM: tuple[Callable[[Game, int], Team | None], ...]
    DAY_ZERO: tuple[Callable[[Game], bool], ...]
    TIE: tuple[Callable[[Game, tuple[int, ...], random.Random | None], int | None], ...]
    ACTING: tuple[Callable[[Game, Role], int | None], ...]
    CHAIN: tuple[Callable[[Game, int, Cause], Sequence[Event]], ...]
    WINDOW: tuple[Window, ...]
    SETUP_CHECKS: tuple[Callable[[int, frozenset[Role], Options], CompositionError | None], ...]
    LAID: tuple[Callable[[frozenset[Role], Options], tuple[Role, ...]], ...]
    # The end check's rows that can hold in the game (a loner's only if he is possible), and those
    # of them that stop the game at once (the Angel's), checked after every batch of deaths.
    WINS: tuple[Win, ...]
    AT_ONCE: tuple[Win, ...]

    def __init__(self, possible: frozenset[Role]) -> None:
        this = globals()
        for name in FILTERED:
            kept = tuple(h for h in this[name] if h not in OWNERS or not OWNERS[h].isdisjoint(possible))
            setattr(self, name, kept)
        self.WINS = tuple(w for w in WINS if w.role is None or w.role in possible)
        self.AT_ONCE = tuple(w for w in self.WINS if w.at_once)


_GAME_HOOKS: dict[frozenset[Role], GameHooks] = {}


def of_game(possible: frozenset[Role]) -> GameHooks:
    """The hooks of a game with these possible roles (made once per set of possible roles)."""
    found = _GAME_HOOKS.get(possible)
    if found is None:
        found = _GAME_HOOKS[possible] = GameHooks(possible)
    return found
