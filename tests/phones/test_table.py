"""PhoneTable on the fakes: who gets which panel when, answers from phones, the night's schedule."""

from __future__ import annotations

from typing import Any

from narrator.fakes import FakePhones
from narrator.phones.port import PhoneAnswer

from tests.phones.phone_helpers import BASIC, SCRIPT, play_keypad, play_phones


def inputs(journal: Any) -> list[tuple[str, Any]]:
    return [(r["prompt"], r["choice"]) for r in journal.records() if r["kind"] == "input"]


def test_a_game_on_phones_takes_the_same_answers_as_on_the_keypad() -> None:
    taps: list[tuple[int, Any]] = []
    phones = FakePhones(8)
    g = play_phones(BASIC, SCRIPT, phones, taps=taps)
    keypad = play_keypad(BASIC, SCRIPT)
    assert g.game.outcome is not None and keypad.game.outcome is not None
    assert g.game.outcome.winner == keypad.game.outcome.winner
    assert inputs(g.journal) == inputs(keypad.journal)
    sources = {r["source"] for r in g.journal.records() if r["kind"] == "input" and r["choice"] is not None}
    assert "phone" in sources
    # The seer answered on her own phone, a wolf on his, each voter on theirs.
    assert (1, 2) in taps and any(seat in (2, 3) and choice == 6 for seat, choice in taps)


def test_a_panel_reaches_only_the_awake_roles_phones_and_only_during_its_turn() -> None:
    phones = FakePhones(8)
    g = play_phones(BASIC, SCRIPT, phones)
    night_panels = {(seat, tuple(view["lines"])) for seat, view, at in phones.sent
                    if view["night"] and view.get("mode") == "panel"}
    holders = {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch"}
    assert {seat for seat, _ in night_panels} <= set(holders)
    seer_lines = {line for seat, lines in night_panels for line in lines if "is the Werewolf" in line}
    assert seer_lines == {"Seat 2 is the Werewolf."}
    assert all(seat == 1 for seat, lines in night_panels if "Seat 2 is the Werewolf." in lines)
    # Between turns (after each clear) every phone is back to the neutral night screen before the next beat.
    rest_after_turn = [view for seat, view, at in phones.sent if view["night"] and seat == 1 and view["mode"] == "rest"]
    assert rest_after_turn and all(v["lines"] == ["Eyes closed. Sleep."] for v in rest_after_turn)
    # By day a phone gets buttons only while its own seat is asked (its vote).
    for seat, view, at in phones.sent:
        if not view["night"] and view.get("choices"):
            assert view["lines"][0] in ("Your turn to vote", "Your turn to vote: who will be the Sheriff?", "Choose a seat")
            assert view["seat"] == seat
    assert g.game.outcome is not None


def test_a_tap_from_a_seat_not_asked_answers_nothing() -> None:
    def strays(prompt: Any, phones: FakePhones) -> None:
        # Before each real tap, seat 7 (a Villager) taps 8 on its own screen, and seat 5 taps the
        # very choice being asked, on a stale view: neither may answer.
        if not prompt.name.endswith(".7"):
            phones.tap(7, 8)
        phones.taps.put(PhoneAnswer(5, 0, 2))

    clean = play_phones(BASIC, SCRIPT, FakePhones(8))
    noisy = play_phones(BASIC, SCRIPT, FakePhones(8), before_tap=strays)
    assert inputs(noisy.journal) == inputs(clean.journal)


class _Keys:
    """The laptop's keypad: answers in order, then nothing."""

    def __init__(self, answers: list[Any]) -> None:
        self.answers = answers

    def listen(self, prompt: Any) -> Any:
        return self.answers.pop(0) if self.answers else None


def test_the_laptop_confirms_a_move_at_a_pause_by_day_never_at_night() -> None:
    from narrator.clock import VirtualClock
    from narrator.fakes import Timeline, TimelineDisplay
    from narrator.packs import load_pack
    from narrator.phones.table import PhoneTable
    from narrator.ports import Heard, Prompt

    pack = load_pack("en")
    timeline = Timeline(VirtualClock())
    phones = FakePhones(8, moves=[4])
    keys = _Keys([Heard(3, "keypad", "3"), Heard(4, "keypad", "4"), Heard("pause", "keypad", "/")])
    table = PhoneTable(phones, TimelineDisplay(pack, timeline), keys, pack, timeline.clock)
    pause = Prompt("game.pause", words=("pause",))
    # By day, at the pause: the screen names the seat asking; another seat's number confirms nothing.
    assert table.listen(pause) == Heard(3, "keypad", "3") and phones.allowed == []
    assert table.listen(pause) is None and phones.allowed == [4] and phones.moves_asked() == ()
    assert table.listen(pause) == Heard("pause", "keypad", "/")
    notes = [e["text"] for e in timeline.entries if e.get("action") == "feedback"]
    assert notes == [pack.panel_text("phones.move_asked", {"seat": 4})] * 2 + [
        pack.panel_text("phones.move_allowed", {"seat": 4})]
    # At night the move waits: no line on the screen, a typed seat confirms nothing.
    night = Timeline(VirtualClock())
    phones = FakePhones(8, moves=[4])
    table = PhoneTable(phones, TimelineDisplay(pack, night), _Keys([Heard(4, "keypad", "4")]), pack, night.clock)
    table.night = True
    assert table.listen(pause) == Heard(4, "keypad", "4") and phones.allowed == [] and phones.moves_asked() == (4,)
    assert [e for e in night.entries if e.get("action") == "feedback"] == []


def test_the_phones_words_are_in_the_tables_language() -> None:
    from narrator.packs import load_pack

    phones = FakePhones(8)
    play_phones(BASIC, SCRIPT, phones, language="fr")
    fr = load_pack("fr").phone
    lines = {line for _, view, _ in phones.sent for line in view.get("lines", [])}
    buttons = {label for _, view, _ in phones.sent for _, label in view.get("choices", [])}
    assert {fr["night"], fr["day"], fr["vote"]} <= lines
    assert fr["nobody"] in buttons
    english = {"Eyes closed. Sleep.", "Day. Listen to the narrator.", "Your turn to vote", "Nobody", "Change (-)"}
    assert not english & (lines | buttons)


def test_every_pack_has_the_phones_words_in_a_block_of_its_own() -> None:
    from narrator.packs import available_languages, load_pack
    from narrator.phones.table import LABELS, phone_labels

    assert set(available_languages()) >= {"en", "fr", "es", "it", "ko"}
    for lang in ("en", "fr", "es", "it", "ko"):
        pack = load_pack(lang)
        assert set(pack.phone) == set(LABELS), lang
        # Every word as the pack has it; the election's names the Captain as the pack does.
        assert phone_labels(pack) == {**pack.phone, "elect": pack.phone["elect"].replace("{captain}", pack.role_name("captain"))}
    assert dict(load_pack("en").phone) == LABELS


SERVANT = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "hunter", 4: "devoted_servant", 5: "werewolf"},
           "options": {"captain_election": "never"}}
SERVANT_SCRIPT = {"nights": [{"werewolves": 8}, {"werewolves": 7}],
                  "days": [{"eliminate": 3, "window": 4}, {"eliminate": 2}, {"eliminate": 5}]}


def test_the_servants_claim_comes_from_her_own_phone_only() -> None:
    from narrator.rules import events as ev

    phones = FakePhones(8)
    forged: list[int] = []

    def before_tap(prompt: Any, fake: FakePhones) -> None:
        if prompt.name == "day.window" and not forged:
            forged.append(6)
            fake.tap(6, 4)  # seat 6's phone claims for seat 4: refused (a phone claims for its own seat only)

    taps: list[tuple[int, Any]] = []
    r = play_phones(SERVANT, SERVANT_SCRIPT, phones, taps=taps, before_tap=before_tap)
    assert (4, 4) in taps and forged == [6]
    assert any(isinstance(e, ev.CardTaken) and e.servant == 4 for e in r.game.events)
    claims = [e for e in r.journal.records() if e.get("kind") == "input" and str(e.get("prompt", "")).startswith("day.window")]
    # The first day's window: seat then `+`, both from seat 4's phone (the later windows run out).
    assert [(e["prompt"], e["choice"], e["source"]) for e in claims][:2] == [("day.window", 4, "phone"),
                                                                             ("day.window.claim", "yes", "phone")]
    assert all(e["choice"] is None for e in claims[2:])
    # The window's panel: every living seat's phone, the same words, one button for its own seat.
    window = [(seat, v) for seat, v, _ in phones.sent if v.get("lines") == ["A card may be taken now."]]
    assert {seat for seat, _ in window} == {1, 2, 3, 4, 5, 6, 7}  # seat 8 died the first night
    assert all(v["choices"] == [[seat, "I take the card"]] for seat, v in window)


def test_the_judges_sign_comes_only_from_the_voters_own_phone() -> None:
    from narrator.clock import VirtualClock
    from narrator.fakes import Timeline, TimelineDisplay
    from narrator.flow.run import start_game
    from narrator.flow.script import parse_setup
    from narrator.packs import load_pack
    from narrator.phones.table import PhoneTable
    from narrator.ports import Heard, Prompt

    pack = load_pack("en")
    timeline = Timeline(VirtualClock())
    prompt = Prompt("day.vote.vote.3", (1, 2, 4), ("nobody", "yes"))
    # Seat 3 has a phone: a `+` typed on the keypad during its vote is not its sign; its vote still counts.
    phones = FakePhones(8)
    keys = _Keys([Heard("yes", "keypad", "+"), Heard(2, "keypad", "2")])
    table = PhoneTable(phones, TimelineDisplay(pack, timeline), keys, pack, timeline.clock)
    table.attach(start_game(parse_setup({**BASIC, "language": "en"}, "SETUP")))
    assert table.listen(prompt) == Heard(2, "keypad", "2")
    # Its own phone's `+` is its sign.
    phones.tap(3, "yes")
    assert table.listen(prompt) == Heard("yes", "phone", "yes (phone 3)")
    # A seat without a phone signs on the keypad, as before.
    phones = FakePhones(2)  # seats 1 and 2 only
    table = PhoneTable(phones, TimelineDisplay(pack, timeline), _Keys([Heard("yes", "keypad", "+")]), pack,
                       timeline.clock)
    table.attach(start_game(parse_setup({**BASIC, "language": "en"}, "SETUP")))
    assert table.listen(prompt) == Heard("yes", "keypad", "+")


PIPER = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 8: "pied_piper"},
         "options": {"captain_election": "never"}}
PIPER_SCRIPT = {"nights": [{"pied_piper": [5, 6], "werewolves": 7}, {"pied_piper": [1, 4], "werewolves": 6}],
                "days": [{"eliminate": 0}, {"eliminate": 2}, {"eliminate": 3}]}


def test_a_charm_is_told_on_the_charmed_seats_own_phone_under_its_card() -> None:
    phones = FakePhones(8)
    r = play_phones(PIPER, PIPER_SCRIPT, phones)
    screen = [e.get("text") or "" for e in r.timeline.entries if e["kind"] == "private"]
    assert not any("on the shoulder" in t for t in screen)  # no tap: the phones tell
    charmed = "You are charmed by the Pied Piper."
    told = {seat for seat, view, _ in phones.sent if charmed in view.get("card", "")}
    assert told == {1, 4, 5, 6}
    # Not before the Piper's turn is over: never while his panel (which may take a charm back) is open.
    first = next(i for i, (seat, view, _) in enumerate(phones.sent) if charmed in view.get("card", ""))
    piper_panel = [i for i, (seat, view, _) in enumerate(phones.sent) if seat == 8 and view.get("mode") == "panel"]
    assert piper_panel and first > piper_panel[0]
    assert phones.views[5]["card"] == f"Villager. {charmed}"


def test_without_a_phone_the_charmed_seat_is_still_tapped() -> None:
    phones = FakePhones(4)  # seats 1 to 4 have a phone; 5 and 6 do not
    r = play_phones(PIPER, PIPER_SCRIPT, phones)
    screen = [e.get("text") or "" for e in r.timeline.entries if e["kind"] == "private"]
    assert any("tap seat 5 on the shoulder" in t for t in screen)
    assert {seat for seat, view, _ in phones.sent if "charmed" in view.get("card", "")} == {1, 4}


def test_an_infection_is_told_on_the_infected_seats_own_phone() -> None:
    setup = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "accursed_wolf_father", 4: "witch"},
             "options": {"captain_election": "never"}}
    script = {"nights": [{"werewolves": 6, "accursed_wolf_father": 1}, {"werewolves": 7}],
              "days": [{"eliminate": 2}, {"eliminate": 3}, {"eliminate": 6}, {"eliminate": 7}]}
    phones = FakePhones(8)
    r = play_phones(setup, script, phones)
    screen = [e.get("text") or "" for e in r.timeline.entries if e["kind"] == "private"]
    assert not any("tap seat 6" in t for t in screen)
    infected = "You were infected: you are a Werewolf now, and keep your card's power."
    assert {seat for seat, view, _ in phones.sent if infected in view.get("card", "")} == {6}
