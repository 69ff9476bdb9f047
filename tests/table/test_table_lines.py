"""What a table hears and reads at moments the keypad card promises something: the debate's length as
set, `/` at night, keys typed while the Hunter's line is said, a seat that is not at the table."""

from __future__ import annotations

from tests.flow.flow_helpers import play, private, typed

BASIC = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 5: "hunter"}}
SCRIPT = {"nights": [{"seer": 2, "werewolves": 6, "witch": {"heal": False, "poison": 0}}],
          "days": [{"eliminate": 2}, {"eliminate": 3}]}


def test_a_twenty_second_debate_is_announced_as_twenty_seconds() -> None:
    result = play({**BASIC, "timing": {"debate": 20}}, SCRIPT)
    opening = [e["text"] for e in result.timeline if e["kind"] == "say" and e["key"].startswith("debate.start")]
    assert opening and set(opening) == {"You have 20 seconds to debate."}, opening


def test_a_long_debate_is_still_announced_in_minutes() -> None:
    result = play({**BASIC, "timing": {"debate": 180}}, SCRIPT)
    assert "You have 3 minutes to debate." in [e["text"] for e in result.timeline if e["kind"] == "say"]


def test_slash_at_night_says_the_night_does_not_pause_and_the_turn_goes_on() -> None:
    result = typed(BASIC, SCRIPT, "seer", 1, ["pause", 2])
    notes = [e["text"] for e in private(result) if e.get("action") == "feedback"]
    assert "The night does not pause: each turn keeps its length. / pauses by day." in notes
    assert not [n for n in notes if n.startswith("Not possible: pause") or n.startswith("Not possible: /")]
    assert any("Seat 2 is the Werewolf." in str(e.get("text")) for e in private(result))


def test_the_hunters_question_says_that_keys_typed_during_his_line_are_not_taken() -> None:
    setup = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 5: "hunter"}}
    script = {"nights": [{"seer": 2, "werewolves": 5, "witch": {"heal": False, "poison": 0}}],
              "days": [{"hunter": 2, "eliminate": 3}]}
    result = play(setup, script)
    entries = result.timeline
    line = next(i for i, e in enumerate(entries) if e.get("key") == "chain.hunter")
    shot = next(i for i, e in enumerate(entries) if e.get("key") == "chain.hunter_shot")
    notes = [e.get("key") for e in entries[line:shot] if e["kind"] == "private"]
    assert "input.too_early" in notes, entries[line:shot]


def test_a_seat_that_is_not_at_the_table_is_refused_in_one_line_at_night() -> None:
    from narrator.listening.keypad import KeypadParser

    parser = KeypadParser()
    heard = None
    for key in ("4", "0", "enter"):
        heard = parser.feed(key) or heard
    assert heard is not None and heard.choice == 40
    result = typed(BASIC, SCRIPT, "seer", 1, [heard.choice, 2])
    notes = [e["text"] for e in private(result) if e.get("action") == "feedback"]
    assert "Not possible: 40. Choose again." in notes
