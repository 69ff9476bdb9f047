"""Seeded games of every role, played by the simulator's automatic players, and a digest of each
game's event stream: the engine's behaviour written down, so that a change of its structure can be
shown to change no game (tests/rules/test_rules_seeded_games.py).

The games are drawn from tables frozen in the data file (the roles and their copies, every option
and its values, as they were when the digests were recorded), not from the code's own tables: moving
an option or a role's declaration elsewhere draws the same games. Each role has its own random
source, so the games of one role do not depend on the others'.

Record again (only when a game is meant to change, and say why in the commit):

    .venv/bin/python tests/rules/seeded_games.py --games 300
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import hashlib
import json
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

if __name__ == "__main__":  # run as a script from the checkout: its own package
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from narrator.errors import NarratorError
from narrator.rules import Game, Options, Role, complete, deal
from narrator.rules.codec import event_to_dict
from narrator.rules.events import Event
from narrator.sim.policies import make_policy, play_day, play_night

DATA = Path(__file__).resolve().parent / "data" / "seeded_games.json"
SEED = 35
POLICIES = ("random", "random-votes", "informed")
MAX_NIGHTS = 60  # a game still going after this many nights is a bug of the engine (the simulator's bound)


@dataclass(frozen=True)
class Spec:
    """One game: the table, its deck, the options that differ from the defaults, the seed of its deal and play."""

    role: str
    players: int
    deck: tuple[tuple[str, int], ...]
    options: tuple[tuple[str, Any], ...]
    policy: str
    seed: int

    def describe(self) -> str:
        deck = ",".join(f"{r}={n}" for r, n in self.deck)
        options = " ".join(f"{k}={v}" for k, v in self.options)
        return f"{self.players} players, {deck}, policy {self.policy}, seed {self.seed}, options: {options or '-'}"


def frozen_tables() -> dict[str, Any]:
    """Today's roles (with their copies) and options (with their values), as the data file keeps them."""
    import dataclasses

    from narrator.roles import CARDS
    from narrator.roles.actor import DEFAULT as ACTOR_CARDS
    from narrator.rules.options import CHOICES, NUMBERS, TEXTS

    options: list[list[Any]] = []
    for f in dataclasses.fields(Options):
        if f.name in CHOICES:
            options.append([f.name, "word", list(CHOICES[f.name])])
        elif f.name in NUMBERS:
            options.append([f.name, "number", list(NUMBERS[f.name])])
        elif f.name in TEXTS:
            options.append([f.name, "text", []])
        else:
            options.append([f.name, "bool", [False, True]])
    return {
        "roles": [[r.value, CARDS[r].copies or 1] for r in CARDS],
        "options": options,
        "actor_cards": [",".join(ACTOR_CARDS), "seer,witch,hunter,little_girl,savior,raven", "savior,raven,witch",
                        "hunter,seer"],
    }


def draw_options(tables: dict[str, Any], rng: random.Random, players: int) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name, kind, allowed in tables["options"]:
        if kind == "bool":
            values[name] = rng.random() < 0.5
        elif kind == "text":
            if name == "sectarian_groups":
                values[name] = rng.choice(["", "".join(rng.choice("AB") for _ in range(players - 2)) + "AB"])
            elif name == "actor_cards":
                values[name] = rng.choice(tables["actor_cards"])
            else:
                raise AssertionError(f"option {name}: no draw for a text option")
        else:
            values[name] = rng.choice(allowed)
    return values


def specs(tables: dict[str, Any], role: str, count: int, seed: int = SEED) -> Iterator[Spec]:
    """`count` games whose deck holds `role`: 8 to 18 players, some Werewolves, up to eight other
    cards, every option drawn, the three automatic players in turn."""
    rng = random.Random(f"{seed}:{role}")
    copies = dict((r, n) for r, n in tables["roles"])
    others = [r for r, _ in tables["roles"] if r not in (role, "villager", "werewolf")]
    made = 0
    while made < count:
        players = rng.randint(8, 18)
        values = draw_options(tables, rng, players)
        named: dict[str, int] = {"werewolf": rng.randint(1, max(1, players // 4))}
        for card in [role, *rng.sample(others, rng.randint(0, 8))]:
            if card != "werewolf":
                named[card] = copies[card]
        game_seed = rng.randrange(2**32)
        try:
            options = Options(**values)
            deck = complete(players, {Role(r): n for r, n in named.items()}, options)
        except NarratorError:
            continue
        defaults = Options()
        changed = tuple((k, v) for k, v in values.items() if getattr(defaults, k) != v)
        yield Spec(role, players, tuple((r.value, n) for r, n in deck.items()), changed, POLICIES[made % len(POLICIES)],
                   game_seed)
        made += 1


def play(spec: Spec) -> list[Event]:
    """The whole game, as the simulator plays it (its night, its day, its automatic players)."""
    rng = random.Random(spec.seed)
    options = Options().with_values(dict(spec.options))
    game = Game.start(deal(spec.players, {Role(r): n for r, n in spec.deck}, rng, options), options)
    policy = make_policy(spec.policy)
    policy.new_game(game, rng)
    while game.outcome is None:
        if game.state.night >= MAX_NIGHTS:
            raise AssertionError(f"the game never ends: {spec.describe()}")
        play_night(game, rng, policy)
        if game.outcome is None:
            play_day(game, rng, policy)
    return list(game.events)


def digest(events: list[Event]) -> str:
    """The event stream as the journal writes it, hashed (16 hex digits a game)."""
    # `frozen_options` over the events that may hold a table only: on any other it returns a copy of
    # what it is given (the same text), and a game has thousands of events and one table.
    plain = [frozen_options(d) if type(e) in _WITH_TABLES else d for e, d in zip(events, map(event_to_dict, events))]
    text = json.dumps(plain, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _may_hold_a_table(kind: type) -> bool:
    """An event type with a field whose journal form may be a table (`codec._plain`: Options is
    written as one): any field not declared as a number, a text, a yes/no, an enum or a tuple of
    such counts, so that a new kind of field is walked rather than missed."""
    plain = re.compile(r"(int|str|bool|None|Role|Cause|Ballot|Side|Team|tuple\[|\]|,|\.\.\.|\||\s)*")
    return any(not plain.fullmatch(str(f.type)) for f in dataclasses.fields(kind))


_WITH_TABLES = frozenset(kind for kind in Event.__args__ if _may_hold_a_table(kind))  # type: ignore[attr-defined]


@functools.cache
def known_options() -> frozenset[str]:
    """The options of the frozen tables (the data file's), those the games draw."""
    return frozenset(name for name, _, _ in load()["tables"]["options"])


def frozen_options(value: Any) -> Any:
    """`value` with every `options` table cut to the frozen tables' options: an option added since
    is at its default in every one of these games, and its key alone changes no game."""
    if isinstance(value, dict):
        known = known_options()
        return {k: ({n: o for n, o in v.items() if n in known} if k == "options" and isinstance(v, dict)
                    else v if type(v) in _SCALARS else frozen_options(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [v if type(v) in _SCALARS else frozen_options(v) for v in value]
    return value


# Values that hold no table: returned as they are without a call (a stream holds millions of them).
_SCALARS = (str, int, float, bool, type(None))


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


def record(games: int) -> dict[str, Any]:
    tables = frozen_tables()
    digests = {role: [digest(play(spec)) for spec in specs(tables, role, games)] for role, _ in tables["roles"]}
    return {"seed": SEED, "games": games, "tables": tables, "digests": digests}


def main() -> int:
    parser = argparse.ArgumentParser(description="Record the digests of the seeded games of every role.")
    parser.add_argument("--games", type=int, default=300, help="games a role (default 300)")
    args = parser.parse_args()
    data = record(args.games)
    DATA.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=None, separators=(",", ":"))
    # One role a line: a diff names the roles whose games changed.
    text = text.replace('],"', '],\n"')
    DATA.write_text(text + "\n", encoding="utf-8")
    total = sum(len(v) for v in data["digests"].values())
    print(f"{total} games of {len(data['digests'])} roles recorded in {DATA}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
