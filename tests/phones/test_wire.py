"""The real wire, captured: two whole games that differ only in hidden state (who holds the Seer,
who is the Stuttering Judge and signs, what each voter chose) give every phone the same frames, of
the same lengths, at the same beats, by night and by day, both ways. The bytes are those that
crossed a TCP proxy between the phones and the laptop's server (tests/phones/wire.py), read back
into WebSocket frames; the beat is the game's (a virtual clock), each one waiting until every phone
has answered it, so the comparison does not depend on the machine's speed."""

from __future__ import annotations

from typing import Any

import pytest

from narrator.fakes import FakeListener, MemoryJournal, Timeline, TimelineDisplay, TimelineSpeaker, VirtualClock
from narrator.flow.script import parse_script, parse_setup
from narrator.packs import load_pack
from narrator.phones.crypto import SEALED_BYTES, SEALED_UP_BYTES
from narrator.phones.hub import Frame, PhoneHub
from narrator.phones.run import play_with_phones
from narrator.phones.server import PhoneServer
from narrator.phones.table import PhoneTable
from narrator.rules import Game

from tests.phones.phone_helpers import Lockstep
from tests.phones.wire import Connection, Proxy, ScriptAnswers, WireFrame, WirePhones

SETUP: dict[str, Any] = {"players": 8, "options": {"captain_election": "never"}}
JUDGE_A = {1: "seer", 2: "werewolf", 3: "werewolf", 4: "stuttering_judge", 5: "witch"}
JUDGE_B = {6: "seer", 2: "werewolf", 3: "werewolf", 7: "stuttering_judge", 5: "witch"}
TIMING = {"debate": 20, "defence": 5}


def script(judge: int, votes: dict[int, int]) -> dict[str, Any]:
    """Night 1: the Seer looks at seat 2, the Werewolves eat seat 8. Day 1: the Judge signs before
    his vote; the votes eliminate seat 2; the second vote, seat 3: the village wins."""
    return {"nights": [{"seer": 2, "werewolves": 8, "witch": {"heal": False, "poison": 0}}],
            "days": [{"eliminate": 2, "votes": votes, "sign": [judge], "second": 3, "vote_now": True}]}


def captured(roles: dict[int, str], judge: int, votes: dict[int, int], options: dict[str, Any] | None = None,
             plan: dict[str, Any] | None = None) -> tuple[Game, Proxy, list[Frame], Any]:
    """A whole game with a phone on every seat, through the proxy; its wire and the hub's record
    (`options` and `plan`, another test's: its rule options and its SCRIPT)."""
    s = parse_setup({"language": "en", **SETUP, "options": {**SETUP["options"], **(options or {})}, "roles": roles,
                     "timing": TIMING}, "SETUP")
    sc = parse_script(plan or script(judge, votes), s.players, "SCRIPT")
    pack = load_pack("en")
    clock = VirtualClock()
    hub = PhoneHub(s.players, now=clock.now)
    frames: list[Frame] = []
    hub.on_frame = frames.append
    proxy = Proxy()
    base = proxy.start()
    # The phones reach the laptop through the proxy: their links carry its address.
    server = PhoneServer(hub, public=base)
    server.start()
    proxy.target = server.address
    phones = WirePhones({seat: hub.link(seat, base) for seat in range(1, s.players + 1)}, base)
    journal = MemoryJournal()
    try:
        phones.wait(lambda: len(hub.joined()) == s.players, "every phone holds its seat")
        timeline = Timeline(clock)

        answers = ScriptAnswers(sc, phones)
        table = PhoneTable(Lockstep(hub, phones.stopped), TimelineDisplay(pack, timeline), FakeListener(clock, answers.keypad, delay=1.0),
                           pack, clock, hold=answers.hold)
        answers.table = table
        game = play_with_phones(s, pack, table, TimelineSpeaker(pack, timeline), clock, journal, 0)
    finally:
        phones.close()
        proxy.stop()
        server.stop()
    return game, proxy, frames, journal


def rounds(proxy: Proxy) -> list[list[tuple[WireFrame, WireFrame]]]:
    """Each phone's connection: its frames down paired with its answers up, in order (after the
    opening: the challenge down, the hello up)."""
    out = []
    for connection in proxy.sockets():
        down, up = connection.frames("down"), connection.frames("up")
        assert down[0].opcode == 1 and up[0].opcode == 2  # the challenge in the clear, the hello sealed
        down, up = [f for f in down[1:] if f.opcode == 2], [f for f in up[1:] if f.opcode == 2]
        assert len(up) == len(down)  # one answer for every frame
        out.append(list(zip(down, up)))
    return out


@pytest.mark.slow  # a real server and a TCP proxy on 127.0.0.1, two whole games: seconds of CPU and real time
def test_two_games_differing_only_in_hidden_state_look_the_same_on_the_wire_by_night_and_by_day() -> None:
    first = captured(JUDGE_A, 4, {5: 2, 7: 3})
    second = captured(JUDGE_B, 7, {5: 3, 7: 2})
    for game, proxy, frames, journal in (first, second):
        assert game.outcome is not None and game.state.day == 1  # the second vote ended it
        taps = [(r["prompt"], r["choice"]) for r in journal.records() if r["kind"] == "input" and r["source"] == "phone"]
        assert ("night.seer", 2) in taps and sum(1 for p, c in taps if c == "yes") == 1  # the sign, from a phone
        assert any(p.startswith("day.second") for p, _ in taps)
        assert {f.night for f in frames} == {True, False}
        sockets = proxy.sockets()
        assert len(sockets) == 8
        for connection in sockets:
            request, response = connection.handshake()
            assert "sec-websocket-extensions" not in response.lower()  # never compressed
    wire_a, wire_b = rounds(first[1]), rounds(second[1])
    # Every phone: the same number of frames each way, every one of the same length on the wire.
    assert len({len(r) for r in wire_a + wire_b}) == 1 and len(wire_a[0]) > 400
    assert {(d.wire, d.payload, u.payload, d.compressed or u.compressed) for r in wire_a + wire_b for d, u in r} == {
        (SEALED_BYTES + 4, SEALED_BYTES, SEALED_UP_BYTES, False)}
    assert {u.wire for r in wire_a + wire_b for _, u in r} == {SEALED_UP_BYTES + 8}  # masked, 16-bit length
    # Each answer crossed after its frame and before the next; each beat reached every phone
    # before the next beat reached any.
    for wire in (wire_a, wire_b):
        for r in wire:
            assert all(d.at <= u.at <= nd.at for (d, u), (nd, _) in zip(r, r[1:]))
        for k in range(len(wire[0]) - 1):
            assert max(r[k][0].at for r in wire) <= min(r[k + 1][0].at for r in wire)
    # The same beats, at the same times of the game's clock, for every seat, in both games.
    def schedule(frames: list[Frame]) -> dict[int, list[tuple[int, float, bool]]]:
        by_seat: dict[int, list[tuple[int, float, bool]]] = {}
        for f in frames:
            by_seat.setdefault(f.seat, []).append((f.size, round(f.at, 6), f.night))
        return by_seat

    a, b = schedule(first[2]), schedule(second[2])
    assert a == b and all(seats == a[1] for seats in a.values())


def test_the_capture_reads_only_the_bytes_whose_chunk_is_listed() -> None:
    """The proxy's thread adds a chunk's bytes, then lists the chunk: a reader in between sees the
    frames up to the last chunk listed, each with its time, not bytes with no time yet."""
    frame = bytes([0x82, 3]) + b"abc"  # a binary frame of three bytes, unmasked (laptop -> phone)
    connection = Connection()
    connection.down.add(b"HTTP/1.1 101 Switching Protocols\r\n\r\n" + frame)
    connection.down.data += frame  # the next chunk's bytes are in, its entry not yet
    frames = connection.frames("down")
    assert [(f.data, f.at) for f in frames] == [(b"abc", connection.down.chunks[0][1])]
    connection.down.chunks.append((len(connection.down.data), connection.down.chunks[0][1] + 1))
    assert [f.at for f in connection.frames("down")] == [connection.down.chunks[0][1], connection.down.chunks[1][1]]
