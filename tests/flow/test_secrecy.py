"""Differential secrecy: two games that differ only in hidden state say the same night lines at the same offsets."""

from __future__ import annotations

import dataclasses
import random
from typing import Any, Callable

from narrator.fakes import RandomListener
from narrator.clock import VirtualClock
from narrator.headless import HeadlessResult, run_game
from narrator.flow.script import Setup
from narrator.flow.timing import Timing
from narrator.roles import wizard_roles
from narrator.rules import Deal, Options, Role
from narrator.rules.options import ACTOR_CARDS, CHOICES, NUMBERS, TEXTS
from narrator.rules import events as ev

# Every special card of the catalogue: a new role's calls are covered as soon as its module exists.
SPECIALS = [r for r in wizard_roles() if r is not Role.WEREWOLF]
PAIRS = 200


# Options that take a text of their own (`options.TEXTS`) cannot be drawn from their type: each
# has its draw here, and a new one without a draw fails `test_every_option_is_drawn`.
TEXT_DRAWS: dict[str, Callable[[random.Random, int], str]] = {
    "sectarian_groups": lambda rng, players: rng.choice(
        ["", "".join(rng.choice("AB") for _ in range(players - 2)) + "AB"]),
    "actor_cards": lambda rng, players: rng.choice(
        [",".join(ACTOR_CARDS), "seer,witch,hunter,little_girl,savior,raven", "savior,raven,witch", "hunter,seer"]),
}


def draw_options(rng: random.Random, players: int) -> Options:
    """Every option of `Options`, drawn from its own declaration (introspection, in field order):
    a word among `CHOICES`, a number in `NUMBERS`, a text by `TEXT_DRAWS`, else true or false. A new
    option is varied here without anyone adding it to a list."""
    values: dict[str, Any] = {}
    for f in dataclasses.fields(Options):
        if f.name in CHOICES:
            values[f.name] = rng.choice(CHOICES[f.name])
        elif f.name in NUMBERS:
            values[f.name] = rng.choice(list(NUMBERS[f.name]))
        elif f.name in TEXTS:
            values[f.name] = TEXT_DRAWS[f.name](rng, players)
        else:
            assert isinstance(getattr(Options(), f.name), bool), f"option {f.name}: no way to draw it"
            values[f.name] = rng.random() < 0.5
    return Options(**values)


def public_config(rng: random.Random) -> dict[str, Any]:
    """What the whole table knows: players, possible roles, options, timing."""
    players = rng.randint(6, 14)
    possible = {Role.WEREWOLF, *rng.sample(SPECIALS, rng.randint(0, len(SPECIALS)))}
    options = draw_options(rng, players)
    return {"players": players, "possible": possible, "options": options, "wolves": rng.randint(1, max(1, players // 4))}


def hidden_deal(config: dict[str, Any], rng: random.Random) -> Deal:
    """Who holds what, and which possible roles are really dealt: the hidden part."""
    players: int = config["players"]
    # In a fixed order: a set of roles iterates in an order of its hashes, which change with every
    # process (PYTHONHASHSEED), and each run of the test would draw other deals.
    dealt = [r for r in sorted(config["possible"], key=lambda r: r.value) if r is not Role.WEREWOLF and rng.random() < 0.6]
    if Role.THIEF in dealt and players - config["wolves"] - len(dealt) < 0:
        dealt.remove(Role.THIEF)
    cards = [Role.WEREWOLF] * config["wolves"]
    for role in dealt:  # a card dealt in copies (the Two Sisters) comes with all of them
        if len(cards) + (role.copies or 1) <= players:
            cards += [role] * (role.copies or 1)
    cards += [Role.VILLAGER] * (players - len(cards))
    rng.shuffle(cards)
    extra: tuple[Role, ...] = ()
    if Role.THIEF in cards:
        if config["options"].thief_extra_cards == "from_deck":
            extra = tuple(rng.choice([Role.VILLAGER, Role.WEREWOLF]) for _ in range(2))
        else:
            extra = (Role.VILLAGER, Role.VILLAGER)
    return Deal(tuple(cards), extra)


def play(config: dict[str, Any], deal: Deal, seed: int) -> HeadlessResult:
    possible = frozenset(config["possible"]) | frozenset(deal.seats) | frozenset(deal.extra)
    timing = Timing().with_values({"debate": 60, "defence": 5, "vote": 5, "chain": 5})
    setup = Setup(config["players"], "en", deal, possible, config["options"], timing)
    clock = VirtualClock()
    listener = RandomListener(clock, random.Random(seed), silence=0.25, late=0.15, illegal=0.1)
    return run_game(setup, listener, seed, clock)


def nights(result: HeadlessResult) -> list[list[tuple[str, float]]]:
    """Each night's spoken lines (night.* phases) with offsets from its `night.falls`."""
    out: list[list[tuple[str, float]]] = []
    start = 0.0
    for e in result.timeline:
        if e["kind"] != "say" or not e["phase"].startswith("night."):
            continue
        if e["key"] == "night.falls":
            start = e["t"]
            out.append([])
        out[-1].append((e["key"], round(e["t"] - start, 6)))
    return out


def public_calls_from(result: HeadlessResult) -> int:
    """The first night a public event creates a call (RULES-EXTENSIONS.md Secrecy 2): the night
    after a Devoted Servant's takeover has her reset call. Nights are compared before it."""
    day = 0
    for e in result.game.events:
        if isinstance(e, ev.DayBegan):
            day = e.day
        elif isinstance(e, ev.CardTaken):
            return day + 1
    return 10**9


def test_differential_secrecy_over_random_pairs() -> None:
    rng = random.Random(20261121)
    compared_nights = 0
    differing_hidden = 0
    for pair in range(PAIRS):
        config = public_config(rng)
        deal_a, deal_b = hidden_deal(config, rng), hidden_deal(config, rng)
        # Both games announce the same possible roles (the union of what either dealt).
        config["possible"] = set(config["possible"]) | set(deal_a.seats) | set(deal_b.seats) | set(deal_a.extra) | set(deal_b.extra)
        a = play(config, deal_a, rng.randrange(10**9))
        b = play(config, deal_b, rng.randrange(10**9))
        differing_hidden += deal_a != deal_b
        na, nb = nights(a), nights(b)
        common = min(len(na), len(nb), public_calls_from(a) - 1, public_calls_from(b) - 1)
        assert common >= 1 or ended_on_day_zero(a) or ended_on_day_zero(b) or common == min(
            public_calls_from(a), public_calls_from(b)) - 1
        for i in range(common):
            assert na[i] == nb[i], f"pair {pair}, night {i + 1}: the night differs with hidden state"
            compared_nights += 1
    assert differing_hidden > PAIRS * 0.9
    assert compared_nights >= PAIRS


LONERS = {Role.PIED_PIPER, Role.WHITE_WEREWOLF}


def test_differential_secrecy_of_the_piper_the_charmed_and_the_white_werewolf() -> None:
    """Both loners possible in every pair: one game deals them (or one of them), the other may
    not; alive or dead, on the White Werewolf's nights and off them, answered early, late or
    never (RandomListener): the same night lines at the same offsets."""
    rng = random.Random(20261123)
    calls = {"pied_piper.wake": 0, "charmed.wake": 0, "white_werewolf.wake": 0}
    dealt_one_side = 0
    for pair in range(40):
        config = public_config(rng)
        config["possible"] = set(config["possible"]) | LONERS
        if config["players"] < 8:  # the seat map of the Sectarian's groups fits the table it was drawn for
            config["players"] = 8
            config["options"] = dataclasses.replace(config["options"], sectarian_groups="")
        deal_a, deal_b = hidden_deal(config, rng), hidden_deal(config, rng)
        config["possible"] |= set(deal_a.seats) | set(deal_b.seats) | set(deal_a.extra) | set(deal_b.extra)
        dealt_one_side += (LONERS & set(deal_a.seats)) != (LONERS & set(deal_b.seats))
        a = play(config, deal_a, rng.randrange(10**9))
        b = play(config, deal_b, rng.randrange(10**9))
        na, nb = nights(a), nights(b)
        for i in range(comparable(a, b, na, nb)):
            assert na[i] == nb[i], f"pair {pair}, night {i + 1}: the night differs with hidden state"
            for key, _ in na[i]:
                if key in calls:
                    calls[key] += 1
    assert dealt_one_side >= 10
    assert all(n >= 20 for n in calls.values()), calls


def comparable(a: HeadlessResult, b: HeadlessResult, na: list[list[tuple[str, float]]],
               nb: list[list[tuple[str, float]]]) -> int:
    """How many first nights of two games must be identical: both played, and before the first
    public event that creates a call (a Devoted Servant's takeover, `public_calls_from`)."""
    return min(len(na), len(nb), min(public_calls_from(a), public_calls_from(b)) - 1)


def ended_on_day_zero(result: HeadlessResult) -> bool:
    """The Angel voted out on Day 0: the game ends before any night."""
    return result.game.state.night == 0 and result.game.outcome is not None


def test_personnages_calls_are_identical_whatever_the_hidden_state() -> None:
    """The Actor's call (dealt or not, alive or dead, cards left or not, answered early, late or
    never), with the Angel's Day 0 and the Sectarian's groups before it: identical night lines at
    identical offsets, and the same opening lines."""
    rng = random.Random(12)
    compared = 0
    for pair in range(40):
        config = public_config(rng)
        config["possible"] = {Role.WEREWOLF, Role.ACTOR, Role.ABOMINABLE_SECTARIAN, *rng.sample(SPECIALS, 2)}
        if pair % 2:
            config["possible"].add(Role.ANGEL)
        deal_a, deal_b = hidden_deal(config, rng), hidden_deal(config, rng)
        config["possible"] |= set(deal_a.seats) | set(deal_b.seats) | set(deal_a.extra) | set(deal_b.extra)
        a = play(config, deal_a, rng.randrange(10**9))
        b = play(config, deal_b, rng.randrange(10**9))
        # The Villager-Villager's seat is said in the opening by design (his card is public): not hidden state.
        opening = [[(e["key"], e["text"]) for e in r.timeline if e["kind"] == "say" and e["phase"] == "game.start"
                    and e["key"] != "villager_villager.announce"] for r in (a, b)]
        assert opening[0] == opening[1], f"pair {pair}: the opening differs with hidden state"
        assert any(key == "actor.card" for key, _ in opening[0]) or not a.game.state.laid
        na, nb = nights(a), nights(b)
        for i in range(comparable(a, b, na, nb)):
            assert na[i] == nb[i], f"pair {pair}, night {i + 1}: the night differs with hidden state"
            compared += "actor.wake" in [key for key, _ in na[i]]
    assert compared >= 40


def test_secrecy_check_would_catch_a_leak() -> None:
    """The comparison itself can fail: a game whose Seer turn is cut short differs."""
    rng = random.Random(5)
    config = public_config(rng)
    config["possible"] = {Role.WEREWOLF, Role.SEER}
    deal = Deal((Role.SEER, Role.WEREWOLF) + (Role.VILLAGER,) * (config["players"] - 2))
    a = play(config, deal, 1)
    timing = Timing().with_values({"debate": 60, "defence": 5, "vote": 5, "chain": 5, "seer": 5})
    setup = Setup(config["players"], "en", deal, frozenset(config["possible"]), config["options"], timing)
    clock = VirtualClock()
    b = run_game(setup, RandomListener(clock, random.Random(1)), 1, clock)
    assert nights(a) != nights(b)


def test_issue22_12_every_option_is_drawn() -> None:
    """Issue 22 point 12: the random pairs vary every option of `Options`, each over all its
    values (a text option over at least two), drawn from `Options` itself."""
    rng = random.Random(20261124)
    seen: dict[str, set[object]] = {f.name: set() for f in dataclasses.fields(Options)}
    for _ in range(60):
        config = public_config(rng)
        for name in seen:
            seen[name].add(getattr(config["options"], name))
    for name, values in seen.items():
        wanted = len(CHOICES.get(name, ())) or len(NUMBERS.get(name, ())) or (2 if name in TEXTS else 2)
        assert len(values) >= wanted, f"option {name} is not varied: {sorted(map(str, values))}"
