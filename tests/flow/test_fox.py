"""The Fox at the table: called every night after the Seer, his yes/no on his panel only, his
power lost after a "no", still called afterwards with the same lines."""

from __future__ import annotations

from typing import Any

from narrator.roles.fox import group
from narrator.rules import Deal, Game, Options, Role
from narrator.rules import events as ev

from flow_helpers import during, keys, play
from test_two_sisters import calls_per_night

SETUP: dict[str, Any] = {"players": 8, "roles": {2: "werewolf", 3: "seer", 5: "fox"},
                         "options": {"captain_election": "never"}}


def script(*fox: Any) -> dict[str, Any]:
    nights = [{"werewolves": w, **({"fox": f} if f is not None else {})} for w, f in zip((4, 6, 7, 8), fox)]
    return {"nights": nights, "days": [{"eliminate": 0}] * 3 + [{"eliminate": 2}]}


def fox_panels(r: Any) -> list[list[str]]:
    out: list[list[str]] = []
    inside = False
    for e in r.timeline:
        if e.get("key") == "fox.wake" and e["kind"] == "say":
            inside, out = True, [*out, []]
        elif e.get("key") == "fox.sleep" and e["kind"] == "say":
            inside = False
        elif inside and e["kind"] == "private" and e.get("action") == "show":
            out[-1].append(e["text"])
    return out


def test_called_every_night_after_the_seer() -> None:
    r = play(SETUP, script(1, 7, None, None))
    assert calls_per_night(r, "fox")[:4] == [1, 1, 1, 1]
    night = keys(r, "night.")
    first = night[: night.index("night.falls", 1)]
    assert first.index("seer.sleep") < first.index("fox.wake") < first.index("werewolves.wake_first")


def test_yes_then_no_then_power_gone() -> None:
    r = play(SETUP, script(1, 7, 1, None))
    panels = fox_panels(r)
    assert "Yes: there is a Werewolf among seats 1, 2, 8 (seat 1 and their neighbours)." in panels[0][-1]
    assert "No: there is no Werewolf among seats 6, 7, 8 (seat 7 and their neighbours)." in panels[1][-1]
    assert "You have lost your sense of smell: your power is gone." in panels[1][-1]
    # Night 3: the same prompt, his answer taken, and only "no effect" shown.
    third = "\n".join(panels[2])
    assert "Your power is lost or spent" in third and "Werewolf among" not in third
    lost = [e for e in r.game.events if isinstance(e, ev.PowerLost)]
    assert [(e.seat, e.reason) for e in lost] == [(5, "fox_miss")]


def test_nobody_keeps_the_power_and_the_answer_is_final() -> None:
    r = play(SETUP, script(0, 7, None, None))
    assert fox_panels(r)[0][-1].endswith("Sniffed: nobody.")
    assert any(isinstance(e, ev.PowerLost) for e in r.game.events)  # the night-2 "no" still costs it
    assert not any(e.get("key") == "echo.change" for e in during(r, "fox.wake", "fox.sleep"))


def test_dead_fox_is_still_called() -> None:
    r = play(SETUP, {"nights": [{"werewolves": 5}, {"werewolves": 6}, {"werewolves": 7}, {"werewolves": 8}],
                     "days": [{"eliminate": 0}] * 3 + [{"eliminate": 2}]})
    assert calls_per_night(r, "fox")[:3] == [1, 1, 1]
    assert all(p == [p[0]] for p in fox_panels(r)[1:])  # the closed panel, nothing to answer


def test_group_skips_the_dead_and_wraps() -> None:
    game = Game.start(Deal((Role.VILLAGER, Role.WEREWOLF, Role.FOX, Role.VILLAGER, Role.VILLAGER, Role.VILLAGER)))
    assert group(game, 1) == (1, 2, 6)
    game.begin_night()
    game.wolves_choose(4)
    game.dawn()
    assert group(game, 3) == (2, 3, 5)


def test_a_powerless_foxs_own_turn_shows_no_yes_or_no() -> None:
    """Mutation: a powerless Fox still shown yes/no (an information leak). The sequencer puts a
    powerless holder's panel aside, but the Fox's own turn must not hold the answer either: after
    his miss, his sniff next to the Werewolf shows only that his power is gone."""
    import random

    from narrator.ports import Heard
    from narrator.roles import fox

    seats = tuple(Role.parse(w) for w in "villager werewolf seer villager fox villager villager villager".split())
    game = Game.start(Deal(seats), Options(captain_election="never"))
    game.begin_night()
    game.use_power("fox", (7,))  # seats 6, 7, 8: no Werewolf, his power is lost
    game.wolves_choose(4)
    game.dawn()
    game.open_vote()
    game.cast_votes({})
    game.begin_night()
    assert not game.powered(5)
    turn = fox.run(game, random.Random(0)).turn
    answers = [Heard(1, "script", "1")]
    assert turn.on_answer is not None
    turn.on_answer(answers)
    keys_shown = [key for key, _ in turn.panel(answers)]
    assert "power.none" in keys_shown
    assert "fox.yes" not in keys_shown and "fox.no" not in keys_shown, keys_shown
