"""Random games of every role of the catalogue: for each card, games whose deck holds it beside
other cards drawn at random, under rule options drawn at random: the history is proven on such
games, not on one hand-picked game.

Everything is derived at run time from the catalogue (`narrator.roles.CARDS`) and the options'
own tables (`narrator.rules.options`): a role or an option value that lands later is drawn with
no edit here. The same `seed` gives the same games.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, Iterator

from narrator.errors import NarratorError
from narrator.roles import CARDS
from narrator.rules import Game, Options, Role, complete, deal
from narrator.rules.options import CHOICES, NUMBERS
from narrator.sim.policies import RandomPolicy, play_day, play_night
from narrator.sim.runner import MAX_NIGHTS


def random_options(rng: random.Random) -> Options:
    """Every option that takes a word, a yes/no or a number, drawn among its allowed values."""
    values: dict[str, Any] = {}
    for f in dataclasses.fields(Options):
        if f.name in CHOICES:
            values[f.name] = rng.choice(CHOICES[f.name])
        elif f.name in NUMBERS:
            values[f.name] = rng.choice(list(NUMBERS[f.name]))
        elif isinstance(f.default, bool):
            values[f.name] = rng.random() < 0.5
    return Options(**values)


def random_deck(role: Role, rng: random.Random, options: Options) -> tuple[int, dict[Role, int]]:
    """A table of 8 to 18 players whose deck holds `role`, some Werewolves and up to eight other cards."""
    others = [r for r in CARDS if r not in (role, Role.VILLAGER, Role.WEREWOLF)]
    while True:
        players = rng.randint(8, 18)
        named: dict[Role, int] = {Role.WEREWOLF: rng.randint(1, max(1, players // 4))}
        for card in [role, *rng.sample(others, rng.randint(0, 8))]:
            if card is not Role.WEREWOLF:
                named[card] = CARDS[card].copies or 1
        try:
            return players, complete(players, named, options)
        except NarratorError:
            continue


def play(players: int, deck: dict[Role, int], options: Options, rng: random.Random) -> Game:
    """One whole game played by random players (the simulator's own night and day)."""
    game = Game.start(deal(players, deck, rng, options), options)
    policy = RandomPolicy()
    policy.new_game(game, rng)
    while game.outcome is None:
        assert game.state.night < MAX_NIGHTS
        play_night(game, rng, policy)
        if game.outcome is None:
            play_day(game, rng, policy)
    return game


def games_of_every_role(per_role: int, seed: int = 23) -> Iterator[tuple[Role, Game]]:
    """`per_role` random games for each card of the catalogue, in the catalogue's order."""
    rng = random.Random(seed)
    for role in CARDS:
        for _ in range(per_role):
            options = random_options(rng)
            players, deck = random_deck(role, rng, options)
            yield role, play(players, deck, options, rng)
