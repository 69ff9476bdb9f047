"""The Devoted Servant at the table: the public window after each elimination, the takeover line,
the taken card never shown, and her reset call the next night only."""

from __future__ import annotations

from narrator.rules import events as ev

from flow_helpers import during, keys, panel_lines, play

SETUP = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "hunter", 4: "devoted_servant", 5: "werewolf"},
         "options": {"captain_election": "never"}}


def test_taking_the_hunters_card_he_does_not_shoot_and_is_not_shown() -> None:
    r = play(SETUP, {"nights": [{"werewolves": 8}, {"werewolves": 7}],
                     "days": [{"eliminate": 3, "window": True}, {"eliminate": 2}, {"eliminate": 5}]})
    said = keys(r)
    i = said.index("devoted_servant.window")
    assert said[i - 1] == "vote.eliminated" and said[i + 1] == "devoted_servant.takes"
    assert "chain.hunter" not in said
    texts = [e.get("text") or "" for e in r.timeline if e["kind"] == "say" and e["phase"] != "game.over"]
    assert not any("Seat 3" in t and "Hunter" in t for t in texts), "the taken card is never revealed"
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
    assert said[i + 1] == "devoted_servant.none" and said[i + 2] == "day.role"
    assert "devoted_servant_reset.wake" not in said


def test_the_window_opens_when_the_servant_is_only_possible() -> None:
    setup = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf"}, "possible": ["devoted_servant"],
             "options": {"captain_election": "never"}}
    r = play(setup, {"nights": [{"werewolves": 8}], "days": [{"eliminate": 2, "window": True}, {"eliminate": 3}]})
    said = keys(r)
    assert said.count("devoted_servant.window") == 2 and said.count("devoted_servant.none") == 2
