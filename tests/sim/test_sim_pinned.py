"""Seeded simulations pinned: the same seed plays exactly the same games, release after release.

The engine's hot paths are optimised so that `simulate` plays thousands of games a second; an
optimisation must not change a single outcome. Each configuration below plays a few hundred
seeded games through the real engine and compares a digest of every game (the order of its
events, every death with its cause, every count of votes, the winners, the nights and days) with
the value recorded before the optimisations. The shipped balance table
(narrator/sim/balance_table.json) was computed with these same games, which is another reason they
must not drift.

If a rules change is *meant* to change seeded games (a new rule, a new event in the base roles'
games), print the new values with `python tests/sim/test_sim_pinned.py` and say why in the commit.
"""

from __future__ import annotations

import hashlib
import sys
from typing import NamedTuple

import pytest

from narrator.rules import Game, Options, complete, parse_roles
from narrator.rules.events import CaptainElected, PlayerDied, VotesCast
from narrator.sim.policies import make_policy
from narrator.sim.runner import SimConfig, play_one

BASE = "werewolf=3,seer=1,witch=1,hunter=1,cupid=1,little_girl=1,thief=1"
NEW_MOON = "werewolf=3,seer=1,witch=1,hunter=1,savior=1,raven=1,village_idiot=1,cupid=1"


class Case(NamedTuple):
    name: str
    players: int
    roles: str
    options: dict[str, str]
    policy: str
    seed: int
    games: int


CASES = [
    Case("base-random-votes", 12, BASE, {}, "random-votes", 1, 300),
    Case("base-random", 12, BASE, {}, "random", 2, 300),
    Case("base-informed", 12, BASE, {}, "informed", 3, 300),
    Case("runoff-night-election", 10, "werewolf=2,seer,witch,hunter,cupid",
         {"vote_procedure": "runoff", "captain_election": "night1_end", "hunter_shoots_on": "wolves_or_vote"},
         "random-votes", 4, 300),
    Case("accusation-from-deck", 9, "werewolf=2,seer,witch,thief,little_girl",
         {"vote_procedure": "accusation", "thief_extra_cards": "from_deck", "seer_sees": "team",
          "captain_powers": "tiebreak_only", "first_night_kill": "false"},
         "random-votes", 5, 300),
    Case("new-moon-random-votes", 14, NEW_MOON,
         {"idiot_captain_office": "successor", "wolves_win_at_parity": "true"}, "random-votes", 6, 300),
    Case("new-moon-informed", 14, NEW_MOON, {"raven_mark_needs_living_raven": "true"}, "informed", 7, 300),
]


def game_signature(game: Game) -> str:
    """What must not change: the events' order, deaths and causes, vote counts, Captains, the end."""
    parts: list[str] = [type(e).__name__ for e in game.events]
    for e in game.events:
        if isinstance(e, PlayerDied):
            parts.append(f"died {e.seat} {e.cause.value} {e.role.value}")
        elif isinstance(e, VotesCast):
            parts.append(f"votes {e.ballot.value} {e.votes} {e.counts}")
        elif isinstance(e, CaptainElected):
            parts.append(f"captain {e.seat} {e.by_draw}")
    outcome = game.outcome
    assert outcome is not None
    parts.append(f"end {outcome.winner.value} {outcome.winners} night {game.state.night} day {game.state.day}")
    return "\n".join(parts)


def config_of(case: Case) -> SimConfig:
    options = Options().with_values(case.options)
    deck = complete(case.players, parse_roles(case.roles), options)
    return SimConfig(case.players, deck, options, case.policy, case.seed)


def digest(case: Case) -> tuple[str, dict[str, int], int]:
    """(sha256 of every game's signature, the sides that won and how often, the days) of the case's games.

    The games are played as `simulate` plays them (one policy for game after game, so a policy that
    carried anything from one game to the next would change the signatures) and counted here rather
    than played a second time through `simulate`: that `simulate` counts exactly the games `play_one`
    plays, whatever its chunks and jobs, is test_sim_cli's."""
    config = config_of(case)
    policy = make_policy(config.policy, config.params)
    h = hashlib.sha256()
    wins: dict[str, int] = {}
    days = 0
    for index in range(case.games):
        game = play_one(config, index, policy)
        h.update(game_signature(game).encode())
        h.update(b"\0")
        assert game.outcome is not None
        wins[game.outcome.winner.value] = wins.get(game.outcome.winner.value, 0) + 1
        days += game.state.day
    return h.hexdigest()[:24], wins, days


# Recorded at e42f7fb, before the engine's hot paths were optimised.
EXPECTED: dict[str, tuple[str, dict[str, int], int]] = {
    'base-random-votes': ('8c02bef19ccaf436d0c5a389', {'village': 150, 'werewolves': 135, 'lovers': 1, 'nobody': 14}, 1344),
    'base-random': ('36cdbe603bddcfb82621f047', {'village': 156, 'werewolves': 133, 'lovers': 1, 'nobody': 10}, 1287),
    'base-informed': ('8334a141a8a6b53e886c4d86', {'village': 155, 'werewolves': 129, 'lovers': 3, 'nobody': 13}, 1204),
    'runoff-night-election': ('d9c952e2267b7912b39c126d', {'village': 176, 'werewolves': 108, 'lovers': 3, 'nobody': 13}, 963),
    'accusation-from-deck': ('6d4bf9ba0e21ad238e79fc39', {'village': 113, 'werewolves': 187}, 1478),
    'new-moon-random-votes': ('03cb7dfcf3f2a6e36610812e', {'village': 102, 'werewolves': 196, 'lovers': 2}, 1535),
    'new-moon-informed': ('8a060ba4f9a2bfe317eba146', {'village': 158, 'werewolves': 134, 'lovers': 1, 'nobody': 7}, 1514),
}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_seeded_games_are_exactly_the_recorded_ones(case: Case) -> None:
    assert digest(case) == EXPECTED[case.name]


if __name__ == "__main__":
    for c in CASES:
        print(f"    {c.name!r}: {digest(c)!r},", file=sys.stdout)
