"""The Scapegoat at the table: the tie said aloud, his list asked one seat at a time and read
back, and only the listed players asked to vote the next day."""

from __future__ import annotations

from typing import Any

from narrator.rules import events as ev

from flow_helpers import play, said

SETUP: dict[str, Any] = {
    "players": 8,
    "roles": {1: "werewolf", 2: "werewolf", 3: "seer", 4: "scapegoat"},
    "options": {"captain_election": "never"},
}
TIE_DAY = {"votes": {1: 5, 2: 5, 5: 1, 3: 1}}  # 1 and 5 tied, the others abstain


def test_tie_eliminates_the_scapegoat_who_names_tomorrow_voters() -> None:
    r = play(SETUP, {"nights": [{"werewolves": 8, "seer": 1}],
                     "days": [{**TIE_DAY, "scapegoat": [3, 6]}, {"eliminate": 1}, {"eliminate": 2}]})
    lines = said(r)
    tie = "There is a tie. The Scapegoat, seat 4, is eliminated in their place."
    assert tie in lines
    designate = "Scapegoat, seat 4, with your last breath, name the players who may vote tomorrow."
    assert lines.index(designate) > lines.index(tie)
    listed = lines[lines.index(designate) + 1:]
    assert listed[:3] == ["Tomorrow, only these players may vote:", "Seat 3.", "Seat 6."]
    day2 = lines[lines.index("Seat 3.", lines.index(designate)) + 2:]
    day2 = day2[: day2.index("Seat 1 is eliminated.")]
    asked = [line for line in day2 if line.endswith("your vote?")]
    assert asked == ["Seat 3, your vote?", "Seat 6, your vote?"] or asked == ["Seat 6, your vote?", "Seat 3, your vote?"]
    designated = next(e for e in r.game.events if isinstance(e, ev.VotersDesignated))
    assert designated.voters == (3, 6) and designated.day == 2


def test_no_answer_lets_everyone_vote_and_nobody_means_no_vote() -> None:
    r = play(SETUP, {"nights": [{"werewolves": 8, "seer": 1}],
                     "days": [TIE_DAY, {"eliminate": 1}, {"eliminate": 2}]})
    assert "Tomorrow, everyone may vote." in said(r)
    r = play(SETUP, {"nights": [{"werewolves": 8, "seer": 1}, {"werewolves": 7}, {"werewolves": 6}],
                     "days": [{**TIE_DAY, "scapegoat": 0}, {"eliminate": 1}, {"eliminate": 2}, {"eliminate": 1}]})
    lines = said(r)
    assert "Tomorrow, nobody may vote." in lines
    assert any(isinstance(e, ev.NobodyEliminated) and e.reason == "no_voters" for e in r.game.events)


def test_without_a_scapegoat_a_tie_follows_the_base_rules() -> None:
    setup = {**SETUP, "roles": {1: "werewolf", 2: "werewolf", 3: "seer"}}
    r = play(setup, {"nights": [{"werewolves": 8, "seer": 1}], "days": [TIE_DAY, {"eliminate": 1}, {"eliminate": 2}]})
    assert not any("Scapegoat" in line for line in said(r))
    assert not any(isinstance(e, ev.TieVictim) for e in r.game.events)


def test_the_list_grows_on_screen_and_minus_takes_back_the_last_seat() -> None:
    """Before: `-` was refused ("Not possible"), and the screen showed only "Accepted." after each seat."""
    from narrator.clock import VirtualClock
    from narrator.fakes import FakeListener
    from narrator.flow.script import parse_script, parse_setup
    from narrator.headless import run_game
    from narrator.ports import Heard, Prompt

    from flow_helpers import FAST

    s = parse_setup({"language": "en", **SETUP, "timing": dict(FAST)}, "SETUP")
    base = parse_script({"nights": [{"werewolves": 8, "seer": 1}], "days": [TIE_DAY, {"eliminate": 1}, {"eliminate": 2}]},
                        s.players, "SCRIPT")
    typed = ["no", 3, 5, "no", 6, "yes"]

    def answer(prompt: Prompt) -> Heard | None:
        if prompt.name == "day.scapegoat":
            choice = typed.pop(0)
            return Heard(choice, "keypad", {"no": "-", "yes": "+"}.get(str(choice), str(choice)))
        return base.answer(prompt)

    clock = VirtualClock()
    r = run_game(s, FakeListener(clock, answer, delay=1.0), 0, clock)
    assert typed == []
    designated = next(e for e in r.game.events if isinstance(e, ev.VotersDesignated))
    assert designated.voters == (3, 6)
    start = next(i for i, e in enumerate(r.timeline) if e.get("key") == "scapegoat.designate")
    end = next(i for i, e in enumerate(r.timeline) if e.get("key") == "scapegoat.voters")
    notes = [e["text"] for e in r.timeline[start:end] if e.get("action") == "feedback" and e["key"] != "input.accepted"]
    keys = "Another seat adds it, - takes back the last one, + ends the list."
    assert notes == [
        "Enter each seat that may vote tomorrow, then +. 0 for nobody; + alone for everyone.",
        "Nothing to take back: no answer yet.",
        f"Named so far: 3. {keys}", f"Named so far: 3, 5. {keys}", f"Named so far: 3. {keys}",
        f"Named so far: 3, 6. {keys}"]
