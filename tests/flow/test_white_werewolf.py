"""The White Werewolf at the table: with the pack every night, alone right after it on his nights
only (white_werewolf_nights), his panel (the pack's seats), refusals and `-`, his solo win."""

from __future__ import annotations

from narrator.headless import HeadlessResult
from narrator.ports import Prompt
from narrator.rules import Side
from narrator.rules import events as ev

from flow_helpers import during, keys, panel_lines, play, typed

SETUP = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "white_werewolf", 5: "witch"},
         "options": {"captain_election": "never"}}
# Night 2 he devours seat 2; day 3 the village votes out seat 3; night 5 he is the last one alive.
SCRIPT = {"nights": [{"werewolves": 6}, {"werewolves": 7, "white_werewolf": 2}, {"werewolves": 8},
                     {"werewolves": 5, "white_werewolf": 0}, {"werewolves": 1}],
          "days": [{"eliminate": 0}, {"eliminate": 0}, {"eliminate": 3}, {"eliminate": 0}]}


def per_night(r: HeadlessResult, key: str) -> list[int]:
    night = keys(r, "night.")
    counts: list[int] = []
    for k in night:
        if k == "night.falls":
            counts.append(0)
        elif k == key:
            counts[-1] += 1
    return counts


def test_called_right_after_the_pack_on_even_nights_only() -> None:
    r = play(SETUP, SCRIPT)
    assert per_night(r, "white_werewolf.wake") == [0, 1, 0, 1, 0]
    night = keys(r, "night.")
    second = night[night.index("night.falls", 1):]
    at = second.index("white_werewolf.wake")
    assert second[at - 2: at + 3] == ["werewolves.wake", "werewolves.sleep", "white_werewolf.wake",
                                      "white_werewolf.sleep", "witch.wake"]


def test_odd_nights_with_the_option() -> None:
    setup = {**SETUP, "options": {**SETUP["options"], "white_werewolf_nights": "odd"}}
    r = play(setup, {**SCRIPT, "nights": [{"werewolves": 6}, {"werewolves": 7}, {"werewolves": 8, "white_werewolf": 2},
                                          {"werewolves": 5}, {"werewolves": 1, "white_werewolf": 3}]})
    assert per_night(r, "white_werewolf.wake") == [1, 0, 1, 0, 1][: len(per_night(r, "white_werewolf.wake"))]
    used = [e for e in r.game.events if isinstance(e, ev.PowerUsed) and e.call == "white_werewolf"]
    assert [(e.targets) for e in used][:1] == [(2,)]


def test_his_victim_dies_at_dawn_and_he_wins_alone() -> None:
    r = play(SETUP, SCRIPT)
    deaths = [e.deaths for e in r.game.events if isinstance(e, ev.DawnBroke)]
    assert deaths[1] == (2, 7)
    assert r.game.outcome is not None
    assert (r.game.outcome.winner, r.game.outcome.winners) == (Side.WHITE_WEREWOLF, (4,))


def test_panel_shows_the_pack_and_the_echo() -> None:
    r = play(SETUP, SCRIPT)
    wakes = [i for i, e in enumerate(r.timeline) if e.get("key") == "white_werewolf.wake"]
    lines = panel_lines(during(r, "white_werewolf.wake", "white_werewolf.sleep"))
    assert lines[:3] == ["Enter the seat of the Werewolf you devour, 0 for nobody.", "Werewolf: seat 2.", "Werewolf: seat 3."]
    assert "Devoured: seat 2." in lines
    assert len(wakes) == 2


def test_the_pack_cannot_choose_him() -> None:
    asked: list[Prompt] = []
    scripted([], asked)
    pack_prompts = [p for p in asked if p.name == "night.werewolves"]
    assert pack_prompts and all(4 not in p.seats and 2 not in p.seats for p in pack_prompts)


def scripted(answers: list[object], asked: list[Prompt] | None = None) -> HeadlessResult:
    """SETUP and SCRIPT, the White Werewolf typing `answers` in turn on night 2 (his first)."""
    return typed(SETUP, SCRIPT, "white_werewolf", 2, answers, asked)


def test_refusals_and_taking_back_with_minus() -> None:
    # Himself (4) and a villager (6... dead: 7) are refused; seat 2 is taken back with `-`; seat 3 stands.
    r = scripted([4, 7, 2, "no", 3])
    used = [e.targets for e in r.game.events if isinstance(e, ev.PowerUsed) and e.call == "white_werewolf"]
    assert used[0] == (3,)
    entries = during(r, "white_werewolf.wake", "white_werewolf.sleep")
    refused = [e["text"] for e in entries if e.get("action") == "feedback" and e.get("key") == "input.refused"]
    assert len(refused) == 2 and "4" in refused[0] and "7" in refused[1]
    shown = [e["text"] for e in entries if e.get("action") == "show"]
    assert any("Devoured: seat 2." in t for t in shown) and "Devoured: seat 3." in shown[-1]


def test_nobody_is_an_answer() -> None:
    r = scripted(["nobody"])
    used = [e.targets for e in r.game.events if isinstance(e, ev.PowerUsed) and e.call == "white_werewolf"]
    assert used[0] == ()
    assert "Devoured: nobody." in panel_lines(during(r, "white_werewolf.wake", "white_werewolf.sleep"))
