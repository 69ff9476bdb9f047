"""Differential secrecy: two games that differ only in hidden state say the same night lines at the same offsets."""

from __future__ import annotations

import random
from typing import Any

from narrator.fakes import RandomListener
from narrator.clock import VirtualClock
from narrator.headless import HeadlessResult, run_game
from narrator.flow.script import Setup
from narrator.flow.timing import Timing
from narrator.roles import wizard_roles
from narrator.rules import Deal, Options, Role
from narrator.rules import events as ev

from flow_helpers import nights

# Every special card of the catalogue: a new role's calls are covered as soon as its module exists.
SPECIALS = [r for r in wizard_roles() if r is not Role.WEREWOLF]
PAIRS = 200


def public_config(rng: random.Random) -> dict[str, Any]:
    """What the whole table knows: players, possible roles, options, timing."""
    players = rng.randint(6, 14)
    possible = {Role.WEREWOLF, *rng.sample(SPECIALS, rng.randint(0, len(SPECIALS)))}
    options = Options(
        seer_sees=rng.choice(["role", "team"]),
        witch_sees_victim_after_heal=rng.random() < 0.5,
        first_night_kill=rng.random() < 0.7,
        captain_election=rng.choice(["day1", "never", "night1_end"]),
        vote_procedure=rng.choice(["plurality", "runoff", "accusation"]),
        reveal_role_on_death=rng.random() < 0.8,
        thief_extra_cards=rng.choice(["villagers", "from_deck"]),
        savior_same_target_twice=rng.random() < 0.5,
        savior_protects_little_girl=rng.random() < 0.5,
        raven_mark_needs_living_raven=rng.random() < 0.5,
        piper_charms_per_night=rng.randint(1, 3),
        charmed_public=rng.random() < 0.5,
        designation_notice=rng.choice(["tap_by_chooser", "helper_touch"]),
        white_werewolf_nights=rng.choice(["even", "odd"]),
        white_werewolf_kill_blockable=rng.random() < 0.5,
        wolf_hound_timeout=rng.choice(["villager", "random"]),
        wild_child_transformation_public=rng.random() < 0.5,
        bbw_loses_power_on_wolf_death=rng.random() < 0.7,
        siblings_wake=rng.choice(["every_other_night", "first_night_only", "every_night"]),
        fox_loses_power_on_miss=rng.random() < 0.5,
        bear_growls_if_infected=rng.random() < 0.5,
        knight_disease_victim=rng.choice(["guilty", "nearest_pack_member"]),
        knight_disease_timing=rng.choice(["next_dusk", "next_dawn"]),
        judge_request_survives_death=rng.random() < 0.5,
        judge_signal=rng.choice(["sign_during_vote", "night_arm"]),
        elder_lives=rng.randint(1, 3),
        elder_revenge_causes=rng.choice(["vote_poison_shot", "vote_only", "none"]),
        scapegoat_vs_captain=rng.choice(["scapegoat_first", "captain_first"]),
        angel_opening=rng.choice(["day_first", "night_first"]),
        angel_vote_tie=rng.choice(["base", "random_among_tied"]),
        actor_cards=rng.choice(["seer,witch,hunter,little_girl,savior,raven", "savior,raven,witch", "hunter,seer"]),
        witch_sees=rng.choice(["all_devoured", "pack_victim_only"]),
        actor_infected=rng.choice(["powerless", "keeps_power"]),
        piper_infected=rng.choice(["powerless", "keeps_power"]),
        sectarian_infected=rng.choice(["powerless", "keeps_goal"]),
    )
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
        na, nb = nights(a.timeline), nights(b.timeline)
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
        config["players"] = max(config["players"], 8)
        deal_a, deal_b = hidden_deal(config, rng), hidden_deal(config, rng)
        config["possible"] |= set(deal_a.seats) | set(deal_b.seats) | set(deal_a.extra) | set(deal_b.extra)
        dealt_one_side += (LONERS & set(deal_a.seats)) != (LONERS & set(deal_b.seats))
        a = play(config, deal_a, rng.randrange(10**9))
        b = play(config, deal_b, rng.randrange(10**9))
        na, nb = nights(a.timeline), nights(b.timeline)
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
        na, nb = nights(a.timeline), nights(b.timeline)
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
    assert nights(a.timeline) != nights(b.timeline)
