"""The balance advisor: the village's chance with informed players, and the nearest fair compositions.

Estimates come from, in order: the user's cache in the data folder (games played on this machine,
accumulated), the table shipped with narrator (`balance_table.json`, default options and parameters,
built by `narrator balance --precompute`), and games played now within a time budget. Every game
played is added to the user's cache, so answers sharpen with use.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping

from narrator.roles import wizard_roles
from narrator.rules import Options, Role
from narrator.rules.composition import complete, describe, suggested_wolves
from narrator.rules.errors import RulesError
from narrator.sim.policies import InformedParams
from narrator.sim.runner import SimConfig, simulate, wilson

FAIR = (0.45, 0.55)
# The special cards the advisor may add, from the role catalogue (the Werewolves are counted apart).
SPECIALS: tuple[Role, ...] = tuple(r for r in wizard_roles() if r is not Role.WEREWOLF)
TABLE = Path(__file__).with_name("balance_table.json")
CACHE_VERSION = 1
MIN_GAMES = 200  # a composition is not judged on fewer games
CHOSEN_GAMES = 1000  # games wanted for the chosen composition (played within the budget, then cached)
BATCH = 100  # games played at a time within the budget


@dataclass(frozen=True)
class Estimate:
    deck: dict[Role, int]
    games: int
    village: int

    @property
    def rate(self) -> float:
        return self.village / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.village, self.games)

    @property
    def fair(self) -> bool:
        return self.games > 0 and FAIR[0] <= self.rate <= FAIR[1]

    def to_json(self) -> dict[str, object]:
        lo, hi = self.interval
        return {"roles": describe(self.deck), "games": self.games, "village_wins": self.village,
                "village_rate": round(self.rate, 4), "interval95": [round(lo, 4), round(hi, 4)]}


@dataclass(frozen=True)
class Advice:
    players: int
    chosen: Estimate
    fair: list[Estimate]
    seconds: float

    def to_json(self) -> dict[str, object]:
        return {"players": self.players, "chosen": self.chosen.to_json(),
                "fair": [e.to_json() for e in self.fair], "seconds": round(self.seconds, 3)}


def key(players: int, deck: Mapping[Role, int], options: Options, params: InformedParams) -> str:
    """The cache key of one table: players, deck, and digests of the options and the players' parameters."""
    return f"v{CACHE_VERSION}|{players}|{describe(deck)}|{_digest(_keyed(options))}|{_digest(params.to_dict())}"


# The options of RULES.md, which every key digests. An option added since (a role's, from the
# catalogue) enters the key only when it is not at its default, so the shipped table stays valid.
KEYED_ALWAYS = frozenset({
    "seer_sees", "witch_sees_victim_after_heal", "hunter_shoots_on", "thief_extra_cards", "captain_election",
    "captain_powers", "lovers_team_if_both_wolves", "first_night_kill", "reveal_role_on_death", "vote_procedure",
    "wolves_win_at_parity",
})


def _keyed(options: Options) -> dict[str, object]:
    defaults = Options().to_dict()
    return {k: v for k, v in options.to_dict().items() if k in KEYED_ALWAYS or v != defaults[k]}


def _digest(values: Mapping[str, object]) -> str:
    return hashlib.sha1(json.dumps(values, sort_keys=True).encode()).hexdigest()[:10]


def cache_path() -> Path:
    from platformdirs import user_data_dir

    base = os.environ.get("NARRATOR_DATA") or user_data_dir("narrator")
    return Path(base) / "balance-cache.json"


class Store:
    """Counts of (games, village wins) per key: the shipped table plus the user's own cache."""

    def __init__(self, path: Path | None = None, shipped: Path | None = TABLE) -> None:
        self.path = path or cache_path()
        self.shipped = _read(shipped) if shipped is not None else {}
        self.own = _read(self.path)
        self.dirty = False

    def get(self, k: str) -> tuple[int, int]:
        a = self.shipped.get(k, (0, 0))
        b = self.own.get(k, (0, 0))
        return a[0] + b[0], a[1] + b[1]

    def add(self, k: str, games: int, village: int) -> None:
        g, v = self.own.get(k, (0, 0))
        self.own[k] = (g + games, v + village)
        self.dirty = True

    def save(self) -> None:
        if not self.dirty:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps({k: list(v) for k, v in sorted(self.own.items())}))
            os.replace(tmp, self.path)
        except OSError:
            pass  # the cache only saves time; the answer stands without it
        self.dirty = False


def _write(path: Path, table: Mapping[str, tuple[int, int]]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text("{\n" + ",\n".join(f"{json.dumps(k)}: {list(v)}" for k, v in sorted(table.items())) + "\n}\n")
    os.replace(tmp, path)


def _read(path: Path | None) -> dict[str, tuple[int, int]]:
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text())
        return {str(k): (int(v[0]), int(v[1])) for k, v in data.items()}
    except (OSError, ValueError, TypeError, IndexError, AttributeError):
        return {}


NEAR = 3  # how far (cards changed, `distance`) `advise` looks for fair decks around the chosen one


def neighbours(players: int, owned: Iterable[Role], options: Options,
               near: Mapping[Role, int] | None = None, reach: int = NEAR) -> list[dict[Role, int]]:
    """Every playable deck for `players` from the owned special roles, with one Werewolf fewer to one
    more than the suggested number (`suggested_wolves`); with `near`, only those within `reach`
    cards of it (every subset of 28 specials is too many to try: the wizard would never answer)."""
    specials = [r for r in SPECIALS if r in set(owned)]
    decks: list[dict[Role, int]] = []
    seen: set[frozenset[tuple[Role, int]]] = set()
    usual = suggested_wolves(players)
    if near is None:
        fit = players + 2  # more special cards than the deck holds (the Thief's two included) never fit
        combos: Iterable[tuple[Role, ...]] = (
            combo for n in range(min(len(specials), fit) + 1) for combo in itertools.combinations(specials, n))
    else:
        base = [r for r in specials if near.get(r, 0) > 0]
        others = [r for r in specials if near.get(r, 0) == 0]
        combos = (
            tuple(r for r in base if r not in removed) + added
            for out in range(min(len(base), reach) + 1) for removed in itertools.combinations(base, out)
            for into in range(reach - out + 1) for added in itertools.combinations(others, into))
    for combo in combos:
        for wolves in range(max(1, usual - 1), usual + 2):
            named = {Role.WEREWOLF: wolves, **{r: 1 for r in combo}}
            try:
                deck = complete(players, named, options)
            except RulesError:
                continue
            if near is not None and distance(deck, near) > reach:
                continue
            k = frozenset(deck.items())
            if k not in seen:
                seen.add(k)
                decks.append(deck)
    return decks


def distance(a: Mapping[Role, int], b: Mapping[Role, int]) -> int:
    """Cards to change to go from one deck to the other (Villagers fill the rest)."""
    roles = (set(a) | set(b)) - {Role.VILLAGER}
    return sum(abs(a.get(r, 0) - b.get(r, 0)) for r in roles)


def changes(a: Mapping[Role, int], b: Mapping[Role, int]) -> str:
    """`-1 werewolf, +1 witch`: what turns deck a into deck b."""
    roles = sorted((set(a) | set(b)) - {Role.VILLAGER}, key=lambda r: r.value)
    parts = [f"{b.get(r, 0) - a.get(r, 0):+d} {r.value}" for r in roles if b.get(r, 0) != a.get(r, 0)]
    return ", ".join(parts) or "none"


def advise(
    players: int,
    deck: Mapping[Role, int],
    options: Options,
    owned: Iterable[Role] = SPECIALS,
    budget: float = 0.8,
    store: Store | None = None,
    params: InformedParams | None = None,
    jobs: int = 1,
    limit: int = 3,
) -> Advice:
    """The chosen deck's estimate, and up to `limit` fair decks nearest to it, within `budget` seconds."""
    started = time.perf_counter()
    params = params or InformedParams()
    store = store or Store()
    deadline = started + budget

    def estimate(d: Mapping[Role, int], seed: int, need: int, deadline: float, at_least: int = 0) -> Estimate:
        k = key(players, d, options, params)
        games, village = store.get(k)
        while games < need and (games < at_least or time.perf_counter() < deadline):
            config = SimConfig(players, dict(d), options, "informed", 1000 + seed * 7919 + games, params)
            tally = simulate(config, BATCH, jobs).tally
            store.add(k, tally.games, tally.wins["village"])
            games, village = games + tally.games, village + tally.wins["village"]
        return Estimate(dict(d), games, village)

    # The chosen deck always gets one batch, however loaded the machine: an estimate of no game
    # would answer nothing (the budget then bounds the rest, not the first batch).
    chosen = estimate(deck, 0, CHOSEN_GAMES, started + budget * 0.4, at_least=BATCH)
    others = [d for d in neighbours(players, owned, options, near=deck) if distance(d, deck) > 0]
    others.sort(key=lambda d: (distance(d, deck), describe(d)))
    fair: list[Estimate] = []
    tier: list[Estimate] = []  # fair decks at the same distance: the closest to even first
    for i, d in enumerate(others, start=1):
        if tier and distance(d, deck) != distance(tier[0].deck, deck):
            fair += sorted(tier, key=lambda e: abs(e.rate - 0.5))
            tier = []
            if len(fair) >= limit:
                break
        e = estimate(d, i, MIN_GAMES, deadline)
        if e.games >= MIN_GAMES and e.fair:  # fewer games: not judged
            tier.append(e)
    fair = (fair + sorted(tier, key=lambda e: abs(e.rate - 0.5)))[:limit]
    store.save()
    return Advice(players, chosen, fair, time.perf_counter() - started)


def precompute(players: Iterable[int], games: int, jobs: int, path: Path = TABLE,
               progress: bool = False) -> int:
    """Fill the shipped table: every neighbour deck of 8–18 players, default options and parameters."""
    options, params = Options(), InformedParams()
    table = _read(path)
    done = 0
    for n in players:
        for d in neighbours(n, SPECIALS, options):
            k = key(n, d, options, params)
            if table.get(k, (0, 0))[0] >= games:
                continue
            tally = simulate(SimConfig(n, d, options, "informed", 1, params), games, jobs).tally
            table[k] = (tally.games, tally.wins["village"])
            done += 1
            if progress:
                print(f"{n} players {describe(d)}: {tally.wins['village'] / tally.games:.1%}", flush=True)
            if done % 20 == 0:
                _write(path, table)
    _write(path, table)
    return done
