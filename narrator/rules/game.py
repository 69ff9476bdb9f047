"""The game itself: actions are validated, become events, and events are folded into the state.

`Game` is a `GameView` (narrator/rules/view.py: the state, the events, the queries) that also acts:
each action is a function of the view and of the game's event sink, written by subject in
narrator/rules/night.py (the night's steps and the catalogue's powers), dawn.py (dawn's deaths),
chains.py (chain reactions, the answers they wait for, the end of a resolution) and votes.py (the
day's votes and the card-taking window). Every action first checks everything it needs (raising a
`RulesError` that quotes the input, with the state untouched), then emits events, which only the
folds of narrator/rules/fold.py turn into state. `Game.replay(events)` folds the same events into
an equal state. No I/O, no clock, no global random: a draw takes a `random.Random` from the caller.
"""

from __future__ import annotations

import random
from typing import Iterable, Mapping, Sequence

from narrator.rules import chains, dawn, hooks, night, votes as voting
from narrator.rules import ends as ends  # noqa: F401  (declares the end check's base rows)
from narrator.rules.composition import Deal, check_players, deck_of, validate
from narrator.rules.errors import CompositionError, RulesError
from narrator.rules.events import Event, GameStarted
from narrator.rules.fold import APPLY
from narrator.rules.options import Options
from narrator.rules.roles import Role, Team
from narrator.rules.state import RESET_ORDER, Awaiting, Outcome, Phase, State, Step, step_of
from narrator.rules.state import _ROLE_SEER, _ROLE_THIEF, _ROLE_VILLAGER
from narrator.rules.view import GameView

__all__ = ["RESET_ORDER", "Awaiting", "Game", "Outcome", "Phase", "State", "Step", "step_of"]


class Game(GameView):
    """One game of Werewolf, driven by actions, recorded as events."""

    __slots__ = ()

    def __init__(self, started: GameStarted) -> None:
        # Its roles' hooks: those of the possible roles only (made once per set of roles).
        super().__init__(
            State(
                players=started.players,
                roles=list(started.roles),
                extra=list(started.extra),
                possible=started.possible,
                options=started.options,
                laid=started.laid,
                alive=[True] * started.players,
                living=tuple(range(1, started.players + 1)),
            ),
            hooks.of_game(started.possible),
            hooks.PACK,
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
        for check in chosen_hooks.setup_checks:
            problem = check(players, chosen, opts)
            if problem is not None:
                raise problem
        laid = tuple(card for lay in chosen_hooks.laid for card in lay(chosen, opts)) if chosen_hooks.laid else ()
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

    # ---- the fold: the game's event sink --------------------------------------------------

    def _record(self, event: Event) -> None:
        APPLY[type(event)](self.state, event)
        self.events.append(event)

    # ---- the night (narrator/rules/night.py) ----------------------------------------------

    def begin_night(self) -> None:
        night.begin_night(self, self._record)

    def open_day_zero(self) -> None:
        """The game opens with a day (the Angel is possible): Captain election, debate, vote."""
        night.open_day_zero(self, self._record)

    def wolves_choose(self, target: int | None) -> None:
        """The Werewolves' victim by consensus; None means no consensus (no victim)."""
        night.wolves_choose(self, self._record, target)

    def use_power(self, call: str, targets: Sequence[int], reset: bool = False) -> Role | Team | None:
        """A role's night call answered (narrator/roles/<role>.py): its choice, as its `Power`
        reads it; returns what the chooser is shown at once (the Seer's look), else None.

        `reset`: answered in the `devoted_servant_reset` call, the night after a takeover, by the
        Devoted Servant for the first-night power of the card she took (docs/rules-spec.md)."""
        return night.use_power(self, self._record, call, targets, reset)

    def targets(self, call: str) -> tuple[int, ...]:
        """The seats a night power may choose now (its living holder's choices)."""
        power = hooks.POWERS[call]
        return power.targets(self, self.living_holder(power.role) or 0)

    # The base game's roles by the names of their actions (their rules: narrator/roles/<role>.py).

    def thief_choose(self, card: int) -> None:
        """The Thief keeps his card (0) or takes extra card 1 or 2; two Werewolves force a take."""
        night.use_power(self, self._record, "thief", (card,))

    def cupid_choose(self, first: int, second: int) -> None:
        night.use_power(self, self._record, "cupid", (first, second))

    def seer_inspect(self, target: int) -> Role | Team | None:
        """What the Seer is shown of `target`; None when her power is lost (she sees nothing)."""
        return night.use_power(self, self._record, "seer", (target,))

    def seer_targets(self) -> tuple[int, ...]:
        return hooks.POWERS["seer"].targets(self, self.living_holder(_ROLE_SEER) or 0)

    def witch_act(self, heal: bool, poison: int | None, saved: int | None = None) -> None:
        """`saved`: whom she heals among the devoured; without it, the pack's victim if he can be
        healed, else the first of them in seat order. Her choice as her power reads it: heal (1 or
        0), the seat saved (0: as just said), then the seat poisoned if any."""
        night.use_power(self, self._record, "witch", (int(heal), saved or 0, *(() if poison is None else (poison,))))

    # ---- dawn and the chain reactions (narrator/rules/dawn.py, chains.py) -----------------

    def dawn(self) -> None:
        """End the night: its deaths, then their chain reactions (docs/rules-spec.md#dawn)."""
        dawn.dawn(self, self._record)

    def hunter_shoot(self, target: int | None) -> None:
        """The dead Hunter's last shot; None when he let it pass (no answer in time)."""
        chains.answer(self, self._record, Awaiting.HUNTER, None if target is None else (target,))

    def name_successor(self, successor: int | None) -> None:
        """The dead Captain names a living successor; None leaves the office vacant."""
        chains.name_successor(self, self._record, successor)

    def designate_voters(self, seats: Sequence[int] | None) -> None:
        """The dead Scapegoat names who may vote the next day; None (no answer) sets no restriction."""
        chains.answer(self, self._record, Awaiting.VOTERS, None if seats is None else tuple(seats))

    # ---- the day (narrator/rules/votes.py) ------------------------------------------------

    def open_captain_election(self) -> None:
        voting.open_captain_election(self, self._record)

    def open_vote(self) -> None:
        voting.open_vote(self, self._record)

    def signal_second_vote(self, voter: int) -> None:
        """A voter's secret sign during the day's first vote (the Stuttering Judge's key)."""
        voting.signal_second_vote(self, self._record, voter)

    def cast_votes(self, votes: Mapping[int, int | None], rng: random.Random | None = None) -> None:
        """One round of votes: voter -> target (None abstains; a voter left out abstains).

        `rng` is needed only for the draw that ends a Captain election still tied after a revote."""
        voting.cast_votes(self, self._record, votes, rng)

    def break_tie(self, seat: int | None) -> None:
        """The Captain chooses among the tied; None (no answer) sends the tied to a revote."""
        voting.break_tie(self, self._record, seat)

    def take_card(self, taker: int | None) -> None:
        """The card-taking window closes: `taker` takes the designated player's card, or None."""
        voting.take_card(self, self._record, taker)


def _names(roles: Iterable[Role]) -> str:
    return "(" + ", ".join(r.value for r in roles) + ")"
