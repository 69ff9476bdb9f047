"""Automatic players: each decision drawn with a passed-in random source.

`random` and `random-votes` choose uniformly among the legal options. `informed` plays like
people do: see `InformedParams` for every behaviour and its default.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields, replace
from typing import Final, Mapping, Protocol, Sequence, TypeVar

from narrator.errors import UsageError
from narrator.roles import witch as _witch
from narrator.rules import Awaiting, Ballot, Game, Role, Team
from narrator.rules import hooks
from narrator.rules.game import step_of
from narrator.rules.hooks import Power

T = TypeVar("T")

# The enum members the hot paths read, as module constants: on Python 3.11 `Role.SEER` goes through
# `EnumType.__getattr__`'s slot, about ten times the cost of a global (see rules/game.py).
_AWAITING_HUNTER: Final = Awaiting.HUNTER
_AWAITING_NOTHING: Final = Awaiting.NOTHING
_AWAITING_SUCCESSOR: Final = Awaiting.SUCCESSOR
_AWAITING_TIEBREAK: Final = Awaiting.TIEBREAK
_AWAITING_VOTE: Final = Awaiting.VOTE
_AWAITING_VOTERS: Final = Awaiting.VOTERS
_AWAITING_WINDOW: Final = Awaiting.WINDOW
_BALLOT_CAPTAIN: Final = Ballot.CAPTAIN
_BALLOT_CAPTAIN_REVOTE: Final = Ballot.CAPTAIN_REVOTE
_ROLE_ANGEL: Final = Role.ANGEL
_ROLE_CUPID: Final = Role.CUPID
_ROLE_LITTLE_GIRL: Final = Role.LITTLE_GIRL
_ROLE_SEER: Final = Role.SEER
_ROLE_THIEF: Final = Role.THIEF
_ROLE_VILLAGER: Final = Role.VILLAGER
_ROLE_WEREWOLF: Final = Role.WEREWOLF
_ROLE_WITCH: Final = Role.WITCH
_TEAM_ANGEL: Final = Team.ANGEL


def weighted(rng: random.Random, pool: Sequence[T], weights: Sequence[float]) -> T:
    """One of `pool` drawn with its weight, from one `rng.random()` (the last one if rounding runs out)."""
    r = rng.random() * sum(weights)
    for c, w in zip(pool, weights):
        r -= w
        if r < 0:
            return c
    return pool[-1]


def pick(rng: random.Random, seq: Sequence[T]) -> T:
    """One element, uniformly: `rng.choice` without its rejection loop (the simulator's hot path)."""
    return seq[int(rng.random() * len(seq))]


class Policy(Protocol):
    """How automatic players answer every question the game asks."""

    name: str

    def new_game(self, game: Game, rng: random.Random) -> None: ...
    def thief(self, game: Game, rng: random.Random) -> int: ...
    def lovers(self, game: Game, rng: random.Random) -> tuple[int, int]: ...
    def seer(self, game: Game, rng: random.Random) -> int: ...
    def wolves(self, game: Game, rng: random.Random) -> int | None: ...
    def witch(self, game: Game, rng: random.Random) -> tuple[bool, int | None]: ...
    def dawn(self, game: Game, rng: random.Random) -> None: ...
    def votes(self, game: Game, rng: random.Random) -> dict[int, int | None]: ...
    def tiebreak(self, game: Game, rng: random.Random) -> int: ...
    def hunter(self, game: Game, rng: random.Random) -> int: ...
    def successor(self, game: Game, rng: random.Random) -> int: ...
    def window(self, game: Game, rng: random.Random) -> int | None: ...


class RandomPolicy:
    """Every decision uniform over its legal options; the day's vote cast as a block."""

    name = "random"

    def new_game(self, game: Game, rng: random.Random) -> None:
        pass

    def thief(self, game: Game, rng: random.Random) -> int:
        return pick(rng, (1, 2) if all(r in hooks.PACK for r in game.state.extra) else (0, 1, 2))

    def lovers(self, game: Game, rng: random.Random) -> tuple[int, int]:
        a, b = rng.sample(game.living(), 2)
        return a, b

    def seer(self, game: Game, rng: random.Random) -> int:
        return pick(rng, game.seer_targets())

    def wolves(self, game: Game, rng: random.Random) -> int | None:
        return pick(rng, (*game.wolf_targets(), None))

    def witch(self, game: Game, rng: random.Random) -> tuple[bool, int | None]:
        view = _witch.view(game)
        heal = rng.random() < 0.5 if view.can_heal else False
        return heal, pick(rng, (*view.targets, None))

    def dawn(self, game: Game, rng: random.Random) -> None:
        pass

    def votes(self, game: Game, rng: random.Random) -> dict[int, int | None]:
        s = game.state
        return dict.fromkeys(s.ballot_voters, pick(rng, s.candidates))

    def tiebreak(self, game: Game, rng: random.Random) -> int:
        return pick(rng, game.state.candidates)

    def hunter(self, game: Game, rng: random.Random) -> int:
        return pick(rng, game.hunter_targets())

    def successor(self, game: Game, rng: random.Random) -> int:
        return pick(rng, game.living())

    def window(self, game: Game, rng: random.Random) -> int | None:
        """Day step 5's window: whoever may take the card (the Devoted Servant) does so half the time."""
        taker = game.window_taker()
        return taker if taker is not None and rng.random() < 0.5 else None


class RandomVotesPolicy(RandomPolicy):
    """As `random`, but each voter votes alone for a random other candidate."""

    name = "random-votes"

    def votes(self, game: Game, rng: random.Random) -> dict[int, int | None]:
        s = game.state
        candidates = s.candidates
        n = len(candidates)
        rand = rng.random
        ballot: dict[int, int | None] = {}
        for voter in s.ballot_voters:
            # Uniform over the other candidates: draw again on oneself (a lone candidate is voted anyway).
            target = candidates[int(rand() * n)]
            while target == voter and n > 1:
                target = candidates[int(rand() * n)]
            ballot[voter] = target
        return ballot


@dataclass(frozen=True)
class InformedParams:
    """The behaviours of the `informed` players; each a probability (0 to 1) or a weight.

    The defaults are tuned so that the village wins about half of the games on the usual
    compositions of 8 to 18 players (docs/simulator.md). Change one with
    `simulate --policy informed --param seer_reveal=1`.
    """

    #: Each day, the chance that a Seer who has found a living Werewolf says so to the village.
    seer_reveal: float = 0.7
    #: The chance that a villager votes for a Werewolf the Seer or the Little Girl has named.
    follow_reveal: float = 0.85
    #: The night after the Seer speaks, the chance that the Werewolves kill her.
    wolves_kill_revealed_seer: float = 0.9
    #: How much likelier a villager is to suspect a Werewolf than anyone else (1 = no better than chance).
    wolf_tell: float = 1.7
    #: The chance that a villager follows the candidate already leading the vote (herding).
    herd: float = 0.35
    #: The chance that the Werewolves pile onto the village's leading innocent rather than their own pick.
    wolves_bandwagon: float = 0.7
    #: The chance that the Werewolves vote as a block for one of their own in a Captain election
    #: (otherwise each votes like a villager would).
    wolves_campaign: float = 0.5
    #: The chance that the Witch heals the first night's victim.
    witch_heal_first_night: float = 1.0
    #: Later nights, the chance that the Witch (potion unused) heals the victim.
    witch_heal_later: float = 0.5
    #: Each night, the chance that the Witch poisons her strongest suspect (always a named Werewolf).
    witch_poison: float = 0.2
    #: The chance that the dying Hunter shoots his strongest suspect rather than anyone.
    hunter_aims: float = 0.9
    #: Each night, the chance that the Little Girl's peek shows her one Werewolf (she says so by day).
    little_girl_spots: float = 0.15
    #: The chance that the Thief takes an extra card with a power rather than keeping his own.
    thief_takes_power: float = 0.8

    @classmethod
    def parse(cls, pairs: Sequence[str]) -> InformedParams:
        """Read `name=value` pairs; a bad one is a usage error that names the known parameters."""
        known = {f.name for f in fields(cls)}
        values: dict[str, float] = {}
        for pair in pairs:
            name, sep, raw = pair.partition("=")
            name = name.strip()
            if name not in known:
                raise UsageError("--param {pair!r}: unknown parameter; known: {known}", pair=pair, known=', '.join(sorted(known)))
            try:
                value = float(raw)
            except ValueError:
                raise UsageError("--param {pair!r}: the value must be a number, like {name}=0.5", pair=pair, name=name) from None
            if not sep or value < 0 or (name != "wolf_tell" and value > 1):
                if name == "wolf_tell":
                    raise UsageError("--param {pair!r}: give {name}=P with P from 0 to 1 (wolf_tell: any weight from 0)",
                                     pair=pair, name=name)
                raise UsageError("--param {pair!r}: give {name}=P with P from 0 to 1", pair=pair, name=name)
            values[name] = value
        return replace(cls(), **values)

    def to_dict(self) -> dict[str, float]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


class InformedPolicy(RandomPolicy):
    """Players who play like people: the Werewolves know each other, the powers are used on purpose.

    What the village knows is public: Werewolves named by the Seer or the Little Girl, and players the
    Seer has cleared. What each villager feels is modelled by `wolf_tell` (a slightly better than
    chance nose for Werewolves) and `herd` (following the leading candidate).
    """

    name = "informed"

    def __init__(self, params: InformedParams | None = None) -> None:
        self.p = params or InformedParams()
        self.found: dict[int, bool] = {}  # the Seer's private findings: seat -> is a Werewolf
        self.named: set[int] = set()  # Werewolves named publicly
        self.cleared: set[int] = set()  # players the Seer has publicly cleared
        self.seer_spoke = False
        self.spotted: set[int] = set()  # the Little Girl's private findings

    def new_game(self, game: Game, rng: random.Random) -> None:
        self.found, self.named, self.cleared, self.spotted = {}, set(), set(), set()
        self.seer_spoke = False

    # ---- helpers --------------------------------------------------------------------

    def _wolf(self, game: Game, seat: int) -> bool:
        """A pack member (a Werewolf card, the Big Bad Wolf, an infected player...): they know each other."""
        return game.is_pack(seat)

    def _suspect(
        self, game: Game, rng: random.Random, among: Sequence[int], exclude: int | None = None, named_first: bool = True,
    ) -> int | None:
        """A villager's suspect among `among`: a named Werewolf if any (`named_first`), else by nose (`wolf_tell`)."""
        pool = [c for c in among if c != exclude and c not in self.cleared] or [c for c in among if c != exclude]
        if not pool:
            return None
        named = [c for c in pool if c in self.named] if named_first else []
        if named:
            return pick(rng, named)
        tell = self.p.wolf_tell
        return weighted(rng, pool, [tell if game.is_pack(c) else 1.0 for c in pool])

    # ---- the night ------------------------------------------------------------------

    def thief(self, game: Game, rng: random.Random) -> int:
        extra = game.state.extra
        wolves = [i + 1 for i, r in enumerate(extra) if r in hooks.PACK]
        if len(wolves) == 2:
            return pick(rng, (1, 2))
        powers = [i + 1 for i, r in enumerate(extra) if r is not _ROLE_VILLAGER and r not in hooks.PACK]
        if powers and rng.random() < self.p.thief_takes_power:
            return pick(rng, powers)
        return 0

    def seer(self, game: Game, rng: random.Random) -> int:
        targets = [t for t in game.seer_targets() if t not in self.found and t not in self.named]
        target = pick(rng, targets or game.seer_targets())
        self.found[target] = self._wolf(game, target)
        return target

    def wolves(self, game: Game, rng: random.Random) -> int | None:
        targets = game.wolf_targets()
        if not targets:
            return None
        seer = game.living_holder(_ROLE_SEER)
        if self.seer_spoke and seer in targets and rng.random() < self.p.wolves_kill_revealed_seer:
            return seer
        return pick(rng, targets)

    def witch(self, game: Game, rng: random.Random) -> tuple[bool, int | None]:
        view = _witch.view(game)
        s = game.state
        witch = game.living_holder(_ROLE_WITCH)
        heal = False
        if view.can_heal:
            chance = self.p.witch_heal_first_night if s.night == 1 else self.p.witch_heal_later
            heal = rng.random() < chance
        poison: int | None = None
        if view.can_poison and view.targets:
            named = [t for t in view.targets if t in self.named and t != witch]
            if named:
                poison = pick(rng, named)
            elif s.night > 1 and rng.random() < self.p.witch_poison:
                others = [t for t in view.targets if t != witch and t != (view.victim if heal else None)]
                poison = self._suspect(game, rng, others)
        return heal, poison

    def dawn(self, game: Game, rng: random.Random) -> None:
        """What the village learns by day: the Seer may speak; the Little Girl tells what she saw."""
        s = game.state
        girl = game.living_holder(_ROLE_LITTLE_GIRL)
        if girl is not None:
            if s.night >= 1 and rng.random() < self.p.little_girl_spots:
                wolves = game.living_wolves()
                if wolves:
                    self.spotted.add(pick(rng, wolves))
            self.named |= self.spotted
        seer = game.living_holder(_ROLE_SEER)
        if seer is not None and not self.seer_spoke:
            if any(w and s.alive[t - 1] for t, w in self.found.items()) and rng.random() < self.p.seer_reveal:
                self.seer_spoke = True
        if seer is not None and self.seer_spoke:
            for t, w in self.found.items():
                (self.named if w else self.cleared).add(t)

    # ---- the day --------------------------------------------------------------------

    def votes(self, game: Game, rng: random.Random) -> dict[int, int | None]:
        # The simulator's hot path: what does not depend on the voter is worked out once per round,
        # and every draw is made in the same order, from the same lists, as one voter at a time would.
        s = game.state
        candidates = s.candidates
        roles = s.roles
        wolf = _ROLE_WEREWOLF
        p = self.p
        named_seats, cleared = self.named, self.cleared
        wolves = [v for v in s.ballot_voters if roles[v - 1] is wolf]
        captain_round = s.ballot in (_BALLOT_CAPTAIN, _BALLOT_CAPTAIN_REVOTE)
        campaign = captain_round and rng.random() < p.wolves_campaign
        innocents = [c for c in candidates if roles[c - 1] is not wolf]
        named_candidates = [c for c in candidates if c in named_seats]
        # `_suspect(game, rng, candidates, voter, False)` for every voter: its pool before the voter is left out.
        unclear = [c for c in candidates if c not in cleared]
        # A Captain round's trusted candidates before the voter is left out (the same list, in order).
        unnamed = [c for c in candidates if c not in named_seats] if captain_round else []
        tell = p.wolf_tell
        weight = {c: tell if roles[c - 1] is wolf else 1.0 for c in candidates}
        rand = rng.random
        ballot: dict[int, int | None] = {}
        counts: dict[int, int] = {}
        # The leading candidate so far: the most votes, the first to get them on a tie (as `max` over `counts`).
        leader, most = 0, 0
        first_vote: dict[int, int] = {}
        for voter in s.ballot_voters:
            if voter in wolves and (campaign or not captain_round):
                continue
            named = [c for c in named_candidates if c != voter] if named_candidates else named_candidates
            target: int | None
            if named and not captain_round and rand() < p.follow_reveal:
                target = pick(rng, named)
            elif counts and rand() < p.herd:
                if leader != voter:
                    target = leader
                else:
                    target = _by_nose(rng, unclear, candidates, voter, weight) or leader
            elif captain_round:
                trusted = [c for c in unnamed if c != voter]
                target = pick(rng, trusted or list(candidates))
            else:
                target = _by_nose(rng, unclear, candidates, voter, weight) or pick(rng, candidates)
            ballot[voter] = target
            n = counts[target] = counts.get(target, 0) + 1
            if n == 1:
                first_vote[target] = len(first_vote)
            if n > most or (n == most and first_vote[target] < first_vote[leader]):
                leader, most = target, n
        if wolves and (campaign or not captain_round):
            block: int | None
            if captain_round:
                block = pick(rng, [c for c in candidates if self._wolf(game, c)] or list(candidates))
            else:
                village_pick = [c for c in sorted(counts, key=lambda c: -counts[c]) if c in innocents]
                if village_pick and rng.random() < self.p.wolves_bandwagon:
                    block = village_pick[0]
                else:
                    block = pick(rng, innocents) if innocents else None  # never a vote against a Werewolf
            for w in wolves:
                ballot[w] = block
        angel = game.living_holder(_ROLE_ANGEL) if _ROLE_ANGEL in s.possible and not captain_round else None
        if angel is not None and angel in s.ballot_voters and angel in candidates and game.team_of(angel) is _TEAM_ANGEL:
            ballot[angel] = angel  # still in his first turn, the Angel wants to be voted out
        return ballot

    def tiebreak(self, game: Game, rng: random.Random) -> int:
        s = game.state
        captain = s.captain
        candidates = s.candidates
        if captain is not None and self._wolf(game, captain):
            innocents = [c for c in candidates if not self._wolf(game, c)]
            return pick(rng, innocents or list(candidates))
        return self._suspect(game, rng, candidates, captain) or pick(rng, candidates)

    def hunter(self, game: Game, rng: random.Random) -> int:
        targets = game.hunter_targets()
        if rng.random() < self.p.hunter_aims:
            return self._suspect(game, rng, targets) or pick(rng, targets)
        return pick(rng, targets)

    def successor(self, game: Game, rng: random.Random) -> int:
        s = game.state
        living = game.living()
        previous = s.awaiting_seat
        if previous is not None and self._wolf(game, previous):
            wolves = [p for p in living if self._wolf(game, p)]
            return pick(rng, wolves or list(living))
        trusted = [p for p in living if p in self.cleared] or [p for p in living if p not in self.named]
        return pick(rng, trusted or list(living))


def _by_nose(
    rng: random.Random, unclear: list[int], candidates: Sequence[int], voter: int, weight: Mapping[int, float],
) -> int | None:
    """`InformedPolicy._suspect(game, rng, candidates, voter, named_first=False)` with the round's
    uncleared candidates and each candidate's weight worked out once: the same pool, the same draw."""
    pool = [c for c in unclear if c != voter] or [c for c in candidates if c != voter]
    if not pool:
        return None
    return weighted(rng, pool, [weight[c] for c in pool])


POLICIES: Mapping[str, type[RandomPolicy]] = {
    "random": RandomPolicy,
    "random-votes": RandomVotesPolicy,
    "informed": InformedPolicy,
}


def make_policy(name: str, params: InformedParams | None = None) -> RandomPolicy:
    if name == "informed":
        return InformedPolicy(params)
    return POLICIES[name]()


def play_night(game: Game, rng: random.Random, policy: Policy) -> None:
    """One night: every living role acts as the policy decides. A game that opens with a Day 0
    (the Angel is possible) plays it first."""
    if game.day_zero_due():
        game.open_day_zero()
        play_day(game, rng, policy)
        if game.outcome is not None:
            return
    game.begin_night()
    s = game.state
    if s.night == 1:
        if game.living_holder(_ROLE_THIEF):
            game.thief_choose(policy.thief(game, rng))
        if game.living_holder(_ROLE_CUPID):
            game.cupid_choose(*policy.lovers(game, rng))
        if game.captain_election_due():
            game.open_captain_election()
            settle(game, rng, policy)
    powers = _powers_of(s.possible)
    if s.took_day and s.night == s.took_day + 1:
        _reset(game, rng)
    if powers:
        _use_powers(game, rng, powers, SEER_ORDER)
    # A Seer left alone (the Knight's diseased wolf died at dusk, the end is checked at dawn) has
    # nobody to look at: like a table's Seer, she lets her turn run out.
    if game.living_holder(_ROLE_SEER) and len(game.living()) > 1:  # `seer_targets()` not empty
        game.seer_inspect(policy.seer(game, rng))
    if powers:
        _use_powers(game, rng, powers, WOLVES_ORDER)
    if game.pack_alive():
        game.wolves_choose(policy.wolves(game, rng))
    if powers:
        _use_powers(game, rng, powers, WITCH_ORDER)
    if game.living_holder(_ROLE_WITCH):
        game.witch_act(*policy.witch(game, rng))
    if powers:
        _use_powers(game, rng, powers, float("inf"))
    game.dawn()
    settle(game, rng, policy)
    policy.dawn(game, rng)


SEER_ORDER = 12.0  # the catalogue's powers before the Seer are played before her (merged night order)
WOLVES_ORDER = 14.0  # those between the Seer and the pack (the Fox) before the pack
WITCH_ORDER = 19.0  # those between the pack and the Witch (the Accursed Wolf-Father, the Big Bad Wolf) before her
# The catalogue's powers of the possible roles, in the night's order, by the game's possible roles;
# the base game's (the Thief's, Cupid's, the Seer's, the Witch's) are the policy's own decisions.
_POWERS: dict[frozenset[Role], list[Power]] = {}
_DECIDED = frozenset({"thief", "cupid", "seer", "witch"})


def _powers_of(possible: frozenset[Role]) -> list[Power]:
    powers = _POWERS.get(possible)
    if powers is None:
        powers = [p for p in sorted(hooks.POWERS.values(), key=lambda p: p.order)
                  if p.role in possible and p.call not in _DECIDED]
        if len(_POWERS) < 1024:
            _POWERS[possible] = powers
    return powers


def _use_powers(game: Game, rng: random.Random, powers: list[Power], before: float) -> None:
    """The catalogue's night powers due before `before`: a living holder picks at random among the
    legal choices (no choice when there are too few)."""
    s = game.state
    for power in powers:
        if power.order >= before or step_of(power.order) <= s.step:
            continue
        if power.role not in s.possible or not power.called(s.options, s.night):
            continue  # not possible, or not one of its nights (the White Werewolf's, the Sisters')
        seat = game.living_holder(power.role)
        if seat is None:
            continue
        choices = power.targets(game, seat)
        count = power.count if power.count_of is None else power.count_of(game, seat)
        if count and len(choices) >= count:
            game.use_power(power.call, rng.sample(choices, count))


def _reset(game: Game, rng: random.Random) -> None:
    """The night after a takeover: the Devoted Servant plays her new card's first-night power."""
    taker = game.taker()
    if taker is None or not game.is_alive(taker):
        return
    for power in _powers_of(game.state.possible):
        if power.first_night_only and game.state.roles[taker - 1] is power.role:
            choices = power.targets(game, taker)
            if len(choices) >= power.count:
                game.use_power(power.call, rng.sample(choices, power.count), reset=True)
            return


def play_day(game: Game, rng: random.Random, policy: Policy) -> None:
    if game.captain_election_due():
        game.open_captain_election()
        settle(game, rng, policy)
    if game.state.outcome is None:
        game.open_vote()
        if game.sign_taken() and game.state.ballot_voters and rng.random() < SIGN_CHANCE:
            # Any voter may press the sign's key; it counts only for the Stuttering Judge.
            game.signal_second_vote(rng.choice(game.state.ballot_voters))
        settle(game, rng, policy)
    if game.state.outcome is None and game.second_vote_due():
        game.open_vote()
        settle(game, rng, policy)


SIGN_CHANCE = 0.3  # how often a voter gives the Stuttering Judge's sign in the first vote


def settle(game: Game, rng: random.Random, policy: Policy) -> None:
    """Answer whatever the game awaits (votes, tie-break, Hunter, successor) until it awaits nothing."""
    s = game.state
    while s.outcome is None:
        waiting = s.awaiting
        if waiting is _AWAITING_NOTHING:
            return
        if waiting is _AWAITING_VOTE:
            game.cast_votes(policy.votes(game, rng), rng)
        elif waiting is _AWAITING_TIEBREAK:
            game.break_tie(policy.tiebreak(game, rng))
        elif waiting is _AWAITING_HUNTER:
            game.hunter_shoot(policy.hunter(game, rng))
        elif waiting is _AWAITING_SUCCESSOR:
            game.name_successor(policy.successor(game, rng))
        elif waiting is _AWAITING_VOTERS:
            # The Scapegoat's list: he cannot tell friend from foe, so he lets everyone vote.
            game.designate_voters(None)
        elif waiting is _AWAITING_WINDOW:
            game.take_card(policy.window(game, rng))


__all__ = [
    "Ballot", "InformedParams", "InformedPolicy", "POLICIES", "Policy", "RandomPolicy", "RandomVotesPolicy",
    "make_policy", "pick", "play_day", "play_night", "settle",
]
