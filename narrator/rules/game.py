"""The game itself: actions are validated, become events, and events are folded into the state.

A `Game` owns one mutable `State` (narrator/rules/state.py), changed only by the folds of
narrator/rules/fold.py. Every public action first checks everything it needs (raising a
`RulesError` that quotes the input, with the state untouched), then emits events.
`Game.replay(events)` folds the same events into an equal state.
No I/O, no clock, no global random: a draw takes a `random.Random` from the caller.

This module holds the construction, the queries and the validation helpers; the actions are
written by subject, as methods (`self: Game`), and bound to `Game` at the end of its body:
narrator/rules/night.py (the night's steps and the catalogue's powers), dawn.py (dawn's deaths),
chains.py (chain reactions, the end of a resolution), votes.py (the day's votes and the card-taking
window); the end check's base rows are in ends.py.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from narrator.rules import chains as _chains, dawn as _dawn, hooks, night as _night, votes as _votes
from narrator.rules import ends as ends  # noqa: F401  (registers the end check's base rows)
from narrator.rules.composition import Deal, check_players, deck_of, validate
from narrator.rules.errors import (
    CompositionError,
    IllegalActionError,
    InvalidTargetError,
    RulesError,
    WrongPhaseError,
)
from narrator.rules.events import Event, GameStarted
from narrator.rules.fold import _APPLY
from narrator.rules.options import Options
from narrator.rules.roles import Role, Team
from narrator.rules.state import (
    RESET_ORDER,
    Awaiting,
    Outcome,
    Phase,
    State,
    Step,
    WitchView,
    _AWAITING_NOTHING,
    _AWAITING_VOTE,
    _BALLOT_CAPTAIN,
    _BALLOT_CAPTAIN_REVOTE,
    _PHASE_DAY,
    _PHASE_NIGHT,
    _PHASE_OVER,
    _PHASE_SETUP,
    _ROLE_SEER,
    _ROLE_THIEF,
    _ROLE_VILLAGER,
    _ROLE_WITCH,
    _STEP_ELECTION,
    _TEAM_PIED_PIPER,
    _TEAM_VILLAGE,
    _TEAM_WOLVES,
    step_of,
)

__all__ = ["RESET_ORDER", "Awaiting", "Game", "Outcome", "Phase", "State", "Step", "WitchView", "step_of"]


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
            raise RulesError("a Thief needs two extra cards, got {count}", count=len(deal.extra))
        seated = [r for r in deal.extra if r.seated or r.copies]
        if seated:
            raise CompositionError(
                "extra cards {names}: the {value} card is always dealt to a seat, never left in the centre "
                "(docs/rules-spec.md)", names=_names(deal.extra), value=seated[0].value
            )
        if _ROLE_THIEF not in deal.seats and deal.extra:
            raise CompositionError("extra cards {names} are dealt only with a Thief at the table", names=_names(deal.extra))
        if opts.thief_extra_cards == "villagers" and any(r is not _ROLE_VILLAGER for r in deal.extra):
            raise CompositionError(
                "extra cards {names}: with thief_extra_cards=villagers the Thief's two extra cards are Villagers (use "
                "thief_extra_cards=from_deck for any two cards)", names=_names(deal.extra)
            )
        chosen_hooks = hooks.of_game(chosen)  # the setup hooks of the possible roles only
        for check in chosen_hooks.SETUP_CHECKS:
            problem = check(players, chosen, opts)
            if problem is not None:
                raise problem
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
        """Whether the player wakes with the pack and counts as a Werewolf (docs/rules-spec.md#terms): his card is a
        pack card (Werewolf, White Werewolf...), or he joined the pack since
        (infected, a Wild Child or a Wolf-Hound turned: `JoinedPack`)."""
        s = self.state
        return s.roles[seat - 1] in hooks.PACK or seat in s.joined

    def powered(self, seat: int) -> bool:
        """Whether this seat's power still works (docs/rules-spec.md#powers-lost): a powerless
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
        """Whether the game opens with a Day 0 (docs/rules-spec.md#opening): public facts only."""
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
        (docs/rules-spec.md#role-base, `witch_sees`)."""
        s = self.state
        if s.options.witch_sees == "pack_victim_only" or not (s.chosen_tonight and self.hooks.DEVOURINGS):
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

    def roll_call(self) -> tuple[int, ...]:
        """The order of a roll-call vote today: the voters of the open round (or the living),
        clockwise on the game's first day (Day 0 when the game opens with one, else Day 1), then
        counter-clockwise and clockwise by turns, day by day, so the same seats are not always
        last to speak (docs/rules.md `vote_procedure`)."""
        s = self.state
        seats = s.ballot_voters if s.awaiting is Awaiting.VOTE else self.living()
        first = 0 if any(due(self) for due in self.hooks.DAY_ZERO) else 1  # public facts only
        return tuple(sorted(seats, reverse=(s.day - first) % 2 == 1))

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

    def check_outcome(self) -> Outcome | None:
        """The end check (docs/rules-spec.md#end): the first row of the table
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

    # ---- validation helpers -------------------------------------------------------------

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= self.state.players:
            raise InvalidTargetError("seat {seat!r} is out of range; seats are 1 to {players}",
                                     seat=seat, players=self.state.players)

    def _check_target(self, seat: int, who: str) -> None:
        s = self.state
        if type(seat) is not int or not 1 <= seat <= s.players:  # the common case checked inline
            self._check_seat(seat)
        if not s.alive[seat - 1]:
            raise InvalidTargetError("seat {seat} is dead; {who} can only choose a living player", seat=seat, who=who)

    def _require_phase(self, phase: Phase, why: str) -> None:
        s = self.state
        if s.phase is not phase:
            raise WrongPhaseError("{why} (the game is in phase {value})", why=why, value=s.phase.value)
        if s.awaiting is not _AWAITING_NOTHING:
            raise WrongPhaseError("{why}; first the game waits for {value}", why=why, value=s.awaiting.value)

    def _require_awaiting(self, what: Awaiting, name: str) -> None:
        if self.state.phase is _PHASE_OVER:
            raise WrongPhaseError("{name}: the game is over", name=name)
        if self.state.awaiting is not what:
            raise WrongPhaseError("{name} is not awaited now (awaiting: {value})", name=name, value=self.state.awaiting.value)

    def _night_step(self, step: int, who: str, said: str, first_night_only: bool = False) -> None:
        """`said` quotes the refused action in the message."""
        s = self.state
        if s.phase is not _PHASE_NIGHT or s.awaiting is not _AWAITING_NOTHING:  # the message built only if refused
            self._require_phase(_PHASE_NIGHT, f"{said}: {who} acts only at night")
        if first_night_only and s.night != 1:
            raise WrongPhaseError("{said}: {who} acts only on the first night (this is night {night})",
                                  said=said, who=who, night=s.night)
        if s.step >= step:
            raise WrongPhaseError("{said}: {who} cannot act now: the night has moved past that call", said=said, who=who)

    def _living_actor(self, role: Role, who: str, said: str) -> int:
        seat = self.living_holder(role)
        if seat is not None:
            return seat
        seats = self.holders(role)
        if not seats:
            raise IllegalActionError("{said}: nobody holds the {value} card, so {who} cannot act",
                                     said=said, value=role.value, who=who)
        raise IllegalActionError("{said}: {who} (seat {seats}) is dead and cannot act", said=said, who=who, seats=seats[0])

    # ---- the fold -----------------------------------------------------------------------

    def _record(self, event: Event) -> None:
        state = self.state
        _APPLY[type(event)](state, event)
        state.events += 1
        self.events.append(event)

    _emit = _record

    # ---- the actions, by subject --------------------------------------------------------

    # the night (narrator/rules/night.py)
    begin_night = _night.begin_night
    open_day_zero = _night.open_day_zero
    thief_choose = _night.thief_choose
    cupid_choose = _night.cupid_choose
    seer_inspect = _night.seer_inspect
    wolves_choose = _night.wolves_choose
    witch_act = _night.witch_act
    use_power = _night.use_power
    taker = _night.taker
    # dawn (narrator/rules/dawn.py)
    dawn = _dawn.dawn
    window_at_dawn = _dawn.window_at_dawn
    _dawn_window = _dawn._dawn_window
    devoured = _dawn.devoured
    # chain reactions (narrator/rules/chains.py)
    hunter_targets = _chains.hunter_targets
    hunter_shoot = _chains.hunter_shoot
    name_successor = _chains.name_successor
    _resolve = _chains._resolve
    _react = _chains._react
    designate_voters = _chains.designate_voters
    _hunter_fires = _chains._hunter_fires
    _finish_resolution = _chains._finish_resolution
    _end_vote = _chains._end_vote
    # the day's votes and the card-taking window (narrator/rules/votes.py)
    open_captain_election = _votes.open_captain_election
    open_vote = _votes.open_vote
    sign_taken = _votes.sign_taken
    signal_second_vote = _votes.signal_second_vote
    _voters = _votes._voters
    cast_votes = _votes.cast_votes
    _refuse_votes = _votes._refuse_votes
    _after_votes = _votes._after_votes
    _tie_settled = _votes._tie_settled
    _settle_tie = _votes._settle_tie
    _captain_breaks_tie = _votes._captain_breaks_tie
    break_tie = _votes.break_tie
    _no_elimination = _votes._no_elimination
    _eliminate = _votes._eliminate
    window_taker = _votes.window_taker
    take_card = _votes.take_card




def _names(roles: Iterable[Role]) -> str:
    return "(" + ", ".join(r.value for r in roles) + ")"
