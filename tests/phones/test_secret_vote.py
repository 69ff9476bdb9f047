"""The secret accusation vote (docs/rules-spec.md#secret-vote, `accusation_vote=secret`): eyes
closed, each voter called in turn accuses on their own phone, only the totals are said; the game
is refused before it starts without a phone on every seat. Two games that differ only in who
accused whom say the same lines at the same times, show the same screens and send every phone the
same views (the real wire: tests/phones/test_wire.py)."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from narrator.errors import UsageError
from narrator.fakes import FakePhones
from narrator.flow.script import parse_setup
from narrator.flow.secret_vote import with_phones

from tests.phones.phone_helpers import PhoneGame, play_phones

SETUP: dict[str, Any] = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch"},
                         "options": {"captain_election": "never", "vote_procedure": "accusation",
                                     "accusation_vote": "secret"}}
# Day 1: seat 2 gets three accusations, seats 3 and 5 two each, whoever made them; seats 1 and 4
# swap theirs between the two games. The ballot burns seat 2; day 2, every voter accuses seat 3.
ACCUSED_A = {1: 2, 4: 3, 5: 2, 6: 2, 7: 3, 2: 5, 3: 5}
ACCUSED_B = {**ACCUSED_A, 1: 3, 4: 2}


def script(accusations: dict[int, int]) -> dict[str, Any]:
    return {"nights": [{"seer": 2, "werewolves": 8, "witch": {"heal": False, "poison": 0}}, {"werewolves": 7}],
            "days": [{"votes": accusations, "revote": {1: 2, 4: 2, 6: 2, 7: 2}, "vote_now": True},
                     {"eliminate": 3, "vote_now": True}]}


@functools.cache
def played(swapped: bool) -> tuple[PhoneGame, FakePhones]:
    """The game of ACCUSED_B (`swapped`) or ACCUSED_A on fake phones, played once for the tests that
    read it (none changes it): the same script, setup and seed give the same game every time."""
    phones = FakePhones(8)
    return play_phones(SETUP, script(ACCUSED_B if swapped else ACCUSED_A), phones), phones


def said(game: Any) -> list[tuple[float, str]]:
    return [(e["t"], e["text"]) for e in game.timeline.entries if e["kind"] == "say"]


def test_the_secret_vote_is_taken_on_each_voters_phone_and_only_the_totals_are_said() -> None:
    g, phones = played(False)
    lines = [text for _, text in said(g)]
    start = lines.index("Everyone, close your eyes. When I call your seat, accuse one player on your phone.")
    end = lines.index("Everyone, open your eyes.")
    assert lines[start + 1:end] == [f"Seat {seat}, your accusation." for seat in range(1, 8)]
    assert lines[end + 1:end + 7] == ["Seat 2.", "3 accusations.", "Seat 3.", "2 accusations.", "Seat 5.",
                                      "2 accusations."]
    assert lines[end + 7:end + 10] == ["Seat 2 is accused.", "Seat 3 is accused.", "Seat 5 is accused."]
    # Each accusation came from the voter's own phone, journaled as the phone's.
    secret = [(r["prompt"], r["choice"], r["source"]) for r in g.journal.records()
              if r["kind"] == "input" and r["prompt"].startswith("day.vote.accusation.")]
    assert secret[:7] == [(f"day.vote.accusation.{v}", ACCUSED_A[v], "phone") for v in range(1, 8)]
    # Only the called voter's phone had the candidates, and no phone was ever told another's choice.
    for seat, view, _ in phones.sent:
        if view.get("choices") and not view["night"]:
            assert view["seat"] == seat
    assert not any("accuses" in text or "voted" in text for text in lines)
    assert g.game.outcome is not None


def test_two_games_differing_only_in_who_accused_whom_look_and_sound_the_same() -> None:
    runs = []
    for swapped in (False, True):
        g, phones = played(swapped)
        screens = [e for e in g.timeline.entries if e["kind"] != "say"]
        # Every phone's views as sent, on the beats; the two voters who swapped may differ on their own.
        sent = [(seat, view, at) for seat, view, at in phones.sent if seat not in (1, 4)]
        runs.append((said(g), screens, sent, len(phones.sent), g.game.outcome))
    (said_a, screens_a, sent_a, count_a, out_a), (said_b, screens_b, sent_b, count_b, out_b) = runs
    assert said_a == said_b and screens_a == screens_b and sent_a == sent_b and count_a == count_b
    assert out_a == out_b and out_a is not None


def test_the_secret_vote_without_a_phone_on_every_seat_is_refused_before_the_game() -> None:
    s = parse_setup({"language": "en", **SETUP}, "SETUP")
    with pytest.raises(UsageError, match="needs a phone on every seat"):
        with_phones(s, phones=False)
    chosen = parse_setup({"language": "en", **SETUP, "options": {**SETUP["options"],
                                                                  "accusation_vote": "secret_with_phones"}}, "SETUP")
    assert with_phones(chosen, phones=False).options.accusation_vote == "open"
    assert with_phones(chosen, phones=True).options.accusation_vote == "secret"


@pytest.mark.slow
def test_two_secret_votes_differing_only_in_who_accused_whom_look_the_same_on_the_real_wire() -> None:
    from narrator.phones.crypto import SEALED_BYTES, SEALED_UP_BYTES

    from tests.phones.test_wire import captured, rounds

    games = [captured(SETUP["roles"], 0, {}, SETUP["options"], script(accusations))
             for accusations in (ACCUSED_A, ACCUSED_B)]
    for game, _, _, journal in games:
        taps = [(r["prompt"], r["choice"]) for r in journal.records() if r["kind"] == "input" and r["source"] == "phone"]
        assert sum(1 for p, _ in taps if p.startswith("day.vote.accusation.")) >= 7  # every voter, on the phone
        assert game.outcome is not None
    wire_a, wire_b = rounds(games[0][1]), rounds(games[1][1])
    # Every phone, the swapped voters' too: as many frames each way, every one of one length.
    assert len({len(r) for r in wire_a + wire_b}) == 1
    assert {(d.payload, u.payload) for r in wire_a + wire_b for d, u in r} == {(SEALED_BYTES, SEALED_UP_BYTES)}

    def schedule(frames: list[Any]) -> dict[int, list[tuple[int, float, bool]]]:
        by_seat: dict[int, list[tuple[int, float, bool]]] = {}
        for f in frames:
            by_seat.setdefault(f.seat, []).append((f.size, round(f.at, 6), f.night))
        return by_seat

    assert schedule(games[0][2]) == schedule(games[1][2])
