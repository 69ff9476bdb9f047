"""The state a game folds its events into, and the names of its phases, steps and awaited answers."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Final, Mapping

from narrator.rules.events import Ballot, Cause
from narrator.rules.options import Options
from narrator.rules.roles import Role, Side, Team


class Phase(str, Enum):
    NIGHT = "night"
    RESOLVING = "resolving"  # deaths are being resolved; an answer (Hunter, successor) is awaited
    DAY = "day"
    DUSK = "dusk"  # the day's vote is over; night may fall
    OVER = "over"
    SETUP = "setup"


class Step(IntEnum):
    """Order of the night's actions; each may happen once a night, in this order, or be skipped.
    The values are ten times the rows of the merged night order (docs/rules-spec.md#night-order); a power
    of the catalogue takes its place from its call's order (`step_of`)."""

    THIEF = 10
    CUPID = 50
    ELECTION = 105  # the Captain election at the end of the preparation (`night1_end`)
    SEER = 120
    WOLVES = 140
    WITCH = 190


RESET_ORDER = 3.0  # the `devoted_servant_reset` call's row: a taken card's first-night power


def step_of(order: float) -> int:
    return round(order * 10)


class Awaiting(str, Enum):
    """What answer the game waits for before it can go on."""

    NOTHING = "nothing"
    HUNTER = "hunter"
    SUCCESSOR = "successor"
    VOTE = "vote"
    TIEBREAK = "tiebreak"
    WINDOW = "window"  # day step 5: a card may be taken before the designated player's is shown
    VOTERS = "voters"  # the dead Scapegoat names who may vote the next day


# The enum members the hot paths read, as module constants: on Python 3.11 reading
# `Phase.NIGHT` goes through `EnumType.__getattr__`'s slot and costs about ten global reads; a
# game reads a few hundred of them. Cold code (messages, queries the simulator never asks) keeps
# the plain `Enum.MEMBER` spelling.
_AWAITING_HUNTER: Final = Awaiting.HUNTER
_AWAITING_NOTHING: Final = Awaiting.NOTHING
_AWAITING_SUCCESSOR: Final = Awaiting.SUCCESSOR
_AWAITING_TIEBREAK: Final = Awaiting.TIEBREAK
_AWAITING_VOTE: Final = Awaiting.VOTE
_AWAITING_WINDOW: Final = Awaiting.WINDOW
_BALLOT_ACCUSATION: Final = Ballot.ACCUSATION
_BALLOT_BALLOT: Final = Ballot.BALLOT
_BALLOT_CAPTAIN: Final = Ballot.CAPTAIN
_BALLOT_CAPTAIN_REVOTE: Final = Ballot.CAPTAIN_REVOTE
_BALLOT_REVOTE: Final = Ballot.REVOTE
_BALLOT_RUNOFF: Final = Ballot.RUNOFF
_BALLOT_VOTE: Final = Ballot.VOTE
_CAUSE_DISEASE: Final = Cause.DISEASE
_CAUSE_GRIEF: Final = Cause.GRIEF
_CAUSE_HUNTER: Final = Cause.HUNTER
_CAUSE_POISON: Final = Cause.POISON
_CAUSE_VOTE: Final = Cause.VOTE
_CAUSE_WOLVES: Final = Cause.WOLVES
_PHASE_DAY: Final = Phase.DAY
_PHASE_DUSK: Final = Phase.DUSK
_PHASE_NIGHT: Final = Phase.NIGHT
_PHASE_OVER: Final = Phase.OVER
_PHASE_RESOLVING: Final = Phase.RESOLVING
_PHASE_SETUP: Final = Phase.SETUP
_ROLE_CUPID: Final = Role.CUPID
_ROLE_HUNTER: Final = Role.HUNTER
_ROLE_SEER: Final = Role.SEER
_ROLE_THIEF: Final = Role.THIEF
_ROLE_VILLAGER: Final = Role.VILLAGER
_ROLE_WITCH: Final = Role.WITCH
_STEP_CUPID: Final = Step.CUPID
_STEP_ELECTION: Final = Step.ELECTION
_STEP_SEER: Final = Step.SEER
_STEP_THIEF: Final = Step.THIEF
_STEP_WITCH: Final = Step.WITCH
_STEP_WOLVES: Final = Step.WOLVES
_TEAM_PIED_PIPER: Final = Team.PIED_PIPER
_TEAM_VILLAGE: Final = Team.VILLAGE
_TEAM_WOLVES: Final = Team.WOLVES


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: which side won and the seats that win with it."""

    winner: Side
    winners: tuple[int, ...]


@dataclass(slots=True)
class State:
    players: int
    roles: list[Role]
    extra: list[Role]
    possible: frozenset[Role]
    options: Options
    alive: list[bool]
    laid: tuple[Role, ...] = ()  # cards laid face up for a role (the Actor's), public
    living: tuple[int, ...] = ()  # the living seats in seat order: `alive` as a tuple, kept by `_died`
    # How many living players wake with the pack (their card is a pack card, or they joined it):
    # kept by the folds, so the end check needs no count of the living after every death.
    pack_living: int = 0
    # The seats holding each card now, in seat order (alive or dead); replaced, never changed in place.
    seats_of: Mapping[Role, tuple[int, ...]] = dataclasses.field(default_factory=dict)
    phase: Phase = Phase.SETUP
    night: int = 0
    day: int = 0
    step: int = -1
    lovers: tuple[int, int] | None = None
    captain: int | None = None
    captain_vacant: bool = False
    elections: int = 0
    heal_left: bool = True
    poison_left: bool = True
    victim: int | None = None
    # Decided tonight, seen to at dawn: devoured players saved by a heal (the Witch's potion), and
    # players who die whatever protects them, with the cause (her poison).
    saved_tonight: tuple[int, ...] = ()
    doomed: tuple[tuple[int, Cause], ...] = ()
    last_vote_day: int = -1  # the last day with an elimination vote (-1: none yet; Day 0 may have one)
    awaiting: Awaiting = Awaiting.NOTHING
    awaiting_seat: int | None = None
    queue: tuple[tuple[int, Cause], ...] = ()
    ballot: Ballot | None = None
    candidates: tuple[int, ...] = ()
    ballot_voters: tuple[int, ...] = ()  # who may vote in the open ballot (`VoteOpened.voters`)
    resolving_day: bool = False
    outcome: Outcome | None = None
    # The catalogue's powers (narrator/roles): call -> seats chosen tonight, and last night.
    # Replaced, never changed in place, so a copy may share them.
    chosen_tonight: Mapping[str, tuple[int, ...]] = dataclasses.field(default_factory=dict)
    spared: tuple[int, ...] = ()  # players spared by their card: alive, they vote no more
    chosen_last_night: Mapping[str, tuple[int, ...]] = dataclasses.field(default_factory=dict)
    # Lasting marks a power put on players (Marked): mark -> seats, replaced, never changed in place.
    marks: Mapping[str, tuple[int, ...]] = dataclasses.field(default_factory=dict)
    night_dead: tuple[tuple[int, Cause], ...] = ()  # who died during this night (at dusk), said at dawn
    second_vote_asked: int | None = None  # the seat that asked for a second vote today
    second_vote_day: int = -1  # the day whose second vote was opened (-1: none yet; Day 0 has a first vote too)
    # A lasting power's choices over the whole game (the Piper's charm, the Wild Child's model):
    # call -> seats, in order (`Power.lasting`).
    lasting_choices: Mapping[str, tuple[int, ...]] = dataclasses.field(default_factory=dict)
    # Players who joined the pack after the deal, with why (docs/rules-spec.md#terms); replaced.
    joined: Mapping[int, str] = dataclasses.field(default_factory=dict)
    taken: tuple[int, ...] = ()  # eliminated players whose card the Devoted Servant took
    took_day: int = 0  # the day of the last takeover (its reset call is the next night)
    resigned: bool = False  # the Captain gave up the office (a Servant's takeover): a successor is due
    # Seats whose power is lost for the rest of the game (docs/rules-spec.md#powers-lost).
    powerless: frozenset[int] = frozenset()
    lives_lost: Mapping[int, int] = dataclasses.field(default_factory=dict)  # seat -> spare lives lost (Elder)
    tie_victim: int | None = None  # eliminated today instead of the tied (the Scapegoat)
    # The Scapegoat's list: who may vote on day `designated_voters_day` (None: everyone).
    designated_voters: tuple[int, ...] | None = None
    designated_voters_day: int = 0
    # Every choice each call's power has made this game, in order (the Actor's cards taken).
    chosen_in_game: Mapping[str, tuple[int, ...]] = dataclasses.field(default_factory=dict)

    def copy(self) -> State:
        other = dataclasses.replace(self)
        other.roles, other.extra, other.alive = list(self.roles), list(self.extra), list(self.alive)
        return other
