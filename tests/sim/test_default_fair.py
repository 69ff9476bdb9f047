"""The default composition (Enter at the wizard's roles question, `simulate`,
`balance` with no --roles) is one the balance advisor rates fair, for every player count 8-18."""

from __future__ import annotations

from pathlib import Path

import pytest

from narrator.rules import Options, Role, complete, default_deck, suggest
from narrator.sim.balance import CHOSEN_GAMES, FAIR, Store, advise
from narrator.table.config import TableConfig, specials_of


@pytest.mark.parametrize("players", range(8, 19))
def test_the_default_composition_is_rated_fair_by_the_advisor(players: int, tmp_path: Path) -> None:
    options = Options()
    deck = complete(players, default_deck(players), options)
    assert sum(deck.values()) == players
    # No time to play: the advisor answers from the shipped table alone, which holds the default deck
    # to CHOSEN_GAMES (a settled verdict, the same on every machine).
    advice = advise(players, deck, options, budget=0.0, store=Store(tmp_path / "cache.json"), reach=0)
    assert advice.chosen.games >= CHOSEN_GAMES
    assert advice.chosen.fair, f"{players} players: village {advice.chosen.rate:.1%}, outside {FAIR}"


def test_the_wizard_and_the_config_take_the_default_composition() -> None:
    for players in range(8, 19):
        assert specials_of(players) == {r.value: n for r, n in default_deck(players).items()
                                        if r is not Role.VILLAGER}
    assert TableConfig().roles == specials_of(8)
    # Outside 8-18 the simplified distribution stays.
    assert default_deck(6) == suggest(6) and default_deck(24) == suggest(24)
