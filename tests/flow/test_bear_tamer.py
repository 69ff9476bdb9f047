"""The Bear Tamer at the table: the growl said each morning, after the deaths and before the
Raven's mark, when a living neighbour is a Werewolf; nothing when the bear is quiet."""

from __future__ import annotations

from typing import Any

from narrator.roles.bear_tamer import growls
from narrator.rules import Deal, Game, Options, Role

from flow_helpers import keys, play, said

GROWL = "Grrr... The Bear Tamer's bear growls."


def mornings(r: Any) -> list[list[str]]:
    """The keys said each morning, from day.dawn to the debate."""
    out: list[list[str]] = []
    for key in keys(r, "day."):
        if key == "day.dawn":
            out.append([])
        elif out:
            out[-1].append(key)
    return out


def test_growls_while_a_werewolf_sits_next_to_him_and_stops_when_it_is_gone() -> None:
    # Seat 4 tames the bear; seat 5 is a Werewolf; the village votes seat 5 out on day 1.
    setup = {"players": 8, "roles": {1: "seer", 4: "bear_tamer", 5: "werewolf", 8: "werewolf"},
             "options": {"captain_election": "never"}}
    r = play(setup, {"nights": [{"werewolves": 2}, {"werewolves": 3}, {"werewolves": 6}],
                     "days": [{"eliminate": 5}, {"eliminate": 0}, {"eliminate": 8}]})
    m = mornings(r)
    assert "bear_tamer.growl" in m[0]
    assert m[0].index("bear_tamer.growl") > m[0].index("day.deaths")
    assert all("bear_tamer.growl" not in day for day in m[1:])
    assert said(r).count(GROWL) == 1


def test_growl_before_the_ravens_mark() -> None:
    setup = {"players": 8, "roles": {1: "raven", 4: "bear_tamer", 5: "werewolf", 8: "werewolf"},
             "options": {"captain_election": "never"}}
    r = play(setup, {"nights": [{"werewolves": 2, "raven": 6}], "days": [{"eliminate": 5}, {"eliminate": 8}],
                     })
    first = mornings(r)[0]
    assert first.index("bear_tamer.growl") < first.index("raven.mark")


def test_quiet_bear_says_nothing_and_a_dead_tamer_never_growls() -> None:
    setup = {"players": 8, "roles": {1: "seer", 4: "bear_tamer", 7: "werewolf", 8: "werewolf"},
             "options": {"captain_election": "never"}}
    r = play(setup, {"nights": [{"werewolves": 4}, {"werewolves": 3}, {"werewolves": 5}],
                     "days": [{"eliminate": 0}, {"eliminate": 7}, {"eliminate": 8}]})
    assert "bear_tamer.growl" not in keys(r)
    assert GROWL not in said(r)


def test_neighbours_skip_the_dead_and_an_infected_tamer_growls_by_option() -> None:
    deal = Deal((Role.BEAR_TAMER, Role.VILLAGER, Role.WEREWOLF, Role.VILLAGER, Role.VILLAGER, Role.VILLAGER))
    game = Game.start(deal)
    assert not growls(game)
    game.begin_night()
    game.wolves_choose(2)
    game.dawn()
    assert growls(game)  # seat 2 is dead: his left neighbour is now seat 3, a Werewolf
    # A Bear Tamer in the pack (infected) growls whatever his neighbours, unless the option says no.
    wolf_tamer = Game.start(Deal((Role.VILLAGER, Role.BEAR_TAMER, Role.VILLAGER, Role.WEREWOLF, Role.VILLAGER)))
    from narrator.rules.events import JoinedPack

    wolf_tamer._record(JoinedPack(2, "infected"))
    assert growls(wolf_tamer)
    off = Game.start(Deal((Role.VILLAGER, Role.BEAR_TAMER, Role.VILLAGER, Role.WEREWOLF, Role.VILLAGER)),
                     Options(bear_growls_if_infected=False))
    off._record(JoinedPack(2, "infected"))
    assert not growls(off)
