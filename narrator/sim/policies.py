"""Automatic players: each decision drawn from the legal options with a passed-in random source."""

from __future__ import annotations

import random
from typing import Protocol, Sequence, TypeVar

from narrator.rules import Awaiting, Ballot, Game, Role

T = TypeVar("T")


def pick(rng: random.Random, seq: Sequence[T]) -> T:
    """One element, uniformly: `rng.choice` without its rejection loop (the simulator's hot path)."""
    return seq[int(rng.random() * len(seq))]


class Policy(Protocol):
    """How automatic players answer every question the game asks."""

    name: str

    def votes(self, game: Game, rng: random.Random) -> dict[int, int | None]: ...


class RandomPolicy:
    """Every decision uniform over its legal options; the day's vote cast as a block."""

    name = "random"

    def votes(self, game: Game, rng: random.Random) -> dict[int, int | None]:
        s = game.state
        target = pick(rng, s.candidates)
        return dict.fromkeys(s.voters, target)


class RandomVotesPolicy(RandomPolicy):
    """As `random`, but each voter votes alone for a random other candidate."""

    name = "random-votes"

    def votes(self, game: Game, rng: random.Random) -> dict[int, int | None]:
        s = game.state
        candidates = s.candidates
        n = len(candidates)
        rand = rng.random
        ballot: dict[int, int | None] = {}
        for voter in s.voters:
            # Uniform over the other candidates: draw again on oneself (a lone candidate is voted anyway).
            target = candidates[int(rand() * n)]
            while target == voter and n > 1:
                target = candidates[int(rand() * n)]
            ballot[voter] = target
        return ballot


POLICIES: dict[str, type[RandomPolicy]] = {"random": RandomPolicy, "random-votes": RandomVotesPolicy}


def play_night(game: Game, rng: random.Random, policy: Policy) -> None:
    """One night: every living role acts with a uniformly random legal choice."""
    game.begin_night()
    first = game.state.night == 1
    if first and game.living_holder(Role.THIEF):
        extra = game.state.extra
        options = [1, 2] if all(r is Role.WEREWOLF for r in extra) else [0, 1, 2]
        game.thief_choose(pick(rng, options))
    if first and game.living_holder(Role.CUPID):
        a, b = rng.sample(game.living(), 2)
        game.cupid_choose(a, b)
    if game.captain_election_due():
        game.open_captain_election()
        settle(game, rng, policy)
    if game.living_holder(Role.SEER):
        game.seer_inspect(pick(rng, game.seer_targets()))
    if game.living_wolves():
        targets: list[int | None] = [*game.wolf_targets(), None]
        game.wolves_choose(pick(rng, targets))
    if game.living_holder(Role.WITCH):
        view = game.witch_view()
        heal = rng.random() < 0.5 if view.can_heal else False
        poisons: list[int | None] = [*view.targets, None]
        game.witch_act(heal, pick(rng, poisons))
    game.dawn()
    settle(game, rng, policy)


def play_day(game: Game, rng: random.Random, policy: Policy) -> None:
    if game.captain_election_due():
        game.open_captain_election()
        settle(game, rng, policy)
    if game.outcome is None:
        game.open_vote()
        settle(game, rng, policy)


def settle(game: Game, rng: random.Random, policy: Policy) -> None:
    """Answer whatever the game awaits (votes, tie-break, Hunter, successor) until it awaits nothing."""
    s = game.state
    while s.outcome is None:
        waiting = s.awaiting
        if waiting is Awaiting.NOTHING:
            return
        if waiting is Awaiting.VOTE:
            game.cast_votes(policy.votes(game, rng), rng)
        elif waiting is Awaiting.TIEBREAK:
            game.break_tie(pick(rng, s.candidates))
        elif waiting is Awaiting.HUNTER:
            game.hunter_shoot(pick(rng, game.hunter_targets()))
        elif waiting is Awaiting.SUCCESSOR:
            game.name_successor(pick(rng, game.living()))


__all__ = ["Ballot", "POLICIES", "Policy", "RandomPolicy", "RandomVotesPolicy", "play_day", "play_night", "settle"]
