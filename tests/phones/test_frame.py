"""The frame every message to a phone is padded to holds the largest view any pack can produce at
any table size (narrator/phones/frame.py), and a view that would not fit never stops the beat."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from narrator.fakes import FakePhones
from narrator.packs import available_languages, load_pack
from narrator.phones.crypto import FRAME, SEALED_BYTES
from narrator.phones.frame import PANEL_LINES, frame_needed, largest_view
from narrator.phones.hub import Frame, PhoneHub
from narrator.phones.server import PhoneServer

from tests.phones.phone_helpers import MemoryPhone, play_hub, play_phones

WITCH_AND_FATHER = {"players": 30, "roles": {1: "witch", 2: "werewolf", 3: "accursed_wolf_father", 4: "seer"}}
WITCH_SCRIPT = {"nights": [{"werewolves": 6, "accursed_wolf_father": 0, "witch": {"heal": True, "poison": 0}, "seer": 2}],
                "days": [{"eliminate": 2}, {"eliminate": 3}]}


def test_the_frame_holds_the_largest_view_of_every_pack_at_every_table_size() -> None:
    languages = available_languages()
    assert len(languages) == 12
    needed = {(lang, players): frame_needed(load_pack(lang), players) for lang in languages for players in range(1, 31)}
    largest = max(needed.values())
    assert largest <= FRAME, f"{max(needed, key=needed.__getitem__)} needs {largest} bytes: raise crypto.FRAME"
    assert needed[("ru", 30)] == largest  # the widest script at the largest table


def test_the_frame_holds_the_view_for_the_dead_of_every_pack_at_every_table_size() -> None:
    from narrator.phones.frame import aside_needed
    from narrator.phones.table import phone_labels

    needed = {(lang, players): aside_needed(pack, players, phone_labels(pack)["dead"])
              for lang in available_languages() for pack in [load_pack(lang)] for players in range(1, 31)}
    largest = max(needed.values())
    assert largest <= FRAME, f"{max(needed, key=needed.__getitem__)} needs {largest} bytes beside its view"
    # In a view it would not fit: a dead seat's view with its asides in it outgrows the frame.
    assert frame_needed(load_pack("ru"), 30) + needed[("ru", 30)] > FRAME


@pytest.mark.slow  # thirty-seat games with every frame sealed and opened: half a minute of CPU each
def test_the_bound_covers_every_part_of_a_real_view_and_every_view_of_a_real_game() -> None:
    for lang in ("ru", "ja", "en"):
        phones = FakePhones(30)
        play_phones(WITCH_AND_FATHER, WITCH_SCRIPT, phones, language=lang)
        bound = largest_view(load_pack(lang), 30)
        room = {part: len(str(bound[part]).encode("utf-8")) for part in ("lines", "choices", "note", "card")}
        # Every beat that sends an unchanged view sends the same dict (FakePhones.beat): each one
        # sent is checked, once.
        for view in {id(view): view for _, view, _ in phones.sent}.values():
            assert set(view) == set(bound)  # a field the bound does not know would make it wrong
            assert len(view["lines"]) <= PANEL_LINES
            for part, most in room.items():
                assert len(str(view[part]).encode("utf-8")) <= most, (lang, part)


@pytest.mark.slow  # a thirty-seat game with every frame sealed and opened: half a minute of CPU
def test_a_thirty_seat_russian_game_with_the_witch_the_wolf_father_and_the_view_for_the_dead_plays_on_sealed_frames() -> None:
    """The largest view of the widest script, at the largest table, with the largest extra beside it:
    every frame the same sealed size, the Witch's panel and every dead seat's cards and lines uncut.
    (The living seats' views are those of a game without the view for the dead.)"""
    hub = PhoneHub(30)
    frames: list[Frame] = []
    hub.on_frame = frames.append
    g, phones = play_hub(WITCH_AND_FATHER, WITCH_SCRIPT, hub, language="ru", dead=True)
    assert g.game.outcome is not None and g.game.state.night >= 2
    assert {f.size for f in frames} == {SEALED_BYTES} and len(frames) > 1000
    witch = [v for v in phones[1].views() if v.get("mode") == "panel" and v["night"]]
    assert witch and any("Спасти" in line for v in witch for line in v["lines"])
    dead = sorted(set(range(1, 31)) - set(g.game.living()))
    assert dead and 1 not in dead  # the Witch lives to the end: her panel is a living seat's
    for seat in dead:
        shown = phones[seat].deads()
        assert shown and all(len(d["cards"]) == 30 for d in shown)
        assert not [line for d in shown for line in d.get("lines", ()) if line.endswith("\u2026")]  # none cut
        assert not [line for v in phones[seat].views() for line in v.get("lines", ()) if line.endswith("\u2026")]
    assert any(d.get("awake") for seat in dead for d in phones[seat].deads())


class _Broken:
    """A hub whose beat fails every other time (a view that cannot be sealed, a bug)."""

    def __init__(self) -> None:
        self.calls = 0

    def beat(self, at: float) -> None:
        self.calls += 1
        if self.calls % 2:
            raise ValueError("a view that does not fit")


def test_the_beat_goes_on_after_a_failed_beat_and_the_log_says_so(tmp_path: Path) -> None:
    hub = PhoneHub(4)
    broken = _Broken()
    server = PhoneServer(hub, beat=0.01, log=tmp_path / "wire.log")
    server.hub = broken  # type: ignore[assignment]
    server.start()
    try:
        end = time.monotonic() + 60
        while broken.calls < 10 and time.monotonic() < end:
            time.sleep(0.05)
    finally:
        server.stop()
    assert broken.calls >= 10 and server.beats >= 4
    assert "a beat failed; the next one goes on" in (tmp_path / "wire.log").read_text()


def test_the_largest_view_goes_out_whole_at_night_and_by_day() -> None:
    hub = PhoneHub(30)
    phones = {seat: MemoryPhone(hub, seat) for seat in (1, 2)}
    for phone in phones.values():
        phone.connect()
    view = largest_view(load_pack("ru"), 30)
    for night in (True, False):
        hub.night(night)
        hub.show(1, {**view, "night": night})
        hub.beat(1.0)
        assert phones[1].view() == {**view, "night": night}  # whole: nothing cut
        assert {len(data) for p in phones.values() for data in p.conn.texts} == {SEALED_BYTES}
