"""The simulator plays the Pied Piper and the White Werewolf: their powers are used legally (the
engine refuses anything else), on their nights, and both can win alone."""

from __future__ import annotations

import pytest

from narrator.rules import Options, Side, complete, parse_roles
from narrator.rules.events import Notified, PowerUsed
from narrator.sim.runner import SimConfig, play_one

DECK = "werewolf=2,white_werewolf,pied_piper,seer,witch,savior"


@pytest.mark.parametrize("policy", ["random", "informed"])
@pytest.mark.parametrize("nights", ["even", "odd"])
def test_both_loners_play_legally_and_can_win(policy: str, nights: str) -> None:
    options = Options(white_werewolf_nights=nights)
    config = SimConfig(12, complete(12, parse_roles(DECK), options), options, policy, 7)
    winners: set[Side] = set()
    charms = white = 0
    for index in range(150):
        game = play_one(config, index)
        assert game.outcome is not None
        winners.add(game.outcome.winner)
        night = 0
        for event in game.events:
            night = getattr(event, "night", night) if type(event).__name__ == "NightBegan" else night
            if isinstance(event, PowerUsed) and event.call == "white_werewolf":
                white += 1
                assert night % 2 == (0 if nights == "even" else 1), "the White Werewolf acted off his nights"
            if isinstance(event, PowerUsed) and event.call == "pied_piper":
                charms += 1
        assert sum(isinstance(e, Notified) for e in game.events) == sum(
            isinstance(e, PowerUsed) and e.call == "pied_piper" and bool(e.targets) for e in game.events)
    assert charms > 100 and white > 20
    assert {Side.PIED_PIPER, Side.WHITE_WEREWOLF} <= winners, winners
