"""The Devoted Servant at the table: the public window after each elimination, the takeover line,
the taken card never shown, and her reset call the next night only."""

from __future__ import annotations

import json
from typing import Any

from narrator.rules import events as ev

from flow_helpers import during, keys, panel_lines, play, play_screen, reveals

SETUP = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "hunter", 4: "devoted_servant", 5: "werewolf"},
         "options": {"captain_election": "never"}}


def test_taking_the_hunters_card_he_does_not_shoot_and_is_not_shown() -> None:
    r = play(SETUP, {"nights": [{"werewolves": 8}, {"werewolves": 7}],
                     "days": [{"eliminate": 3, "window": 4}, {"eliminate": 2}, {"eliminate": 5}]})
    said = keys(r)
    i = said.index("devoted_servant.window")
    assert said[i - 1] == "vote.eliminated" and said[i + 1:i + 3] == ["devoted_servant.steps", "devoted_servant.card"]
    assert "chain.hunter" not in said
    shown = reveals(r, "day.")
    assert not any(t.startswith("Seat 3.") for t in shown), f"the taken card is never revealed: {shown}"
    assert "Seat 2. Their card: Werewolf." in shown, shown  # (the check above can fail: cards are shown)
    assert any(isinstance(e, ev.CardTaken) and e.servant == 4 and e.role.value == "hunter" for e in r.game.events)
    night = keys(r, "night.")
    assert night.count("devoted_servant_reset.wake") == 1
    second = night[night.index("night.falls", 1):]
    assert second[:3] == ["night.falls", "devoted_servant_reset.wake", "devoted_servant_reset.sleep"]
    panel = panel_lines(during(r, "devoted_servant_reset.wake", "devoted_servant_reset.sleep"))
    assert panel == ["Your new card: Hunter.", "Nothing to do tonight for your new card."]


def test_nobody_steps_forward_and_the_card_is_shown() -> None:
    r = play(SETUP, {"nights": [{"werewolves": 8}, {"werewolves": 7}],
                     "days": [{"eliminate": 6}, {"eliminate": 2}, {"eliminate": 5}]})
    said = keys(r)
    i = said.index("devoted_servant.window")
    assert said[i + 1:i + 4] == ["devoted_servant.none", "day.death", "day.card"]
    assert "Seat 6. Their card: Villager." in reveals(r)
    assert "devoted_servant_reset.wake" not in said


def test_the_window_opens_when_the_servant_is_only_possible() -> None:
    setup = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf"}, "possible": ["devoted_servant"],
             "options": {"captain_election": "never"}}
    r = play(setup, {"nights": [{"werewolves": 8}], "days": [{"eliminate": 2, "window": 4}, {"eliminate": 3}]})
    said = keys(r)
    assert said.count("devoted_servant.window") == 2 and said.count("devoted_servant.none") == 2


def screen(r: object, feedback: bool = True) -> list[tuple[object, ...]]:
    """Everything said and shown, with clock times: lines, the private panel, the public board
    (and the input's feedback, if asked), up to the end of the game (where every card is shown)."""
    out: list[tuple[object, ...]] = []
    for e in r.timeline:  # type: ignore[attr-defined]
        if e["kind"] == "say" and e["phase"] == "game.over":
            break
        if e["kind"] == "say":
            out.append(("say", e["t"], e["key"], e["text"]))
        elif e["kind"] == "board":  # the living's cards are shown when the game ends: not compared
            board = {**e["state"], "revealed": {seat: role for seat, role in e["state"]["revealed"].items()
                                                if int(seat) not in e["state"]["alive"]}}
            out.append(("board", e["t"], json.dumps(board, sort_keys=True)))
        elif e["kind"] == "private" and (feedback or e["action"] != "feedback"):
            out.append(("private", e["t"], e["action"], e.get("text")))
    return out


def test_a_claim_from_another_seat_gets_what_no_claim_gets() -> None:
    """The claim comes from the Servant herself (she types her own seat, then
    `+`). Seat 6 claiming gets exactly what nobody claiming gets, whether the Servant is dealt
    (seat 4) or not: the same lines at the same times, the same panel, the same board; with the
    same keys typed, the same feedback too. Only her own claim takes the card."""
    script: dict[str, Any] = {"nights": [{"werewolves": 8}, {"werewolves": 7}],
                              "days": [{"eliminate": 3, "hunter": 1}, {"eliminate": 2}, {"eliminate": 5}]}
    claim = {**script, "days": [{**script["days"][0], "window": 6}, *script["days"][1:]]}
    absent = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "hunter", 5: "werewolf"},
              "possible": ["devoted_servant"], "options": {"captain_election": "never"}}
    other = play_screen(SETUP, claim)
    nobody = play_screen(SETUP, script)
    not_dealt = play_screen(absent, claim)
    assert not any(isinstance(e, ev.CardTaken) for r in (other, nobody, not_dealt) for e in r.game.events)
    assert "devoted_servant.window" in keys(other)
    assert screen(other, feedback=False) == screen(nobody, feedback=False)
    assert screen(other) == screen(not_dealt)
    herself = play_screen(SETUP, {**script, "days": [{**script["days"][0], "window": 4}, *script["days"][1:]]})
    assert any(isinstance(e, ev.CardTaken) and e.servant == 4 for e in herself.game.events)
