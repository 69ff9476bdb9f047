"""The TV page's board (narrator/table/tv.py, docs/tv.md), on a virtual clock: seats with names and
numbers, alive or dead, the Sheriff, the day's timer, the vote as cast, the end with every card;
at night the night's number and nothing else, the same bytes at every moment of every night in two
games that differ only in hidden state."""

from __future__ import annotations

import io
import json
from typing import Any, Mapping

from rich.console import Console

from narrator.clock import VirtualClock
from narrator.fakes import MemoryJournal
from narrator.flow.run import play_game
from narrator.flow.script import parse_script, parse_setup
from narrator.headless import Timeline, TimelineSpeaker
from narrator.listening.automatic import ScriptPlayers
from narrator.names import People
from narrator.packs import load_pack
from narrator.ports import Heard, PanelLines, Prompt, SlotValue
from narrator.table.screen import ScreenDisplay, ScreenListener, ScreenSpeaker
from narrator.table.tv import TvBoard, TvJournal, TvSpeaker

NAMES = {1: "Ann", 2: "Bo", 3: "<b>Cleo</b>", 4: "Dmitri", 5: "Eve", 6: "Fay 🐺", 7: "Gus", 8: "Hana"}
# Two deals that differ in who holds the Seer and the Witch; the same public game (the same deaths,
# the same cards shown, the same votes).
SEER_FIRST = {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 5: "hunter"}
WITCH_FIRST = {1: "witch", 2: "werewolf", 3: "werewolf", 4: "seer", 5: "hunter"}
SCRIPT = {"nights": [{"seer": 2, "werewolves": 6, "witch": {"heal": False, "poison": 0}},
                     {"seer": 3, "werewolves": 7, "witch": {"heal": False, "poison": 0}}],
          "days": [{"eliminate": 2, "captain": 4}, {"eliminate": 3}]}


class Sampled:
    """The TV's frame after every event of the game, with the game clock's time: (time, frame)
    each time it changes (between two events it does not, but for the day's timer ticking)."""

    def __init__(self, tv: TvBoard, clock: VirtualClock) -> None:
        self.tv, self.clock = tv, clock
        self.changes: list[tuple[float, bytes]] = []

    def sample(self) -> None:
        frame = self.tv.frame()
        if not self.changes or self.changes[-1][1] != frame:
            self.changes.append((round(self.clock.now(), 6), frame))


class SampledDisplay:
    def __init__(self, inner: ScreenDisplay, sampled: Sampled) -> None:
        self.inner, self.sampled = inner, sampled

    def board(self, state: Mapping[str, Any]) -> None:
        self.inner.board(state)
        self.sampled.sample()

    def show_private(self, key: str, slots: Mapping[str, SlotValue], more: PanelLines = ()) -> None:
        self.inner.show_private(key, slots, more)
        self.sampled.sample()

    def clear_private(self) -> None:
        self.inner.clear_private()
        self.sampled.sample()

    def feedback(self, key: str, slots: Mapping[str, SlotValue]) -> None:
        self.inner.feedback(key, slots)
        self.sampled.sample()


class SampledListener:
    def __init__(self, inner: ScreenListener, sampled: Sampled) -> None:
        self.inner, self.sampled = inner, sampled

    def listen(self, prompt: Prompt) -> Heard | None:
        self.sampled.sample()
        heard = self.inner.listen(prompt)
        self.sampled.sample()
        return heard


def tv_game(roles: Mapping[int, str], names: Mapping[int, str] = NAMES) -> tuple[Sampled, Any]:
    s = parse_setup({"language": "en", "players": 8, "roles": dict(roles), "timing": {"debate": 60, "defence": 5}},
                    "SETUP")
    script = parse_script(SCRIPT, 8, "SCRIPT")
    clock = VirtualClock()
    pack = load_pack("en").with_people(People(names))
    screen = ScreenDisplay(pack, clock, Console(file=io.StringIO(), width=120, height=40), s.timing)
    tv = TvBoard(screen, pack, s.players)
    sampled = Sampled(tv, clock)
    speaker = TvSpeaker(ScreenSpeaker(TimelineSpeaker(pack, Timeline(clock)), pack, screen), tv)
    journal = TvJournal(MemoryJournal(), tv)

    class Said:
        def say(self, cue: Any, at: float | None = None) -> float:
            end = speaker.say(cue, at)
            sampled.sample()
            return end

        def prepare(self, cues: Any) -> None:
            speaker.prepare(cues)

        def close(self) -> None:
            speaker.close()

    class Kept:
        def append(self, record: Mapping[str, Any]) -> None:
            journal.append(record)
            sampled.sample()

        def records(self) -> list[dict[str, Any]]:
            return journal.records()

    listener = SampledListener(ScreenListener(ScriptPlayers(clock, script.answer), screen), sampled)
    game = play_game(s, pack, listener, Said(), SampledDisplay(screen, sampled), clock, Kept(), 0)
    return sampled, game


def views(sampled: Sampled) -> list[tuple[float, dict[str, Any]]]:
    return [(t, json.loads(f)) for t, f in sampled.changes]


def test_at_night_the_tv_shows_the_nights_number_and_nothing_else() -> None:
    sampled, game = tv_game(SEER_FIRST)
    assert game.outcome is not None and game.state.night >= 2
    nights = [v for _, v in views(sampled) if v["mode"] == "night"]
    assert nights[0]["title"] == "Narrator"  # before the game's first line: the page's own title
    assert {json.dumps(v, sort_keys=True) for v in nights[1:]} == {
        json.dumps({"t": "tv", "mode": "night", "title": f"Night {n}"}, sort_keys=True) for n in (1, 2)}


def test_the_tv_night_is_the_same_bytes_at_every_moment_in_two_games_differing_only_in_hidden_state() -> None:
    a, game_a = tv_game(SEER_FIRST)
    b, game_b = tv_game(WITCH_FIRST)
    assert game_a.role(1).value == "seer" and game_b.role(1).value == "witch"

    def nights(changes: list[tuple[float, bytes]]) -> list[tuple[float, bytes]]:
        # Every change into, during and out of a night: the night's frames and when each began and ended.
        out = []
        for (t, frame), (_, before) in zip(changes, [(0.0, b"")] + changes):
            if b'"mode":"night"' in frame or b'"mode":"night"' in before:
                out.append((t, frame))
        return out

    assert len(nights(a.changes)) >= 4 and nights(a.changes) == nights(b.changes)
    # The same public game: the whole TV until the game's end, when every card is shown.
    end_a, end_b = the_end(a.changes), the_end(b.changes)
    assert a.changes[:end_a] == b.changes[:end_b] and end_a > 40
    assert a.changes[-1][1] != b.changes[-1][1]  # every card, at the end: seat 1 a Seer in one, a Witch in the other


def the_end(changes: list[tuple[float, bytes]]) -> int:
    """The first frame that shows a living seat's card: the game is over."""
    return next(i for i, (_, f) in enumerate(changes)
                if any(s["alive"] and s["role"] for s in json.loads(f).get("seats", [])))


def test_by_day_names_numbers_the_sheriff_the_timer_and_the_vote_as_cast() -> None:
    sampled, _ = tv_game(SEER_FIRST)
    days = [v for _, v in views(sampled) if v["mode"] == "day"]
    seats = days[-1]["seats"]
    assert [(s["n"], s["name"]) for s in seats] == sorted(NAMES.items())
    assert any(v["timer"] for v in days)  # the debate's (or the vote's) countdown, "m:ss"
    debate = [v for v in days if v["title"] == "Debate" and v["timer"]]
    assert debate and all(":" in v["timer"] for v in debate)
    # The vote as it is cast, voter by voter, then the elimination and its card.
    ballots = [v["votes"] for v in days if v["votes"]]
    assert ballots[0] == [[1, 4]] and [1, 4] in ballots[1]  # the Sheriff's election, voter after voter
    finished = [b for b, after in zip(ballots, ballots[1:] + [[]]) if len(after) <= 1]  # each ballot as it closed
    assert {target for _, target in finished[0]} == {4} and {target for _, target in finished[1]} == {2}
    shown = [s for v in days for s in v["seats"] if s["n"] == 2 and not s["alive"]]
    assert shown and shown[-1]["card"] == "Werewolf" and shown[-1]["team"] == "wolves"
    assert any(s["captain"] == "Sheriff" for v in days for s in v["seats"] if s["n"] == 4)
    # Only what the table may know: no living seat's card before the end.
    end = the_end(sampled.changes)
    for _, frame in sampled.changes[:end]:
        assert all(s["role"] == "" for s in json.loads(frame).get("seats", []) if s["alive"])


def test_the_end_shows_every_card_with_its_side() -> None:
    sampled, game = tv_game(SEER_FIRST)
    end = views(sampled)[-1][1]
    assert end["mode"] == "over" and end["over"].startswith("The game is over")
    assert {s["n"]: (s["role"], s["team"]) for s in end["seats"]} == {
        seat: (game.role(seat).value, game.role(seat).team.value) for seat in range(1, 9)}
