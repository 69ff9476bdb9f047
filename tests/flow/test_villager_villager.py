"""The Villager-Villager at the table: his seat said before the first call and on the public board
all game long; nothing said when he is not dealt; never one of the Thief's extra cards."""

from __future__ import annotations

import random
from typing import Any, Mapping

import pytest

from narrator.clock import VirtualClock
from narrator.headless import Timeline, TimelineDisplay, run_game
from narrator.flow.script import parse_script, parse_setup
from narrator.fakes import FakeListener
from narrator.packs import load_pack
from narrator.rules import CompositionError, Deal, Game, Options, Role, deal
from narrator.roles import seer

from flow_helpers import keys, play, said

SETUP = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "villager_villager"},
         "options": {"captain_election": "never"}}
SCRIPT = {"nights": [{"werewolves": 5, "seer": 4}, {"werewolves": 6}],
          "days": [{"eliminate": 2}, {"eliminate": 3}]}
ANNOUNCE = "Seat 4 holds the Villager-Villager: a Villager on both faces of the card, innocent for sure."


def test_his_seat_is_said_once_before_the_first_call() -> None:
    r = play(SETUP, SCRIPT)
    lines = said(r)
    assert lines.count(ANNOUNCE) == 1
    spoken = keys(r)
    assert spoken.index("villager_villager.announce") < spoken.index("night.falls")


def test_nothing_is_said_when_he_is_not_dealt() -> None:
    setup = {**SETUP, "roles": {1: "seer", 2: "werewolf", 3: "werewolf"}, "possible": ["villager_villager"]}
    r = play(setup, SCRIPT)
    assert "villager_villager.announce" not in keys(r)


class BoardDisplay(TimelineDisplay):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.boards: list[Mapping[str, Any]] = []

    def board(self, state: Mapping[str, Any]) -> None:
        self.boards.append(dict(state))


def test_his_card_is_on_the_public_board_from_the_first_step() -> None:
    setup = parse_setup({"language": "en", **SETUP}, "SETUP")
    script = parse_script(SCRIPT, setup.players, "SCRIPT")
    clock = VirtualClock()
    display = BoardDisplay(load_pack("en"), Timeline(clock))
    run_game(setup, FakeListener(clock, script.answer), 0, clock, display=display)
    assert display.boards and all(b["revealed"].get(4) == "villager_villager" for b in display.boards)
    # Nobody else's card is shown while he lives (seat 1, the Seer, is alive on the first board).
    assert 1 not in display.boards[0]["revealed"]


def test_the_seer_sees_his_card() -> None:
    r = play(SETUP, SCRIPT)
    assert seer.seen(r.game, 4) is Role.VILLAGER_VILLAGER


def test_never_a_thiefs_extra_card() -> None:
    opts = Options(thief_extra_cards="from_deck")
    with pytest.raises(CompositionError, match="villager_villager"):
        Game.start(Deal((Role.THIEF, Role.WEREWOLF) + (Role.VILLAGER,) * 6,
                        (Role.VILLAGER_VILLAGER, Role.VILLAGER)), opts)
    deck = {Role.THIEF: 1, Role.WEREWOLF: 2, Role.VILLAGER_VILLAGER: 1, Role.VILLAGER: 6}
    for seed in range(60):
        d = deal(8, deck, random.Random(seed), opts)
        assert Role.VILLAGER_VILLAGER in d.seats and Role.VILLAGER_VILLAGER not in d.extra
        Game.start(d, opts)
