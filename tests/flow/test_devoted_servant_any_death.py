"""The Devoted Servant with `servant_scope=any_death` at the table: at dawn, after the night's
deaths are announced without their cards, one public window of fixed length for each of them in
seat order; each card not taken is shown when its window closes; a taken card is never shown and
its effects do not apply (a devoured Hunter does not shoot); then the chain reactions. The
dawn windows sound the same whether the Servant is alive, dead, in love or not dealt."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

from narrator.clock import VirtualClock
from narrator.flow.script import parse_script, parse_setup
from narrator.headless import HeadlessResult, Timeline, TimelineDisplay, play_headless, run_game
from narrator.journal import FileJournal
from narrator.listening.automatic import ScriptPlayers
from narrator.packs import load_pack
from narrator.rules import events as ev

from flow_helpers import FAST, keys, play, resumes_after_every_line, reveals

OPTIONS = {"captain_election": "never", "servant_scope": "any_death"}
SETUP = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "hunter", 4: "devoted_servant", 5: "werewolf"},
         "options": OPTIONS}


def first_dawn(r: HeadlessResult) -> list[str]:
    """The keys said from the first dawn to the day's debate."""
    said = keys(r)
    start = said.index("day.dawn")
    return said[start:said.index("debate.start", start)]


def test_the_servant_takes_a_devoured_hunters_card_at_dawn() -> None:
    r = play(SETUP, {"nights": [{"werewolves": 3}, {"werewolves": 7}],
                     "days": [{"dawn_window": {3: 4}, "eliminate": 2}, {"eliminate": 5}]})
    dawn = first_dawn(r)
    # Seat 3's death is announced without his card; his window opens; she takes it; he does not shoot.
    at = dawn.index("day.deaths")
    assert dawn[at + 1] == "day.death" and dawn[at + 2] != "day.card"
    i = dawn.index("devoted_servant.window")
    assert dawn[i + 1:i + 3] == ["devoted_servant.steps", "devoted_servant.card"]
    assert "chain.hunter" not in dawn and "day.card" not in dawn
    assert not any(t.startswith("Seat 3.") for t in reveals(r, "day.")), "the taken card is never revealed"
    assert any(isinstance(e, ev.CardTaken) and e.servant == 4 and e.seat == 3 for e in r.game.events)
    # Taken at dawn 1: her reset call is on night 2, the next night.
    night = keys(r, "night.")
    second = night[night.index("night.falls", 1):]
    assert second[:3] == ["night.falls", "devoted_servant_reset.wake", "devoted_servant_reset.sleep"]
    assert night.count("devoted_servant_reset.wake") == 1


def test_nobody_takes_the_card_it_is_shown_after_the_window_then_the_hunter_shoots() -> None:
    r = play(SETUP, {"nights": [{"werewolves": 3}, {"werewolves": 7}],
                     "days": [{"hunter": 8, "eliminate": 2}, {"eliminate": 5}]})
    dawn = first_dawn(r)
    at = dawn.index("day.deaths")
    assert dawn[at + 1] == "day.death" and dawn[at + 2] != "day.card"
    i = dawn.index("devoted_servant.window")
    assert dawn[i + 1:i + 5] == ["devoted_servant.none", "day.death", "day.card", "chain.hunter"]
    assert "Seat 3. Their card: Hunter." in reveals(r)
    assert not any(isinstance(e, ev.CardTaken) for e in r.game.events)
    assert "devoted_servant_reset.wake" not in keys(r)


def test_two_dawn_deaths_one_window_each_in_seat_order_she_takes_the_second() -> None:
    setup = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "witch", 4: "devoted_servant", 7: "hunter"},
             "options": OPTIONS}
    r = play(setup, {"nights": [{"werewolves": 5, "witch": {"heal": False, "poison": 7}}, {"werewolves": 6}],
                     "days": [{"dawn_window": {7: 4}, "eliminate": 2}]})
    dawn = first_dawn(r)
    windows = [i for i, k in enumerate(dawn) if k == "devoted_servant.window"]
    assert len(windows) == 2
    assert dawn[windows[0] + 1:windows[0] + 4] == ["devoted_servant.none", "day.death", "day.card"]
    assert dawn[windows[1] + 1:windows[1] + 3] == ["devoted_servant.steps", "devoted_servant.card"]
    shown = reveals(r, "day.")
    assert "Seat 5. Their card: Villager." in shown
    assert not any(t.startswith("Seat 7.") for t in shown), shown
    assert "chain.hunter" not in dawn
    order = [e.seat for e in r.game.events if isinstance(e, ev.WindowOpened)]
    assert order[:2] == [5, 7]


def test_without_the_option_no_window_opens_at_dawn() -> None:
    setup = {**SETUP, "options": {"captain_election": "never"}}
    r = play(setup, {"nights": [{"werewolves": 3}, {"werewolves": 7}],
                     "days": [{"dawn_window": {3: 4}, "hunter": 8, "eliminate": 2}, {"eliminate": 5}]})
    dawn = first_dawn(r)
    assert "devoted_servant.window" not in dawn
    assert dawn[dawn.index("day.deaths") + 1:dawn.index("day.deaths") + 3] == ["day.death", "day.card"]
    assert not any(isinstance(e, ev.CardTaken) for e in r.game.events)


class BoardDisplay(TimelineDisplay):
    """The timeline's display, also keeping every public board it was shown."""

    boards: list[dict[str, Any]]

    def board(self, state: Mapping[str, Any]) -> None:
        self.boards.append(dict(state))


def test_the_public_board_does_not_show_a_card_before_its_dawn_window_closes() -> None:
    s = parse_setup({"language": "en", **SETUP, "timing": dict(FAST)}, "SETUP")
    script = parse_script({"nights": [{"werewolves": 3}], "days": [{"hunter": 8, "eliminate": 2}, {"eliminate": 5}]},
                          s.players, "SCRIPT")
    clock = VirtualClock()
    display = BoardDisplay(load_pack("en"), Timeline(clock))
    display.boards = []
    run_game(s, ScriptPlayers(clock, script.answer, delay=script.answer_delay), 0, clock, display=display)
    dawn = next(i for i, b in enumerate(display.boards) if b["phase"] == "dawn")
    assert 3 not in display.boards[dawn]["alive"] and 3 not in display.boards[dawn]["revealed"]
    assert display.boards[dawn + 1]["revealed"].get(3) == "hunter"  # the window closed: shown


# ---- secrecy: the dawn window sounds the same whatever the hidden state ----------------------

BASE = {1: "seer", 2: "werewolf", 5: "cupid", 6: "villager"}


def dawn_lines(r: HeadlessResult) -> list[tuple[str, str, float]]:
    """From the first dawn to the debate: each line, its text and its offset from the dawn."""
    said = [e for e in r.timeline if e["kind"] == "say"]
    start = next(i for i, e in enumerate(said) if e["key"] == "day.dawn")
    end = next(i for i, e in enumerate(said) if e["key"] == "debate.start" and i > start)
    t0 = said[start]["t"]
    return [(e["key"], e["text"], round(e["t"] - t0, 6)) for e in said[start:end]]


def variant(roles: Mapping[int, str], lovers: list[int], pressed: Mapping[int, int], possible: tuple[str, ...] = (),
            delay: float = 2.0) -> HeadlessResult:
    """Night 1: the pack devours seat 6 (a Villager in every variant); `pressed`: the dawn
    windows in which someone steps forward (death's seat: the seat typed before `+`)."""
    setup: dict[str, Any] = {"players": 8, "roles": {**BASE, **roles}, "options": OPTIONS}
    if possible:
        setup["possible"] = list(possible)
    night: dict[str, Any] = {"cupid": lovers, "werewolves": 6}
    return play(setup, {"nights": [night], "days": [{"dawn_window": pressed, "eliminate": 2}],
                        "answer_delay": delay})


def test_dawn_windows_sound_the_same_whether_the_servant_is_alive_dead_in_love_or_not_dealt() -> None:
    alive = variant({4: "devoted_servant"}, [3, 8], {})  # alive, lets it pass
    in_love = variant({4: "devoted_servant"}, [4, 8], {6: 4})  # steps forward, may not take
    not_dealt = variant({4: "villager"}, [3, 8], {6: 4}, possible=("devoted_servant",))  # seat 4 steps forward
    late = variant({4: "devoted_servant"}, [3, 8], {}, delay=9.0)  # slow answers everywhere else
    reference = dawn_lines(alive)
    assert [k for k, _, _ in reference].count("devoted_servant.window") == 1
    for other in (in_love, not_dealt, late):
        assert dawn_lines(other) == reference
    for r in (alive, in_love, not_dealt, late):
        assert not any(isinstance(e, ev.CardTaken) for e in r.game.events)


def test_a_dead_servants_dawn_windows_sound_like_a_living_ones() -> None:
    """The Servant (seat 7) voted out on day 1 in one game, a Villager voted out in the other
    (the Servant alive at seat 4): dawn 2's window for the pack's victim is the same."""
    def game(roles: Mapping[int, str], pressed: Mapping[int, int]) -> HeadlessResult:
        setup = {"players": 8, "roles": {**BASE, **roles}, "options": OPTIONS}
        return play(setup, {"nights": [{"cupid": [3, 8], "werewolves": 1}, {"werewolves": 6}],
                            "days": [{"eliminate": 7}, {"dawn_window": pressed, "eliminate": 2}]})

    def second_dawn(r: HeadlessResult) -> list[tuple[str, str, float]]:
        said = [e for e in r.timeline if e["kind"] == "say"]
        dawns = [i for i, e in enumerate(said) if e["key"] == "day.dawn"]
        start = dawns[1]
        end = next(i for i, e in enumerate(said) if e["key"] == "debate.start" and i > start)
        return [(e["key"], e["text"], round(e["t"] - said[start]["t"], 6)) for e in said[start:end]]

    dead = game({7: "devoted_servant", 4: "villager"}, {6: 7})
    living = game({4: "devoted_servant", 7: "villager"}, {})
    assert not dead.game.is_alive(7) and living.game.is_alive(4)
    assert "devoted_servant.window" in [k for k, _, _ in second_dawn(dead)]
    assert second_dawn(dead) == second_dawn(living)


def test_the_comparison_can_fail_when_she_steps_forward() -> None:
    """Taking the card is public by design: the same comparison then differs."""
    reference = dawn_lines(variant({4: "devoted_servant"}, [3, 8], {}))
    assert dawn_lines(variant({4: "devoted_servant"}, [3, 8], {6: 4})) != reference


def test_a_journal_cut_anywhere_around_the_dawn_windows_resumes_to_the_same_game(tmp_path: Path) -> None:
    """Two dawn windows, the second answered (`day.dawn_window.7`): resumed after every line of
    the journal, the game and its journal come out the same."""
    setup = parse_setup({"language": "en", "players": 8, "timing": dict(FAST), "options": OPTIONS,
                         "roles": {1: "seer", 2: "werewolf", 3: "witch", 4: "devoted_servant", 7: "hunter"}}, "SETUP")
    script = parse_script({"nights": [{"werewolves": 5, "witch": {"heal": False, "poison": 7}}, {"werewolves": 6}],
                           "days": [{"dawn_window": {7: 4}, "eliminate": 2}]}, 8, "SCRIPT")
    journal = FileJournal.create(tmp_path / "full.jsonl")
    result = play_headless(setup, script, 3, journal=journal)
    journal.close()
    full = (tmp_path / "full.jsonl").read_bytes()
    lines = full.splitlines(keepends=True)
    assert any(json.loads(line).get("prompt") == "day.dawn_window.7" for line in lines)
    assert any(isinstance(e, ev.CardTaken) and e.seat == 7 for e in result.game.events)
    resumes_after_every_line(full, result.timeline[-1], tmp_path)


def test_a_dawn_claim_from_another_seat_gets_what_no_claim_gets() -> None:
    """At dawn (`servant_scope=any_death`): seat 5 steps forward in the window
    of the pack's victim (seat 6) while the Servant (seat 4) may take it: the same dawn as nobody
    stepping forward, and as the same claim with no Servant dealt. Her own claim takes it."""
    nobody = variant({4: "devoted_servant"}, [3, 8], {})
    other = variant({4: "devoted_servant"}, [3, 8], {6: 5})
    not_dealt = variant({4: "villager"}, [3, 8], {6: 5}, possible=("devoted_servant",))
    assert dawn_lines(other) == dawn_lines(nobody) == dawn_lines(not_dealt)
    assert not any(isinstance(e, ev.CardTaken) for r in (nobody, other, not_dealt) for e in r.game.events)
    herself = variant({4: "devoted_servant"}, [3, 8], {6: 4})
    assert any(isinstance(e, ev.CardTaken) and e.servant == 4 and e.seat == 6 for e in herself.game.events)


def test_a_window_claim_in_the_old_form_is_refused_with_the_new_one() -> None:
    """`window = true` and `dawn_window = [3]` named no claimer: refused, saying what to write."""
    import pytest

    from narrator.errors import UsageError

    with pytest.raises(UsageError, match=r"window = true; give the seat that steps forward"):
        parse_script({"days": [{"window": True}]}, 8, "SCRIPT")
    with pytest.raises(UsageError, match=r"dawn_window = \[3\]; give each night death's seat"):
        parse_script({"days": [{"dawn_window": [3]}]}, 8, "SCRIPT")
