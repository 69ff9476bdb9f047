"""The balance advisor: the village's chance with informed players, and the nearest fair compositions.

Estimates are counts of simulated games with informed players (`narrator.sim.policies`), summed from
the table shipped with narrator (`balance_table.json`: default options and parameters, built from the
simulator by `narrator balance --precompute`, game numbers 0, 1, 2... of seed TABLE_SEED for every deck)
and the user's cache in the data folder (the games this machine played, seed OWN_SEED, numbered on from
the games it already has). What neither knows is played now, BATCH games at a time, until its verdict
against the fair band is decided or the time budget runs out; every game played is added to the cache.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping

from narrator.i18n import tr
from narrator.roles import wizard_roles
from narrator.rules import Options, Role
from narrator.rules.composition import complete, default_deck, describe, suggest, suggested_wolves
from narrator.rules.errors import RulesError
from narrator.sim.policies import InformedParams
from narrator.sim.runner import SimConfig, run_range, wilson

FAIR = (0.45, 0.55)
# The special cards the advisor may add, from the role catalogue (the Werewolves are counted apart).
SPECIALS: tuple[Role, ...] = tuple(r for r in wizard_roles() if r is not Role.WEREWOLF)
# The special cards of the original box, for which the shipped table holds every deck of 8-18 players.
BASE_BOX: tuple[Role, ...] = (Role.SEER, Role.WITCH, Role.HUNTER, Role.CUPID, Role.LITTLE_GIRL, Role.THIEF)
TABLE = Path(__file__).with_name("balance_table.json")
CACHE_VERSION = 1
TABLE_SEED = 1  # the shipped table's games: numbers 0, 1, 2... of this seed (`runner.game_rng`)
OWN_SEED = 2  # the user's games: another seed, so that they never repeat the shipped ones
MIN_GAMES = 200  # a composition whose rate is near the band is not judged on fewer games
CHOSEN_GAMES = 1000  # games wanted for the chosen composition (played within the budget, then cached)
BATCH = 50  # games played between two looks at the verdict
STEP = 10  # games played between two looks at the clock (the advisor's own games)
EARLY_Z = 2.576  # a 99% interval decides an unfair deck early (the verdict is looked at every batch)
LIMIT = 3  # fair compositions offered at most
NEAR = 3  # how far (cards changed, `distance`) `advise` looks for fair decks around the chosen one
BUDGET = 0.5  # seconds to play games not known yet (start-up and the first batch come on top)


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
    unweighed: int = 0  # decks as near as the farthest looked at that the time did not let judge
    failed: tuple[str, ...] = ()  # decks the simulator failed on (a bug in it): left out, and said
    searched: int = NEAR  # the fair decks were looked for this many cards away (less: the time ran out)

    def to_json(self) -> dict[str, object]:
        return {"players": self.players, "chosen": self.chosen.to_json(),
                "fair": [e.to_json() for e in self.fair], "unweighed": self.unweighed,
                "failed": list(self.failed), "searched": self.searched, "seconds": round(self.seconds, 3)}


class Keys:
    """The cache keys of one question's decks: players, deck, and digests of the options and the
    players' parameters (worked out once a question, not once a deck)."""

    def __init__(self, players: int, options: Options, params: InformedParams) -> None:
        self.head = f"v{CACHE_VERSION}|{players}|"
        self.tail = f"|{_digest(_keyed(options))}|{_digest(params.to_dict())}"

    def __call__(self, deck: Mapping[Role, int]) -> str:
        return f"{self.head}{describe(deck)}{self.tail}"


def key(players: int, deck: Mapping[Role, int], options: Options, params: InformedParams) -> str:
    """The cache key of one table: players, deck, and digests of the options and the players' parameters."""
    return Keys(players, options, params)(deck)


# The options of docs/rules.md#rule-options, which every key digests. An option added since (a role's, from the
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
        self.shipped = _shipped(shipped) if shipped is not None else {}
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


_SHIPPED: dict[tuple[Path, int], dict[str, tuple[int, int]]] = {}


def _shipped(path: Path) -> dict[str, tuple[int, int]]:
    """The shipped table, read once a process (the wizard asks again at every change of roles)."""
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return {}
    if (path, stamp) not in _SHIPPED:
        _SHIPPED[(path, stamp)] = _read(path)
    return _SHIPPED[(path, stamp)]


def _read(path: Path | None) -> dict[str, tuple[int, int]]:
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text())
        return {str(k): (int(v[0]), int(v[1])) for k, v in data.items()}
    except (OSError, ValueError, TypeError, IndexError, AttributeError):
        return {}


TABLE_NEAR = 2  # how far around each suggested deck the shipped table covers every special role


def every_deck(players: int, specials: Iterable[Role], options: Options) -> list[dict[Role, int]]:
    """Every playable deck for `players` from the given special roles (any subset, each at its copies),
    with one Werewolf fewer to one more than the suggested number (`suggested_wolves`). Only for a few
    roles (the shipped table's base box): 28 specials would make 2^28 subsets."""
    chosen = list(specials)
    fit = players + 2  # more special cards than the deck holds (the Thief's two included) never fit
    usual = suggested_wolves(players)
    decks: list[dict[Role, int]] = []
    seen: set[frozenset[tuple[Role, int]]] = set()
    for n in range(min(len(chosen), fit) + 1):
        for combo in itertools.combinations(chosen, n):
            for wolves in range(max(1, usual - 1), usual + 2):
                named = {Role.WEREWOLF: wolves, **{r: r.copies or 1 for r in combo}}
                _add_new(decks, seen, players, named, options)
    return decks


def _add_new(decks: list[dict[Role, int]], seen: set[frozenset[tuple[Role, int]]], players: int,
             named: Mapping[Role, int], options: Options) -> None:
    """`named` completed with Villagers appended to `decks`, unless it is not playable or already seen."""
    try:
        deck = complete(players, named, options)
    except RulesError:
        return
    k = frozenset(deck.items())
    if k not in seen:
        seen.add(k)
        decks.append(deck)


def tiers(players: int, near: Mapping[Role, int], owned: Iterable[Role], options: Options,
          reach: int = NEAR, until: float | None = None) -> Iterator[list[dict[Role, int]]]:
    """The playable decks 1, 2, ... `reach` cards (`distance`) from `near`, one list a distance: some of
    its special roles taken out, owned ones put in (each at its copies), one Werewolf more or fewer a card
    left, the Werewolves staying within one of the suggested number (or at the chosen number). Lazy: a
    distance's decks are built and checked only when the advisor gets there, the nearest first. Past
    `until` (a `time.perf_counter()` instant), no more decks are built (those one card away, a few
    dozen, always are): the distances end there."""
    wolves = near.get(Role.WEREWOLF, 0)
    usual = suggested_wolves(players)
    allowed = set(range(max(1, usual - 1), usual + 2)) | ({wolves} if wolves > 0 else set())
    base = sorted((r for r, n in near.items() if n > 0 and r not in (Role.WEREWOLF, Role.VILLAGER)),
                  key=lambda r: r.value)
    mine = set(owned)
    others = [r for r in SPECIALS if r in mine and near.get(r, 0) == 0]
    removals = [(sum(near[r] for r in combo), combo)
                for n in range(min(len(base), reach) + 1) for combo in itertools.combinations(base, n)]
    additions = [(cost, combo) for n in range(reach + 1) for combo in itertools.combinations(others, n)
                 if (cost := sum(r.copies or 1 for r in combo)) <= reach]
    seen: set[frozenset[tuple[Role, int]]] = {frozenset((r, n) for r, n in near.items() if n > 0)}
    for d in range(1, reach + 1):
        tier: list[dict[Role, int]] = []
        for out_cost, removed in removals:
            for in_cost, added in additions:
                left = d - out_cost - in_cost
                if left < 0:
                    continue
                for w in sorted({wolves - left, wolves + left} & allowed):
                    named: dict[Role, int] = {Role.WEREWOLF: w, **{r: near[r] for r in base if r not in removed},
                                              **{r: r.copies or 1 for r in added}}
                    _add_new(tier, seen, players, named, options)
            if until is not None and d > 1 and time.perf_counter() > until:
                return  # out of time with this distance half built: it is not offered at all
        yield sorted(tier, key=describe)


def changes(a: Mapping[Role, int], b: Mapping[Role, int]) -> str:
    """`-1 werewolf, +1 witch`: what turns deck a into deck b."""
    roles = sorted((set(a) | set(b)) - {Role.VILLAGER}, key=lambda r: r.value)
    parts = [f"{b.get(r, 0) - a.get(r, 0):+d} {r.value}" for r in roles if b.get(r, 0) != a.get(r, 0)]
    return ", ".join(parts) or "none"


def verdict(games: int, village: int) -> bool | None:
    """Is a deck fair (the village wins 45–55%)? False as soon as a 99% interval lies wholly outside the
    band (looked at after every batch, hence 99% rather than 95%); from MIN_GAMES games on, whether the
    rate is inside the band; None: not decided yet (play more)."""
    if games >= BATCH:
        lo, hi = wilson(village, games, EARLY_Z)
        if hi < FAIR[0] or lo > FAIR[1]:
            return False
    if games >= MIN_GAMES:
        return FAIR[0] <= village / games <= FAIR[1]
    return None


def settled(games: int, village: int) -> bool:
    """The chosen deck needs no more games: CHOSEN_GAMES of them, or from MIN_GAMES on a 95% interval
    wholly inside or wholly outside the fair band (its verdict will not change)."""
    if games >= CHOSEN_GAMES:
        return True
    if games < MIN_GAMES:
        return False
    lo, hi = wilson(village, games)
    return hi < FAIR[0] or lo > FAIR[1] or (FAIR[0] <= lo and hi <= FAIR[1])


def play(players: int, deck: Mapping[Role, int], options: Options, params: InformedParams,
         seed: int, start: int, games: int) -> tuple[int, int]:
    """Games number start .. start+games-1 of `seed` with informed players: (games, village wins)."""
    tally = run_range(SimConfig(players, dict(deck), options, "informed", seed, params), start, start + games)
    return tally.games, tally.wins["village"]


def advise(
    players: int,
    deck: Mapping[Role, int],
    options: Options,
    owned: Iterable[Role] = SPECIALS,
    budget: float = BUDGET,
    store: Store | None = None,
    params: InformedParams | None = None,
    limit: int = LIMIT,
    reach: int = NEAR,
) -> Advice:
    """The chosen deck's estimate, and up to `limit` fair decks nearest to it, within about `budget`
    seconds (one batch of games more at most). The decks at each distance are judged first from what is
    known (the shipped table, the user's cache); only when those do not give `limit` fair decks are the
    unknown ones played, BATCH games at a time until their `verdict` is decided, while time is left."""
    started = time.perf_counter()
    params = params or InformedParams()
    store = store or Store()
    keys = Keys(players, options, params)
    deadline = started + budget
    failed: list[str] = []

    def weigh(d: Mapping[Role, int], enough: Callable[[int, int], bool], until: float,
              at_least: int = 0) -> Estimate:
        k = keys(d)
        games, village = store.get(k)
        while not enough(games, village):
            # A batch between two looks at the verdict, played STEP games at a time so that the time is
            # looked at often (50 games of 18 players take 0.1 s or more); the first `at_least` always.
            for _ in range(BATCH // STEP):
                if games >= at_least and time.perf_counter() >= until:
                    return Estimate(dict(d), games, village)
                try:
                    played, won = play(players, d, options, params, OWN_SEED, store.own.get(k, (0, 0))[0], STEP)
                except Exception:  # noqa: BLE001 -- a simulator bug on one deck: say so, answer the rest
                    failed.append(describe(d))
                    return Estimate(dict(d), games, village)
                store.add(k, played, won)
                games, village = games + played, village + won
        return Estimate(dict(d), games, village)

    def decided(games: int, village: int) -> bool:
        return verdict(games, village) is not None

    # The chosen deck always gets one batch, however loaded the machine: an estimate of no game
    # would answer nothing (the budget then bounds the rest, not the first batch).
    chosen = weigh(deck, settled, started + budget / 2, at_least=BATCH)
    fair: list[Estimate] = []
    unweighed = searched = 0
    guide: dict[Role, float] | None = None  # the cards' effects, worked out once, when first needed
    for tier in tiers(players, deck, owned, options, reach, until=deadline):
        found: list[Estimate] = []
        unknown: list[dict[Role, int]] = []
        for d in tier:
            e = Estimate(d, *store.get(keys(d)))
            judged = verdict(e.games, e.village)
            if judged is None:
                unknown.append(d)
            elif judged:
                found.append(e)
        if len(fair) + len(found) < limit:  # what is known is not enough at this distance: play the rest,
            if guide is None:  # those likelier fair first
                guide = _effects(players, store, keys, options)
            guess = guide
            unknown.sort(key=lambda d: (abs(_guess(guess, chosen, d) - 0.5), describe(d)))
            for d in unknown:
                e = weigh(d, decided, deadline)  # past the deadline: what is known, no game played
                judged = verdict(e.games, e.village)
                if judged is None and describe(d) not in failed:
                    unweighed += 1
                elif judged:
                    found.append(e)
        fair += sorted(found, key=lambda e: (abs(e.rate - 0.5), describe(e.deck)))  # the closest to even first
        searched += 1
        if len(fair) >= limit or unweighed or time.perf_counter() >= deadline:
            break
    store.save()
    return Advice(players, chosen, fair[:limit], time.perf_counter() - started, unweighed, tuple(failed),
                  reach if len(fair) >= limit else searched)


def _effects(players: int, store: Store, keys: Keys, options: Options) -> dict[Role, float]:
    """A card's effect on the village's rate, from the decks one card from the suggested one that are
    known (the shipped table holds them all for 8-18 players): only to choose which unknown decks to play
    first, never an estimate shown."""
    try:
        suggested = complete(players, suggest(players), options)
    except RulesError:
        return {}
    games, village = store.get(keys(suggested))
    if not games:
        return {}
    effects: dict[Role, float] = {}
    for d in next(tiers(players, suggested, SPECIALS, options, reach=1), []):
        g, v = store.get(keys(d))
        moved = [(r, d.get(r, 0) - suggested.get(r, 0)) for r in set(d) | set(suggested) if r is not Role.VILLAGER]
        moved = [(r, n) for r, n in moved if n]
        if g and len(moved) == 1:
            role, cards = moved[0]
            effects[role] = (v / g - village / games) / cards
    return effects


def _guess(effects: Mapping[Role, float], chosen: Estimate, deck: Mapping[Role, int]) -> float:
    """The village's rate with `deck` if the cards' effects added up (a guess, for the order of play)."""
    return chosen.rate + sum(effects.get(r, 0.0) * (deck.get(r, 0) - chosen.deck.get(r, 0))
                             for r in set(deck) | set(chosen.deck) if r is not Role.VILLAGER)


def table_decks(players: int, options: Options) -> list[tuple[dict[Role, int], int]]:
    """The shipped table's decks for `players`, each with the games it is played to: the suggested deck
    and the default one (`default_deck`) CHOSEN_GAMES; every deck of the base box (`BASE_BOX`, `every_deck`) and every deck within TABLE_NEAR
    cards of the suggested one with any special role (`tiers`) until its `verdict` (MIN_GAMES at most)."""
    suggested = complete(players, suggest(players), options)
    wanted: dict[frozenset[tuple[Role, int]], tuple[dict[Role, int], int]] = {
        frozenset(suggested.items()): (suggested, CHOSEN_GAMES)}
    # The default composition (what a table gets when it names no roles) is played as far as the
    # suggested deck: the advisor's verdict on it is then settled from the table alone.
    default = complete(players, default_deck(players), options)
    wanted[frozenset(default.items())] = (default, CHOSEN_GAMES)
    around = [d for tier in tiers(players, suggested, SPECIALS, options, TABLE_NEAR) for d in tier]
    for d in every_deck(players, BASE_BOX, options) + around:
        wanted.setdefault(frozenset(d.items()), (d, MIN_GAMES))
    return list(wanted.values())


def _table_done(target: int, games: int, village: int) -> bool:
    """A table deck needs no more games: the suggested deck its `target` (CHOSEN_GAMES), the others
    their `verdict` (which MIN_GAMES always gives)."""
    return games >= target if target > MIN_GAMES else verdict(games, village) is not None


def _fill(task: tuple[str, int, dict[Role, int], int, int, int]) -> tuple[str, int, int, str]:
    """Play one table deck on from the games it has (seed TABLE_SEED, the next game numbers); the
    simulator's error, if it fails on the deck (the deck then stays out of the table)."""
    k, players, deck, target, games, village = task
    options, params = Options(), InformedParams()
    try:
        while not _table_done(target, games, village):
            played, won = play(players, deck, options, params, TABLE_SEED, games, BATCH)
            games, village = games + played, village + won
    except Exception as exc:  # noqa: BLE001 -- a simulator bug on one deck must not stop the whole table
        return k, games, village, f"{type(exc).__name__}: {exc}"
    return k, games, village, ""


def precompute(players: Iterable[int], jobs: int, path: Path = TABLE, progress: bool = False) -> int:
    """Fill the shipped table (`table_decks` of each number of players, default options and informed
    parameters) from the simulator; entries already there are played on, never replayed. Returns the
    number of decks played."""
    options, params = Options(), InformedParams()
    table = _read(path)
    tasks = []
    for n in players:
        keys = Keys(n, options, params)
        for d, target in table_decks(n, options):
            k = keys(d)
            games, village = table.get(k, (0, 0))
            if not _table_done(target, games, village):
                tasks.append((k, n, d, target, games, village))
    done = 0
    results: Iterable[tuple[str, int, int, str]]
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor  # here: the advisor's answers need no pool

        pool = ProcessPoolExecutor(max_workers=jobs)
        results = pool.map(_fill, tasks, chunksize=4)
    else:
        pool = None
        results = map(_fill, tasks)
    try:
        for k, games, village, error in results:
            done += 1
            if error:
                print(tr("players: {players}; {deck}: left out, the simulator failed ({error})",
                         players=k.split('|')[1], deck=k.split('|')[2], error=error), file=sys.stderr, flush=True)
                continue
            table[k] = (games, village)
            if progress:
                print(tr("{done}/{total} players: {players}; {deck}: the village wins {rate} (games played: {games})",
                         done=done, total=len(tasks), players=k.split('|')[1], deck=k.split('|')[2],
                         rate=f"{village / games:.1%}", games=games), flush=True)
            if done % 50 == 0:
                _write(path, table)
    finally:
        if pool is not None:
            pool.shutdown()
        _write(path, table)
    return done
