"""Names from the phones (narrator/phones/names.py, docs/names.md): a phone gives its own seat's name
while the table joins, cleaned to text; every phone gets the table's names in a frame of the same
length at the same beat; once the game starts no name is taken; the view for the dead reaches dead
seats' phones only (docs/phones.md)."""

from __future__ import annotations

import pytest

from narrator.names import MAX_NAME, People
from narrator.phones.crypto import SEALED_BYTES
from narrator.phones.hub import PhoneHub
from narrator.phones.names import close_names, take_names

from tests.phones.phone_helpers import BASIC, MemoryPhone, play_hub

DEAD_SCRIPT = {"nights": [{"seer": 2, "werewolves": 6, "witch": {"heal": False, "poison": 0}},
                          {"seer": 4, "werewolves": 7, "witch": {"heal": False, "poison": 0}}],
               "days": [{"eliminate": 8}, {"eliminate": 2}, {"eliminate": 3}]}


def joined(players: int, people: People) -> tuple[PhoneHub, dict[int, MemoryPhone]]:
    hub = PhoneHub(players)
    phones = {seat: MemoryPhone(hub, seat) for seat in range(1, players + 1)}
    for phone in phones.values():
        phone.connect()
    take_names(hub, people)
    hub.beat(0.0)
    return hub, phones


def test_a_phone_names_its_own_seat_once_and_every_phone_is_told() -> None:
    people = People({1: "Ann"})
    hub, phones = joined(4, people)
    assert all(p.names() == {"1": "Ann"} for p in phones.values())
    assert phones[3].opened[-1]["open"] is True  # the page asks "Your name?" for a seat without one
    # Seat 3's phone gives its name (markup, an escape sequence, spaces): taken as text, for seat 3 only.
    phones[3].send({"t": "name", "name": "  <b>Cleo</b>\x1b[2J  "})
    hub.beat(0.25)
    assert people.names() == {1: "Ann", 3: "<b>Cleo</b>[2J"}
    assert all(p.names() == {"1": "Ann", "3": "<b>Cleo</b>[2J"} for p in phones.values())
    # Every phone got the names on the same beat, in a frame of the same length as a view's.
    assert {len(data) for p in phones.values() for data in p.conn.texts} == {SEALED_BYTES}
    assert len({len(p.conn.texts) for p in phones.values()}) == 1
    # A name longer than the page lets through (it cuts at 24) is cut here too; two seats with one
    # name are told apart on every phone.
    phones[4].send({"t": "name", "name": "ann" + "n" * 150})
    phones[2].send({"t": "name", "name": "Ann"})
    hub.beat(0.5)
    assert len(people.name(4) or "") == MAX_NAME
    assert phones[4].names()["1"] == "Ann (1)" and phones[4].names()["2"] == "Ann (2)"


def test_no_name_is_taken_once_the_game_starts() -> None:
    people = People()
    hub, phones = joined(3, people)
    close_names(hub, people)
    hub.beat(0.25)
    assert phones[1].names() == {} and phones[1].opened[-1]["t"] == "names" and phones[1].opened[-1]["open"] is False
    phones[2].send({"t": "name", "name": "Late"})
    assert people.names() == {} and "a name when none is asked" in hub.refusals[-1]


def test_thirty_names_of_twenty_four_emoji_fit_one_frame() -> None:
    people = People({seat: "\U0001F43A" * MAX_NAME for seat in range(1, 31)})  # 30 twins, 4 bytes a character
    hub, phones = joined(30, people)
    assert phones[30].names()["30"] == "\U0001F43A" * MAX_NAME + " (30)"
    assert {len(data) for data in phones[30].conn.texts} == {SEALED_BYTES}


@pytest.mark.slow  # a whole game with every frame sealed and opened: the unit tier's third longest
def test_the_view_for_the_dead_reaches_dead_seats_phones_only() -> None:
    hub = PhoneHub(8)
    g, phones = play_hub(BASIC, DEAD_SCRIPT, hub, dead=True)
    game = g.game
    assert game.outcome is not None and not {6, 8} & set(game.living())
    living = set(game.living())
    assert living and {6, 8} <= set(phones) - living
    for seat, phone in phones.items():
        if seat in living:
            assert phone.deads() == [], seat  # a living seat never sees another card
            assert all(m["t"] in ("view", "names") for m in phone.opened), seat
        else:
            assert phone.deads(), seat
        for d in phone.deads():
            # Every card, as the narrator knows it; at night the awake role's panel.
            assert [c[0] for c in d["cards"]] == list(range(1, 9))
            assert "Keep a straight face" in d["warning"]
    # Seat 6, eaten on the first night, then saw the second night's choices as they were made.
    six = phones[6].deads()
    assert ["6", "Villager"] == [str(x) for x in six[0]["cards"][5]] and ["1", "Seer"] == [str(x) for x in six[0]["cards"][0]]
    awake = {d["awake"] for d in six if d.get("awake")}
    assert {"Seer", "Werewolves", "Witch"} <= awake
    assert any(line == "Seat 4 is the Witch." for d in six if d.get("awake") == "Seer" for line in d["lines"])
    # Seat 8, eliminated on the first day, saw nothing of the first night: it was alive then.
    eight = [m for m in phones[8].opened if m["t"] in ("view", "dead")]
    first = next(i for i, m in enumerate(eight) if m["t"] == "dead")
    assert not eight[first - 1]["view"]["night"] and any(m["view"].get("night") for m in eight[:first])
