"""The game itself: actions are validated, become events, and events are folded into the state.

A `Game` owns one mutable `State`, changed only by `_apply`. Every public action first checks
everything it needs (raising a `RulesError` that quotes the input, with the state untouched),
then emits events. `Game.replay(events)` folds the same events into an equal state.
No I/O, no clock, no global random: a draw takes a `random.Random` from the caller.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Any, Callable, Final, Iterable, Mapping, Sequence, TypeVar

from narrator.rules.composition import Deal, check_players, deck_of, validate
from narrator.rules.errors import (
    CompositionError,
    IllegalActionError,
    InvalidTargetError,
    RulesError,
    WrongPhaseError,
)
from narrator.rules.events import (
    Ballot,
    CaptainElected,
    CaptainSucceeded,
    CardTaken,
    DEVOURING,
    Cause,
    DawnBroke,
    DayBegan,
    DuskFell,
    Event,
    GameEnded,
    GameStarted,
    HunterCalled,
    HunterShot,
    JoinedPack,
    LifeLost,
    LoversChosen,
    Marked,
    NightBegan,
    NobodyEliminated,
    Notified,
    PlayerDied,
    PlayerEliminated,
    PlayerSpared,
    PowerLost,
    PowerIgnored,
    PowersLost,
    PowerUsed,
    SecondVoteAsked,
    SecondVoteDue,
    SeerSaw,
    SuccessorCalled,
    ThiefChose,
    TieToBreak,
    TieVictim,
    VoteOpened,
    VotersCalled,
    VotersDesignated,
    VotesCast,
    WindowClosed,
    WindowOpened,
    WitchActed,
    WolvesChose,
)
from narrator.rules import hooks
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
    The values are ten times the rows of the merged night order (RULES-EXTENSIONS.md); a power
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


# The enum members the hot paths read, as module constants (issue 13): on Python 3.11 reading
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
    healed: bool = False
    saved: int | None = None  # the seat the Witch healed tonight
    poisoned: int | None = None
    voted_day: int = -1  # the last day with an elimination vote (-1: none yet; Day 0 may have one)
    awaiting: Awaiting = Awaiting.NOTHING
    awaiting_seat: int | None = None
    queue: tuple[tuple[int, Cause], ...] = ()
    ballot: Ballot | None = None
    candidates: tuple[int, ...] = ()
    voters: tuple[int, ...] = ()
    resolving_day: bool = False
    outcome: Outcome | None = None
    events: int = 0
    # The catalogue's powers (narrator/roles): call -> seats chosen tonight, and last night.
    # Replaced, never changed in place, so a copy may share them.
    used: Mapping[str, tuple[int, ...]] = dataclasses.field(default_factory=dict)
    spared: tuple[int, ...] = ()  # players spared by their card: alive, they vote no more
    previous: Mapping[str, tuple[int, ...]] = dataclasses.field(default_factory=dict)
    # Lasting marks a power put on players (Marked): mark -> seats, replaced, never changed in place.
    marks: Mapping[str, tuple[int, ...]] = dataclasses.field(default_factory=dict)
    night_dead: tuple[tuple[int, Cause], ...] = ()  # who died during this night (at dusk), said at dawn
    second_vote_asked: int | None = None  # the seat that asked for a second vote today
    second_vote_day: int = -1  # the day whose second vote was opened (-1: none yet; Day 0 has a first vote too)
    # A lasting power's choices over the whole game (the Piper's charm, the Wild Child's model):
    # call -> seats, in order (`Power.lasting`).
    lasting: Mapping[str, tuple[int, ...]] = dataclasses.field(default_factory=dict)
    # Players who joined the pack after the deal, with why (RULES-EXTENSIONS.md "Pack"); replaced.
    joined: Mapping[int, str] = dataclasses.field(default_factory=dict)
    taken: tuple[int, ...] = ()  # eliminated players whose card the Devoted Servant took
    took_day: int = 0  # the day of the last takeover (its reset call is the next night)
    resigned: bool = False  # the Captain gave up the office (a Servant's takeover): a successor is due
    # Seats whose power is lost for the rest of the game (RULES-EXTENSIONS.md "Powers lost").
    powerless: frozenset[int] = frozenset()
    lives_lost: Mapping[int, int] = dataclasses.field(default_factory=dict)  # seat -> spare lives lost (Elder)
    tie_victim: int | None = None  # eliminated today instead of the tied (the Scapegoat)
    day_voters: tuple[int, ...] | None = None  # who may vote on day `voters_day` (the Scapegoat's list)
    voters_day: int = 0
    # Every choice each call's power has made this game, in order (the Actor's cards taken).
    spent: Mapping[str, tuple[int, ...]] = dataclasses.field(default_factory=dict)

    def copy(self) -> State:
        other = dataclasses.replace(self)
        other.roles, other.extra, other.alive = list(self.roles), list(self.extra), list(self.alive)
        return other


@dataclass(frozen=True, slots=True)
class WitchView:
    """What the Witch is shown and may do this night."""

    victim: int | None  # None: no victim, or not shown (healing potion spent, option off)
    can_heal: bool
    can_poison: bool
    targets: tuple[int, ...]  # who may be poisoned
    # The devoured players she is shown, in seat order (`witch_sees`: every devouring of the night
    # that can be stopped, or the pack's victim only); empty when not shown. She heals one of them.
    devoured: tuple[int, ...] = ()


class Game:
    """One game of Werewolf, driven by actions, recorded as events."""

    __slots__ = ("state", "events", "wins", "at_once", "hooks")

    def __init__(self, started: GameStarted) -> None:
        self.events: list[Event] = []
        # Its roles' hooks: those of the possible roles only (hooks.of_game, made once per set of roles).
        self.hooks = game_hooks = hooks.of_game(started.possible)
        # The end-check table's rows that can hold in this game (a loner's only if he is possible).
        self.wins = game_hooks.WINS
        # Its rows that stop the game at once (the Angel's), checked after every batch of deaths.
        self.at_once = game_hooks.AT_ONCE
        self.state = State(
            players=started.players,
            roles=list(started.roles),
            extra=list(started.extra),
            possible=started.possible,
            options=started.options,
            laid=started.laid,
            alive=[True] * started.players,
            living=tuple(range(1, started.players + 1)),
        )
        self._record(started)

    # ---- construction -------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        deal: Deal,
        options: Options | None = None,
        possible: Iterable[Role] | None = None,
    ) -> Game:
        """A game on this deal. Possible roles: those given plus the cards in play (Thief's extras too)."""
        opts = options or Options()
        players = len(deal.seats)
        check_players(players)
        validate(players, deck_of(deal.seats, deal.extra if opts.thief_extra_cards == "from_deck" else ()), opts)
        # The announced possible roles always include the cards really in play.
        chosen = frozenset(possible or ()) | frozenset(deal.seats) | frozenset(deal.extra)
        if _ROLE_THIEF in deal.seats and len(deal.extra) != 2:
            raise RulesError(f"a Thief needs two extra cards, got {len(deal.extra)}")
        seated = [r for r in deal.extra if r.seated or r.copies]
        if seated:
            raise CompositionError(
                f"extra cards {_names(deal.extra)}: the {seated[0].value} card is always dealt to a seat, "
                "never left in the centre (RULES-EXTENSIONS.md)"
            )
        if _ROLE_THIEF not in deal.seats and deal.extra:
            raise CompositionError(f"extra cards {_names(deal.extra)} are dealt only with a Thief at the table")
        if opts.thief_extra_cards == "villagers" and any(r is not _ROLE_VILLAGER for r in deal.extra):
            raise CompositionError(
                f"extra cards {_names(deal.extra)}: with thief_extra_cards=villagers the Thief's two extra "
                "cards are Villagers (use thief_extra_cards=from_deck for any two cards)"
            )
        chosen_hooks = hooks.of_game(chosen)  # the setup hooks of the possible roles only
        for check in chosen_hooks.SETUP_CHECKS:
            problem = check(players, chosen, opts)
            if problem is not None:
                raise CompositionError(problem)
        laid = tuple(card for lay in chosen_hooks.LAID for card in lay(chosen, opts)) if chosen_hooks.LAID else ()
        return cls(GameStarted(players, tuple(deal.seats), tuple(deal.extra), chosen | frozenset(laid) if laid else chosen,
                               opts, laid))

    @classmethod
    def replay(cls, events: Sequence[Event]) -> Game:
        """Rebuild a game by folding its events (no validation: they were validated once)."""
        if not events or not isinstance(events[0], GameStarted):
            raise RulesError("a game's events must begin with GameStarted")
        game = cls(events[0])
        for event in events[1:]:
            game._record(event)
        return game

    # ---- queries ------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.state.players

    @property
    def options(self) -> Options:
        return self.state.options

    @property
    def outcome(self) -> Outcome | None:
        return self.state.outcome

    def role(self, seat: int) -> Role:
        self._check_seat(seat)
        return self.state.roles[seat - 1]

    def is_alive(self, seat: int) -> bool:
        self._check_seat(seat)
        return self.state.alive[seat - 1]

    def living(self) -> tuple[int, ...]:
        return self.state.living

    def holders(self, role: Role) -> tuple[int, ...]:
        """Seats that hold `role` now (alive or dead)."""
        return tuple(i + 1 for i, r in enumerate(self.state.roles) if r is role)

    def living_holder(self, role: Role) -> int | None:
        roles = self.state.roles
        if role not in roles:
            return self._acting(role) if self.hooks.ACTING else None
        alive = self.state.alive
        i = roles.index(role)
        if alive[i]:
            return i + 1
        for j in range(i + 1, len(roles)):  # a role held more than once (Werewolves, Villagers)
            if roles[j] is role and alive[j]:
                return j + 1
        return self._acting(role) if self.hooks.ACTING else None

    def _acting(self, role: Role) -> int | None:
        """A living seat acting as `role` now without its card (the Actor holding that card)."""
        for acting in self.hooks.ACTING:
            seat = acting(self, role)
            if seat is not None and self.state.alive[seat - 1]:
                return seat
        return None

    def is_pack(self, seat: int) -> bool:
        """Whether the player wakes with the pack and counts as a Werewolf (RULES-EXTENSIONS.md
        "Pack"): his card is a pack card (Werewolf, White Werewolf...), or he joined the pack since
        (infected, a Wild Child or a Wolf-Hound turned: `JoinedPack`)."""
        s = self.state
        return s.roles[seat - 1] in hooks.PACK or seat in s.joined

    def powered(self, seat: int) -> bool:
        """Whether this seat's power still works (RULES-EXTENSIONS.md "Powers lost"): a powerless
        role keeps its card, team and calls, and its answers change nothing."""
        return seat not in self.state.powerless

    def marked(self, mark: str) -> tuple[int, ...]:
        """The seats that carry a lasting mark (Marked: "diseased" by the Knight's sword)."""
        return self.state.marks.get(mark, ())

    def acts_as(self, seat: int, role: Role) -> bool:
        """Whether `seat` holds `role`'s power now: its card, or a card it acts (the Actor's)."""
        return self.state.roles[seat - 1] is role or any(acting(self, role) == seat for acting in self.hooks.ACTING)

    def team_of(self, seat: int) -> Team:
        """The team `seat` plays for now (the end check uses it): a player who joined the pack
        plays for the wolves; else its card's, unless a role changed it (the Angel after turn 1)."""
        if seat in self.state.joined:
            return Team.WOLVES
        for team in self.hooks.TEAM:
            now = team(self, seat)
            if now is not None:
                return now
        return self.state.roles[seat - 1].team

    def day_zero_due(self) -> bool:
        """Whether the game opens with a Day 0 (RULES-EXTENSIONS.md "Opening"): public facts only."""
        return self.state.phase is _PHASE_SETUP and any(due(self) for due in self.hooks.DAY_ZERO)

    def living_wolves(self) -> tuple[int, ...]:
        """The living pack members (they wake in the Werewolves' call)."""
        s = self.state
        roles, pack, joined = s.roles, hooks.PACK, s.joined
        return tuple([p for p in s.living if roles[p - 1] in pack or p in joined])

    def pack_alive(self) -> bool:
        """Whether a pack member is alive (`living_wolves()` is not empty), stopping at the first."""
        s = self.state
        roles, pack, joined = s.roles, hooks.PACK, s.joined
        for p in s.living:
            if roles[p - 1] in pack or p in joined:
                return True
        return False

    def seer_targets(self) -> tuple[int, ...]:
        seer = self.living_holder(_ROLE_SEER)
        return tuple([p for p in self.state.living if p != seer])

    def wolf_targets(self) -> tuple[int, ...]:
        """Whom the Werewolves may choose tonight (never a pack member; none on a no-kill first night)."""
        s = self.state
        if s.night == 1 and not s.options.first_night_kill:
            return ()
        roles, pack, joined = s.roles, hooks.PACK, s.joined
        return tuple([p for p in s.living if roles[p - 1] not in pack and p not in joined])

    def pack_victim(self) -> int | None:
        """The pack's victim tonight if he is devoured: not when he joined the pack (infected)."""
        s = self.state
        victim = s.victim
        return None if victim is None or s.roles[victim - 1] in hooks.PACK or victim in s.joined else victim

    def witch_view(self) -> WitchView:
        s = self.state
        witch = self.living_holder(_ROLE_WITCH)
        if witch is not None and witch in s.powerless:
            return WitchView(victim=None, can_heal=False, can_poison=False, targets=())
        victim = self.pack_victim()
        healable = self.witch_healable()
        shows = s.heal_left or s.options.witch_sees_victim_after_heal
        return WitchView(
            victim=victim if shows else None,
            can_heal=s.heal_left and bool(healable),
            can_poison=s.poison_left,
            targets=self.living() if s.poison_left else (),
            devoured=healable if shows else (),
        )

    def witch_healable(self) -> tuple[int, ...]:
        """The devoured players the Witch's healing potion may save tonight, in seat order
        (RULES-EXTENSIONS.md "Base roles: what changes", `witch_sees`)."""
        s = self.state
        if s.options.witch_sees == "pack_victim_only" or not (s.used and self.hooks.DEVOURINGS):
            # Only the pack's victim can be devoured (`devoured()` without the roles' devourings).
            victim = self.pack_victim()
            return () if victim is None else (victim,)
        return tuple(sorted({seat for seat, _cause, stoppable in self.devoured() if stoppable}))

    def seen(self, target: int) -> Role | Team:
        """What the Seer is shown of `target` under the `seer_sees` option."""
        role = self.role(target)
        if self.state.options.seer_sees != "team":
            return role
        return _TEAM_WOLVES if self.is_pack(target) else role.team

    def captain_election_due(self) -> bool:
        s = self.state
        if s.options.captain_election == "never" or s.captain is not None or s.awaiting is not _AWAITING_NOTHING:
            return False
        if s.phase is _PHASE_NIGHT:
            return s.options.captain_election == "night1_end" and s.night == 1 and s.step < _STEP_ELECTION
        if s.phase is _PHASE_DAY and s.voted_day < s.day:
            return (s.options.captain_election == "day1" and s.elections == 0) or s.captain_vacant
        return False

    def vote_due(self) -> bool:
        s = self.state
        if s.phase is not _PHASE_DAY or s.awaiting is not _AWAITING_NOTHING:
            return False
        return s.voted_day < s.day or self.second_vote_due()

    def second_vote_due(self) -> bool:
        """Today's first vote is over and a second one was asked for (RULES-EXTENSIONS.md "Day")."""
        s = self.state
        return s.voted_day == s.day and s.second_vote_day < s.day and s.second_vote_asked is not None

    def first_vote_open(self) -> bool:
        """Whether a round of the day's first elimination vote is being voted now."""
        s = self.state
        return (s.awaiting is _AWAITING_VOTE and s.phase is _PHASE_DAY and s.voted_day == s.day
                and s.second_vote_day < s.day and s.ballot not in (_BALLOT_CAPTAIN, _BALLOT_CAPTAIN_REVOTE))

    def roll_call(self) -> tuple[int, ...]:
        """The order of a roll-call vote today: the voters of the open round (or the living),
        clockwise on the game's first day (Day 0 when the game opens with one, else Day 1), then
        counter-clockwise and clockwise by turns, day by day, so the same seats are not always
        last to speak (docs/rules.md `vote_procedure`)."""
        s = self.state
        seats = s.voters if s.awaiting is Awaiting.VOTE else self.living()
        first = 0 if any(due(self) for due in self.hooks.DAY_ZERO) else 1  # public facts only
        return tuple(sorted(seats, reverse=(s.day - first) % 2 == 1))

    def lovers_team(self) -> tuple[int, int] | None:
        """The Lovers when they form a team of their own: mixed (one pack member and one not, or
        a village player and the Pied Piper, RULES-EXTENSIONS.md), or both wolves with the option."""
        lovers = self.state.lovers
        if lovers is None:
            return None
        wolves = self.is_pack(lovers[0]) + self.is_pack(lovers[1])
        if wolves == 1 or (wolves == 2 and self.state.options.lovers_team_if_both_wolves):
            return lovers
        if wolves == 0:
            teams = {self.state.roles[lovers[0] - 1].team, self.state.roles[lovers[1] - 1].team}
            if teams == {_TEAM_VILLAGE, _TEAM_PIED_PIPER}:
                return lovers
        return None

    def check_outcome(self) -> Outcome | None:
        """The end check (RULES-EXTENSIONS.md "End of the game"): the first row of the table
        `hooks.WINS` that holds, among the rows of this game's possible roles."""
        for win in self.wins:
            winners = win.check(self)
            if winners is not None:
                return Outcome(win.side, winners)
        return None

    def lovers_alive(self) -> tuple[int, int] | None:
        """The Lovers' team when both are alive."""
        team = self.lovers_team() if self.state.lovers is not None else None
        if team is None or not (self.state.alive[team[0] - 1] and self.state.alive[team[1] - 1]):
            return None
        return team

    def _side_seats(self, team: Team, excluded: set[int] | tuple[int, ...]) -> tuple[int, ...]:
        if self.hooks.TEAM or self.state.joined:
            seats = range(1, self.state.players + 1)
            return tuple(p for p in seats if self.team_of(p) is team and p not in excluded)
        return tuple(
            i + 1 for i, r in enumerate(self.state.roles) if r.team is team and (i + 1) not in excluded
        )

    # ---- the night ----------------------------------------------------------------------

    def begin_night(self) -> None:
        s = self.state
        if s.phase is _PHASE_SETUP:
            if self.day_zero_due():
                raise WrongPhaseError("the game opens with a Day 0 before the first night (the Angel is possible)")
            self._emit(NightBegan(1))
            return
        self._require_phase(_PHASE_DUSK, "night falls only after the day's vote")
        self._emit(NightBegan(s.night + 1))
        for dusk in self.hooks.DUSK_DEATHS:  # the Knight's diseased wolf: dead before anyone wakes
            for seat in dusk(self):
                if s.alive[seat - 1]:
                    self._emit(PlayerDied(seat, _CAUSE_DISEASE, s.roles[seat - 1]))

    def open_day_zero(self) -> None:
        """The game opens with a day (the Angel is possible): Captain election, debate, vote."""
        if not self.day_zero_due():
            raise WrongPhaseError("the game opens with a Day 0 only when a role asks for it (the Angel)")
        self._emit(DayBegan(0))

    def thief_choose(self, card: int) -> None:
        """The Thief keeps his card (0) or takes extra card 1 or 2; two Werewolves force a take."""
        s = self.state
        said = f"Thief card {card!r}"
        self._night_step(_STEP_THIEF, "the Thief", said, first_night_only=True)
        seat = self._living_actor(_ROLE_THIEF, "the Thief", said)
        if card not in (0, 1, 2):
            raise InvalidTargetError(f"card {card!r}: the Thief chooses 1 or 2, or 0 to keep his card")
        if card == 0 and all(r in hooks.PACK for r in s.extra):
            raise IllegalActionError("card 0: both extra cards are Werewolves, so the Thief must take one (1 or 2)")
        self._emit(ThiefChose(seat, card, s.extra[card - 1] if card else None))

    def cupid_choose(self, first: int, second: int) -> None:
        said = f"Lovers {first!r} and {second!r}"
        self._night_step(_STEP_CUPID, "Cupid", said, first_night_only=True)
        cupid = self._living_actor(_ROLE_CUPID, "Cupid", said)
        for seat in (first, second):
            self._check_target(seat, "Cupid")
        if first == second:
            raise InvalidTargetError(f"Cupid named seat {first} twice; the Lovers are two different players")
        self._emit(LoversChosen(cupid, first, second))

    def seer_inspect(self, target: int) -> Role | Team | None:
        """What the Seer is shown of `target`; None when her power is lost (she sees nothing)."""
        said = f"the Seer on seat {target!r}"
        self._night_step(_STEP_SEER, "the Seer", said)
        seer = self._living_actor(_ROLE_SEER, "the Seer", said)
        self._check_target(target, "the Seer")
        if target == seer:
            raise InvalidTargetError(f"seat {target} is the Seer herself; she looks at another player's card")
        if seer in self.state.powerless:
            self._emit(PowerIgnored("seer", seer, _STEP_SEER))
            return None
        self._emit(SeerSaw(seer, target, self.state.roles[target - 1]))
        return self.seen(target)

    def wolves_choose(self, target: int | None) -> None:
        """The Werewolves' victim by consensus; None means no consensus (no victim)."""
        s = self.state
        said = f"the Werewolves on seat {target!r}" if target is not None else "the Werewolves without a victim"
        self._night_step(_STEP_WOLVES, "the Werewolves", said)
        if not self.pack_alive():
            raise IllegalActionError(f"{said}: no Werewolf is alive to choose a victim")
        if target is not None:
            if s.night == 1 and not s.options.first_night_kill:
                raise IllegalActionError(
                    f"seat {target}: on the first night the Werewolves only recognise each other (first_night_kill=false)"
                )
            self._check_target(target, "the Werewolves")
            if self.is_pack(target):
                raise InvalidTargetError(f"seat {target} is a Werewolf; the Werewolves cannot choose one of their own")
        self._emit(WolvesChose(target))

    def witch_act(self, heal: bool, poison: int | None, saved: int | None = None) -> None:
        """`saved`: whom she heals among the devoured (`witch_healable`); without it, the pack's
        victim if he can be healed, else the first of them in seat order."""
        s = self.state
        said = f"the Witch (heal={heal!r}, poison={poison!r})"
        self._night_step(_STEP_WITCH, "the Witch", said)
        witch = self._living_actor(_ROLE_WITCH, "the Witch", said)
        if heal:
            if not s.heal_left:
                raise IllegalActionError("heal: the Witch has already used her healing potion")
            healable = self.witch_healable()
            if not healable:
                raise IllegalActionError("heal: there is no victim tonight, so the healing potion cannot be used")
            if saved is None:
                victim = self.pack_victim()
                saved = victim if victim in healable else healable[0]
            elif saved not in healable:
                raise InvalidTargetError(f"heal seat {saved!r}: not devoured tonight (devoured: "
                                         f"{' '.join(map(str, healable))}); she heals one of them")
        else:
            saved = None
        if poison is not None:
            if not s.poison_left:
                raise IllegalActionError(f"poison seat {poison}: the Witch has already used her poison")
            self._check_target(poison, "the Witch")
        if witch in s.powerless:
            self._emit(PowerIgnored("witch", witch, _STEP_WITCH))
            return
        # `saved` is written only when it is not the pack's victim (journals stay as they were).
        self._emit(WitchActed(witch, heal, poison, None if saved == s.victim else saved))

    def use_power(self, call: str, targets: Sequence[int], reset: bool = False) -> None:
        """A catalogue role's night call answered (narrator/roles/<role>.py): its choice of seats.

        `reset`: answered in the `devoted_servant_reset` call, the night after a takeover, by the
        Devoted Servant for the first-night power of the card she took (RULES-EXTENSIONS.md)."""
        power = hooks.POWERS.get(call)
        if power is None:
            raise RulesError(f"unknown night call {call!r}")
        chosen = tuple(targets)
        who = f"the {power.role.value.replace('_', ' ')}"
        said = f"{who} on {' '.join(map(str, chosen)) or 'nobody'}"
        if reset:
            s = self.state
            self._night_step(step_of(RESET_ORDER), who, said)
            if s.took_day == 0 or s.night != s.took_day + 1:
                raise WrongPhaseError(f"{said}: a taken card is reset only the night after the takeover")
            seat = self._living_actor(power.role, who, said)
            if not power.first_night_only or seat != self.taker():
                raise IllegalActionError(f"{said}: only the Devoted Servant's new card's first-night power is reset")
        else:
            self._night_step(step_of(power.order), who, said, first_night_only=power.first_night_only)
            if not power.called(self.state.options, self.state.night):
                raise WrongPhaseError(f"{said}: {who} is not called on night {self.state.night}")
            seat = self._living_actor(power.role, who, said)
        if power.seats:
            for target in chosen:
                self._check_target(target, who)
        elif not all(isinstance(t, int) and not isinstance(t, bool) for t in chosen):
            raise InvalidTargetError(f"{said}: give whole numbers")
        problem = power.check(self, seat, chosen)
        if problem is not None:
            raise IllegalActionError(f"{said}: {problem}")
        if seat in self.state.powerless:
            self._emit(PowerIgnored(call, seat, step_of(RESET_ORDER if reset else power.order)))
            return
        self._emit(PowerUsed(call, seat, chosen, reset))
        if power.notifies and chosen:
            self._emit(Notified(chosen, call))
        if power.effect is not None:
            for event in power.effect(self, seat, chosen):
                self._emit(event)

    def taker(self) -> int | None:
        """The seat that took a card at the last takeover (the Devoted Servant)."""
        for event in reversed(self.events):
            if isinstance(event, CardTaken):
                return event.servant
        return None

    def dawn(self) -> None:
        """End the night (RULES-EXTENSIONS.md "Dawn"): 1. the devoured (the pack's victim, and the
        roles' devourings `hooks.DEVOURINGS`); 2. each saved by the Witch's potion or a role's
        protection (`hooks.SAVES`) if the devouring can be stopped, else absorbed by a spare life
        (`hooks.ABSORBS`: the Elder), else dead; 3. the poisoned; then the deaths in seat order,
        then their chain reactions."""
        s = self.state
        self._require_phase(_PHASE_NIGHT, "dawn comes only at the end of a night")
        dead: dict[int, Cause] = {}
        for seat, cause, stoppable in self.devoured():
            if seat in dead:
                continue
            if stoppable and (
                (s.healed and seat == s.saved) or (s.used and any(save(self, seat, cause) for save in self.hooks.SAVES))
            ):
                continue
            if self.hooks.ABSORBS and any(absorbs(self, seat, cause) for absorbs in self.hooks.ABSORBS):
                self._emit(LifeLost(seat))
                continue
            dead[seat] = cause
        if s.poisoned is not None:
            dead.setdefault(s.poisoned, _CAUSE_POISON)
        for dies in self.hooks.DAWN_DEATHS:  # step 4: the disease (knight_disease_timing=next_dawn)
            for seat in dies(self):
                if s.alive[seat - 1]:
                    dead.setdefault(seat, _CAUSE_DISEASE)
        # Those who died at dusk (the disease) are announced now with the others.
        earlier = dict(s.night_dead)
        order = tuple(sorted({*dead, *earlier}))
        self._emit(DawnBroke(s.night, order))
        queue: list[tuple[int, Cause]] = []
        for seat in order:
            if seat in dead:
                self._emit(PlayerDied(seat, dead[seat], s.roles[seat - 1]))
            queue.append((seat, dead.get(seat) or earlier[seat]))
        if self.hooks.WINDOW and self._dawn_window(queue, 0):
            return  # a card may be taken before the chain reactions (`take_card` resumes them)
        self._resolve(queue)

    def window_at_dawn(self, seat: int) -> bool:
        """Whether a window opens at dawn for this night death before his card is shown (public
        facts only: the Devoted Servant possible, `servant_scope=any_death`)."""
        return any(w.at_dawn is not None and w.at_dawn(self, seat) for w in self.hooks.WINDOW)

    def _dawn_window(self, queue: list[tuple[int, Cause]], after: int) -> bool:
        """Open the window of the first night death after seat `after` that has one, if any."""
        for seat, _cause in queue:
            if seat > after and self.window_at_dawn(seat):
                self._emit(WindowOpened(seat, tuple(queue)))
                return True
        return False

    def devoured(self) -> list[tuple[int, Cause, bool]]:
        """Dawn step 1: the night's devourings (seat, cause, stoppable): the pack's victim (unless
        he joined the pack tonight: infected), then the roles' (`hooks.DEVOURINGS`: the Big Bad
        Wolf's victim)."""
        s = self.state
        out: list[tuple[int, Cause, bool]] = []
        victim = self.pack_victim()
        if victim is not None:
            out.append((victim, _CAUSE_WOLVES, True))
        if s.used and self.hooks.DEVOURINGS:
            for devours in self.hooks.DEVOURINGS:
                out.extend(devours(self))
        return out

    # ---- chain reactions ----------------------------------------------------------------

    def hunter_targets(self) -> tuple[int, ...]:
        return self.living()

    def hunter_shoot(self, target: int | None) -> None:
        """The dead Hunter's last shot; None when he let it pass (no answer in time)."""
        s = self.state
        self._require_awaiting(_AWAITING_HUNTER, f"the Hunter's shot at seat {target!r}")
        hunter = s.awaiting_seat
        assert hunter is not None
        if target is not None:
            self._check_target(target, "the Hunter")
        queue = list(s.queue)
        self._emit(HunterShot(hunter, target))
        if target is not None:
            self._emit(PlayerDied(target, _CAUSE_HUNTER, s.roles[target - 1]))
            queue.append((target, _CAUSE_HUNTER))
        self._resolve(queue)

    def name_successor(self, successor: int | None) -> None:
        """The dead Captain names a living successor; None leaves the office vacant."""
        s = self.state
        self._require_awaiting(_AWAITING_SUCCESSOR, f"the Captain's successor seat {successor!r}")
        previous = s.awaiting_seat
        assert previous is not None
        if successor is not None:
            self._check_target(successor, "the Captain")
        self._emit(CaptainSucceeded(previous, successor))
        self._finish_resolution()

    def _resolve(self, queue: list[tuple[int, Cause]]) -> None:
        """Process deaths in order (RULES-EXTENSIONS.md "Dawn" step 6): grief; the roles' chain
        reactions (`hooks.REACTIONS`: the Elder's revenge, the Idiot dying with him); the Hunter's
        shot; the Scapegoat's list; then the Captain; then the end. (The roles' reactions come
        before the Hunter's shot of the same death: no card has both, so the order is the rules'.)"""
        s = self.state
        while queue:
            seat, cause = queue.pop(0)
            if s.lovers and seat in s.lovers:
                other = s.lovers[1] if s.lovers[0] == seat else s.lovers[0]
                if s.alive[other - 1]:
                    self._emit(PlayerDied(other, _CAUSE_GRIEF, s.roles[other - 1]))
                    queue.append((other, _CAUSE_GRIEF))
            if self.hooks.CHAIN:
                for reaction in self.hooks.CHAIN:  # the Wild Child turns...
                    for event in reaction(self, seat, cause):
                        self._emit(event)
            if self.hooks.REACTIONS and seat not in s.taken:
                self._react(seat, cause, queue)
            if seat in s.taken:
                continue  # his card left with the Devoted Servant: its effects do not apply
            hunter = s.roles[seat - 1] is _ROLE_HUNTER or (bool(self.hooks.ACTING) and self.acts_as(seat, _ROLE_HUNTER))
            if hunter and seat not in s.powerless and self._hunter_fires(cause) and self.living():
                self._emit(HunterCalled(seat, tuple(queue)))
                return
            if self.hooks.DESIGNATES_VOTERS and any(d(self, seat, cause) for d in self.hooks.DESIGNATES_VOTERS):
                self._emit(VotersCalled(seat, tuple(queue)))
                return
        self._finish_resolution()

    def _react(self, seat: int, cause: Cause, queue: list[tuple[int, Cause]]) -> None:
        s = self.state
        for react in self.hooks.REACTIONS:
            reaction = react(self, seat, cause)
            if reaction is None:
                continue
            for event in reaction.events:
                self._emit(event)
            for dead, why in reaction.deaths:
                if s.alive[dead - 1]:
                    self._emit(PlayerDied(dead, why, s.roles[dead - 1]))
                    queue.append((dead, why))

    def designate_voters(self, seats: Sequence[int] | None) -> None:
        """The dead Scapegoat names who may vote the next day (any living players, none, all);
        None (no answer in time) sets no restriction."""
        s = self.state
        said = "nobody" if seats is not None and not seats else " ".join(map(repr, seats or ())) or "no answer"
        self._require_awaiting(Awaiting.VOTERS, f"the Scapegoat's voters ({said})")
        seat = s.awaiting_seat
        assert seat is not None
        chosen: tuple[int, ...] | None = None
        if seats is not None:
            for voter in seats:
                self._check_target(voter, "the Scapegoat")
            chosen = tuple(sorted(set(seats)))
        queue = list(s.queue)
        self._emit(VotersDesignated(seat, chosen, s.day + 1))
        self._resolve(queue)

    def _hunter_fires(self, cause: Cause) -> bool:
        return self.state.options.hunter_shoots_on == "any_death" or cause in DEVOURING or cause is _CAUSE_VOTE

    def _finish_resolution(self) -> None:
        s = self.state
        if not s.resolving_day and self.hooks.DAWN_SETTLED:
            # Dawn step 7 (the Knight's diseased wolf). Reached again after a successor is named:
            # each hook emits only what it has not emitted this dawn.
            for event in [e for settle in self.hooks.DAWN_SETTLED for e in settle(self)]:
                self._emit(event)
        if self.at_once and any(w.check(self) is not None for w in self.at_once):
            outcome = self.check_outcome()  # the game stops at once (the Angel): no successor
            if outcome is not None:
                self._emit(GameEnded(outcome.winner, outcome.winners))
                return
        if s.captain is not None and (not s.alive[s.captain - 1] or s.resigned) and self.living():
            self._emit(SuccessorCalled(s.captain))
            return
        outcome = self.check_outcome()
        if outcome is not None:
            self._emit(GameEnded(outcome.winner, outcome.winners))
        elif s.resolving_day:
            self._end_vote()
        else:
            self._emit(DayBegan(s.night))

    def _end_vote(self) -> None:
        """After a vote's batch, if the game goes on: the second vote, if asked, else dusk."""
        s = self.state
        asked = s.second_vote_asked
        if asked is not None and all(stands(self, asked) for stands in self.hooks.SECOND_VOTE_STANDS):
            self._emit(SecondVoteDue(s.day))
        else:
            self._emit(DuskFell(s.day))

    # ---- the day ------------------------------------------------------------------------

    def open_captain_election(self) -> None:
        if not self.captain_election_due():
            raise WrongPhaseError("no Captain election is due now")
        living = self.living()
        self._emit(VoteOpened(_BALLOT_CAPTAIN, living, living))

    def open_vote(self) -> None:
        if not self.vote_due():
            raise WrongPhaseError("no vote is due now (one vote a day, after the morning)")
        s = self.state
        first = s.voted_day < s.day
        living = self.living()
        ballot = _BALLOT_ACCUSATION if s.options.vote_procedure == "accusation" else _BALLOT_VOTE
        voters = self._voters()
        if not voters:  # nobody may vote today (the Scapegoat's list): no elimination
            self._no_elimination("no_voters")
            return
        self._emit(VoteOpened(ballot, living, voters))
        if first and s.second_vote_asked is None:
            for armed in self.hooks.ARMED:  # a second vote armed last night (judge_signal=night_arm)
                seat = armed(self)
                if seat is not None:
                    self._emit(SecondVoteAsked(seat))
                    break

    def sign_taken(self) -> bool:
        """Whether voters may give a secret sign now: a round of the day's first vote, and a role
        that signs this way is possible (`hooks.SIGN_OPEN`; public facts only)."""
        return self.first_vote_open() and any(open_(self) for open_ in self.hooks.SIGN_OPEN)

    def signal_second_vote(self, voter: int) -> None:
        """A voter's secret sign during the day's first vote (the keypad key of the Stuttering
        Judge): it asks for a second vote if his card lets him (`hooks.SIGNALS`), and does nothing
        for anyone else; either way nothing is said."""
        s = self.state
        if not self.sign_taken():
            raise WrongPhaseError(f"seat {voter!r}'s sign: a sign is taken only during the day's first vote")
        if voter not in s.voters:
            raise IllegalActionError(f"seat {voter!r} does not vote in this round, so gives no sign")
        if s.second_vote_asked is None and any(signal(self, voter) for signal in self.hooks.SIGNALS):
            self._emit(SecondVoteAsked(voter))

    def _voters(self) -> tuple[int, ...]:
        """Who votes for an elimination: the living, minus the players spared by their card,
        and only those the Scapegoat named for today (RULES-EXTENSIONS.md "Day" step 1)."""
        s = self.state
        voters = s.living
        if s.spared:
            voters = tuple([p for p in voters if p not in s.spared])
        if s.day_voters is not None and s.voters_day == s.day:
            allowed = s.day_voters
            voters = tuple([p for p in voters if p in allowed])
        return voters

    def cast_votes(self, votes: Mapping[int, int | None], rng: random.Random | None = None) -> None:
        """One round of votes: voter → target (None abstains; a voter left out abstains).

        `rng` is needed only for the draw that ends a Captain election still tied after a revote.
        """
        s = self.state
        # Checked before building the message: a dict's repr on every round would slow the simulator.
        if s.awaiting is not _AWAITING_VOTE or s.phase is _PHASE_OVER:
            self._require_awaiting(_AWAITING_VOTE, f"votes {dict(votes)!r}")
        ballot = s.ballot
        assert ballot is not None
        candidates = s.candidates
        # Counting checks the targets: a seat that is not a candidate has no count (KeyError).
        counts = dict.fromkeys(candidates, 0)
        try:
            for target in votes.values():
                if target is not None:
                    counts[target] += 1
            valid = set(s.voters).issuperset(votes)
        except (KeyError, TypeError):  # not a candidate, or an unhashable seat: refused below with its own message
            valid = False
        if not valid:
            self._refuse_votes(votes)
        if s.used and self.hooks.VOTE_BONUS and ballot in (_BALLOT_VOTE, _BALLOT_ACCUSATION) and s.second_vote_day < s.day:
            for bonus in self.hooks.VOTE_BONUS:  # the first count of the day (the Raven's mark)
                for seat, extra in bonus(self).items():
                    if seat in counts:
                        counts[seat] += extra
        captain = s.captain
        if captain is not None:
            captain_target = votes.get(captain)
            if (captain_target is not None and ballot is not _BALLOT_CAPTAIN and ballot is not _BALLOT_CAPTAIN_REVOTE
                    and s.options.captain_double_vote):
                counts[captain_target] += 1  # his vote counts twice (`captain_powers`)
        top = max(counts.values(), default=0)
        leaders = tuple([c for c, n in counts.items() if n == top]) if top > 0 else ()  # counts: in candidates' order
        if ballot is _BALLOT_CAPTAIN_REVOTE and len(leaders) != 1 and rng is None:
            raise RulesError("a Captain election still tied after the revote needs a random draw (rng)")
        self._emit(VotesCast(ballot, tuple(sorted(votes.items())), tuple(counts.items())))
        self._after_votes(ballot, votes, counts, leaders, rng)

    def _refuse_votes(self, votes: Mapping[int, int | None]) -> None:
        s = self.state
        ballot = s.ballot
        assert ballot is not None
        for voter, target in votes.items():
            if voter not in s.voters:
                if not (isinstance(voter, int) and 1 <= voter <= s.players):
                    raise InvalidTargetError(f"voter {voter!r} is not a seat; seats are 1 to {s.players}")
                if not s.alive[voter - 1]:
                    raise IllegalActionError(f"seat {voter} is dead; the dead do not vote")
                raise IllegalActionError(f"seat {voter} does not vote in this round ({ballot.value})")
            if target is not None and target not in s.candidates:
                self._check_target(target, f"seat {voter}'s vote")
                allowed = ", ".join(map(str, s.candidates))
                raise InvalidTargetError(f"seat {voter} voted for seat {target}, who is not a candidate ({allowed})")
        raise AssertionError("votes refused without a reason")  # pragma: no cover

    def _after_votes(
        self,
        ballot: Ballot,
        votes: Mapping[int, int | None],
        counts: Mapping[int, int],
        leaders: tuple[int, ...],
        rng: random.Random | None,
    ) -> None:
        s = self.state
        top = counts[leaders[0]] if leaders else 0  # the leaders have the most votes (none: nobody got one)
        tied = leaders or s.candidates
        if ballot is _BALLOT_CAPTAIN:
            if len(leaders) == 1:
                self._emit(CaptainElected(leaders[0], False))
            else:
                self._emit(VoteOpened(_BALLOT_CAPTAIN_REVOTE, tied, self.living()))
        elif ballot is _BALLOT_CAPTAIN_REVOTE:
            if len(leaders) == 1:
                self._emit(CaptainElected(leaders[0], False))
            else:
                assert rng is not None
                self._emit(CaptainElected(rng.choice(tied), True))
        elif top == 0:
            self._no_elimination("no_votes")
        elif ballot is _BALLOT_VOTE and s.options.vote_procedure == "runoff":
            # Round one never ends in a tie-break: the tied leaders (or the leader and everyone
            # tied second) go to round two; ties are settled there, as in plurality.
            runners = leaders if len(leaders) > 1 else _top_two(counts, s.candidates)
            if len(runners) == 1:
                self._eliminate(runners[0], by_captain=False)
            else:
                self._emit(VoteOpened(_BALLOT_RUNOFF, runners, self._voters()))
        elif ballot is _BALLOT_ACCUSATION:
            voted = {t for t in votes.values() if t is not None}
            if len(voted) == 1:
                self._eliminate(leaders[0], by_captain=False)
            else:
                accused = leaders if len(leaders) > 1 else _top_two(counts, s.candidates)
                voters = tuple(p for p in self._voters() if p not in accused)
                if voters:
                    self._emit(VoteOpened(_BALLOT_BALLOT, accused, voters))
                elif not self._tie_settled(accused, captain_can_break=False):
                    self._no_elimination("tie")
        elif len(leaders) == 1:
            self._eliminate(leaders[0], by_captain=False)
        elif self._tie_settled(leaders, ballot not in (_BALLOT_REVOTE, _BALLOT_BALLOT) and self._captain_breaks_tie()):
            pass
        elif self.hooks.TIE and (settled := self._settle_tie(leaders, rng)) is not None:
            self._eliminate(settled, by_captain=False)
        elif ballot in (_BALLOT_REVOTE, _BALLOT_BALLOT):
            self._no_elimination("tie")
        elif self._captain_breaks_tie():
            self._emit(TieToBreak(leaders))
        else:
            self._emit(VoteOpened(_BALLOT_REVOTE, leaders, self._voters()))

    def _tie_settled(self, tied: tuple[int, ...], captain_can_break: bool) -> bool:
        """Day step 4: a card eliminated instead of the tied (the Scapegoat, `hooks.TIE_VICTIM`)."""
        for victim_of in self.hooks.TIE_VICTIM:
            victim = victim_of(self, captain_can_break)
            if victim is not None:
                self._emit(TieVictim(victim, tied))
                self._eliminate(victim, by_captain=False)
                return True
        return False

    def _settle_tie(self, tied: tuple[int, ...], rng: random.Random | None) -> int | None:
        """Day step 4: a tie a role settles (the Angel's opening vote drawn by lot)."""
        for settle in self.hooks.TIE:
            seat = settle(self, tied, rng)
            if seat is not None:
                return seat
        return None

    def _captain_breaks_tie(self) -> bool:
        s = self.state
        return s.captain is not None and s.alive[s.captain - 1] and s.options.captain_breaks_ties

    def break_tie(self, seat: int | None) -> None:
        """The Captain chooses among the tied; None (no answer) sends the tied to a revote."""
        s = self.state
        self._require_awaiting(_AWAITING_TIEBREAK, f"the Captain's tie-break seat {seat!r}")
        if seat is None:
            if not self._tie_settled(s.candidates, captain_can_break=False):
                self._emit(VoteOpened(_BALLOT_REVOTE, s.candidates, self._voters()))
            return
        if seat not in s.candidates:
            tied = ", ".join(map(str, s.candidates))
            raise InvalidTargetError(f"seat {seat!r} is not among the tied ({tied})")
        self._eliminate(seat, by_captain=True)

    def _no_elimination(self, reason: str) -> None:
        self._emit(NobodyEliminated(reason))
        self._end_vote()

    def _eliminate(self, seat: int, by_captain: bool) -> None:
        s = self.state
        if self.hooks.SPARES and seat not in s.powerless and _any_hook(self.hooks.SPARES, self, seat):
            captain = s.captain == seat
            names = captain and any(keeps(self) for keeps in self.hooks.SPARED_CAPTAIN_NAMES_SUCCESSOR)
            self._emit(PlayerSpared(seat, s.roles[seat - 1], office_lost=captain and not names))
            if names:
                self._emit(SuccessorCalled(seat))
                return
            self._finish_resolution()
            return
        self._emit(PlayerEliminated(seat, by_captain))
        if self.hooks.WINDOW and any(window.opens(self, seat) for window in self.hooks.WINDOW):
            self._emit(WindowOpened(seat))
            return
        self._emit(PlayerDied(seat, _CAUSE_VOTE, self.state.roles[seat - 1]))
        self._resolve([(seat, _CAUSE_VOTE)])

    def window_taker(self) -> int | None:
        """The seat who may take the designated player's card in the open window, if any."""
        s = self.state
        if s.awaiting is not Awaiting.WINDOW or s.awaiting_seat is None:
            return None
        for window in self.hooks.WINDOW:
            taker = window.taker(self, s.awaiting_seat)
            if taker is not None:
                return taker
        return None

    def take_card(self, taker: int | None) -> None:
        """Day step 5's window closes: `taker` takes the designated player's card before it is
        shown (the Devoted Servant), or None: nobody stepped forward. Then he dies as voted.
        At dawn (`servant_scope=any_death`) the night death is already dead: the next death's
        window opens, or after the last one the chain reactions go on."""
        s = self.state
        self._require_awaiting(Awaiting.WINDOW, f"taking the card (seat {taker!r})")
        seat = s.awaiting_seat
        assert seat is not None
        if taker is not None:
            self._check_seat(taker)
            problems = [w.check(self, taker, seat) for w in self.hooks.WINDOW]
            if all(p is not None for p in problems):
                raise IllegalActionError(f"seat {taker} cannot take seat {seat}'s card: {problems[0]}")
            self._emit(CardTaken(taker, seat, s.roles[seat - 1]))
        if s.queue:  # a dawn window: the queue of the night's deaths waits for the last one
            queue = list(s.queue)
            self._emit(WindowClosed(seat))
            if not self._dawn_window(queue, seat):
                self._resolve(queue)
            return
        self._emit(PlayerDied(seat, Cause.VOTE, s.roles[seat - 1]))
        self._resolve([(seat, Cause.VOTE)])

    # ---- validation helpers -------------------------------------------------------------

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= self.state.players:
            raise InvalidTargetError(f"seat {seat!r} is out of range; seats are 1 to {self.state.players}")

    def _check_target(self, seat: int, who: str) -> None:
        s = self.state
        if type(seat) is not int or not 1 <= seat <= s.players:  # the common case checked inline
            self._check_seat(seat)
        if not s.alive[seat - 1]:
            raise InvalidTargetError(f"seat {seat} is dead; {who} can only choose a living player")

    def _require_phase(self, phase: Phase, why: str) -> None:
        s = self.state
        if s.phase is not phase:
            raise WrongPhaseError(f"{why} (the game is in phase {s.phase.value})")
        if s.awaiting is not _AWAITING_NOTHING:
            raise WrongPhaseError(f"{why}; first the game waits for {s.awaiting.value}")

    def _require_awaiting(self, what: Awaiting, name: str) -> None:
        if self.state.phase is _PHASE_OVER:
            raise WrongPhaseError(f"{name}: the game is over")
        if self.state.awaiting is not what:
            raise WrongPhaseError(f"{name} is not awaited now (awaiting: {self.state.awaiting.value})")

    def _night_step(self, step: int, who: str, said: str, first_night_only: bool = False) -> None:
        """`said` quotes the refused action in the message."""
        s = self.state
        if s.phase is not _PHASE_NIGHT or s.awaiting is not _AWAITING_NOTHING:  # the message built only if refused
            self._require_phase(_PHASE_NIGHT, f"{said}: {who} acts only at night")
        if first_night_only and s.night != 1:
            raise WrongPhaseError(f"{said}: {who} acts only on the first night (this is night {s.night})")
        if s.step >= step:
            raise WrongPhaseError(f"{said}: {who} cannot act now: the night has moved past that call")

    def _living_actor(self, role: Role, who: str, said: str) -> int:
        seat = self.living_holder(role)
        if seat is not None:
            return seat
        seats = self.holders(role)
        if not seats:
            raise IllegalActionError(f"{said}: nobody holds the {role.value} card, so {who} cannot act")
        raise IllegalActionError(f"{said}: {who} (seat {seats[0]}) is dead and cannot act")

    # ---- the fold -----------------------------------------------------------------------

    def _record(self, event: Event) -> None:
        state = self.state
        _APPLY[type(event)](state, event)
        state.events += 1
        self.events.append(event)

    _emit = _record


def _any_hook(checks: Iterable[Callable[[Game, int], bool]], game: Game, seat: int) -> bool:
    """`any(check(game, seat) for check in checks)` without a generator (the vote's hot path)."""
    for check in checks:
        if check(game, seat):
            return True
    return False


def _names(roles: Iterable[Role]) -> str:
    return "(" + ", ".join(r.value for r in roles) + ")"


def _top_two(counts: Mapping[int, int], candidates: Sequence[int]) -> tuple[int, ...]:
    """The leader and everyone tied in second place (only players who got votes)."""
    values = sorted({counts[c] for c in candidates if counts[c] > 0}, reverse=True)[:2]
    return tuple(c for c in candidates if counts[c] in values and counts[c] > 0)


# ---- applying events: the only code that changes a State --------------------------------


def _started(s: State, e: GameStarted) -> None:
    s.phase = _PHASE_SETUP


def _night(s: State, e: NightBegan) -> None:
    s.phase, s.night, s.step = _PHASE_NIGHT, e.night, -1
    s.previous, s.used = s.used, _NONE_USED
    s.victim, s.healed, s.saved, s.poisoned = None, False, None, None
    s.tie_victim = None
    s.awaiting, s.queue, s.resolving_day = _AWAITING_NOTHING, (), False
    s.night_dead, s.second_vote_asked = (), None


def _thief(s: State, e: ThiefChose) -> None:
    s.step = _STEP_THIEF
    if e.took is not None:
        s.roles[e.seat - 1] = e.took
        s.extra[e.card - 1] = _ROLE_THIEF


def _lovers(s: State, e: LoversChosen) -> None:
    s.step = _STEP_CUPID
    s.lovers = (e.first, e.second)


def _seer(s: State, e: SeerSaw) -> None:
    s.step = _STEP_SEER


def _wolves(s: State, e: WolvesChose) -> None:
    s.step = _STEP_WOLVES
    s.victim = e.target


def _witch(s: State, e: WitchActed) -> None:
    s.step = _STEP_WITCH
    if e.healed:
        s.healed, s.heal_left = True, False
        s.saved = e.saved if e.saved is not None else s.victim
    if e.poisoned is not None:
        s.poisoned, s.poison_left = e.poisoned, False


def _dawn(s: State, e: DawnBroke) -> None:
    s.phase = _PHASE_RESOLVING
    s.resolving_day = False


def _died(s: State, e: PlayerDied) -> None:
    s.alive[e.seat - 1] = False
    if s.awaiting is _AWAITING_WINDOW:  # the window closed: the designated player dies
        s.awaiting, s.awaiting_seat = _AWAITING_NOTHING, None
    living = s.living
    if e.seat in living:
        i = living.index(e.seat)
        s.living = living[:i] + living[i + 1:]
    if s.phase is _PHASE_NIGHT:
        s.night_dead = (*s.night_dead, (e.seat, e.cause))


def _hunter_called(s: State, e: HunterCalled) -> None:
    s.awaiting, s.awaiting_seat, s.queue = _AWAITING_HUNTER, e.hunter, e.queue


def _hunter_shot(s: State, e: HunterShot) -> None:
    s.awaiting, s.awaiting_seat, s.queue = _AWAITING_NOTHING, None, ()

def _successor_called(s: State, e: SuccessorCalled) -> None:
    s.awaiting, s.awaiting_seat = _AWAITING_SUCCESSOR, e.captain
    s.resigned = False


def _succeeded(s: State, e: CaptainSucceeded) -> None:
    s.awaiting, s.awaiting_seat = _AWAITING_NOTHING, None
    s.captain = e.successor
    s.captain_vacant = e.successor is None


def _vote_opened(s: State, e: VoteOpened) -> None:
    s.awaiting, s.ballot, s.candidates, s.voters = _AWAITING_VOTE, e.ballot, e.candidates, e.voters
    if e.ballot is _BALLOT_CAPTAIN:
        s.elections += 1
        if s.phase is _PHASE_NIGHT:
            s.step = _STEP_ELECTION
    elif e.ballot in (_BALLOT_VOTE, _BALLOT_ACCUSATION):
        _vote_held(s)


def _vote_held(s: State) -> None:
    """The day's vote is held: its first, or its second (the Stuttering Judge's), which is then spent."""
    if s.voted_day == s.day:
        s.second_vote_day, s.second_vote_asked = s.day, None
    s.voted_day = s.day


def _votes_cast(s: State, e: VotesCast) -> None:
    s.awaiting = _AWAITING_NOTHING


def _tie(s: State, e: TieToBreak) -> None:
    s.awaiting, s.candidates, s.voters = _AWAITING_TIEBREAK, e.tied, ()


def _elected(s: State, e: CaptainElected) -> None:
    s.awaiting, s.ballot, s.candidates, s.voters = _AWAITING_NOTHING, None, (), ()
    s.captain, s.captain_vacant = e.seat, False


def _eliminated(s: State, e: PlayerEliminated) -> None:
    s.awaiting, s.ballot, s.candidates, s.voters = _AWAITING_NOTHING, None, (), ()
    s.phase, s.resolving_day = _PHASE_RESOLVING, True


def _nobody(s: State, e: NobodyEliminated) -> None:
    s.awaiting, s.ballot, s.candidates, s.voters = _AWAITING_NOTHING, None, (), ()
    if e.reason == "no_voters":
        # No vote could open (nobody allowed to vote): it counts as held. A second vote held so is
        # spent too: else it was due again at once, for ever (the Judge voted out by the only voter
        # the Scapegoat had named, his request standing after his death).
        _vote_held(s)


def _dusk(s: State, e: DuskFell) -> None:
    s.phase, s.resolving_day = _PHASE_DUSK, False
    s.second_vote_asked = None


def _second_vote_asked(s: State, e: SecondVoteAsked) -> None:
    s.second_vote_asked = e.seat


def _second_vote_due(s: State, e: SecondVoteDue) -> None:
    s.phase, s.resolving_day = Phase.DAY, False


def _power_lost(s: State, e: PowerLost) -> None:
    s.powerless = s.powerless | {e.seat}


def _marked(s: State, e: Marked) -> None:
    s.marks = {**s.marks, e.mark: (*s.marks.get(e.mark, ()), e.seat)}


def _day(s: State, e: DayBegan) -> None:
    s.phase, s.day, s.resolving_day = _PHASE_DAY, e.day, False


_NONE_USED: Mapping[str, tuple[int, ...]] = {}  # shared, never changed: `used` is replaced, not updated


def _power_used(s: State, e: PowerUsed) -> None:
    power = hooks.POWERS[e.call]
    s.step = step_of(RESET_ORDER if e.reset else power.order)
    s.used = {**s.used, e.call: e.targets}
    if power.lasting:
        s.lasting = {**s.lasting, e.call: (*s.lasting.get(e.call, ()), *e.targets)}
    if e.targets:
        s.spent = {**s.spent, e.call: (*s.spent.get(e.call, ()), *e.targets)}


def _joined(s: State, e: JoinedPack) -> None:
    s.joined = {**s.joined, e.seat: e.reason}


def _window(s: State, e: WindowOpened) -> None:
    s.awaiting, s.awaiting_seat, s.queue = Awaiting.WINDOW, e.seat, e.queue


def _window_closed(s: State, e: WindowClosed) -> None:
    s.awaiting, s.awaiting_seat, s.queue = Awaiting.NOTHING, None, ()


def _card_taken(s: State, e: CardTaken) -> None:
    """The Servant plays the taken card from now on, fresh: its one-use powers renewed."""
    s.roles[e.servant - 1] = e.role
    s.taken = (*s.taken, e.seat)
    s.took_day = max(s.day, s.night)  # at dawn (servant_scope=any_death) the coming day's number
    # The taken card starts fresh (its model, its infection renewed), but statuses stay (`Power.status`:
    # the charmed stay charmed) and her own status is removed.
    powers = hooks.POWERS
    s.lasting = {call: tuple(p for p in seats if p != e.servant) if powers[call].status else seats
                 for call, seats in s.lasting.items() if powers[call].status or powers[call].role is not e.role}
    if e.role is Role.WITCH:
        s.heal_left = s.poison_left = True
    s.spent = {call: seats for call, seats in s.spent.items() if hooks.POWERS[call].role is not e.role}
    if e.servant in s.lives_lost:  # a taken Elder card comes with its spare lives
        s.lives_lost = {seat: n for seat, n in s.lives_lost.items() if seat != e.servant}
    if s.captain == e.servant:
        s.resigned = True
def _notified(s: State, e: Notified) -> None:
    pass  # a record for the journal: the designated players were told (narrator/roles/designation.py)


def _spared(s: State, e: PlayerSpared) -> None:
    s.awaiting, s.ballot, s.candidates, s.voters = Awaiting.NOTHING, None, (), ()
    s.phase, s.resolving_day = Phase.RESOLVING, True
    s.spared = (*s.spared, e.seat)
    if e.office_lost:
        s.captain, s.captain_vacant = None, False


def _power_ignored(s: State, e: PowerIgnored) -> None:
    s.step = e.step


def _powers_lost(s: State, e: PowersLost) -> None:
    s.powerless = s.powerless | frozenset(e.seats)


def _life_lost(s: State, e: LifeLost) -> None:
    s.lives_lost = {**s.lives_lost, e.seat: s.lives_lost.get(e.seat, 0) + 1}


def _tie_victim(s: State, e: TieVictim) -> None:
    s.tie_victim = e.seat


def _voters_called(s: State, e: VotersCalled) -> None:
    s.awaiting, s.awaiting_seat, s.queue = Awaiting.VOTERS, e.seat, e.queue


def _voters_designated(s: State, e: VotersDesignated) -> None:
    s.awaiting, s.awaiting_seat, s.queue = Awaiting.NOTHING, None, ()
    s.day_voters, s.voters_day = e.voters, e.day


def _ended(s: State, e: GameEnded) -> None:
    s.phase, s.awaiting = _PHASE_OVER, _AWAITING_NOTHING
    s.outcome = Outcome(e.winner, e.winners)


E = TypeVar("E", bound=Event)
_APPLY: dict[type, Callable[[State, Any], None]] = {}


def _on(kind: type[E], apply: Callable[[State, E], None]) -> None:
    """Register the fold of one event type (once); the types of `kind` and `apply` must agree."""
    if kind in _APPLY:
        raise ValueError(f"the fold of {kind.__name__} is registered twice")
    _APPLY[kind] = apply


_on(GameStarted, _started)
_on(NightBegan, _night)
_on(ThiefChose, _thief)
_on(LoversChosen, _lovers)
_on(SeerSaw, _seer)
_on(WolvesChose, _wolves)
_on(WitchActed, _witch)
_on(DawnBroke, _dawn)
_on(PlayerDied, _died)
_on(HunterCalled, _hunter_called)
_on(HunterShot, _hunter_shot)
_on(SuccessorCalled, _successor_called)
_on(CaptainSucceeded, _succeeded)
_on(VoteOpened, _vote_opened)
_on(VotesCast, _votes_cast)
_on(TieToBreak, _tie)
_on(CaptainElected, _elected)
_on(PlayerEliminated, _eliminated)
_on(NobodyEliminated, _nobody)
_on(DayBegan, _day)
_on(DuskFell, _dusk)
_on(GameEnded, _ended)
_on(PowerUsed, _power_used)
_on(PlayerSpared, _spared)
_on(PowerLost, _power_lost)
_on(Marked, _marked)
_on(SecondVoteAsked, _second_vote_asked)
_on(SecondVoteDue, _second_vote_due)
_on(JoinedPack, _joined)
_on(WindowOpened, _window)
_on(CardTaken, _card_taken)
_on(WindowClosed, _window_closed)
_on(Notified, _notified)


# ---- the end check's base rows (RULES-EXTENSIONS.md "End of the game"; table in hooks.WINS) ----


def _nobody_alive(game: Game) -> tuple[int, ...] | None:
    return None if game.state.living else ()


def _lovers_alone(game: Game) -> tuple[int, ...] | None:
    s = game.state
    if s.lovers is None or len(s.living) != 2:
        return None
    team = game.lovers_alive()
    return None if team is None else tuple(sorted(team))


def _no_pack_alive(game: Game) -> tuple[int, ...] | None:
    s = game.state
    roles, pack, joined = s.roles, hooks.PACK, s.joined  # game.is_pack, inlined (every death's end check)
    for p in s.living:
        if roles[p - 1] in pack or p in joined:
            return None
    team = game.lovers_team() if s.lovers is not None else None
    return game._side_seats(_TEAM_VILLAGE, team or ())


def _only_pack_alive(game: Game) -> tuple[int, ...] | None:
    s = game.state
    # Living players outside the pack (game.is_pack, inlined), counted only up to what the row
    # allows: most end checks stop here, before the Lovers are looked at.
    allowed = 1 if s.options.wolves_win_at_parity else 0
    roles, pack, joined = s.roles, hooks.PACK, s.joined
    others = 0
    for p in s.living:
        if roles[p - 1] not in pack and p not in joined:
            others += 1
            if others > allowed:
                return None
    if s.lovers is not None and game.lovers_alive() is not None:
        return None  # a living mixed couple: the Lovers may still win
    team = game.lovers_team() if s.lovers is not None else None
    return game._side_seats(_TEAM_WOLVES, team or ())


hooks.add_win(hooks.Win(1, Side.NOBODY, _nobody_alive))
hooks.add_win(hooks.Win(3, Side.LOVERS, _lovers_alone))
hooks.add_win(hooks.Win(7, Side.VILLAGE, _no_pack_alive))
hooks.add_win(hooks.Win(8, Side.WEREWOLVES, _only_pack_alive))
_on(PowerIgnored, _power_ignored)
_on(PowersLost, _powers_lost)
_on(LifeLost, _life_lost)
_on(TieVictim, _tie_victim)
_on(VotersCalled, _voters_called)
_on(VotersDesignated, _voters_designated)
