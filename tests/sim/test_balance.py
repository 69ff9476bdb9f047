"""The balance advisor: estimates from the cache, the nearest fair compositions, the wizard's offer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from narrator.rules import Options, Role, complete, suggest
from narrator.sim.balance import BATCH, Store, advise, changes, distance, key, neighbours
from narrator.sim.policies import InformedParams
from narrator.table.config import TableConfig
from narrator.table.wizard import ScriptedAsker, Wizard

OPTIONS = Options()


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
    for deck in neighbours(10, [Role.SEER, Role.WITCH, Role.HUNTER], OPTIONS):
        k = key(10, deck, OPTIONS, params)
        known.setdefault(k, (1000, 500 if deck in (fair_far, fair_near) else 200))
    advice = advise(10, chosen, OPTIONS, [Role.SEER, Role.WITCH, Role.HUNTER], budget=5, store=store_with(tmp_path, known))
    assert advice.chosen.games == 4000 and abs(advice.chosen.rate - 0.2) < 1e-9
    lo, hi = advice.chosen.interval
    assert lo < 0.2 < hi and hi - lo < 0.03
    assert [e.deck for e in advice.fair] == [fair_near, fair_far]
    assert changes(chosen, fair_near) == "+1 witch"
    assert distance(chosen, fair_far) == 3


def test_only_owned_roles_are_offered() -> None:
    decks = neighbours(12, [Role.SEER], OPTIONS)
    assert decks and all(set(d) <= {Role.WEREWOLF, Role.SEER, Role.VILLAGER} for d in decks)


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


def test_narrator_balance_prints_json(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "narrator", "balance", "--players", "9", "--budget", "0.3", "--json"],
                          capture_output=True, text=True, env={"NARRATOR_DATA": str(tmp_path), "PATH": ""})
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["players"] == 9 and answer["chosen"]["games"] > 0
    assert (tmp_path / "balance-cache.json").exists()


def test_narrator_balance_refuses_a_bad_role_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "narrator", "balance", "--players", "9", "--owns", "dragon"],
                          capture_output=True, text=True, env={"NARRATOR_DATA": str(tmp_path), "PATH": ""})
    assert done.returncode != 0 and "Traceback" not in done.stderr and "dragon" in done.stderr
