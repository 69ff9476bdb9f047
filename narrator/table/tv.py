"""The table's screen as a web page for a TV or a second monitor: what it shows (docs/tv.md).

`TvBoard` makes the page's view from what the full screen shows the whole table
(`ScreenDisplay`: the public board, the phase, the day's timer), the names (`People`), the lines
said (`said`: a ballot starts, a vote is taken back, the game's end) and the answers journaled by
day (`recorded`: each voter's vote as it is cast). It is read on every beat of the phones' server
and sent to every TV as it is (narrator/phones/server.py): nothing goes out when something happens.

At night the view is the night's number and nothing else: the same bytes whatever the hidden
state, at every beat of the night (tests/phones/test_tv_wire.py compares two games' TV traffic).
By day it holds only what the table may know: seats with names and numbers, alive or dead, the
Sheriff, the day's timer, the vote as cast, the cards public by design (the Actor's), the cards
shown at a death and every card at the game's end.
"""

from __future__ import annotations

import json
import re
import threading
from typing import Any, Iterable, Mapping

from narrator.names import People
from narrator.packs import VoicePack
from narrator.ports import Cue, Journal, Speaker
from narrator.table.screen import PHASES, ScreenDisplay

# A day's voter is asked by a prompt named after the ballot and the voter (narrator/flow/day_steps.py).
VOTER = re.compile(r"^day\.(?:vote|second|election|captain)\.[a-z_]+\.(\d+)$")
# Lines that start a ballot, and those after which no ballot is open any more.
BALLOT = frozenset({"vote.order_cw", "vote.order_ccw"})
NO_BALLOT = frozenset({"debate.start", "debate.start_one", "debate.start_seconds", "day.dusk", "night.falls",
                       "day.dawn"})


def _team(role: str) -> str:
    from narrator.rules import Role

    try:
        return Role(role).team.value
    except ValueError:
        return ""


class TvBoard:
    """The TV page's view of the game (`view`, `frame`), from the full screen and the game's lines."""

    def __init__(self, screen: ScreenDisplay, pack: VoicePack, players: int, people: People | None = None) -> None:
        self.screen = screen
        self.pack = pack
        self.players = players
        self.people = people if people is not None else pack.people
        self.lock = threading.Lock()
        self.votes: dict[int, int | None] = {}  # this ballot: voter -> seat (None: nobody)
        self.over = ""  # the game's end, as said

    # ---- what it is told ----------------------------------------------------------------

    def said(self, cue: Cue) -> None:
        with self.lock:
            if cue.key in BALLOT or cue.key in NO_BALLOT:
                self.votes = {}
            elif cue.key == "vote.taken_back":
                self.votes.pop(int(cue.slots["seat"]), None)
            elif cue.key in ("game.over", "game.over_nobody"):
                self.over = self.pack.text(cue)

    def recorded(self, record: Mapping[str, Any]) -> None:
        """A journaled answer: a day voter's vote (a seat, nobody, or none in time); nothing else."""
        if record.get("kind") != "input":
            return
        voter = VOTER.match(str(record.get("prompt", "")))
        choice = record.get("choice")
        if voter is None or not (choice is None or choice == "nobody" or type(choice) is int):
            return  # the Stuttering Judge's `+` is anyone's: never shown
        with self.lock:
            self.votes[int(voter.group(1))] = choice if type(choice) is int else None

    # ---- what it shows ------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        pack = self.pack
        with self.screen.lock:
            state = dict(self.screen.state)
            phase = self.screen.phase
            timer = self.screen._timer() if state else ""  # the screen's own countdown, as it draws it
        if not state or not phase:  # before the game's first line: the page's own title
            return {"mode": "night", "title": pack.phone.get("title", "Narrator")}
        if phase.startswith("night"):
            night = max(1, int(state.get("night", 0) or 0))
            return {"mode": "night", "title": pack.panel_text("board.night", {"count": night})}
        day = max(int(state.get("day", 0) or 0), int(state.get("night", 0) or 0))
        key = PHASES.get(phase)
        alive = set(state.get("alive", []))
        revealed = {int(k): str(v) for k, v in dict(state.get("revealed", {})).items()}
        captain = state.get("captain")
        with self.lock:
            votes = dict(self.votes)
            over = self.over
        over = over if phase == "game.over" else ""
        return {
            "mode": "over" if over else "day",
            "title": pack.panel_text(key, {"role": "captain"}) if key else pack.panel_text("board.day", {"count": day}),
            "day": pack.panel_text("board.day", {"count": day}),
            "timer": timer,
            "seats": [self._seat(seat, seat in alive, seat == captain, revealed.get(seat))
                      for seat in range(1, self.players + 1)],
            "votes": [] if over else [[voter, target] for voter, target in votes.items()],
            "public": [pack.text(Cue(str(k), dict(s))) for k, s in state.get("public", [])],
            "over": over,
        }

    def _seat(self, seat: int, alive: bool, captain: bool, role: str | None) -> dict[str, Any]:
        pack = self.pack
        return {"n": seat, "name": self.people.shown(seat) or "", "alive": alive,
                "status": pack.panel_text("board.alive" if alive else "board.dead", {}),
                "captain": pack.role_name("captain") if captain else "",
                "role": role or "", "card": pack.role_name(role) if role else "", "team": _team(role) if role else ""}

    def frame(self) -> bytes:
        """The view as the TV gets it: compact JSON, its keys sorted (the same view, the same bytes)."""
        return json.dumps({"t": "tv", **self.view()}, ensure_ascii=False, sort_keys=True,
                          separators=(",", ":")).encode("utf-8")


class TvSpeaker:
    """Tells the TV every line said, then says it (a `Speaker` around the table's)."""

    def __init__(self, inner: Speaker, tv: TvBoard) -> None:
        self.inner = inner
        self.tv = tv

    def say(self, cue: Cue, at: float | None = None) -> float:
        end = self.inner.say(cue, at)
        self.tv.said(cue)
        return end

    def prepare(self, cues: Iterable[Cue]) -> None:
        self.inner.prepare(cues)

    def close(self) -> None:
        self.inner.close()


class TvJournal:
    """Tells the TV every record journaled (a `Journal` around the game's): a day voter's vote."""

    def __init__(self, inner: Journal, tv: TvBoard) -> None:
        self.inner = inner
        self.tv = tv

    def append(self, record: Mapping[str, Any]) -> None:
        self.inner.append(record)
        self.tv.recorded(record)

    def records(self) -> list[dict[str, Any]]:
        return self.inner.records()
