"""The Accursed Wolf-Father's infection, once a game (docs/rules-spec.md#role-accursed_wolf_father):
a second one or one of another than the pack's victim refused, saying why, and his panel echoing the answer he gave."""

from __future__ import annotations

from tests.flow.flow_helpers import during, panel_lines, play

from rules_kit import new_game, refused

SEATS = "seer werewolf accursed_wolf_father villager villager villager villager villager"


def test_a_second_infection_is_refused_as_spent() -> None:
    game = new_game(SEATS, captain_election="never")
    game.begin_night()
    game.wolves_choose(6)
    game.use_power("accursed_wolf_father", (6,))
    game.dawn()
    game.open_vote()
    game.cast_votes({})
    game.begin_night()
    game.wolves_choose(7)
    refused(game, "use_power", "accursed_wolf_father", (7,), match=r"the infection is spent \(once a game\)$")


def test_declining_is_echoed_as_no() -> None:
    setup = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "accursed_wolf_father"},
             "options": {"captain_election": "never"}}
    r = play(setup, {"nights": [{"werewolves": 6, "accursed_wolf_father": 0}],
                     "days": [{"eliminate": 2}, {"eliminate": 3}]})
    panel = panel_lines(during(r, "accursed_wolf_father.wake", "accursed_wolf_father.sleep"))
    assert "Infect: no." in panel and "Infect: yes." not in panel


def test_infecting_another_than_the_packs_victim_is_refused_saying_whom_he_may_infect() -> None:
    game = new_game(SEATS, captain_election="never")
    game.begin_night()
    game.wolves_choose(6)
    refused(game, "use_power", "accursed_wolf_father", (7,), match=r"he may only infect the pack's victim of tonight$")
