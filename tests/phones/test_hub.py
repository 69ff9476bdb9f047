"""The laptop's side of the phones over real sealed frames: who may see what, and the night's
schedule as a watcher of the Wi-Fi sees it (the hub's transport hook: every frame's seat, length, time)."""

from __future__ import annotations

import json
import sys
from typing import Any

import nacl.secret
import pytest

from narrator.phones.crypto import (FRAME, SEALED_BYTES, TOKEN_BYTES, UP_FRAME, Channel, Refused, encode, key_bytes,
                                    key_text, new_key, seal, unseal)
from narrator.phones.hub import CLOSE_REFUSED, CLOSE_REPLACED, CLOSE_TAKEN, REFUSALS_KEPT, Frame, PhoneHub

from tests.phones.phone_helpers import BASIC, MemoryConn, MemoryPhone, PhoneSide, play_hub

CAPTURE_SCRIPT = {"nights": [{"seer": 2, "werewolves": 7, "witch": {"heal": False, "poison": 0}}],
                  "days": [{"eliminate": 2}, {"eliminate": 3}]}


def joined(players: int = 8) -> tuple[PhoneHub, dict[int, MemoryPhone]]:
    hub = PhoneHub(players)
    phones = {seat: MemoryPhone(hub, seat) for seat in range(1, players + 1)}
    for phone in phones.values():
        phone.connect()
    for seat in phones:
        hub.show(seat, {"id": 1, "seat": seat, "choices": [[3, "3"], ["nobody", "Nobody"]], "lines": [f"seat {seat}"]})
    hub.beat(0.0)
    return hub, phones


def test_tokens_and_keys_are_unguessable_and_the_key_stays_in_the_fragment() -> None:
    hub = PhoneHub(8)
    assert TOKEN_BYTES * 8 >= 128
    tokens = {s.token for s in hub.seats.values()}
    assert len(tokens) == 8 and all(len(t) >= 40 for t in tokens)
    link = hub.link(1, "http://192.0.2.1:8080/")
    path, fragment = link.split("#")
    assert hub.seats[1].token in path and fragment not in path and len(fragment) == 43


def test_a_wrong_token_is_refused() -> None:
    hub, _ = joined()
    with pytest.raises(Refused) as refused:
        hub.connect("not-a-token")
    assert refused.value.code == CLOSE_REFUSED and "not one of this game's" in hub.refusals[-1]


def test_another_seats_token_without_its_key_learns_nothing() -> None:
    hub, phones = joined()
    # Seat 1's phone with seat 2's token: its hello does not open with seat 2's key.
    thief = MemoryPhone(hub, 2, device="thief-device", key=hub.seats[1].key)
    with pytest.raises(Refused):
        thief.connect()
    assert thief.conn.texts == [] and "does not open" in hub.refusals[-1]
    hub.beat(1.0)
    assert phones[2].view()["lines"] == ["seat 2"]  # seat 2 keeps its phone


def test_a_replayed_answer_is_refused_in_its_connection_and_in_another() -> None:
    hub, phones = joined()
    phones[1].tap(3)
    assert hub.take() is not None
    with pytest.raises(Refused, match="replayed"):
        hub.hear(phones[1].link, phones[1].conn, phones[1].taps[-1])  # type: ignore[arg-type]
    old = phones[1].taps[-1]
    phones[1].connect()  # the page reloads: a new challenge, a new key for the connection
    with pytest.raises(Refused, match="does not open"):
        hub.hear(phones[1].link, phones[1].conn, old)  # type: ignore[arg-type]
    assert hub.take() is None


def test_a_tampered_message_is_refused() -> None:
    hub, phones = joined()
    data = phones[1].side.seal({"t": "answer", "v": 1, "choice": 3})
    flipped = data[:100] + bytes([data[100] ^ 1]) + data[101:]
    with pytest.raises(Refused, match="does not open"):
        hub.hear(phones[1].link, phones[1].conn, flipped)  # type: ignore[arg-type]
    forged = seal(bytes(32), {"t": "answer", "v": 1, "choice": 3, "c": phones[1].side.challenge, "n": 9}, UP_FRAME)
    with pytest.raises(Refused, match="does not open"):
        hub.hear(phones[1].link, phones[1].conn, forged)  # type: ignore[arg-type]
    assert hub.take() is None


def test_a_second_device_is_refused_until_the_laptop_confirms_the_move() -> None:
    hub, phones = joined()
    second = MemoryPhone(hub, 4, device="another-phone")
    with pytest.raises(Refused) as refused:
        second.connect()
    assert refused.value.code == CLOSE_TAKEN and hub.moves_asked() == (4,) and second.conn.texts == []
    phones[4].tap(3)  # the seat's own phone still answers
    assert hub.take() is not None
    hub.allow_move(4)
    assert hub.moves_asked() == ()
    second.connect()
    hub.beat(1.0)
    assert second.view()["seat"] == 4
    assert phones[4].conn.closed is not None and phones[4].conn.closed[0] == CLOSE_REPLACED
    with pytest.raises(Refused, match="no longer holds"):
        phones[4].tap(3)


def test_the_same_device_reloading_gets_its_view_back() -> None:
    hub, phones = joined()
    phones[5].connect()  # the same device (a reload, a lost Wi-Fi): its view at once
    assert phones[5].view()["lines"] == ["seat 5"]


def test_a_phone_gets_only_its_own_seats_state() -> None:
    hub, phones = joined()
    before = len(phones[1].conn.texts)
    phones[1].send({"t": "state", "seat": 2})
    assert len(phones[1].conn.texts) == before and "asked for seat 2" in hub.refusals[-1]
    hub.beat(1.0)
    assert phones[1].views()[-1]["seat"] == 1
    assert all(v.get("seat") in (None, 1) for v in phones[1].views())


def test_answers_to_a_view_not_open_and_choices_not_offered_are_dropped() -> None:
    hub, phones = joined()
    phones[1].send({"t": "answer", "v": 0, "choice": 3})
    phones[1].send({"t": "answer", "v": 1, "choice": 7})
    assert hub.take() is None
    phones[1].tap(3)
    answer = hub.take()
    assert answer is not None and (answer.seat, answer.choice) == (1, 3)


def test_tokens_die_with_the_game() -> None:
    hub, phones = joined()
    hub.close()
    assert phones[1].conn.closed is not None
    with pytest.raises(Refused):
        MemoryPhone(hub, 1).connect()


def night_frames(roles: dict[int, str]) -> tuple[dict[int, list[tuple[int, float]]], Any, dict[int, MemoryPhone]]:
    hub = PhoneHub(8)
    frames: list[Frame] = []
    hub.on_frame = frames.append
    g, phones = play_hub({"players": 8, "roles": roles}, CAPTURE_SCRIPT, hub)
    by_seat: dict[int, list[tuple[int, float]]] = {}
    for f in frames:
        if f.night:
            by_seat.setdefault(f.seat, []).append((f.size, round(f.at, 6)))
    return by_seat, g, phones


@pytest.mark.slow  # every night of several games, every frame sealed and opened: seconds of CPU
def test_every_phone_gets_the_same_messages_at_the_same_times_through_every_night() -> None:
    # Two games differing only in hidden state: the Seer on seat 1, or on seat 6.
    first, g1, phones1 = night_frames(BASIC["roles"])
    second, g2, phones2 = night_frames({6: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 5: "hunter"})
    assert g1.game.state.night >= 2 and g1.game.outcome is not None and g2.game.outcome is not None
    assert set(first) == set(range(1, 9))
    schedule = first[1]
    assert len(schedule) > 100 and {size for size, _ in schedule} == {SEALED_BYTES}
    for seat in range(1, 9):
        assert first[seat] == schedule and second[seat] == schedule
    # The Seer's answer reached her phone, in a frame of the same length as everyone's.
    saw = "Seat 2 is the Werewolf."
    assert any(saw in v.get("lines", []) for v in phones1[1].views())
    assert any(saw in v.get("lines", []) for v in phones2[6].views())
    for phones, seer in ((phones1, 1), (phones2, 6)):
        assert not any(saw in line for seat, p in phones.items() if seat != seer for v in p.views()
                       for line in v.get("lines", []))


def test_a_frame_is_padded_to_its_fixed_length() -> None:
    hub, phones = joined()
    hub.show(1, {"id": 2, "lines": ["x" * (FRAME - 200)], "choices": []})
    hub.beat(1.0)
    assert {len(t) for p in phones.values() for t in p.conn.texts} == {SEALED_BYTES}


def test_a_view_longer_than_its_frame_is_cut_and_the_beat_goes_on() -> None:
    hub, phones = joined()
    frames: list[Frame] = []
    hub.on_frame = frames.append
    choices = [[seat, str(seat)] for seat in range(1, 31)] + [["nobody", "Nobody"]]
    hub.show(1, {"id": 2, "seat": 1, "lines": ["л" * 3000, "x" * 2000], "note": "ж" * 4000, "choices": choices})
    hub.beat(1.0)
    hub.beat(1.25)
    assert len(frames) == 16 and {f.size for f in frames} == {SEALED_BYTES}
    view = phones[1].view()
    assert view["choices"] == choices and view["id"] == 2  # its buttons whole: the seat can still answer
    assert view["lines"][0].startswith("л") and view["lines"][0].endswith("\u2026")
    phones[1].tap(30)
    answer = hub.take()
    assert answer is not None and (answer.seat, answer.choice) == (1, 30)


def test_a_view_encoded_once_is_sealed_as_the_whole_message_would_be_until_it_no_longer_fits() -> None:
    message = {"t": "view", "view": {"id": 7, "lines": ["Сеанс \u5b57 \"q\""], "choices": [[1, "1"]], "night": True}}
    whole, once = Channel(new_key()), Channel(new_key())
    once.key, once.challenge = whole.key, whole.challenge
    box = nacl.secret.SecretBox(whole.key)
    for _ in range(12):  # the counter grows a digit on the way
        assert box.decrypt(once.seal_encoded(encode(message))) == box.decrypt(whole.seal(message))
    # A view that just fits its frame on the beat that sends it: on the next one its counter has
    # one digit more, and it is cut rather than sent too long (or not at all).
    hub, phones = joined()
    link = hub.seats[1].link
    assert link is not None
    while link.channel.sent < 8:
        hub.beat(1.0)
    view = {"id": 2, "lines": ["x"], "choices": []}
    room = FRAME - len(encode({"t": "view", "view": view, "c": link.channel.challenge, "n": 9}))
    view["lines"] = ["x" * (1 + room)]
    hub.show(1, view)
    hub.beat(2.0)
    assert link.channel.sent == 9 and phones[1].view() == view
    hub.beat(3.0)
    assert phones[1].view()["lines"][0].endswith("\u2026") and {len(t) for t in phones[1].conn.texts} == {SEALED_BYTES}


def test_answers_of_another_type_than_the_buttons_are_ignored_with_a_line() -> None:
    hub, phones = joined()
    for message in ({"t": "answer", "v": 1, "choice": 3.0}, {"t": "answer", "v": 1.0, "choice": 3},
                    {"t": "answer", "v": True, "choice": 3}, {"t": "answer", "v": 1, "choice": [3]},
                    {"t": "answer", "v": 1, "choice": {"3": 3}}, {"t": "answer", "v": 1, "choice": None},
                    {"t": "answer", "v": 1, "choice": "3"}, {"t": 7}, {"t": "answer"}):
        phones[1].send(message)
    assert hub.take() is None and hub.refused == 9
    nested = "[" * 90 + "]" * 90  # about as deep as a phone's frame holds
    phones[1].send({"t": "answer", "v": 1, "choice": json.loads(nested)})
    assert hub.take() is None
    phones[1].tap(3)
    answer = hub.take()
    assert answer is not None and answer.choice == 3


def test_json_nested_past_pythons_recursion_limit_is_refused_not_crashed() -> None:
    # 985 levels pass the interpreter's default limit of 1000 wherever the test runs; the limit is
    # set here, since a test run before it in the same worker may have left it higher (the test
    # then saw a nested list, "not an object", once in a full run).
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        key = bytes(range(32))
        deep = ("[" * 985 + "]" * 985).encode("ascii")
        data = bytes(nacl.secret.SecretBox(key).encrypt(deep + b" " * (4000 - len(deep))))
        with pytest.raises(Refused, match="does not open"):
            unseal(key, data, 4000)
    finally:
        sys.setrecursionlimit(previous)


def test_the_refusals_kept_are_bounded_and_every_one_is_counted() -> None:
    hub, _ = joined()
    for k in range(10_000):
        with pytest.raises(Refused):
            hub.connect(f"not-a-token-{k}")
    assert len(hub.refusals) == REFUSALS_KEPT and hub.refused == 10_000
    assert hub.refusals[-1].startswith("a link that is not one of this game's")


def test_a_captured_hello_and_the_seats_key_do_not_take_the_seat() -> None:
    hub, phones = joined()
    owner = phones[4]
    key = hub.seats[4].key  # the stranger photographed seat 4's link
    # ... and captured its hello on the Wi-Fi: it opens with the link key and names the device.
    captured = MemoryPhone(hub, 4)
    captured.side.secret = owner.side.secret
    hello = captured.side.hello(hub.connect(hub.seats[4].token).channel.opening())
    device = unseal(key, hello)["device"]
    # The stranger's hello names that device, with a fresh challenge: the laptop answers, but with
    # the connection's own key, which only the device's secret gives.
    link = hub.connect(hub.seats[4].token)
    stranger = PhoneSide(key, "the stranger's phone")
    stranger.hello(link.channel.opening())
    forged = seal(key, {"t": "hello", "device": device, "c": stranger.challenge, "n": 1}, UP_FRAME)
    conn = MemoryConn()
    hub.hear(link, conn, forged)
    assert len(conn.texts) == 1
    for attempt in (key, stranger.box):
        with pytest.raises(Exception):
            unseal(attempt, conn.texts[0], FRAME)  # it cannot read the view
    with pytest.raises(Refused, match="does not open"):
        hub.hear(link, conn, stranger.seal({"t": "answer", "v": 1, "choice": 3}))
    assert owner.conn.closed is None and hub.seats[4].link is owner.link and key_bytes(device) == hub.seats[4].device
    owner.tap(3)
    answer = hub.take()
    assert answer is not None and answer.seat == 4


def test_a_confirmed_move_hands_the_new_device_a_new_key_and_the_old_key_stops() -> None:
    hub, phones = joined()
    saved: list[dict[str, Any]] = []
    hub.on_join = lambda: saved.append(hub.links())
    old_key = hub.seats[4].key
    second = MemoryPhone(hub, 4, device="the new phone")
    with pytest.raises(Refused):
        second.connect()
    hub.allow_move(4)
    second.connect()
    assert second.key != old_key and hub.seats[4].key == second.key
    assert phones[4].conn.closed is not None and phones[4].conn.closed[0] == CLOSE_REPLACED
    assert saved and saved[-1]["4"]["key"] == key_text(second.key)  # the links file gets the new key
    # The old key cannot even ask again: its hello does not open.
    for device in ("device-of-4", "a third phone"):
        with pytest.raises(Refused, match="does not open") as refused:
            MemoryPhone(hub, 4, device=device, key=old_key).connect()
        assert refused.value.code == CLOSE_REFUSED
    assert hub.moves_asked() == ()
    # The new phone's link (the new key in its fragment) keeps working: a reload takes the seat back.
    second.connect()
    hub.beat(2.0)
    assert second.view()["seat"] == 4 and hub.link(4, "http://h").endswith(key_text(second.key))


def test_by_day_too_a_view_goes_out_on_the_beat_only() -> None:
    hub, phones = joined()
    before = {seat: len(p.conn.texts) for seat, p in phones.items()}
    hub.night(False)
    hub.show(3, {"id": 2, "seat": 3, "lines": ["Your turn to vote"], "choices": [[1, "1"], ["yes", "Yes"]]})
    assert {seat: len(p.conn.texts) for seat, p in phones.items()} == before
    hub.beat(5.0)
    assert {seat: len(p.conn.texts) for seat, p in phones.items()} == {seat: n + 1 for seat, n in before.items()}
    assert phones[3].view()["lines"] == ["Your turn to vote"]
