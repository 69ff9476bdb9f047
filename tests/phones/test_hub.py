"""The laptop's side of the phones over real sealed frames: who may see what, and the night's
schedule as a watcher of the Wi-Fi sees it (the hub's transport hook: every frame's seat, length, time)."""

from __future__ import annotations

from typing import Any

import pytest

from narrator.phones.crypto import FRAME, SEALED_CHARS, TOKEN_BYTES, Refused, seal
from narrator.phones.hub import CLOSE_REFUSED, CLOSE_REPLACED, CLOSE_TAKEN, Frame, PhoneHub

from tests.phones.phone_helpers import BASIC, MemoryPhone, play_hub

CAPTURE_SCRIPT = {"nights": [{"seer": 2, "werewolves": 7, "witch": {"heal": False, "poison": 0}}],
                  "days": [{"eliminate": 2}, {"eliminate": 3}]}


def joined(players: int = 8) -> tuple[PhoneHub, dict[int, MemoryPhone]]:
    hub = PhoneHub(players)
    phones = {seat: MemoryPhone(hub, seat) for seat in range(1, players + 1)}
    for phone in phones.values():
        phone.connect()
    for seat in phones:
        hub.show(seat, {"id": 1, "seat": seat, "choices": [[3, "3"], ["nobody", "Nobody"]], "lines": [f"seat {seat}"]})
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
    assert phones[2].view()["lines"] == ["seat 2"]  # seat 2 keeps its phone


def test_a_replayed_answer_is_refused_in_its_connection_and_in_another() -> None:
    hub, phones = joined()
    phones[1].tap(3)
    assert hub.take() is not None
    with pytest.raises(Refused, match="replayed"):
        hub.receive(1, phones[1].channel, phones[1].taps[-1])  # type: ignore[arg-type]
    old = phones[1].taps[-1]
    phones[1].connect()  # the page reloads: a new challenge
    with pytest.raises(Refused, match="replayed"):
        hub.receive(1, phones[1].channel, old)  # type: ignore[arg-type]
    assert hub.take() is None


def test_a_tampered_message_is_refused() -> None:
    hub, phones = joined()
    text = phones[1].seal({"t": "answer", "v": 1, "choice": 3})
    flipped = text[:100] + ("A" if text[100] != "A" else "B") + text[101:]
    with pytest.raises(Refused, match="does not open"):
        hub.receive(1, phones[1].channel, flipped)  # type: ignore[arg-type]
    forged = seal(bytes(32), {"t": "answer", "v": 1, "choice": 3, "c": phones[1].channel.challenge, "n": 9})  # type: ignore[union-attr]
    with pytest.raises(Refused, match="does not open"):
        hub.receive(1, phones[1].channel, forged)  # type: ignore[arg-type]
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
    assert second.view()["seat"] == 4
    assert phones[4].conn.closed is not None and phones[4].conn.closed[0] == CLOSE_REPLACED
    with pytest.raises(Refused, match="no longer holds"):
        phones[4].tap(3)


def test_the_same_device_reloading_gets_its_view_back() -> None:
    hub, phones = joined()
    phones[5].connect()  # the same device (a reload, a lost Wi-Fi)
    assert phones[5].view()["lines"] == ["seat 5"]


def test_a_phone_gets_only_its_own_seats_state() -> None:
    hub, phones = joined()
    before = len(phones[1].conn.texts)
    phones[1].send({"t": "state", "seat": 2})
    assert len(phones[1].conn.texts) == before and "asked for seat 2" in hub.refusals[-1]
    phones[1].send({"t": "state"})
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
            by_seat.setdefault(f.seat, []).append((f.chars, round(f.at, 6)))
    return by_seat, g, phones


def test_every_phone_gets_the_same_messages_at_the_same_times_through_every_night() -> None:
    # Two games differing only in hidden state: the Seer on seat 1, or on seat 6.
    first, g1, phones1 = night_frames(BASIC["roles"])
    second, g2, phones2 = night_frames({6: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 5: "hunter"})
    assert g1.game.state.night >= 2 and g1.game.outcome is not None and g2.game.outcome is not None
    assert set(first) == set(range(1, 9))
    schedule = first[1]
    assert len(schedule) > 100 and {chars for chars, _ in schedule} == {SEALED_CHARS}
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
    assert {len(t) for p in phones.values() for t in p.conn.texts} == {SEALED_CHARS}
