"""Run many games with automatic players; the same seed gives the same result whatever the jobs."""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Callable, Mapping

from narrator.errors import NarratorError
from narrator.rules import Game, Options, Role, Side, deal
from narrator.sim.policies import InformedParams, Policy, make_policy, play_day, play_night

# A game that has not ended after this many nights is a bug, not a long game.
MAX_NIGHTS = 500


@dataclass(frozen=True)
class SimConfig:
    players: int
    deck: Mapping[Role, int]
    options: Options
    policy: str
    seed: int
    params: InformedParams | None = None  # the informed players' behaviours (None: the defaults)


@dataclass
class Tally:
    games: int = 0
    wins: dict[str, int] = field(default_factory=lambda: {side.value: 0 for side in Side})
    days: int = 0

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.days += other.days
        for side, n in other.wins.items():
            self.wins[side] += n


def game_rng(seed: int, index: int) -> random.Random:
    """Each game's own random source, from the run's seed and the game's number alone."""
    return random.Random(f"narrator-sim:{seed}:{index}")


def play_one(config: SimConfig, index: int, policy: Policy | None = None) -> Game:
    rng = game_rng(config.seed, index)
    pol = policy or make_policy(config.policy, config.params)
    game = Game.start(deal(config.players, config.deck, rng, config.options), config.options)
    pol.new_game(game, rng)
    s = game.state
    while s.outcome is None:
        if s.night >= MAX_NIGHTS:
            raise NarratorError("game {index} (seed {seed}) did not end within {max_nights} nights",
                                index=index, seed=config.seed, max_nights=MAX_NIGHTS)
        play_night(game, rng, pol)
        if s.outcome is None:
            play_day(game, rng, pol)
    return game


def run_range(config: SimConfig, start: int, stop: int) -> Tally:
    tally = Tally()
    policy = make_policy(config.policy, config.params)
    for index in range(start, stop):
        game = play_one(config, index, policy)
        assert game.outcome is not None
        tally.games += 1
        tally.days += game.state.day
        tally.wins[game.outcome.winner.value] += 1
    return tally


def _run_chunk(args: tuple[SimConfig, int, int]) -> Tally:
    return run_range(*args)


@dataclass(frozen=True)
class SimResult:
    tally: Tally
    seconds: float

    def to_json(self) -> dict[str, object]:
        t = self.tally
        return {
            "games": t.games,
            "wins": {side.value: t.wins[side.value] for side in Side},
            "mean_days": round(t.days / t.games, 4) if t.games else 0.0,
            "seconds": round(self.seconds, 3),
        }


def simulate(
    config: SimConfig,
    games: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> SimResult:
    """Play `games` games; chunks are split by game number, so `jobs` never changes the result."""
    started = time.perf_counter()
    total = Tally()
    chunk = max(1, min(2000, games // max(1, jobs * 4) or 1))
    ranges = [(config, a, min(games, a + chunk)) for a in range(0, games, chunk)]
    if jobs <= 1:
        for r in ranges:
            part = _run_chunk(r)
            total.add(part)
            if progress:
                progress(part.games)
    else:
        from concurrent.futures import ProcessPoolExecutor  # here: it costs `narrator balance` ~30 ms of start-up

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for part in pool.map(_run_chunk, ranges):
                total.add(part)
                if progress:
                    progress(part.games)
    return SimResult(total, time.perf_counter() - started)


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 0.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
