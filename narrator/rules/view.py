"""What a game shows the code that reads it, and the points where the role modules plug into the engine.

`GameView` is a game's state, its events and every query over them; it changes nothing. The engine's
steps (narrator/rules/night.py, dawn.py, chains.py, votes.py) are functions of a view and of an
event sink; the role modules' hooks read a view and return what follows (the engine emits it).
`Hooks` declares every hook once: a role module gives the hooks it has (`RoleModule.hooks`), and a
game holds those of its possible roles, joined in the catalogue's order (narrator/rules/hooks.py).
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import AbstractSet, Any, Callable, Mapping, Sequence

from narrator.rules.errors import CompositionError, InvalidTargetError
from narrator.rules.events import Cause, CardTaken, Event
from narrator.rules.options import Options
from narrator.rules.roles import Role, Side, Team
from narrator.rules.state import (
    Awaiting,
    Outcome,
    State,
    _AWAITING_NOTHING,
    _AWAITING_VOTE,
    _BALLOT_CAPTAIN,
    _BALLOT_CAPTAIN_REVOTE,
    _CAUSE_WOLVES,
    _PHASE_DAY,
    _PHASE_NIGHT,
    _PHASE_SETUP,
    _STEP_ELECTION,
    _TEAM_PIED_PIPER,
    _TEAM_VILLAGE,
)

# Where the engine's steps put the events they decide: the game folds each one into its state.
Emit = Callable[[Event], None]


class GameView:
    """One game as it stands: its state, its events, its hooks, and the questions the rules ask of them."""

    __slots__ = ("state", "events", "hooks", "pack")

    def __init__(self, state: State, hooks: Hooks, pack: AbstractSet[Role]) -> None:
        self.state = state
        self.events: list[Event] = []
        self.hooks = hooks
        self.pack = pack  # the cards that wake with the pack (`Card.pack`)

    # ---- the table ------------------------------------------------------------------------

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
        self.check_seat(seat)
        return self.state.roles[seat - 1]

    def is_alive(self, seat: int) -> bool:
        self.check_seat(seat)
        return self.state.alive[seat - 1]

    def living(self) -> tuple[int, ...]:
        return self.state.living

    def check_seat(self, seat: int) -> None:
        """Refuse anything that is not a seat of this table, quoting it."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= self.state.players:
            raise InvalidTargetError("seat {seat!r} is out of range; seats are 1 to {players}",
                                     seat=seat, players=self.state.players)

    # ---- who holds what -------------------------------------------------------------------

    def holders(self, role: Role) -> tuple[int, ...]:
        """Seats that hold `role` now (alive or dead)."""
        return self.state.seats_of.get(role, ())

    def living_holder(self, role: Role) -> int | None:
        """The first living seat that holds `role` (or acts as it: the Actor holding that card)."""
        s = self.state
        alive = s.alive
        for seat in s.seats_of.get(role, ()):
            if alive[seat - 1]:
                return seat
        return self._acting(role) if self.hooks.acting else None

    def _acting(self, role: Role) -> int | None:
        """A living seat acting as `role` now without its card (the Actor holding that card)."""
        for acting in self.hooks.acting:
            seat = acting(self, role)
            if seat is not None and self.state.alive[seat - 1]:
                return seat
        return None

    def acts_as(self, seat: int, role: Role) -> bool:
        """Whether `seat` holds `role`'s power now: its card, or a card it acts (the Actor's)."""
        return self.state.roles[seat - 1] is role or any(acting(self, role) == seat for acting in self.hooks.acting)

    def is_pack(self, seat: int) -> bool:
        """Whether the player wakes with the pack and counts as a Werewolf (docs/rules-spec.md#terms): his card is a
        pack card (Werewolf, White Werewolf...), or he joined the pack since
        (infected, a Wild Child or a Wolf-Hound turned: `JoinedPack`)."""
        s = self.state
        return s.roles[seat - 1] in self.pack or seat in s.joined

    def powered(self, seat: int) -> bool:
        """Whether this seat's power still works (docs/rules-spec.md#powers-lost): a powerless
        role keeps its card, team and calls, and its answers change nothing."""
        return seat not in self.state.powerless

    def marked(self, mark: str) -> tuple[int, ...]:
        """The seats that carry a lasting mark (Marked: "diseased" by the Knight's sword)."""
        return self.state.marks.get(mark, ())

    def team_of(self, seat: int) -> Team:
        """The team `seat` plays for now (the end check uses it): a player who joined the pack
        plays for the wolves; else its card's, unless a role changed it (the Angel after turn 1)."""
        if seat in self.state.joined:
            return Team.WOLVES
        for team in self.hooks.team:
            now = team(self, seat)
            if now is not None:
                return now
        return self.state.roles[seat - 1].team

    def side_seats(self, team: Team, excluded: set[int] | tuple[int, ...]) -> tuple[int, ...]:
        """The seats that play for `team` now, but `excluded` (the end check's winners)."""
        if self.hooks.team or self.state.joined:
            seats = range(1, self.state.players + 1)
            return tuple([p for p in seats if self.team_of(p) is team and p not in excluded])
        return tuple([i + 1 for i, r in enumerate(self.state.roles) if r.team is team and (i + 1) not in excluded])

    def taker(self) -> int | None:
        """The seat that took a card at the last takeover (the Devoted Servant)."""
        for event in reversed(self.events):
            if isinstance(event, CardTaken):
                return event.servant
        return None

    # ---- the pack and the night -----------------------------------------------------------

    def living_wolves(self) -> tuple[int, ...]:
        """The living pack members (they wake in the Werewolves' call)."""
        s = self.state
        roles, pack, joined = s.roles, self.pack, s.joined
        return tuple([p for p in s.living if roles[p - 1] in pack or p in joined])

    def pack_alive(self) -> bool:
        """Whether a pack member is alive (`living_wolves()` is not empty)."""
        return self.state.pack_living > 0

    def wolf_targets(self) -> tuple[int, ...]:
        """Whom the Werewolves may choose tonight (never a pack member; none on a no-kill first night)."""
        s = self.state
        if s.night == 1 and not s.options.first_night_kill:
            return ()
        roles, pack, joined = s.roles, self.pack, s.joined
        return tuple([p for p in s.living if roles[p - 1] not in pack and p not in joined])

    def pack_victim(self) -> int | None:
        """The pack's victim tonight if he is devoured: not when he joined the pack (infected)."""
        s = self.state
        victim = s.victim
        return None if victim is None or s.roles[victim - 1] in self.pack or victim in s.joined else victim

    def devoured(self) -> list[tuple[int, Cause, bool]]:
        """Dawn step 1: the night's devourings (seat, cause, stoppable): the pack's victim (unless
        he joined the pack tonight: infected), then the roles' (`Hooks.devourings`: the Big Bad
        Wolf's victim)."""
        s = self.state
        out: list[tuple[int, Cause, bool]] = []
        victim = s.victim
        if victim is not None and s.roles[victim - 1] not in self.pack and victim not in s.joined:  # pack_victim()
            out.append((victim, _CAUSE_WOLVES, True))
        if s.chosen_tonight and self.hooks.devourings:
            for devours in self.hooks.devourings:
                out.extend(devours(self))
        return out

    # ---- the day --------------------------------------------------------------------------

    def day_zero_due(self) -> bool:
        """Whether the game opens with a Day 0 (docs/rules-spec.md#opening): public facts only."""
        return self.state.phase is _PHASE_SETUP and any(due(self) for due in self.hooks.day_zero)

    def captain_election_due(self) -> bool:
        s = self.state
        if s.options.captain_election == "never" or s.captain is not None or s.awaiting is not _AWAITING_NOTHING:
            return False
        if s.phase is _PHASE_NIGHT:
            return s.options.captain_election == "night1_end" and s.night == 1 and s.step < _STEP_ELECTION
        if s.phase is _PHASE_DAY and s.last_vote_day < s.day:
            return (s.options.captain_election == "day1" and s.elections == 0) or s.captain_vacant
        return False

    def vote_due(self) -> bool:
        s = self.state
        if s.phase is not _PHASE_DAY or s.awaiting is not _AWAITING_NOTHING:
            return False
        return s.last_vote_day < s.day or self.second_vote_due()

    def second_vote_due(self) -> bool:
        """Today's first vote is over and a second one was asked for (docs/rules-spec.md#day)."""
        s = self.state
        return s.last_vote_day == s.day and s.second_vote_day < s.day and s.second_vote_asked is not None

    def first_vote_open(self) -> bool:
        """Whether a round of the day's first elimination vote is being voted now."""
        s = self.state
        return (s.awaiting is _AWAITING_VOTE and s.phase is _PHASE_DAY and s.last_vote_day == s.day
                and s.second_vote_day < s.day and s.ballot not in (_BALLOT_CAPTAIN, _BALLOT_CAPTAIN_REVOTE))

    def sign_taken(self) -> bool:
        """Whether voters may give a secret sign now: a round of the day's first vote, and a role
        that signs this way is possible (`Hooks.sign_open`; public facts only)."""
        return self.first_vote_open() and any(open_(self) for open_ in self.hooks.sign_open)

    def roll_call(self) -> tuple[int, ...]:
        """The order of a roll-call vote today: the voters of the open round (or the living),
        clockwise on the game's first day (Day 0 when the game opens with one, else Day 1), then
        counter-clockwise and clockwise by turns, day by day, so the same seats are not always
        last to speak (docs/rules.md `vote_procedure`)."""
        s = self.state
        seats = s.ballot_voters if s.awaiting is Awaiting.VOTE else self.living()
        first = 0 if any(due(self) for due in self.hooks.day_zero) else 1  # public facts only
        return tuple(sorted(seats, reverse=(s.day - first) % 2 == 1))

    def hunter_targets(self) -> tuple[int, ...]:
        return self.living()

    def window_at_dawn(self, seat: int) -> bool:
        """Whether a window opens at dawn for this night death before his card is shown (public
        facts only: the Devoted Servant possible, `servant_scope=any_death`)."""
        return any(w.at_dawn is not None and w.at_dawn(self, seat) for w in self.hooks.windows)

    def window_taker(self) -> int | None:
        """The seat who may take the designated player's card in the open window, if any."""
        s = self.state
        if s.awaiting is not Awaiting.WINDOW or s.awaiting_seat is None:
            return None
        for window in self.hooks.windows:
            taker = window.taker(self, s.awaiting_seat)
            if taker is not None:
                return taker
        return None

    # ---- the end --------------------------------------------------------------------------

    def lovers_team(self) -> tuple[int, int] | None:
        """The Lovers when they form a team of their own: mixed (one pack member and one not, or
        a village player and the Pied Piper, docs/rules-spec.md), or both wolves with the option."""
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

    def lovers_alive(self) -> tuple[int, int] | None:
        """The Lovers' team when both are alive."""
        team = self.lovers_team() if self.state.lovers is not None else None
        if team is None or not (self.state.alive[team[0] - 1] and self.state.alive[team[1] - 1]):
            return None
        return team

    def last_two(self) -> bool:
        """The two-player game is on (docs/rules-spec.md#last-two): two players left, with
        `two_player_end`."""
        return self.state.options.two_player_end and len(self.state.living) == 2

    def end_checked_now(self) -> bool:
        """Whether the end is checked now (docs/rules-spec.md#end): always at dawn; after a day's
        eliminations too, unless `end_check=dawn`, where only a table with nobody left alive ends
        at once (no night is played for nobody)."""
        s = self.state
        return not s.resolving_day or s.options.end_check != "dawn" or not s.living

    def check_outcome(self) -> Outcome | None:
        """The end check (docs/rules-spec.md#end): the first row of the table (`Hooks.wins`, in
        rank order) that holds, among the rows of this game's possible roles."""
        for win in self.hooks.wins:
            winners = win.check(self)
            if winners is not None:
                return Outcome(win.side, winners)
        return None


# ---- the hooks: what a role plugs in ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Power:
    """A night power answered through `Game.use_power`: its call, its role, its place in the
    night (`order`, as in the merged night order), and its check of a choice (an error message
    quoting the choice, or None when legal; None: `record` checks it)."""

    call: str
    role: Role
    order: float
    check: Callable[[GameView, int, tuple[int, ...]], str | None] | None
    # The seats it may choose tonight, for the simulator and the sequencer's prompt.
    targets: Callable[[GameView, int], tuple[int, ...]]
    count: int = 1  # seats chosen at once
    first_night_only: bool = False
    # On which nights it may be used (public facts only: the options and the night number);
    # None: every night (or the first only, with `first_night_only`). The role's call has the
    # same schedule (`Call.nights`).
    nights: Callable[[Options, int], bool] | None = None
    # How many seats it chooses tonight, when that depends on the game (the Piper: his option, or
    # all that remain); None: `count`. The simulator asks this; `check` enforces it.
    count_of: Callable[[GameView, int], int] | None = None
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
    effect: Callable[[GameView, int, tuple[int, ...]], Sequence[Event]] | None = None
    # The events that record the choice instead of `PowerUsed` (the base game's roles keep their
    # own: `SeerSaw`, `WitchActed`, `ThiefChose`, `LoversChosen`), made once the choice is checked
    # (with no `check`, it checks the choice itself, raising a `RulesError` that quotes it).
    record: Callable[[GameView, int, tuple[int, ...]], Sequence[Event]] | None = None
    # What the chooser is shown at once of the choice (the Seer's look: a card, or a team).
    shows: Callable[[GameView, tuple[int, ...]], Role | Team] | None = None
    # Played again by a Devoted Servant who took the card, the night after (`devoted_servant_reset`),
    # when its power is of the first night: the Wild Child's model, the Wolf-Hound's side; Cupid
    # names no new Lovers, nor does the Thief take a card.
    renewed: bool = True
    # A holder whose power is lost answers and nothing happens (`PowerIgnored`); False: the choice
    # stands all the same (the Thief's card and Cupid's Lovers, as the engine has always had them).
    lost_with_power: bool = True
    # How a refusal names the role and quotes the choice (default: "the pied piper on 3 5").
    who: str = ""
    said: Callable[[tuple[int, ...]], str] | None = None
    step: int = dataclasses.field(init=False, default=0)

    def __post_init__(self) -> None:
        # Its step of the night (`State.step` once it is answered), read on every answer.
        object.__setattr__(self, "step", round(self.order * 10))

    def name(self) -> str:
        """The role as a refusal names it."""
        return self.who or f"the {self.role.value.replace('_', ' ')}"

    def quote(self, chosen: tuple[int, ...]) -> str:
        """The refused choice as a message quotes it."""
        if self.said is not None:
            return self.said(chosen)
        return f"{self.name()} on {' '.join(map(str, chosen)) or 'nobody'}"

    def called(self, options: Options, night: int) -> bool:
        """Whether the power's call is made on night `night`."""
        if self.first_night_only and night != 1:
            return False
        return self.nights is None or self.nights(options, night)


@dataclass(frozen=True, slots=True)
class Win:
    """One row of the end check (docs/rules-spec.md#end; first match wins).

    `rank` is the row's number in that list; `check` returns the winning seats, or None when the
    row does not hold. `role`: the row is checked only in games where this role is possible."""

    rank: int
    side: Side
    check: Callable[[GameView], tuple[int, ...] | None]
    role: Role | None = None
    at_once: bool = False  # the game stops at once, before a dead Captain names a successor (the Angel)


@dataclass(frozen=True, slots=True)
class Reaction:
    """What a death sets off: events to emit, then deaths to resolve in turn (each with its own
    reactions); or an answer the chain now waits for (the Hunter's shot, the Scapegoat's voters):
    the event that calls it, made from the dead seat and the deaths still to resolve."""

    events: tuple[Event, ...] = ()
    deaths: tuple[tuple[int, Cause], ...] = ()
    waits: Callable[[int, tuple[tuple[int, Cause], ...]], Event] | None = None


@dataclass(frozen=True, slots=True)
class Chain:
    """One row of a death's chain reactions (docs/rules-spec.md#dawn step 6; ONE table in rank
    order, each death in turn): `react(game, seat, cause)` is what this death sets off, or None.

        rank  what                                            declared in
        1     the other Lover dies of grief                   rules/chains.py (the Lovers are the engine's)
        2     the Wild Child's model died: he joins the pack  roles/wild_child.py
        3     the Elder's revenge; the pardoned Idiot dies    roles/elder.py
        4     the Hunter shoots (awaited)                     roles/hunter.py
        5     the Scapegoat names the next day's voters        roles/scapegoat.py

    A row about a card's own power (`card`: 3 to 5) is called only for the death of a seat that
    holds that card or acts as it (the Actor), and not when the Devoted Servant took the card
    (`State.taken`): its effects left with her."""

    rank: int
    react: Callable[[GameView, int, Cause], Reaction | None]
    card: Role | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """An answer the chain reactions wait for after a death (the Hunter's shot, the Scapegoat's
    voters): what the game then awaits; how a refusal quotes the choice; and `answer(game, seat,
    choice)`, which checks the choice (raising a `RulesError` that quotes it) and returns what
    follows: events, then deaths to resolve with the rest of the chain. `choice` is None when no
    answer came in time."""

    awaiting: Awaiting
    said: Callable[[tuple[int, ...] | None], str]
    answer: Callable[[GameView, int, tuple[int, ...] | None], Reaction]


@dataclass(frozen=True, slots=True)
class Tie:
    """A tie for the elimination (docs/rules-spec.md#day step 4) as a role may settle it."""

    tied: tuple[int, ...]
    captain_can_break: bool  # a living Captain could break this tie now
    # The round's own count, which a draw may settle (not the accusation's last round, nor a
    # tie-break the Captain let pass).
    by_lot: bool
    rng: random.Random | None  # for a draw; None when the caller gave none


@dataclass(frozen=True, slots=True)
class Settled:
    """A tie settled by a role: `seat` is eliminated; `instead`: in the place of the tied (the
    Scapegoat, said in public with `TieVictim`), else as one of them drawn by lot (the Angel's)."""

    seat: int
    instead: bool


@dataclass(frozen=True, slots=True)
class Window:
    """Day step 5: after the village designates a player, before his card is shown, a window in
    which a card may be taken (the Devoted Servant). `opens(game, seat)` reads public facts only;
    `check(game, taker, seat)` refuses a taker (a message) or accepts him (None); `taker(game,
    seat)` is the seat who may take it now, if any (the sequencer's `+` during the window).
    `at_dawn(game, seat)`, public facts only too: the window also opens at dawn for this night
    death, before his card is shown (the Devoted Servant's `servant_scope=any_death`)."""

    opens: Callable[[GameView, int], bool]
    check: Callable[[GameView, int, int], str | None]
    taker: Callable[[GameView, int], int | None]
    at_dawn: Callable[[GameView, int], bool] | None = None


@dataclass(frozen=True, slots=True)
class Hooks:
    """Every point where a role plugs into the engine, each declared once, in the order of a game.

    A role module declares the ones it has (`RoleModule.hooks`); a game holds the hooks of its
    possible roles, joined in the catalogue's order (`hooks.of_game`), so a role that cannot be in
    play costs nothing in the game's hot paths. The ranked tables (`wins`, `chain`) are kept in rank
    order. Every hook is pure: it reads the game, and the engine emits what it returns."""

    # Setup: a problem with the table for a role (players, possible roles, options), or None.
    setup_checks: tuple[Callable[[int, frozenset[Role], Options], CompositionError | None], ...] = ()
    # Setup: cards laid face up for a role (the Actor's), from the possible roles before they are
    # laid; the laid cards become possible roles (their calls are made every night, dealt or not).
    laid: tuple[Callable[[frozenset[Role], Options], tuple[Role, ...]], ...] = ()
    # Opening: whether the game opens with a Day 0 (public facts only: the possible roles, the options).
    day_zero: tuple[Callable[[GameView], bool], ...] = ()
    # The team a seat plays for now, when a role changes it (the Angel after turn 1); None: its card's.
    team: tuple[Callable[[GameView, int], Team | None], ...] = ()
    # A seat that acts as this role now, besides its holders (the Actor holding a card): alive or not.
    acting: tuple[Callable[[GameView, Role], int | None], ...] = ()
    # What an infection that took does to the infected seat's own role, besides joining the pack (the
    # Actor loses his power with `actor_infected=powerless`): the events it brings.
    infected: tuple[Callable[[GameView, int], Sequence[Event]], ...] = ()
    # Dusk (docs/rules-spec.md#role-knight_rusty_sword): seats that die as the night begins, silently;
    # their deaths are announced at dawn with the others, and their chain reactions resolved then.
    dusk_deaths: tuple[Callable[[GameView], tuple[int, ...]], ...] = ()
    # Dawn step 1: devourings of the night besides the pack's victim (the White Werewolf's, the Big
    # Bad Wolf's): (seat, cause, stoppable: whether the Savior and the Witch can stop it).
    devourings: tuple[Callable[[GameView], tuple[tuple[int, Cause, bool], ...]], ...] = ()
    # Dawn step 2: whether a devoured seat is saved tonight (the Witch's potion, the Savior).
    saves: tuple[Callable[[GameView, int, Cause], bool], ...] = ()
    # Dawn step 2, after the saves: a devouring that was not saved costs a spare life instead of a
    # death (the Elder). The engine emits `LifeLost`; nothing is said.
    absorbs: tuple[Callable[[GameView, int, Cause], bool], ...] = ()
    # Dawn steps 3 and 4: seats that die at dawn whatever protects them, with the cause (the Witch's
    # poison, the disease with `next_dawn`); the first cause named for a seat is his.
    dawn_deaths: tuple[Callable[[GameView], tuple[tuple[int, Cause], ...]], ...] = ()
    # Dawn step 6: the chain reactions of each death (ONE table in rank order, see `Chain`), and
    # the answers some of them wait for (`Answer`).
    chain: tuple[Chain, ...] = ()
    answers: tuple[Answer, ...] = ()
    # Dawn step 7: when the chain reactions are done, events a role emits (the Knight's diseased
    # wolf), before dead Captains name successors; called again after a successor is named, so a
    # hook emits only what it has not emitted since the last DawnBroke.
    dawn_settled: tuple[Callable[[GameView], tuple[Event, ...]], ...] = ()
    # Day, elimination vote step 2: votes added to the first count of the day (seat -> votes).
    vote_bonus: tuple[Callable[[GameView], Mapping[int, int]], ...] = ()
    # Day step 3: whether a voter's secret sign during the day's first vote asks for a second vote
    # (the Stuttering Judge's sign); False for everyone else, who may press the same key for nothing.
    signals: tuple[Callable[[GameView, int], bool], ...] = ()
    # Whether signs are taken during the day's first vote at all (a signing role is possible and its
    # option says so): public facts only, the same for every voter.
    sign_open: tuple[Callable[[GameView], bool], ...] = ()
    # Day step 3, `judge_signal: night_arm`: the seat that armed a second vote for today, if any.
    armed: tuple[Callable[[GameView], int | None], ...] = ()
    # Whether a second vote asked by this seat still happens once the first vote is resolved.
    second_vote_stands: tuple[Callable[[GameView, int], bool], ...] = ()
    # Day step 4: a tie for the elimination settled by a role (the Scapegoat instead of the tied,
    # the Angel's opening vote drawn by lot), in the catalogue's order; None: the base rules.
    ties: tuple[Callable[[GameView, Tie], Settled | None], ...] = ()
    # Day step 5: whether the designated seat is spared by his card (it is then shown, and he votes
    # no more), and whether a spared Captain names a successor (True) or the office is lost.
    spares: tuple[Callable[[GameView, int], bool], ...] = ()
    spared_captain_names_successor: tuple[Callable[[GameView], bool], ...] = ()
    # Day step 5: the window before the designated player's card is shown (the Devoted Servant).
    windows: tuple[Window, ...] = ()
    # The end check's rows (docs/rules-spec.md#end; ONE table in rank order, see narrator/rules/hooks.py).
    wins: tuple[Win, ...] = ()
    # Its rows that stop the game at once (the Angel's), checked after every batch of deaths.
    at_once: tuple[Win, ...] = dataclasses.field(init=False, default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "at_once", tuple(w for w in self.wins if w.at_once))

    @staticmethod
    def join(parts: Sequence[Hooks]) -> Hooks:
        """The hooks of all `parts`, in their order in each list; the ranked tables kept in rank
        order (a stable sort of the whole list: ties stay in the order of the parts)."""
        joined: dict[str, Any] = {}
        for name in _HOOK_FIELDS:
            items: list[Any] = []
            for part in parts:
                items += getattr(part, name)
            joined[name] = tuple(items)
        joined["wins"] = tuple(sorted(joined["wins"], key=lambda w: w.rank))
        joined["chain"] = tuple(sorted(joined["chain"], key=lambda c: c.rank))
        return Hooks(**joined)


# The fields `Hooks.join` concatenates (those its constructor takes), read once.
_HOOK_FIELDS = tuple(f.name for f in dataclasses.fields(Hooks) if f.init)
