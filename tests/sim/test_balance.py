"""The balance advisor: estimates from the cache, the nearest fair compositions, the wizard's offer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Mapping

import pytest

from narrator.rules import Options, Role, complete, parse_roles, suggest
from narrator.sim.balance import (BATCH, FAIR, MIN_GAMES, SPECIALS, TABLE, TABLE_SEED, Estimate, Keys, Store, _effects,
                                  _guess, advise, changes, every_deck, key, play, tiers, verdict)
from narrator.sim.cli import advice_lines
from narrator.sim.policies import InformedParams
from narrator.sim.runner import wilson
from narrator.table.config import TableConfig
from narrator.fakes import ScriptedAsker
from narrator.table.wizard import Wizard

OPTIONS = Options()


def distance(a: Mapping[Role, int], b: Mapping[Role, int]) -> int:
    """Cards to change to go from one deck to the other (Villagers fill the rest): the tests' yardstick
    for the advisor's tiers (the advisor itself builds decks by distance and never measures one)."""
    roles = (set(a) | set(b)) - {Role.VILLAGER}
    return sum(abs(a.get(r, 0) - b.get(r, 0)) for r in roles)


def store_with(tmp_path: Path, rates: dict[str, tuple[int, int]]) -> Store:
    store = Store(tmp_path / "cache.json", shipped=None)
    for k, (games, village) in rates.items():
        store.add(k, games, village)
    return store


def test_the_nearest_fair_compositions_come_from_known_estimates(tmp_path: Path) -> None:
    chosen = complete(10, suggest(10), OPTIONS)
    params = InformedParams()
    known: dict[str, tuple[int, int]] = {key(10, chosen, OPTIONS, params): (4000, 800)}
    fair_far = complete(10, {Role.WEREWOLF: 3, Role.SEER: 1, Role.WITCH: 1, Role.HUNTER: 1}, OPTIONS)
    fair_near = complete(10, {Role.WEREWOLF: 2, Role.SEER: 1, Role.WITCH: 1}, OPTIONS)
    for deck in every_deck(10, [Role.SEER, Role.WITCH, Role.HUNTER], OPTIONS):
        k = key(10, deck, OPTIONS, params)
        known.setdefault(k, (1000, 500 if deck in (fair_far, fair_near) else 200))
    store = store_with(tmp_path, known)
    store.dirty = False
    advice = advise(10, chosen, OPTIONS, [Role.SEER, Role.WITCH, Role.HUNTER], budget=5, store=store)
    assert not store.dirty, "every deck was known: no game should have been played"
    assert advice.unweighed == 0
    assert advice.chosen.games == 4000 and abs(advice.chosen.rate - 0.2) < 1e-9
    lo, hi = advice.chosen.interval
    assert lo < 0.2 < hi and hi - lo < 0.03
    assert [e.deck for e in advice.fair] == [fair_near, fair_far]
    assert changes(chosen, fair_near) == "+1 witch"
    assert distance(chosen, fair_far) == 3


def test_only_owned_roles_are_offered() -> None:
    decks = every_deck(12, [Role.SEER], OPTIONS)
    assert decks and all(set(d) <= {Role.WEREWOLF, Role.SEER, Role.VILLAGER} for d in decks)
    chosen = complete(12, suggest(12), OPTIONS)
    near = [d for tier in tiers(12, chosen, [Role.SEER, Role.WITCH], OPTIONS) for d in tier]
    assert near and all(set(d) <= {Role.WEREWOLF, Role.SEER, Role.WITCH, Role.VILLAGER} for d in near)


def test_the_decks_around_come_nearest_first_each_once() -> None:
    chosen = complete(12, {Role.WEREWOLF: 3, Role.SEER: 1, Role.WITCH: 1}, OPTIONS)
    owned = [Role.SEER, Role.WITCH, Role.HUNTER, Role.TWO_SISTERS]
    found = list(tiers(12, chosen, owned, OPTIONS, reach=3))
    assert len(found) == 3
    for d, tier in enumerate(found, start=1):
        assert tier and all(distance(deck, chosen) == d for deck in tier)
    every = [frozenset(deck.items()) for tier in found for deck in tier]
    assert len(every) == len(set(every)) and frozenset(chosen.items()) not in every
    # One card away: a Werewolf more or fewer, the Seer or the Witch out, the Hunter in (the Sisters are two cards).
    assert sorted(changes(chosen, deck) for deck in found[0]) == [
        "+1 hunter", "+1 werewolf", "-1 seer", "-1 werewolf", "-1 witch"]
    assert any(deck.get(Role.TWO_SISTERS) == 2 for deck in found[1])
    # Werewolves stay within one of the suggested number.
    assert {deck[Role.WEREWOLF] for tier in found for deck in tier} == {2, 3, 4}


def test_a_deck_is_judged_early_only_when_clearly_unfair() -> None:
    assert verdict(BATCH - 1, 0) is None  # too few games to say anything
    assert verdict(BATCH, 5) is False  # 10%: a 99% interval far below 45%
    assert verdict(BATCH, 47) is False  # 94%: far above 55%
    assert verdict(BATCH, 20) is None  # 40%: could still be fair
    assert verdict(MIN_GAMES, 100) is True
    assert verdict(MIN_GAMES, 80) is False  # 40% after the games a near deck gets
    assert verdict(MIN_GAMES, 112) is False  # 56%


def test_unknown_decks_are_played_until_their_verdict_is_decided(tmp_path: Path) -> None:
    """Nothing known: the advisor plays each deck near the chosen one BATCH games at a time and stops
    as soon as its verdict is decided; every fair deck offered is fair by its own games."""
    store = Store(tmp_path / "cache.json", shipped=None)
    chosen = complete(8, suggest(8), OPTIONS)
    advice = advise(8, chosen, OPTIONS, [Role.WITCH], budget=120, store=store, reach=2, limit=99)
    assert advice.unweighed == 0 and not advice.failed
    keys = Keys(8, OPTIONS, InformedParams())
    played = {k: v for k, v in store.own.items() if k != keys(chosen)}
    assert len(played) == sum(len(tier) for tier in tiers(8, chosen, [Role.WITCH], OPTIONS, reach=2))
    for games, village in played.values():
        assert games % BATCH == 0 and games <= MIN_GAMES
        assert verdict(games, village) is not None  # decided
    for e in advice.fair:
        assert store.get(keys(e.deck)) == (e.games, e.village)
        assert e.games >= MIN_GAMES and FAIR[0] <= e.rate <= FAIR[1]


def test_when_time_runs_out_the_answer_says_what_was_not_weighed(tmp_path: Path) -> None:
    store = Store(tmp_path / "cache.json", shipped=None)
    chosen = complete(8, suggest(8), OPTIONS)
    advice = advise(8, chosen, OPTIONS, [Role.WITCH, Role.HUNTER], budget=0.0, store=store)
    assert advice.chosen.games >= BATCH and advice.fair == [] and advice.searched == 1
    assert advice.unweighed == len(next(tiers(8, chosen, [Role.WITCH, Role.HUNTER], OPTIONS))) > 0
    lines = advice_lines(advice)
    assert any("card(s) away were not weighed in the time given" in line for line in lines)
    assert not any("no fair composition found" in line for line in lines)
    # With time enough for the first distance only (every deck one card away known, none fair), it says so.
    keys = Keys(8, OPTIONS, InformedParams())
    for deck in next(tiers(8, chosen, [Role.WITCH, Role.HUNTER], OPTIONS)):
        store.add(keys(deck), MIN_GAMES, 10)
    store.add(keys(chosen), 1000, 300)
    advice = advise(8, chosen, OPTIONS, [Role.WITCH, Role.HUNTER], budget=0.0, store=store)
    assert advice.searched == 1 and advice.unweighed == 0 and advice.fair == []
    assert any("more than 1 card(s) away were not weighed" in line for line in advice_lines(advice))


def test_the_shipped_table_agrees_with_fresh_games() -> None:
    """A sample of the shipped table's entries played again from the simulator (the same seed and game
    numbers): each fresh estimate's 95% interval meets the table's (equal while the engine plays the same)."""
    shipped = json.loads(TABLE.read_text())
    default = Keys(8, OPTIONS, InformedParams()).tail
    entries = sorted(shipped.items())
    sample = entries[:: len(entries) // 6][:6]
    assert len(sample) == 6
    for k, (games, village) in sample:
        _, players, deck, *_ = k.split("|")
        assert k.endswith(default), "the shipped table holds default options and parameters only"
        fresh_games, fresh_village = play(int(players), parse_roles(deck), OPTIONS, InformedParams(),
                                          TABLE_SEED, 0, min(games, MIN_GAMES))
        lo, hi = wilson(village, games)
        flo, fhi = wilson(fresh_village, fresh_games)
        assert flo <= hi and lo <= fhi, f"{k}: table {village}/{games}, fresh {fresh_village}/{fresh_games}"


def test_the_suggested_decks_answer_from_the_shipped_table(tmp_path: Path) -> None:
    """With default options, 8 to 18 players: no game played for the chosen deck, and every fair deck
    offered is fair by its own estimate (the table's), nearest first."""
    for players in (8, 12, 18):
        store = Store(tmp_path / f"cache{players}.json")
        chosen = complete(players, suggest(players), OPTIONS)
        advice = advise(players, chosen, OPTIONS, SPECIALS, budget=0.0, store=store)
        keys = Keys(players, OPTIONS, InformedParams())
        assert keys(chosen) not in store.own and advice.chosen.games >= 1000
        assert advice.fair, players
        for e in advice.fair:
            assert (e.games, e.village) == store.get(keys(e.deck))
            assert e.games >= MIN_GAMES and FAIR[0] <= e.rate <= FAIR[1]
        gaps = [distance(e.deck, chosen) for e in advice.fair]
        assert gaps == sorted(gaps)


def test_an_option_changing_the_game_is_not_answered_from_the_table(tmp_path: Path) -> None:
    """The shipped table holds default options: another option's value is another key, so the chosen
    deck is simulated (one batch at least) and cached under that key, not read from the table."""
    options = Options.parse(["first_night_kill=false"])
    chosen = complete(12, suggest(12), options)
    store = Store(tmp_path / "cache.json")
    k = key(12, chosen, options, InformedParams())
    assert k != key(12, chosen, OPTIONS, InformedParams()) and k not in store.shipped
    advice = advise(12, chosen, options, [Role.WITCH], budget=0.0, store=store)
    assert advice.chosen.games >= BATCH and store.own[k] == (advice.chosen.games, advice.chosen.village)


def test_games_played_are_remembered_in_the_cache(tmp_path: Path) -> None:
    store = Store(tmp_path / "cache.json", shipped=None)
    deck = complete(8, suggest(8), OPTIONS)
    first = advise(8, deck, OPTIONS, [], budget=0.3, store=store)
    assert first.chosen.games > 0
    again = Store(tmp_path / "cache.json", shipped=None)
    assert again.get(key(8, deck, OPTIONS, InformedParams()))[0] == first.chosen.games


def test_the_chosen_deck_gets_one_batch_even_with_no_time_left(tmp_path: Path) -> None:
    """However loaded the machine (here: a budget already spent), the chosen deck is estimated from
    at least one batch of games: the advisor never answers with an estimate of no game."""
    store = Store(tmp_path / "cache.json", shipped=None)
    deck = complete(8, suggest(8), OPTIONS)
    advice = advise(8, deck, OPTIONS, [], budget=0.0, store=store)
    assert advice.chosen.games >= BATCH


def test_the_wizard_shows_the_estimate_and_takes_a_fair_composition_with_a_star() -> None:
    offer = {"werewolf": 2, "seer": 1, "witch": 1}

    def advisor(config: TableConfig) -> tuple[list[str], list[dict[str, int]]]:
        return [f"village wins 20% ({config.players} players)", "    *1 werewolf=2,seer=1,witch=1"], [offer]

    asker = ScriptedAsker(["", "*1", "", "", "", "", "", ""])
    config = Wizard(asker, TableConfig(), ["en"], advisor=advisor).run()
    assert not asker.answers
    assert config.roles == offer
    assert any("village wins 20% (8 players)" in line for line in asker.told)


@pytest.mark.slow
def test_narrator_balance_prints_json(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "narrator", "balance", "--players", "9", "--budget", "0.3", "--json",
                           "--roles", "werewolf=2,seer,witch,fox"],
                          capture_output=True, text=True, env={"NARRATOR_DATA": str(tmp_path), "PATH": ""})
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["players"] == 9 and answer["chosen"]["games"] > 0
    assert (tmp_path / "balance-cache.json").exists()


@pytest.mark.slow
def test_narrator_balance_refuses_a_bad_role_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "narrator", "balance", "--players", "9", "--owns", "dragon"],
                          capture_output=True, text=True, env={"NARRATOR_DATA": str(tmp_path), "PATH": ""})
    assert done.returncode != 0 and "Traceback" not in done.stderr and "dragon" in done.stderr


def test_the_command_line_knows_how_long_it_has_run() -> None:
    """`narrator balance` plays games for what is left of its second: the time since the process started
    is at least the CPU time it has used (one thread), and not far-fetched."""
    from narrator.sim.cli import seconds_since_start
    import time

    ran = seconds_since_start()
    assert time.process_time() - 0.05 <= ran < 7 * 24 * 3600


def test_unknown_decks_likelier_fair_are_played_first(tmp_path: Path) -> None:
    """The cards' effects one card from the suggested deck (known) order the unknown decks to play: the
    deck a Witch is added to (guessed 50%) comes before the Hunter's (guessed 30%), whatever their names."""
    keys = Keys(10, OPTIONS, InformedParams())
    base = {Role.WEREWOLF: 2, Role.SEER: 1}
    store = Store(tmp_path / "cache.json", shipped=None)
    store.add(keys(complete(10, base, OPTIONS)), 1000, 300)
    store.add(keys(complete(10, {**base, Role.WITCH: 1}, OPTIONS)), 1000, 500)  # a Witch: +20 points
    store.add(keys(complete(10, {**base, Role.HUNTER: 1}, OPTIONS)), 1000, 300)  # a Hunter: none
    store.add(keys(complete(10, {**base, Role.WEREWOLF: 3}, OPTIONS)), 1000, 100)  # a Werewolf more: -20
    effects = _effects(10, store, keys, OPTIONS)
    assert abs(effects[Role.WITCH] - 0.2) < 1e-9 and effects[Role.HUNTER] == 0
    assert abs(effects[Role.WEREWOLF] + 0.2) < 1e-9
    chosen = Estimate(complete(10, {**base, Role.FOX: 1}, OPTIONS), 1000, 300)
    unknown = [complete(10, {**base, Role.FOX: 1, role: 1}, OPTIONS) for role in (Role.HUNTER, Role.WITCH)]
    guesses = [_guess(effects, chosen, d) for d in unknown]
    assert abs(guesses[0] - 0.3) < 1e-9 and abs(guesses[1] - 0.5) < 1e-9
    assert abs(_guess(effects, chosen, complete(10, {Role.WEREWOLF: 1, Role.SEER: 1, Role.FOX: 1}, OPTIONS)) - 0.5) < 1e-9
