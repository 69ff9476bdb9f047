"""Every change of a game is one of these events; the state is their fold (see `Game.replay`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, TypeVar, Union

from narrator.rules.options import Options
from narrator.rules.roles import Role, Side

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform  # frozen_default: mypy reads it from here on 3.11
else:
    from typing import dataclass_transform

_E = TypeVar("_E")


@dataclass_transform(frozen_default=True)
def event(cls: type[_E]) -> type[_E]:
    """An event: a slotted dataclass, frozen to the type checker (mypy refuses any assignment).

    At run time it is not frozen: a frozen dataclass sets each field through `object.__setattr__`,
    which made building events a tenth of the simulator's time. Equality and the hash
    are those of a frozen dataclass.
    """
    return dataclass(slots=True, unsafe_hash=True)(cls)


class Cause(str, Enum):
    """Why a player died."""

    WOLVES = "wolves"
    POISON = "poison"
    GRIEF = "grief"
    HUNTER = "hunter"
    VOTE = "vote"
    DISEASE = "disease"  # the Knight's rusty sword: dies at the next dusk (or dawn), said at dawn
    WHITE_WEREWOLF = "white_werewolf"  # devoured by the White Werewolf
    ELDER = "elder"  # the pardoned Village Idiot dies with the Elder (idiot_dies_with_elder)
    BIG_BAD_WOLF = "big_bad_wolf"  # devoured by the Big Bad Wolf's extra victim
    LAST_TWO = "last_two"  # the lower of the last two, eliminated at a dawn with no death (two_player_end)


# "Devoured" (docs/rules-spec.md#terms): the only deaths the Savior stops, the
# Witch heals and the Elder's extra life absorbs; the Hunter devoured fires under wolves_or_vote.
DEVOURING: frozenset[Cause] = frozenset({Cause.WOLVES, Cause.WHITE_WEREWOLF, Cause.BIG_BAD_WOLF})


class Ballot(str, Enum):
    """The kinds of vote round."""

    CAPTAIN = "captain"  # Captain election, first round
    CAPTAIN_REVOTE = "captain_revote"  # among those tied
    VOTE = "vote"  # the day's vote (plurality), or the first round of runoff
    REVOTE = "revote"  # among those tied, no Captain to break the tie
    RUNOFF = "runoff"  # second round between the leaders
    ACCUSATION = "accusation"  # Italian: who is accused
    BALLOT = "ballot"  # Italian: the non-accused vote among the accused


@event
class GameStarted:
    players: int
    roles: tuple[Role, ...]
    extra: tuple[Role, ...]
    possible: frozenset[Role]
    options: Options
    laid: tuple[Role, ...] = ()  # cards laid face up for a role, public (the Actor's three)


@event
class NightBegan:
    night: int


@event
class ThiefChose:
    seat: int
    card: int  # 0 keeps the Thief card, 1 or 2 takes that extra card
    took: Role | None


@event
class LoversChosen:
    cupid: int
    first: int
    second: int


@event
class SeerSaw:
    seer: int
    target: int
    role: Role


@event
class WolvesChose:
    target: int | None  # None: no consensus, no victim


@event
class WitchActed:
    witch: int
    healed: bool
    poisoned: int | None
    # The seat healed when it is not the pack's victim (`witch_sees=all_devoured`: the Big Bad
    # Wolf's or the White Werewolf's victim); None: the pack's victim, or no healing.
    saved: int | None = None


@event
class DawnBroke:
    night: int
    deaths: tuple[int, ...]  # night deaths, in seat order


@event
class PlayerDied:
    seat: int
    cause: Cause
    role: Role


@event
class HunterCalled:
    """The dead Hunter must shoot before the rest of the chain (`queue`) goes on."""

    hunter: int
    queue: tuple[tuple[int, Cause], ...]


@event
class SuccessorCalled:
    """The dead Captain must name a successor."""

    captain: int


@event
class HunterShot:
    hunter: int
    target: int | None  # None: the Hunter let the moment pass (no answer)


@event
class VoteOpened:
    ballot: Ballot
    candidates: tuple[int, ...]
    voters: tuple[int, ...]


@event
class VotesCast:
    ballot: Ballot
    votes: tuple[tuple[int, int | None], ...]  # (voter, target or None to abstain)
    counts: tuple[tuple[int, int], ...]  # (candidate, weighted votes), candidates in seat order


@event
class TieToBreak:
    tied: tuple[int, ...]  # the Captain chooses among these


@event
class CaptainElected:
    seat: int
    by_draw: bool


@event
class CaptainSucceeded:
    previous: int
    successor: int | None  # None: the office is vacant (no answer); elected again next day


@event
class PlayerEliminated:
    seat: int
    by_captain: bool


@event
class NobodyEliminated:
    reason: str  # "tie", "no_votes"


@event
class DayBegan:
    day: int


@event
class DuskFell:
    day: int


@event
class GameEnded:
    winner: Side
    winners: tuple[int, ...]


@event
class PowerUsed:
    """A role's night call answered through the catalogue (narrator/roles/<role>.py): the call,
    the seat that answered, and the seats chosen (empty: nobody)."""

    call: str
    seat: int
    targets: tuple[int, ...]
    reset: bool = False  # answered in the `devoted_servant_reset` call, for a taken card


@event
class PlayerSpared:
    """The village designated a player whose card spares him (the Village Idiot): his card is
    shown, he lives, and from now on he does not vote (docs/rules-spec.md#day, step 5)."""

    seat: int
    role: Role
    office_lost: bool = False  # he was Captain and the office is gone for good (no successor)


@dataclass(frozen=True, slots=True)
class PowerLost:
    """A player's power is lost for good (docs/rules-spec.md#powers-lost): he keeps his card,
    team and calls, but his power does nothing from now on."""

    seat: int
    role: Role
    reason: str  # e.g. "fox_miss"


@dataclass(frozen=True, slots=True)
class Marked:
    """A lasting mark a role's power puts on a player (e.g. "diseased" by the Knight's sword)."""

    mark: str
    seat: int
    by: int  # the seat whose power put it


@dataclass(frozen=True, slots=True)
class SecondVoteAsked:
    """A second elimination vote follows today's first one, without debate (the Stuttering
    Judge's sign). Never said: only the second vote itself is public."""

    seat: int


@dataclass(frozen=True, slots=True)
class SecondVoteDue:
    """The first vote's batch is resolved and the game goes on: the second vote opens at once."""

    day: int


@dataclass(frozen=True, slots=True)
class Notified:
    """Players designated in the night who must be told so (docs/rules-spec.md#designation): the charmed, the infected.
    How they are told is `designation_notice`
    (narrator/roles/designation.py shows it on the chooser's panel); the engine only records it."""

    seats: tuple[int, ...]
    reason: str  # the call that designated them: "pied_piper" (the charm), ...


@dataclass(frozen=True, slots=True)
class PowerIgnored:
    """A powerless role answered its call (docs/rules-spec.md#powers-lost): the answer is
    accepted and does nothing; the night moves past that call (`step`)."""

    call: str
    seat: int
    step: int


@dataclass(frozen=True, slots=True)
class PowersLost:
    """These seats lose their powers for the rest of the game (the Elder's revenge: `cause`
    "elder"). Their calls go on exactly as before; their answers change nothing."""

    seats: tuple[int, ...]
    cause: str


@dataclass(frozen=True, slots=True)
class LifeLost:
    """A devouring that was not saved cost a spare life instead (the Elder): nothing is said."""

    seat: int


@dataclass(frozen=True, slots=True)
class JoinedPack:
    """A player becomes a pack member, secretly (docs/rules-spec.md#terms): `reason` is
    `infected`, `wild_child` (his model died) or `wolf_hound` (he chose the wolves)."""

    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class WindowOpened:
    """Day step 5: before the designated player's card is shown, a card may be taken.

    At dawn (`servant_scope=any_death`) one window opens for each night death in turn, before
    the chain reactions: `queue` is the dawn's deaths to resolve once the last window closes
    (empty for the day vote's window)."""

    seat: int
    queue: tuple[tuple[int, Cause], ...] = ()


@dataclass(frozen=True, slots=True)
class WindowClosed:
    """A dawn window closed: the dead player's card is shown now, unless it was taken."""

    seat: int


@dataclass(frozen=True, slots=True)
class TieVictim:
    """An elimination vote ended in a tie among `tied`: a card settles it by eliminating `seat`
    instead (the Scapegoat, docs/rules-spec.md#day step 4)."""

    seat: int
    tied: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class VotersCalled:
    """The dead Scapegoat must name who may vote the next day before the chain (`queue`) goes on."""

    seat: int
    queue: tuple[tuple[int, Cause], ...]


@dataclass(frozen=True, slots=True)
class VotersDesignated:
    """Who may vote in the elimination votes of day `day`; None: no restriction (no answer)."""

    seat: int
    voters: tuple[int, ...] | None
    day: int


@dataclass(frozen=True, slots=True)
class CardTaken:
    """The Devoted Servant takes the eliminated player's card, unrevealed, and plays it to the end."""

    servant: int
    seat: int
    role: Role


Event = Union[
    GameStarted,
    NightBegan,
    ThiefChose,
    LoversChosen,
    SeerSaw,
    WolvesChose,
    WitchActed,
    DawnBroke,
    PlayerDied,
    HunterCalled,
    SuccessorCalled,
    HunterShot,
    VoteOpened,
    VotesCast,
    TieToBreak,
    CaptainElected,
    CaptainSucceeded,
    PlayerEliminated,
    NobodyEliminated,
    DayBegan,
    DuskFell,
    GameEnded,
    PowerUsed,
    PlayerSpared,
    Notified,
    PowerLost,
    Marked,
    SecondVoteAsked,
    SecondVoteDue,
    PowerIgnored,
    PowersLost,
    LifeLost,
    TieVictim,
    VotersCalled,
    VotersDesignated,
    JoinedPack,
    WindowOpened,
    CardTaken,
    WindowClosed,
]
