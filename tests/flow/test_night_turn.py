"""The night turn as a table meets it: what each role is told, what it typed, and `-`.

Games run through the sequencer on a virtual clock with a listener that types given keys at given
moments of a turn; the private panel is read from the timeline.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from narrator.fakes import RandomListener
from narrator.clock import VirtualClock
from narrator.flow.run import resume_from
from narrator.headless import HeadlessResult, run_game
from narrator.journal import MemoryJournal
from narrator.flow.script import parse_script, parse_setup
from narrator.ports import Heard, Prompt

from flow_helpers import FAST, during, index_of, nights, panel_lines

ROLES = {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 5: "hunter", 6: "cupid"}
DAYS = {"days": [{"eliminate": 2}, {"eliminate": 3}, {"eliminate": 8}]}


class Typist:
    """Types keys into night turns: {(night, call): [choice, ...]}, one key every `every` seconds
    from the moment the panel opens (`early` keys come during the wake line). Day prompts are
    answered from a script; prompts nobody typed for run to their deadline."""

    def __init__(self, clock: VirtualClock, keys: dict[tuple[int, str], list[Any]], script: Any = None,
                 every: float = 1.0, early: dict[tuple[int, str], list[Any]] | None = None) -> None:
        self.clock = clock
        self.keys = {k: list(v) for k, v in keys.items()}
        self.early = {k: list(v) for k, v in (early or {}).items()}
        self.script = script
        self.every = every
        self.asked: list[Prompt] = []

    def listen(self, prompt: Prompt) -> Heard | None:
        self.asked.append(prompt)
        parts = prompt.name.split(".")
        if parts[0] == "night":
            queue = (self.early if parts[-1] == "early" else self.keys).get((prompt.number, parts[1]), [])
            at = self.clock.now() + self.every
            if queue and prompt.deadline is not None and at < prompt.deadline:
                self.clock.sleep_until(at)
                choice = queue.pop(0)
                return Heard(choice, "keypad", str(choice))
        elif self.script is not None:
            heard = self.script.answer(prompt)
            if heard is not None:
                self.clock.sleep_until(self.clock.now() + 0.5)
                return heard
        assert prompt.deadline is not None
        self.clock.sleep_until(prompt.deadline)
        return None


def game(keys: dict[tuple[int, str], list[Any]], options: dict[str, Any] | None = None, roles: dict[int, str] = ROLES,
         extra: list[str] | None = None, early: dict[tuple[int, str], list[Any]] | None = None,
         journal: MemoryJournal | None = None, resume: bool = False, days: dict[str, Any] = DAYS) -> HeadlessResult:
    data: dict[str, Any] = {"players": 8, "language": "en", "roles": roles, "timing": dict(FAST), "options": options or {}}
    if extra:
        data["extra"] = extra
    setup = parse_setup(data, "SETUP")
    clock = VirtualClock()
    listener = Typist(clock, keys, parse_script(days, 8, "SCRIPT"), early=early)
    journal = journal if journal is not None else MemoryJournal()
    return run_game(setup, listener, 0, clock, journal, resume_from(journal.records()) if resume else None)


def witch_panel(r: HeadlessResult, night: int = 1) -> list[dict[str, Any]]:
    wake = [i for i, e in enumerate(r.timeline) if e.get("key") == "witch.wake"][night - 1]
    sleep = index_of(r, "witch.sleep", wake)
    return [e for e in r.timeline[wake:sleep] if e["kind"] == "private"]


def last_panel(entries: list[dict[str, Any]]) -> list[str]:
    shows = [e for e in entries if e.get("action") == "show"]
    return str(shows[-1]["text"]).splitlines()


def first_morning(r: HeadlessResult) -> list[str]:
    dawn = index_of(r, "day.dawn")
    return [e["key"] for e in r.timeline[dawn:] if e["kind"] == "say"][:2]


def inputs(r: HeadlessResult) -> list[tuple[str, Any]]:
    return [(rec["prompt"], rec["choice"]) for rec in r.journal.records() if rec["kind"] == "input"]


# ---- the Witch is told what to type ----------------------------------------------


def test_witch_panel_shows_both_steps_with_their_keys_and_what_each_did() -> None:
    r = game({(1, "werewolves"): [5], (1, "witch"): ["yes", 7]})
    panel = witch_panel(r)
    first = str(panel[0]["text"]).splitlines()
    assert first == ["Tonight's victim: seat 5.", "Save the victim? + yes, - no.",
                     "Poison someone? Their seat number, 0 for nobody."]
    assert last_panel(panel)[3:] == ["Save: yes.", "Poison: seat 7.", "Until the turn ends: - takes it back, then answer again."]
    assert r.game.is_alive(5) and not r.game.is_alive(7)


def test_witch_without_potions_is_told_so() -> None:
    nights = {(1, "werewolves"): [5], (1, "witch"): ["yes", 7], (2, "werewolves"): [8]}
    r = game(nights, days={"days": [{"eliminate": 6}, {"eliminate": 2}, {"eliminate": 3}]})
    assert last_panel(witch_panel(r, 2)) == ["Your healing potion is spent: the victim is not shown.",
                                             "Both potions are used: nothing to do tonight."]


# ---- every answer echoed, `-` takes it back, the last one standing counts ----------


def test_every_night_answer_is_echoed_with_what_was_taken() -> None:
    r = game({(1, "cupid"): [3, 5], (1, "seer"): [2], (1, "werewolves"): [7], (1, "witch"): ["no", "nobody"]})
    assert "Lovers: seat 3 and …" in panel_lines(during(r, "cupid.wake", "cupid.sleep"))
    assert "Lovers: seat 3 and seat 5." in panel_lines(during(r, "cupid.wake", "cupid.sleep"))
    assert "Seat 2 is the Werewolf." in panel_lines(during(r, "seer.wake", "seer.sleep"))
    assert "Victim: seat 7." in panel_lines(during(r, "werewolves.wake_first", "werewolves.sleep"))
    assert last_panel(witch_panel(r))[3:5] == ["Save: no.", "Poison: nobody."]
    # No bare "Accepted." at night: the echo says what was taken.
    night = r.timeline[: index_of(r, "day.dawn")]
    assert not [e for e in night if e.get("action") == "feedback" and e["text"] == "Accepted."]


def test_thief_sees_the_card_taken_and_may_change_it() -> None:
    roles = {1: "thief", 2: "werewolf", 3: "seer"}
    r = game({(1, "thief"): [1, "no", 2]}, roles=roles, extra=["hunter", "villager"],
             options={"thief_extra_cards": "from_deck"}, days={"days": [{"eliminate": 2}]})
    lines = panel_lines(during(r, "thief.wake", "thief.sleep"))
    assert "You are now the Hunter." in lines and "You are now the Villager." in lines
    assert r.timeline[-1]["roles"]["1"] == "villager"


def test_minus_takes_back_and_the_last_answer_standing_is_applied() -> None:
    r = game({(1, "werewolves"): [7, "no", 5]})
    assert not r.game.is_alive(5) and r.game.is_alive(7)
    lines = panel_lines(during(r, "werewolves.wake_first", "werewolves.sleep"))
    assert lines.count("Victim: seat 7.") == 1 and lines[-2:] == ["Victim: seat 5.", "Until the turn ends: - takes it back, then answer again."]
    # Every input is journaled as it came, the withdrawal too.
    assert inputs(r)[:3] == [("night.werewolves", 7), ("night.werewolves.change", "no"), ("night.werewolves", 5)]


def test_cupid_minus_takes_back_the_second_lover() -> None:
    r = game({(1, "cupid"): [3, 5, "no", 8]})
    assert r.game.state.lovers == (3, 8)
    assert "Lovers: seat 3 and seat 8." in panel_lines(during(r, "cupid.wake", "cupid.sleep"))


def test_witch_minus_is_no_in_the_heal_step_then_takes_back() -> None:
    """In the heal step, where nothing is echoed yet, `-` answers no; once an answer is echoed,
    `-` takes back the last one and asks that step again."""
    r = game({(1, "werewolves"): [5], (1, "witch"): ["no", "no", "yes", 7, "no", "nobody"]})
    assert inputs(r)[1:] [:6] == [("night.witch.heal", "no"), ("night.witch.poison", "no"), ("night.witch.heal", "yes"),
                                  ("night.witch.poison", 7), ("night.witch.change", "no"), ("night.witch.poison", "nobody")]
    assert r.game.is_alive(5) and r.game.is_alive(7)
    assert last_panel(witch_panel(r))[3:5] == ["Save: yes.", "Poison: nobody."]


def test_withdrawn_answer_without_a_new_one_leaves_nothing() -> None:
    r = game({(1, "werewolves"): [7, "no"]})
    assert first_morning(r) == ["day.dawn", "day.no_deaths"]


def test_typing_and_changing_takes_the_same_time_and_stays_silent() -> None:
    busy = game({(1, "cupid"): [3, "no", 4, 5], (1, "seer"): [2, "no", 3], (1, "werewolves"): [7, "no", 7],
                 (1, "witch"): ["no", "no", "no", "nobody", "no", 99, "nobody"]})
    quiet = game({(1, "werewolves"): [7], (1, "cupid"): [4, 5]})
    assert nights(busy.timeline)[0] == nights(quiet.timeline)[0]


def test_resume_keeps_the_answers_standing_in_the_journal() -> None:
    full = game({(1, "werewolves"): [7, "no", 5]})
    records = full.journal.records()
    take = next(i for i, rec in enumerate(records) if rec.get("prompt") == "night.werewolves.change")
    # Cut after the withdrawal: nobody stands, and a silent table leaves it so.
    cut = game({}, journal=MemoryJournal(records[: take + 1]), resume=True)
    assert first_morning(cut) == ["day.dawn", "day.no_deaths"]
    # Cut after the new answer: seat 5 stands and is applied.
    again = game({}, journal=MemoryJournal(records[: take + 2]), resume=True)
    assert not again.game.is_alive(5) and again.game.is_alive(7)


# ---- the Witch is told there is no victim ------------------------------------------


def test_with_victim_shown_after_heal_a_night_without_victim_says_so() -> None:
    nights = {(1, "werewolves"): [5], (1, "witch"): ["yes", "nobody"], (2, "werewolves"): ["nobody"]}
    r = game(nights, options={"witch_sees_victim_after_heal": True}, days={"days": [{"eliminate": 6}, {"eliminate": 2}, {"eliminate": 3}]})
    assert last_panel(witch_panel(r, 2))[0] == "Nobody is the Werewolves' victim tonight."


# ---- keys typed during the wake line ----------------------------------------------


def test_keys_typed_during_the_wake_line_are_said_to_be_too_early() -> None:
    r = game({(1, "werewolves"): [5]}, early={(1, "werewolves"): [7]})
    wolves = during(r, "werewolves.wake_first", "werewolves.sleep")
    notes = [e["text"] for e in wolves if e["action"] == "feedback"]
    assert notes[0] == "Keys typed before this screen opened are not taken: type your answer now."
    # The note comes with the panel, not before it opens; the early key was not taken.
    assert [e["action"] for e in wolves][:2] == ["show", "feedback"]
    assert r.game.is_alive(7) and not r.game.is_alive(5)
    assert ("night.werewolves", 7) not in inputs(r)


def test_the_too_early_note_does_not_tell_whether_anyone_typed() -> None:
    """The note is the same whether or not keys came during the wake line, or the woken
    role would learn that someone (perhaps the role called before, late) was typing."""
    typed = game({(1, "werewolves"): [5]}, early={(1, "werewolves"): [7]})
    quiet = game({(1, "werewolves"): [5]})
    panel = [[(e["action"], e.get("text")) for e in during(r, "werewolves.wake_first", "werewolves.sleep")]
             for r in (typed, quiet)]
    assert panel[0] == panel[1]


# ---- secrecy tests without blind spots --------------------------------------------


def test_illegal_and_extra_keys_at_night_stay_silent_and_change_no_timing() -> None:
    junk = [99, "repeat", "pause", "more_time", 0, "yes", 42]
    keys = {(1, call): list(junk) for call in ("cupid", "lovers", "seer", "werewolves", "witch")}
    keys[(1, "werewolves")] = [7, 7, 99, "repeat", "yes"]  # an answer, then extra keys
    noisy = game(keys, early={(1, "seer"): ["repeat", 3]})
    quiet = game({(1, "werewolves"): [7]})
    assert nights(noisy.timeline)[0] == nights(quiet.timeline)[0]
    first_dawn = index_of(noisy, "day.dawn")
    said_at_night = [e["key"] for e in noisy.timeline[:first_dawn] if e["kind"] == "say"]
    assert said_at_night == [e["key"] for e in quiet.timeline[: index_of(quiet, "day.dawn")] if e["kind"] == "say"]
    assert "prompt.repeat" not in said_at_night
    refused = [e for e in noisy.timeline[:first_dawn] if e.get("action") == "feedback"]
    assert len(refused) >= 20  # every refused key got its silent note on the panel


def test_every_calls_panel_is_cleared_when_its_turn_ends() -> None:
    roles = {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 5: "thief", 6: "cupid"}
    r = game({(1, "thief"): [1], (1, "cupid"): [7, 8], (1, "seer"): [2], (1, "werewolves"): [5], (1, "witch"): ["no", 3]},
             roles=roles)
    settle = parse_setup({"players": 8, "roles": roles}, "SETUP").timing.settle
    for call, wake in (("thief", "thief.wake"), ("cupid", "cupid.wake"), ("lovers", "lovers.wake"), ("seer", "seer.wake"),
                       ("werewolves", "werewolves.wake_first"), ("witch", "witch.wake")):
        a = index_of(r, wake)
        b = index_of(r, f"{call}.sleep", a)
        entries = [e for e in r.timeline[a:b] if e["kind"] == "private"]
        assert entries[0]["action"] == "show", call
        assert entries[-1]["action"] == "clear", f"{call}: the panel is still open at the sleep line"
        assert entries[-1]["t"] == round(r.timeline[b]["t"] - settle, 3), call
        assert r.timeline[b - 1] is entries[-1], f"{call}: something happened between the clear and the sleep line"


def witch_texts(r: HeadlessResult, night: int) -> list[str]:
    return [str(e.get("text")) for e in witch_panel(r, night) if e["action"] != "clear"]


def test_witch_panel_does_not_tell_what_she_may_not_know() -> None:
    """Healing potion spent, victim not shown: her panel is the same with or without a victim,
    and whatever the Werewolves typed."""
    days = {"days": [{"eliminate": 6}, {"eliminate": 2}, {"eliminate": 3}]}
    base = {(1, "werewolves"): [5], (1, "witch"): ["yes", "nobody"], (2, "witch"): [8]}
    victim = game({**base, (2, "werewolves"): [7]}, days=days)
    none = game({**base, (2, "werewolves"): ["nobody"]}, days=days)
    silent = game(dict(base), days=days)
    changed = game({**base, (2, "werewolves"): [7, "no", 8]}, days=days)
    texts = witch_texts(victim, 2)
    assert texts[0].splitlines()[0] == "Your healing potion is spent: the victim is not shown."
    assert texts == witch_texts(none, 2) == witch_texts(silent, 2) == witch_texts(changed, 2)


def test_random_listener_types_illegal_keys_too() -> None:
    clock = VirtualClock()
    listener = RandomListener(clock, random.Random(3), illegal=0.5)
    prompt = Prompt("night.seer", (1, 2, 3), (), night=True, deadline=100.0, number=1)
    heard = [listener.listen(prompt) for _ in range(40)]
    assert any(h is not None and not prompt.allows(h.choice) for h in heard)
    assert any(h is not None and prompt.allows(h.choice) for h in heard)


def test_the_keypad_sees_keys_typed_during_the_wake_line() -> None:
    """On the real keypad reader: keys left from the previous turn are dropped when the wake line
    starts; keys typed during it reach the sequencer (which says they were too early), and digits
    not yet entered carry over into the question."""
    import os
    import time

    from narrator.listening.keypad import KeypadListener

    r, w = os.pipe()
    try:
        keypad = KeypadListener(fd=r, echo=lambda text: None)
        keypad.previous = Prompt("night.werewolves.change", (), ("no",), night=True, idle=True)
        os.write(w, b"5\r")  # the Werewolves, late
        early = Prompt("night.witch.early", night=True, deadline=time.monotonic(), number=1, idle=True)
        assert keypad.listen(early) is None  # the wake line starts: the late key is dropped
        os.write(w, b"7\r")  # typed during the wake line
        heard = keypad.listen(replace(early, deadline=time.monotonic() + 30))
        assert heard is not None and heard.choice == 7
        os.write(w, b"4")  # a digit typed during the wake line, Enter after the panel opened
        assert keypad.listen(replace(early, deadline=time.monotonic() + 0.05)) is None
        os.write(w, b"\r")
        question = Prompt("night.witch.poison", (4, 6), ("nobody",), night=True, deadline=time.monotonic() + 30, number=1)
        heard = keypad.listen(question)
        assert heard is not None and heard.choice == 4
    finally:
        os.close(r)
        os.close(w)


def feedback_during(r: HeadlessResult, wake: str, sleep: str) -> list[str]:
    """The feedback on the panel during a call, but the note every turn opens with (keys typed too early)."""
    return [e["text"] for e in during(r, wake, sleep) if e["kind"] == "private" and e.get("action") == "feedback"
            and e.get("key") != "input.too_early"]


def test_after_the_seers_minus_one_message_not_two_contradicting_ones() -> None:
    """Before: `-` said "it cannot be taken back", the seat typed after it "To change it, press - first"."""
    r = game({(1, "seer"): [2, "no", 3]})
    assert feedback_during(r, "seer.wake", "seer.sleep") == [
        "Your choice is made: it cannot be taken back.", "Your choice is made: it cannot be taken back."]


def test_minus_with_nothing_to_take_back_says_so() -> None:
    """Before: "Not possible: -. Choose again."."""
    r = game({(1, "seer"): ["no", 2]})
    assert feedback_during(r, "seer.wake", "seer.sleep") == ["Nothing to take back: no answer yet."]


def test_minus_by_day_with_nothing_to_take_back_says_so() -> None:
    """By day too: `-` at a voter's question (nothing typed yet) said "Not possible: -. Choose again."."""
    from narrator.fakes import FakeListener

    from flow_helpers import FAST as fast

    setup = parse_setup({"players": 8, "language": "en", "roles": ROLES, "timing": dict(fast)}, "SETUP")
    script = parse_script(DAYS, 8, "SCRIPT")
    minus: list[str] = []

    def answer(prompt: Prompt) -> Heard | None:
        if prompt.name.startswith("day.vote.") and prompt.seats and not minus:
            minus.append(prompt.name)
            return Heard("no", "keypad", "-")
        return script.answer(prompt)

    clock = VirtualClock()
    r = run_game(setup, FakeListener(clock, answer, delay=0.5), 0, clock)
    assert minus
    notes = [e["text"] for e in r.timeline if e.get("action") == "feedback"]
    assert "Nothing to take back: no answer yet." in notes
    assert not any(n.startswith("Not possible: -") for n in notes)


def test_after_the_foxs_minus_one_message_too() -> None:
    roles = {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 5: "hunter", 6: "fox"}
    r = game({(1, "fox"): [2, "no", 3]}, roles=roles)
    assert feedback_during(r, "fox.wake", "fox.sleep") == [
        "Your choice is made: it cannot be taken back.", "Your choice is made: it cannot be taken back."]
