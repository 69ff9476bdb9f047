"""Whole scripted games through the sequencer: every role, every vote procedure, timeline and outcome."""

from __future__ import annotations

import pytest

from narrator.flow.timing import Timing

from flow_helpers import during, index_of, keys, panel_lines, play, private, reveals, said

BASIC = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 5: "hunter"}}


def test_night_calls_follow_rules_order_on_the_first_night() -> None:
    r = play({"players": 9, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 5: "thief", 6: "cupid"}},
             {"nights": [{"thief": 0, "cupid": [7, 8]}], "days": [{"eliminate": 2}, {"eliminate": 3}]})
    night = [k for k in keys(r, "night.")][:14]
    assert night == [
        "night.falls", "thief.wake", "thief.sleep", "cupid.wake", "cupid.sleep", "lovers.wake", "lovers.sleep",
        "seer.wake", "seer.sleep", "werewolves.wake_first", "werewolves.sleep", "witch.wake", "witch.sleep",
        "night.falls",
    ]


def test_seer_answer_only_on_private_panel_during_her_turn() -> None:
    r = play(BASIC, {"nights": [{"seer": 2}], "days": [{"eliminate": 2}, {"eliminate": 3}]})
    panel = [e.get("text") for e in during(r, "seer.wake", "seer.sleep")]
    assert "Seat 2 is the Werewolf." in panel
    assert all("Werewolf." not in text or "Seat 2 was" in text for text in said(r)[: index_of(r, "day.dawn")])
    shows = [e for e in private(r) if e.get("text") == "Seat 2 is the Werewolf."]
    assert len(shows) == 1
    # the panel is cleared when her turn ends, `settle` before the Seer's sleep line, and stays shut
    after = r.timeline[r.timeline.index(shows[0]) + 1 :]
    first_clear = next(e for e in after if e["kind"] == "private" and e["action"] == "clear")
    sleep = r.timeline[index_of(r, "seer.sleep")]
    assert first_clear["t"] == round(sleep["t"] - Timing().settle, 3)
    between = r.timeline[r.timeline.index(first_clear) + 1 : r.timeline.index(sleep)]
    assert between == []


def test_option_seer_sees_team_shows_only_the_team() -> None:
    r = play({**BASIC, "options": {"seer_sees": "team"}}, {"nights": [{"seer": 4}], "days": [{"eliminate": 2}, {"eliminate": 3}]})
    assert "Seat 4 is not a Werewolf." in [e.get("text") for e in during(r, "seer.wake", "seer.sleep")]


def test_werewolves_victim_dies_and_role_is_revealed() -> None:
    r = play(BASIC, {"nights": [{"werewolves": 6}], "days": [{"eliminate": 2}, {"eliminate": 3}]})
    assert "Seat 6. Their card: Villager." in reveals(r, "day.morning")
    assert r.game.is_alive(6) is False


def test_werewolves_without_answer_kill_nobody_said_like_any_quiet_night() -> None:
    r = play(BASIC, {"nights": [{}], "days": [{"eliminate": 2}, {"eliminate": 3}]})
    morning = keys(r, "day.morning")
    assert morning[:2] == ["day.dawn", "day.no_deaths"]


def test_answer_after_the_turn_is_not_taken() -> None:
    r = play(BASIC, {"nights": [{"werewolves": 6, "late": ["werewolves"]}], "days": [{"eliminate": 2}, {"eliminate": 3}]})
    assert keys(r, "day.morning")[:2] == ["day.dawn", "day.no_deaths"]
    assert r.game.is_alive(6)


def test_witch_sees_victim_heals_and_poisons_same_night() -> None:
    r = play(BASIC, {"nights": [{"werewolves": 6, "witch": {"heal": True, "poison": 7}}], "days": [{"eliminate": 2}, {"eliminate": 3}]})
    assert "Tonight's victim: seat 6." in panel_lines(during(r, "witch.wake", "witch.sleep"))
    assert r.game.is_alive(6) and not r.game.is_alive(7)


def test_option_witch_sees_victim_after_heal_default_hides_victim() -> None:
    nights = [{"werewolves": 6, "witch": {"heal": True}}, {"werewolves": 7}]
    r = play({**BASIC, "players": 9}, {"nights": nights, "days": [{"eliminate": 8}, {"eliminate": 2}, {"eliminate": 3}]})
    first_keys = [e["key"] for e in r.timeline if e["kind"] == "private" and e.get("key", "").startswith("witch.")]
    assert list(dict.fromkeys(first_keys))[:2] == ["witch.victim", "witch.unknown_victim"]
    r2 = play({**BASIC, "players": 9, "options": {"witch_sees_victim_after_heal": True}},
              {"nights": nights, "days": [{"eliminate": 8}, {"eliminate": 2}, {"eliminate": 3}]})
    shown = [e["text"].splitlines()[0] for e in r2.timeline if e["kind"] == "private" and e.get("key") == "witch.victim"]
    assert list(dict.fromkeys(shown)) == ["Tonight's victim: seat 6.", "Tonight's victim: seat 7."]


def test_hunter_shoots_at_dawn_and_the_shot_is_revealed() -> None:
    r = play(BASIC, {"nights": [{"werewolves": 5}], "days": [{"hunter": 2, "eliminate": 3}]})
    k = keys(r, "day.chain")
    assert k[:4] == ["chain.hunter", "chain.hunter_shot", "day.death", "day.card"]
    assert r.game.outcome is not None and r.game.outcome.winner.value == "village"


def test_cupid_lovers_see_each_other_and_die_of_grief() -> None:
    r = play({**BASIC, "roles": {**BASIC["roles"], 6: "cupid"}},
             {"nights": [{"cupid": [7, 8], "werewolves": 7}], "days": [{"eliminate": 2}, {"eliminate": 3}]})
    assert "The Lovers: seat 7 and seat 8." in [e.get("text") for e in during(r, "lovers.wake", "lovers.sleep")]
    assert "Seat 8 was in love, and dies of grief." in said(r)


def test_thief_who_takes_a_werewolf_wakes_with_them() -> None:
    r = play({"players": 8, "roles": {1: "thief", 2: "werewolf", 3: "seer"}, "extra": ["werewolf", "werewolf"],
              "options": {"thief_extra_cards": "from_deck"}},
             {"nights": [{"thief": 2, "werewolves": 3}], "days": [{"eliminate": 2}, {"eliminate": 1}]})
    thief_panel = panel_lines(during(r, "thief.wake", "thief.sleep"))
    assert thief_panel[:2] == ["Extra cards: 1 = Werewolf, 2 = Werewolf.",
                               "Both cards are Werewolves: you must take one. Without a choice, card 2 is yours."]
    assert "You are now the Werewolf." in thief_panel
    assert r.timeline[-1]["roles"]["1"] == "werewolf"
    assert not r.game.is_alive(3)  # the Werewolves' victim, with the Thief among them


def test_thief_offered_two_werewolves_must_take_one_even_without_answer() -> None:
    r = play({"players": 8, "roles": {1: "thief", 2: "werewolf", 3: "seer"}, "extra": ["werewolf", "werewolf"],
              "options": {"thief_extra_cards": "from_deck"}},
             {"nights": [{}], "days": [{"eliminate": 2}, {"eliminate": 1}]})
    assert r.timeline[-1]["roles"]["1"] == "werewolf"


def test_little_girl_has_no_call_of_her_own() -> None:
    r = play({**BASIC, "roles": {**BASIC["roles"], 6: "little_girl"}}, {"nights": [{"werewolves": 6}], "days": [{"eliminate": 2}, {"eliminate": 3}]})
    assert not any("little" in k for k in keys(r))
    assert "Seat 6. Their card: Little Girl." in reveals(r)


def test_captain_elected_on_day_one_and_successor_named_when_he_dies() -> None:
    script = {"nights": [{}, {"werewolves": 1}], "days": [{"captain": 1, "eliminate": 8}, {"successor": 4, "eliminate": 2}, {"eliminate": 3}]}
    r = play(BASIC, script)
    k = keys(r)
    assert "captain.elected" in k and "chain.successor" in k and "chain.new_captain" in k
    assert "Seat 4 is the new Sheriff." in said(r)
    assert r.game.state.captain == 4


def test_option_captain_election_night1_end_happens_after_preparation() -> None:
    r = play({**BASIC, "roles": {**BASIC["roles"], 6: "cupid"}, "options": {"captain_election": "night1_end"}},
             {"nights": [{"cupid": [7, 8]}], "days": [{"captain": 4, "eliminate": 2}, {"eliminate": 3}]})
    k = keys(r)
    assert k.index("lovers.sleep") < k.index("captain.election") < k.index("seer.wake")
    assert k.count("captain.election") == 1


def test_option_first_night_kill_false_werewolves_only_meet() -> None:
    r = play({**BASIC, "options": {"first_night_kill": False}}, {"nights": [{"werewolves": 6}], "days": [{"eliminate": 2}, {"eliminate": 3}]})
    assert "werewolves.wake_meet" in keys(r) and "werewolves.wake_first" not in keys(r)
    assert keys(r, "day.morning")[1] == "day.no_deaths"


def test_option_reveal_role_on_death_false_keeps_cards_hidden() -> None:
    r = play({**BASIC, "options": {"reveal_role_on_death": False}}, {"nights": [{"werewolves": 6}], "days": [{"eliminate": 2}, {"eliminate": 3}]})
    k = keys(r)
    before_end = k[: k.index("game.over")]
    assert "day.death" in before_end and "day.card" not in before_end and reveals(r, "day.") == []


def test_possible_role_never_dealt_is_still_called_for_a_full_turn() -> None:
    r = play({**BASIC, "possible": ["cupid"]}, {"nights": [{}], "days": [{"eliminate": 2}, {"eliminate": 3}]})
    assert "cupid.wake" in keys(r)
    wake, sleep = r.timeline[index_of(r, "cupid.wake")], r.timeline[index_of(r, "cupid.sleep")]
    assert sleep["t"] > wake["t"] + 25  # the default Cupid turn, with nobody to answer


def test_plurality_tie_with_captain_captain_breaks_it() -> None:
    votes = {1: 6, 2: 1, 3: 1, 4: 2, 5: 2, 6: 7, 7: 8, 8: 3}  # the Captain's vote counts 2: 1, 2 and 6 tie
    r = play(BASIC, {"nights": [{}], "days": [{"captain": 1, "votes": votes, "tiebreak": 2}, {"eliminate": 3}]})
    k = keys(r, "day.vote")
    assert "vote.tie_captain" in k and "vote.captain_chose" in k
    assert not r.game.is_alive(2)


def test_plurality_tie_without_captain_revote_then_nobody() -> None:
    votes = {1: 2, 2: 1, 3: 1, 4: 2, 5: 6, 6: 5, 7: 8, 8: 7}
    r = play({**BASIC, "options": {"captain_election": "never"}}, {"nights": [{}], "days": [{"votes": votes}, {"eliminate": 2}, {"eliminate": 3}]})
    k = keys(r, "day.vote")
    assert k.index("vote.revote") < k.index("vote.none")


def test_runoff_second_round_between_leaders() -> None:
    votes = {1: 2, 2: 1, 3: 2, 4: 2, 5: 1, 6: 7, 7: 6, 8: 2}
    r = play({**BASIC, "options": {"vote_procedure": "runoff", "captain_election": "never"}},
             {"nights": [{}], "days": [{"votes": votes, "revote": {1: 2, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1}}, {"eliminate": 3}, {"eliminate": 2}]})
    k = keys(r, "day.vote")
    assert "vote.runoff" in k
    assert said(r)[said(r).index("Second round, between the leading players.") + 1] == "Seat 1."
    assert not r.game.is_alive(1)


def test_accusation_defence_then_ballot_by_the_others() -> None:
    votes = {1: 2, 2: 1, 3: 2, 4: 2, 5: 1, 6: 7, 7: 6, 8: 2}
    ballot = {3: 2, 4: 2, 5: 1, 6: 2, 7: 1, 8: 2}
    r = play({**BASIC, "options": {"vote_procedure": "accusation", "captain_election": "never"}},
             {"nights": [{}], "days": [{"votes": votes, "revote": ballot}, {"eliminate": 3}]})
    k = keys(r, "day.vote")
    assert k[: k.index("vote.ballot") + 1][-4:] == ["vote.accused", "vote.accused", "vote.defence", "vote.ballot"]
    assert not r.game.is_alive(2)
    # the accused do not vote in the ballot
    voters_after = [e["text"] for e in r.timeline[index_of(r, "vote.ballot"):] if e.get("key") == "vote.voter"]
    assert "Seat 1, your vote?" not in voters_after[:6] and "Seat 2, your vote?" not in voters_after[:6]


def test_debate_warnings_and_more_time() -> None:
    r = play({**BASIC, "timing": {"debate": 120}}, {"nights": [{}], "days": [{"eliminate": 2}, {"eliminate": 3}]})
    k = keys(r, "day.debate")
    assert k[:4] == ["debate.start", "debate.one_minute", "debate.ten_seconds", "debate.end"]
    t = {e["key"]: e["t"] for e in r.timeline if e.get("phase") == "day.debate"}
    assert abs((t["debate.ten_seconds"] - t["debate.one_minute"]) - 50) < 0.01


def test_a_one_minute_debate_says_one_minute() -> None:
    r = play({**BASIC, "timing": {"debate": 60, "more_time": 60}}, {"nights": [{}], "days": [{"eliminate": 2}, {"eliminate": 3}]})
    assert "You have one minute to debate." in said(r)
    assert not any("1 minutes" in text for text in said(r))


def test_vote_now_ends_the_debate() -> None:
    r = play(BASIC, {"nights": [{}], "days": [{"vote_now": True, "eliminate": 2}, {"eliminate": 3}]})
    assert keys(r, "day.debate")[:1] == ["debate.start"] and "debate.end" not in keys(r, "day.debate")[:2]


def test_game_over_names_winner_and_every_role() -> None:
    r = play(BASIC, {"nights": [{}], "days": [{"eliminate": 2}, {"eliminate": 3}]})
    last = r.timeline[-1]
    assert last["kind"] == "game_over" and last["winner"] == "village"
    assert last["roles"] == {"1": "seer", "2": "werewolf", "3": "werewolf", "4": "witch", "5": "hunter", "6": "villager", "7": "villager", "8": "villager"}
    assert keys(r, "game.over") == ["game.over"] + ["day.death", "day.card"] * 8
    assert reveals(r, "game.over")[0] == "Seat 1. Their card: Seer."


def test_werewolves_win_when_only_werewolves_remain() -> None:
    script = {"nights": [{"werewolves": n} for n in (1, 4, 5)], "days": [{"eliminate": 6}, {"eliminate": 7}, {"eliminate": 8}]}
    r = play(BASIC, script)
    assert r.timeline[-1]["winner"] == "werewolves"


def test_whole_game_runs_on_a_virtual_clock_without_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    """No wall-clock bound that a loaded machine could break ("< 5 s"): no real wait at all, any sleep fails."""
    import threading
    import time

    def no_real_wait(*args: object, **kwargs: object) -> None:
        raise AssertionError("a headless game on the virtual clock waited for real")

    monkeypatch.setattr(time, "sleep", no_real_wait)
    monkeypatch.setattr(threading.Event, "wait", no_real_wait)
    r = play(BASIC, {"nights": [{}], "days": [{"eliminate": 2}, {"eliminate": 3}]})
    assert r.timeline[-2]["t"] > 60  # minutes of game time went by
