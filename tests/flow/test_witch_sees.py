"""The Witch shown every devoured player of the night (`witch_sees`, docs/rules-spec.md#role-base): her panel lists them
and asks which one she saves; the Big Bad Wolf's
victim can be healed; with `pack_victim_only` the panel is as before. The public lines and their
timing do not depend on how many were devoured."""

from __future__ import annotations

from typing import Any

from narrator.rules import events as ev

from flow_helpers import during, keys, nights, panel_lines, play

SETUP: dict[str, Any] = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "big_bad_wolf", 4: "witch"},
                         "options": {"captain_election": "never"}}
DAYS = [{"eliminate": 2}, {"eliminate": 3}]  # the game ends on day 2


def witch_panel(setup: dict[str, Any], night: dict[str, Any]) -> tuple[list[str], Any]:
    r = play(setup, {"nights": [night], "days": DAYS})
    return panel_lines(during(r, "witch.wake", "witch.sleep")), r


def test_panel_lists_every_devoured_player_and_asks_whom_to_save() -> None:
    lines, r = witch_panel(SETUP, {"werewolves": 6, "big_bad_wolf": 5, "witch": {"heal": 5}})
    assert "Devoured tonight: seat 5." in lines and "Devoured tonight: seat 6." in lines
    assert "Save one of them with your potion? Their seat number, 0 for nobody." in lines
    assert "Save: seat 5." in lines
    acted = [e for e in r.game.events if isinstance(e, ev.WitchActed)]
    assert [(e.healed, e.saved) for e in acted][:1] == [(True, 5)]
    dawn = next(e for e in r.game.events if isinstance(e, ev.DawnBroke))
    assert dawn.deaths == (6,)


def test_saving_nobody_leaves_both_devoured() -> None:
    lines, r = witch_panel(SETUP, {"werewolves": 6, "big_bad_wolf": 5, "witch": {"heal": 0}})
    assert "Save: no." in lines
    dawn = next(e for e in r.game.events if isinstance(e, ev.DawnBroke))
    assert dawn.deaths == (5, 6)


def test_one_devoured_keeps_the_yes_no_question() -> None:
    lines, r = witch_panel(SETUP, {"werewolves": 6, "witch": {"heal": True}})
    assert lines[0] == "Tonight's victim: seat 6."
    assert "Save the victim? + yes, - no." in lines
    assert next(e for e in r.game.events if isinstance(e, ev.DawnBroke)).deaths == ()


def test_pack_victim_only_shows_the_pack_victim_alone() -> None:
    setup = {**SETUP, "options": {**SETUP["options"], "witch_sees": "pack_victim_only"}}
    lines, r = witch_panel(setup, {"werewolves": 6, "big_bad_wolf": 5, "witch": {"heal": True}})
    assert lines[0] == "Tonight's victim: seat 6."
    assert not any(line.startswith("Devoured tonight") for line in lines)
    assert next(e for e in r.game.events if isinstance(e, ev.DawnBroke)).deaths == (5,)


def test_public_lines_and_timing_do_not_depend_on_how_many_were_devoured() -> None:
    _, one = witch_panel(SETUP, {"werewolves": 6, "big_bad_wolf": 0, "witch": {"heal": True}})
    _, two = witch_panel(SETUP, {"werewolves": 6, "big_bad_wolf": 5, "witch": {"heal": 5}})
    _, none = witch_panel(SETUP, {"werewolves": 0, "big_bad_wolf": 0, "witch": {"heal": False}})
    assert nights(one.timeline)[0] == nights(two.timeline)[0] == nights(none.timeline)[0]
    assert "witch.wake" in keys(two)
