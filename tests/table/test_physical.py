"""Deal mode (b), physical cards: a silent roll call learns who holds what, and leaks nothing."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from narrator.errors import UsageError
from narrator.fakes import Timeline, TimelineDisplay, TimelineSpeaker
from narrator.clock import VirtualClock
from narrator.flow.timing import Timing
from narrator.packs import load_pack
from narrator.ports import Heard, Prompt
from narrator.rules import Deal, Options, Role, deal
from narrator.rules.composition import deck_of
from narrator.table.deal import middle_menu, roll_call
from tests.text_game import TIMING as TEXT_TIMING

TIMING = Timing(gap=1.0)


class Holders:
    """The players at the table: each role's holders type their seats at random moments of the turn."""

    def __init__(self, clock: VirtualClock, truth: Deal, rng: random.Random, wrong: dict[Role, int] | None = None,
                 menu: tuple[Role, ...] = ()) -> None:
        self.clock = clock
        self.menu = menu  # the Thief's menu of middle cards, as his panel numbers them
        self.truth = truth
        self.rng = rng
        self.wrong = dict(wrong or {})  # role -> a seat it claims instead, for one roll call
        self.queue: list[Any] = []
        self.asked: list[Prompt] = []

    def listen(self, prompt: Prompt) -> Heard | None:
        self.asked.append(prompt)
        role = Role(prompt.name.split(".")[1])
        if prompt.name == "night.thief.middle":
            if not self.queue:
                self.queue = [self.menu.index(r) + 1 for r in self.truth.extra]
            answer: Any = self.queue.pop(0)
        else:
            mine = [s for s, r in enumerate(self.truth.seats, 1) if r is role]
            if role in self.wrong:
                mine = [self.wrong.pop(role)]
            already = sum(1 for p in self.asked[:-1] if p.name == prompt.name and p.deadline == prompt.deadline)
            if already >= len(mine):
                assert prompt.deadline is not None
                self.clock.sleep_until(prompt.deadline)
                return None
            answer = mine[already]
        assert prompt.deadline is not None
        self.clock.sleep_until(self.clock.now() + self.rng.uniform(0, (prompt.deadline - self.clock.now()) / 3))
        return Heard(answer, "keypad", str(answer))


def call(truth: Deal, options: Options, seed: int = 0, wrong: dict[Role, int] | None = None) -> tuple[Deal, Timeline]:
    clock = VirtualClock()
    timeline = Timeline(clock)
    pack = load_pack("en")
    extra = truth.extra if options.thief_extra_cards == "from_deck" else ()
    deck = deck_of(truth.seats, extra)
    holders = Holders(clock, truth, random.Random(seed), wrong, middle_menu(deck))
    result = roll_call(len(truth.seats), deck, options, TimelineSpeaker(pack, timeline), holders,
                       TimelineDisplay(pack, timeline), clock, TIMING)
    return result, timeline


DECKS = [
    {Role.WEREWOLF: 2, Role.SEER: 1, Role.VILLAGER: 5},
    {Role.WEREWOLF: 3, Role.SEER: 1, Role.WITCH: 1, Role.HUNTER: 1, Role.CUPID: 1, Role.LITTLE_GIRL: 1, Role.VILLAGER: 4},
    {Role.WEREWOLF: 2, Role.THIEF: 1, Role.WITCH: 1, Role.VILLAGER: 5},
]


@pytest.mark.parametrize("deck", DECKS, ids=["simple", "all-roles", "thief"])
@pytest.mark.parametrize("seed", range(4))
def test_the_roll_call_learns_the_deal(deck: dict[Role, int], seed: int) -> None:
    players = sum(deck.values())
    truth = deal(players, deck, random.Random(seed), Options())
    learnt, _ = call(truth, Options(), seed)
    assert learnt == truth


def test_thief_with_cards_from_the_deck_enters_the_middle_cards() -> None:
    options = Options(thief_extra_cards="from_deck")
    deck = {Role.WEREWOLF: 2, Role.THIEF: 1, Role.SEER: 1, Role.WITCH: 1, Role.VILLAGER: 5}
    for seed in range(6):
        truth = deal(8, deck, random.Random(seed), options)
        learnt, _ = call(truth, options, seed)
        assert learnt == truth


def test_the_middle_card_menu_lists_every_card_of_the_deck_extensions_too() -> None:
    """With cards from the deck, an extension role can be in the middle: the Thief's menu lists it
    (in the pack's words), and the roll call learns a deal with it there."""
    options = Options(thief_extra_cards="from_deck")
    deck = {Role.WEREWOLF: 2, Role.THIEF: 1, Role.SEER: 1, Role.SAVIOR: 1, Role.RAVEN: 1, Role.VILLAGE_IDIOT: 1,
            Role.VILLAGER: 4}
    menu = middle_menu(deck)
    assert set(menu) == set(deck) - {Role.THIEF}  # every card that can be in the middle, and nothing else
    pack = load_pack("en")
    found = 0
    for seed in range(40):
        truth = deal(9, deck, random.Random(seed), options)
        if not set(truth.extra) & {Role.SAVIOR, Role.RAVEN, Role.VILLAGE_IDIOT}:
            continue
        found += 1
        learnt, timeline = call(truth, options, seed)
        assert learnt == truth
        shown = [e["text"] for e in timeline.entries if e["kind"] == "private" and e.get("key") == "deal.thief_middle"]
        assert shown, "the Thief was not asked for the middle cards"
        for role in menu:
            assert f"{menu.index(role) + 1} {pack.role_name(role.value)}" in shown[0], shown[0]
    assert found >= 3


def test_what_the_table_hears_and_when_does_not_depend_on_the_cards() -> None:
    deck = DECKS[1]
    a, ta = call(deal(12, deck, random.Random(1), Options()), Options(), seed=5)
    b, tb = call(deal(12, deck, random.Random(2), Options()), Options(), seed=9)
    assert a != b
    heard_a = [(e["t"], e["key"], e["text"]) for e in ta.entries if e["kind"] == "say"]
    heard_b = [(e["t"], e["key"], e["text"]) for e in tb.entries if e["kind"] == "say"]
    assert heard_a == heard_b
    assert [e["key"] for e in ta.entries if e["kind"] == "say"][:3] == ["deal.roll_call", "deal.seat_wake", "deal.roll_sleep"]


def test_the_private_panel_is_open_only_while_its_role_is_awake() -> None:
    _, timeline = call(deal(12, DECKS[1], random.Random(3), Options()), Options(), seed=3)
    awake = False
    for e in timeline.entries:
        if e["kind"] == "say":
            awake = e["key"] == "deal.seat_wake"
        elif e["kind"] == "private" and e["action"] in ("show", "feedback"):
            assert awake, e
        elif e["kind"] == "private" and e["action"] == "clear":
            assert awake
    keys = [e.get("key") or e["action"] for e in timeline.entries]
    assert keys.count("clear") == keys.count("deal.seat_wake")


def test_two_roles_on_one_seat_are_both_asked_again_from_nothing() -> None:
    truth = deal(8, DECKS[0], random.Random(4), Options())
    seer = truth.seats.index(Role.SEER) + 1
    wolf = truth.seats.index(Role.WEREWOLF) + 1
    learnt, timeline = call(truth, Options(), wrong={Role.SEER: wolf})  # the Seer types a Werewolf's seat
    assert learnt == truth and learnt.seats[seer - 1] is Role.SEER
    said = [e["key"] for e in timeline.entries if e["kind"] == "say"]
    assert said.count("deal.roll_call_twice") == 1
    assert said.count("deal.seat_wake") == 2 * 2  # Seer and Werewolves (on one seat), twice


def test_three_bad_roll_calls_stop_with_a_clear_message() -> None:
    truth = deal(8, DECKS[0], random.Random(4), Options())
    clock = VirtualClock()
    pack = load_pack("en")
    timeline = Timeline(clock)

    class Silent:
        def listen(self, prompt: Prompt) -> Heard | None:
            assert prompt.deadline is not None
            clock.sleep_until(prompt.deadline)
            return None

    with pytest.raises(UsageError, match="did not add up to the announced cards"):
        roll_call(8, deck_of(truth.seats), Options(), TimelineSpeaker(pack, timeline), Silent(),
                  TimelineDisplay(pack, timeline), clock, TIMING)


# The turns of tests/text_game.py (and a `lovers` turn), at a table that deals physical cards.
CARDS_TIMING = TEXT_TIMING.replace("[timing]", "[timing]\nlovers = 0.6\nroll_call = 0.6\nroll_call_card = 0.2")
CONFIG = f"""
players = 5
deal = "cards"
speech_scale = 0.01
[roles]
werewolf = 1
seer = 1
witch = 1
{CARDS_TIMING}"""


@pytest.mark.slow
@pytest.mark.xdist_group("clock")  # waits on the real clock: docs/testing.md, in parallel
def test_a_text_game_with_physical_cards(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(CONFIG)
    # Keep the setup; roll call: Seer 1, Werewolf 2, Witch 3; then the game of test_text_mode.
    # "+" after each role's seat: that role is done (piped input has no pauses between turns).
    keys = ["", "1", "+", "2", "+", "3", "+", "2", "4", "-", "0", "1", "1", "1", "1", "v", "2", "2", "2", "2"]
    env = {**os.environ, "NARRATOR_DATA": str(tmp_path / "data")}
    proc = subprocess.run([sys.executable, "-m", "narrator", "play", "--text", "--config", str(tmp_path / "config.toml")],
                          input="\n".join(keys) + "\n", capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert "  » Whoever holds the Seer card, open your eyes and enter your seat number." in out
    assert "  ┃ Seat 2 is the Werewolf." in out
    pairs = list(zip(out, out[1:]))
    assert ("  » Seat 4.", "  » Their card: Villager.") in pairs
    assert "  » The game is over. Victory for the village." in out
    assert ("  » Seat 3.", "  » Their card: Witch.") in pairs and ("  » Seat 5.", "  » Their card: Villager.") in pairs


class Typed:
    """Each role types the given keys in its roll-call turn, one a second; then waits for the turn's end."""

    def __init__(self, clock: VirtualClock, keys: dict[Role, list[Any]]) -> None:
        self.clock = clock
        self.keys = {role: list(k) for role, k in keys.items()}

    def listen(self, prompt: Prompt) -> Heard | None:
        assert prompt.deadline is not None
        role = Role(prompt.name.split(".")[1])
        todo = self.keys.get(role, [])
        if not todo:
            self.clock.sleep_until(prompt.deadline)
            return None
        self.clock.sleep_until(self.clock.now() + 1.0)
        key = todo.pop(0)
        word = {"-": "no", "+": "yes"}.get(key) if isinstance(key, str) else None
        return Heard(word or key, "keypad", str(key))


def typed_roll_call(truth: Deal, keys: dict[Role, list[Any]]) -> tuple[Deal | None, Timeline]:
    clock = VirtualClock()
    timeline = Timeline(clock)
    pack = load_pack("en")
    try:
        learnt: Deal | None = roll_call(len(truth.seats), deck_of(truth.seats), Options(), TimelineSpeaker(pack, timeline),
                                        Typed(clock, keys), TimelineDisplay(pack, timeline), clock, TIMING, attempts=1)
    except UsageError:
        learnt = None
    return learnt, timeline


def panel_during(timeline: Timeline, role: Role) -> list[str]:
    """The feedback on the private panel during `role`'s first roll-call turn."""
    out: list[str] = []
    awake = False
    for e in timeline.entries:
        if e["kind"] == "say" and e["key"] in ("deal.seat_wake", "deal.roll_sleep"):
            if awake and e["key"] == "deal.roll_sleep":
                return out
            awake = e["key"] == "deal.seat_wake" and e["text"].startswith(f"Whoever holds the {role.value.capitalize()}")
        elif awake and e["kind"] == "private" and e["action"] == "feedback":
            out.append(e["text"])
    return out


TRUTH = Deal((Role.SEER, Role.WEREWOLF, Role.VILLAGER, Role.WEREWOLF, Role.VILLAGER, Role.VILLAGER, Role.VILLAGER,
              Role.VILLAGER))


def test_a_seat_given_to_another_role_is_not_revealed_and_the_roll_call_fails() -> None:
    """Secrecy first: the panel answers a seat another role already gave
    exactly as it answers a free seat (else any role could probe which seats hold the cards called
    before it); the clash makes the roll call fail to add up, and it is called again."""
    clash, clash_timeline = typed_roll_call(TRUTH, {Role.SEER: [2], Role.WEREWOLF: [2, 4]})
    free, free_timeline = typed_roll_call(TRUTH, {Role.SEER: [1], Role.WEREWOLF: [2, 4]})
    assert panel_during(clash_timeline, Role.WEREWOLF) == panel_during(free_timeline, Role.WEREWOLF) == [
        "Seat 2 noted.", "Seat 4 noted."]
    assert clash is None and free == TRUTH


def test_the_roll_call_calls_the_extension_roles_too() -> None:
    """A Savior, a Raven or a Village Idiot in the deck is called in the roll call
    (the catalogue gives its order), so a deck with them adds up."""
    deck = {Role.WEREWOLF: 2, Role.SAVIOR: 1, Role.RAVEN: 1, Role.VILLAGE_IDIOT: 1, Role.SEER: 1, Role.VILLAGER: 3}
    for seed in range(3):
        truth = deal(9, deck, random.Random(seed), Options())
        learnt, _ = call(truth, Options(), seed)
        assert learnt == truth


def test_a_werewolf_seat_beyond_the_cards_gets_feedback() -> None:
    learnt, timeline = typed_roll_call(TRUTH, {Role.SEER: [1], Role.WEREWOLF: [2, 4, 5]})
    assert learnt == TRUTH
    assert panel_during(timeline, Role.WEREWOLF)[-1] == (
        "Seat 5 is not noted: there are 2 of these cards. Press - to take back the last seat.")


def test_a_mistyped_seat_is_taken_back_with_minus() -> None:
    learnt, timeline = typed_roll_call(TRUTH, {Role.SEER: [3, "-", 1], Role.WEREWOLF: [2, 4]})
    assert learnt == TRUTH  # no second roll call needed
    assert panel_during(timeline, Role.SEER) == ["Seat 3 noted.", "Seat 3 taken back.", "Seat 1 noted."]


# ---- a missed seat calls again only what is missing; the panel lists the seats ----

class Turns:
    """Each role types, in each of its turns, the keys given for that turn (one a second), then waits."""

    def __init__(self, clock: VirtualClock, keys: dict[Role, list[list[Any]]]) -> None:
        self.clock = clock
        self.keys = {role: [list(turn) for turn in turns] for role, turns in keys.items()}
        self.deadline: dict[Role, float] = {}
        self.todo: dict[Role, list[Any]] = {}

    def listen(self, prompt: Prompt) -> Heard | None:
        assert prompt.deadline is not None
        role = Role(prompt.name.split(".")[1])
        if self.deadline.get(role) != prompt.deadline:
            self.deadline[role] = prompt.deadline
            turns = self.keys.get(role, [])
            self.todo[role] = turns.pop(0) if turns else []
        if not self.todo[role]:
            self.clock.sleep_until(prompt.deadline)
            return None
        self.clock.sleep_until(self.clock.now() + 1.0)
        key = self.todo[role].pop(0)
        word = {"-": "no", "+": "yes"}.get(key) if isinstance(key, str) else None
        return Heard(word or key, "keypad", str(key))


NINE = Deal((Role.SEER, Role.WEREWOLF, Role.VILLAGER, Role.WEREWOLF, Role.WITCH, Role.HUNTER, Role.VILLAGER,
             Role.CUPID, Role.WEREWOLF, Role.VILLAGER, Role.VILLAGER, Role.VILLAGER))


def turns_roll_call(truth: Deal, keys: dict[Role, list[list[Any]]]) -> tuple[Deal | None, Timeline]:
    clock = VirtualClock()
    timeline = Timeline(clock)
    pack = load_pack("en")
    try:
        learnt: Deal | None = roll_call(len(truth.seats), deck_of(truth.seats), Options(), TimelineSpeaker(pack, timeline),
                                        Turns(clock, keys), TimelineDisplay(pack, timeline), clock, Timing(gap=1.0))
    except UsageError:
        learnt = None
    return learnt, timeline


def shown_without_reminder(timeline: Timeline) -> list[str]:
    """The private panels shown, without their last line (the card's reminder)."""
    return ["\n".join(e["text"].split("\n")[:-1]) for e in timeline.entries
            if e["kind"] == "private" and e["action"] == "show"]


def test_the_roll_call_panel_reminds_the_role_of_its_power() -> None:
    learnt, timeline = turns_roll_call(NINE, every_seat(NINE))
    assert learnt == NINE
    shown = [e["text"] for e in timeline.entries if e["kind"] == "private" and e["action"] == "show"]
    assert "Enter your seat number.\nNothing noted yet: 1 to enter.\nEach night: type a seat to see that player's card." in shown


def seats_of(truth: Deal, role: Role) -> list[int]:
    return [s for s, r in enumerate(truth.seats, 1) if r is role]


def every_seat(truth: Deal) -> dict[Role, list[list[Any]]]:
    return {role: [seats_of(truth, role)] for role in set(truth.seats) - {Role.VILLAGER}}


def test_a_missed_seat_calls_again_only_the_role_that_missed() -> None:
    """Before: one role silent in its turn made every role be called again (a whole second pass)."""
    keys = every_seat(NINE)
    keys[Role.SEER] = [[], [1]]  # silent in the first pass, types her seat when called again
    learnt, timeline = turns_roll_call(NINE, keys)
    assert learnt == NINE
    said = [(e["key"], e["text"]) for e in timeline.entries if e["kind"] == "say"]
    wakes = [text for key, text in said if key == "deal.seat_wake"]
    assert len(wakes) == 5 + 1  # the five roles, then the Seer alone
    assert wakes[-1] == "Whoever holds the Seer card, open your eyes and enter your seat number."
    assert [key for key, _ in said].count("deal.roll_call_missing") == 1
    assert "deal.roll_call_again" not in [key for key, _ in said]


def test_called_again_a_role_keeps_the_seats_it_gave_and_sees_them() -> None:
    keys = every_seat(NINE)
    keys[Role.WEREWOLF] = [[2], [4, 9]]  # one of three seats in the first pass
    learnt, timeline = turns_roll_call(NINE, keys)
    assert learnt == NINE
    shown = shown_without_reminder(timeline)
    assert "Each of you, enter your seat number.\nNoted: 2. Still to enter: 2 of 3." in shown
    second = [t for t in shown if t.startswith("Each of you")]
    # The second turn opens on the seat already given, kept.
    assert second[second.index("Each of you, enter your seat number.\nNoted: 2. Still to enter: 2 of 3.") + 1] == (
        "Each of you, enter your seat number.\nNoted: 2. Still to enter: 2 of 3.")


def test_the_second_pass_is_the_same_whatever_the_cards() -> None:
    """Which roles are called again depends only on how many seats each role typed, never on the
    seats: two deals, the same role silent, the same lines at the same times."""
    other = Deal((Role.VILLAGER, Role.WEREWOLF, Role.SEER, Role.VILLAGER, Role.CUPID, Role.WEREWOLF, Role.WITCH,
                  Role.VILLAGER, Role.HUNTER, Role.WEREWOLF, Role.VILLAGER, Role.VILLAGER))
    heard = []
    for truth in (NINE, other):
        keys = every_seat(truth)
        keys[Role.WITCH] = [[], seats_of(truth, Role.WITCH)]
        learnt, timeline = turns_roll_call(truth, keys)
        assert learnt == truth
        heard.append([(e["t"], e["key"], e["text"]) for e in timeline.entries if e["kind"] == "say"])
    assert heard[0] == heard[1]


def test_a_turn_lasts_what_the_deck_gives_whatever_is_typed() -> None:
    """The turn: `roll_call` seconds, and `roll_call_card` more for each card beyond the first."""
    fast, t_fast = turns_roll_call(NINE, {role: [seats + ["+"]] for role, [seats] in every_seat(NINE).items()})
    slow, t_slow = turns_roll_call(NINE, every_seat(NINE))
    assert fast == slow == NINE
    said = [(e["t"], e["key"]) for e in t_fast.entries if e["kind"] == "say"]
    assert said == [(e["t"], e["key"]) for e in t_slow.entries if e["kind"] == "say"]
    pack = load_pack("en")
    from narrator.speech.estimated import estimated_duration

    wakes = [e for e in t_fast.entries if e["kind"] == "say" and e["key"] == "deal.seat_wake"]
    sleeps = [e for e in t_fast.entries if e["kind"] == "say" and e["key"] == "deal.roll_sleep"]
    turns = [round(s["t"] - w["t"] - estimated_duration(w["text"], pack.rate), 3) for w, s in zip(wakes, sleeps)]
    timing = Timing()
    by_role = dict(zip([w["text"].split(" card")[0].removeprefix("Whoever holds the ") for w in wakes], turns))
    assert by_role["Werewolf"] == timing.roll_call + 2 * timing.roll_call_card
    assert by_role["Seer"] == timing.roll_call


def test_the_panel_lists_every_seat_noted_for_the_role() -> None:
    """Before: only the last seat ("Seat 9 noted.")."""
    learnt, timeline = turns_roll_call(NINE, every_seat(NINE))
    assert learnt == NINE
    shown = shown_without_reminder(timeline)
    assert "Each of you, enter your seat number.\nNothing noted yet: 3 to enter." in shown
    assert "Each of you, enter your seat number.\nNoted: 2, 4. Still to enter: 1 of 3." in shown
    assert "Each of you, enter your seat number.\nNoted: 2, 4, 9. All entered (- takes back the last one)." in shown


def test_minus_with_no_seat_noted_says_there_is_nothing_to_take_back() -> None:
    keys = every_seat(NINE)
    keys[Role.SEER] = [["-", 1]]
    learnt, timeline = turns_roll_call(NINE, keys)
    assert learnt == NINE
    assert panel_during(timeline, Role.SEER) == ["Nothing to take back: no answer yet.", "Seat 1 noted."]


def test_a_role_that_typed_its_seat_in_the_next_roles_turn_calls_again_only_the_two_roles_on_that_seat() -> None:
    """The Seer misses her turn and types her seat in the Witch's (the Witch's own seat is then one too
    many); called again alone, the Seer gives it once more: two roles on one seat. Only those two are
    called again, from nothing, not every role (a whole third pass: about two minutes more)."""
    seer, witch = seats_of(NINE, Role.SEER)[0], seats_of(NINE, Role.WITCH)[0]
    keys = every_seat(NINE)
    keys[Role.SEER] = [[], [seer], [seer]]
    keys[Role.WITCH] = [[seer, witch], [witch]]
    learnt, timeline = turns_roll_call(NINE, keys)
    assert learnt == NINE
    said = [(e["key"], e["text"]) for e in timeline.entries if e["kind"] == "say"]
    wakes = [text for key, text in said if key == "deal.seat_wake"]
    assert len(wakes) == 5 + 1 + 2, wakes  # every role, the Seer alone, then the Seer and the Witch
    assert [key for key, _ in said].count("deal.roll_call_twice") == 1
    assert "deal.roll_call_again" not in [key for key, _ in said]
    everyone, _ = turns_roll_call(NINE, every_seat(NINE))
    assert everyone == NINE
