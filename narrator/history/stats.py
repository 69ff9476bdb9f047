"""Statistics over the finished games of the history, and one game's story in the pack's language."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from narrator.packs import VoicePack
from narrator.rules import Side
from narrator.rules.events import Cause

SIDES = tuple(side.value for side in Side)


@dataclass(frozen=True)
class Row:
    """One line of a statistics table: `wins` counts the games (or seats) that won."""

    section: str
    key: str
    games: int
    wins: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"section": self.section, "key": self.key, "games": self.games, "wins": self.wins,
                "rate": round(self.rate, 4)}


@dataclass(frozen=True)
class Stats:
    games: int
    rows: list[Row]
    mean_nights: float
    mean_days: float
    mean_minutes: float | None
    headless_left_out: int = 0  # finished headless runs not counted (history --stats --include-headless counts them)

    def section(self, name: str) -> list[Row]:
        return [r for r in self.rows if r.section == name]

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "mean_nights": round(self.mean_nights, 3), "mean_days": round(self.mean_days, 3),
                "mean_minutes": None if self.mean_minutes is None else round(self.mean_minutes, 2),
                "headless_left_out": self.headless_left_out,
                "rows": [r.to_json() for r in self.rows]}


def compute(conn: sqlite3.Connection, include_headless: bool = False) -> Stats:
    """Win rates by side, composition (village wins), players (village wins), role and person (seats that won).

    Only games played at a table count, unless `include_headless` (scripted `play --headless` runs)."""
    finished = "status = 'finished'" + ("" if include_headless else " AND source = 'table'")
    total, nights, days = conn.execute(f"SELECT COUNT(*), AVG(nights), AVG(days) FROM games WHERE {finished}").fetchone()
    minutes = conn.execute(f"SELECT AVG(duration_s) / 60.0 FROM games WHERE {finished} AND duration_s IS NOT NULL").fetchone()[0]
    rows: list[Row] = []
    won = dict(conn.execute(f"SELECT winner, COUNT(*) FROM games WHERE {finished} GROUP BY winner").fetchall())
    rows += [Row("side", side, total, int(won.get(side, 0))) for side in SIDES]
    for section, column in (("composition", "composition"), ("players", "players")):
        for key, games, village in conn.execute(
            f"SELECT {column}, COUNT(*), SUM(winner = 'village') FROM games WHERE {finished} GROUP BY {column} ORDER BY {column}"
        ):
            rows.append(Row(section, str(key), int(games), int(village)))
    for role, seats, wins in conn.execute(
        f"SELECT s.role, COUNT(*), SUM(s.won) FROM seats s JOIN games g ON g.id = s.game_id WHERE g.{finished} "
        "GROUP BY s.role ORDER BY s.role"
    ):
        rows.append(Row("role", role, int(seats), int(wins)))
    for name, seats, wins in conn.execute(
        f"SELECT s.name, COUNT(*), SUM(s.won) FROM seats s JOIN games g ON g.id = s.game_id WHERE g.{finished} "
        "AND s.name IS NOT NULL GROUP BY s.name ORDER BY s.name"
    ):
        rows.append(Row("person", name, int(seats), int(wins)))
    headless = 0 if include_headless else int(conn.execute(
        "SELECT COUNT(*) FROM games WHERE status = 'finished' AND source = 'headless'").fetchone()[0])
    return Stats(int(total), rows, float(nights or 0), float(days or 0), None if minutes is None else float(minutes),
                 headless)


# The story's line for each cause of death of the engine (a test checks that every `Cause` has one,
# in every pack): a cause added to the engine without its line here fails that test, not a table's `history N`.
DEATH_KEYS: dict[Cause, str] = {
    Cause.WOLVES: "history.killed",
    Cause.POISON: "history.poisoned",
    Cause.GRIEF: "history.grief",
    Cause.HUNTER: "history.shot",
    Cause.VOTE: "history.eliminated",
    Cause.DISEASE: "history.disease",
    Cause.WHITE_WEREWOLF: "history.white_werewolf",
    Cause.ELDER: "history.with_elder",
    Cause.BIG_BAD_WOLF: "history.big_bad_wolf",
    Cause.LAST_TWO: "history.last_two",
}


def story(events: Sequence[Mapping[str, Any]], pack: VoicePack, names: Mapping[int, str] | None = None) -> list[str]:
    """The game night by night, from its events, in the pack's language."""
    names = names or {}
    lines: list[str] = []

    def say(key: str, **slots: Any) -> None:
        lines.append("  " + pack.panel_text(key, slots))

    def who(seat: int) -> int | str:
        return f"{seat} ({names[seat]})" if seat in names else seat

    for e in events:
        kind = e.get("type")
        if kind == "NightBegan":
            lines.append(pack.panel_text("history.night", {"count": e["night"]}))
        elif kind == "DayBegan":
            lines.append(pack.panel_text("history.day", {"count": e["day"]}))
        elif kind == "ThiefChose" and e.get("took"):
            say("history.thief", seat=who(e["seat"]), role=e["took"])
        elif kind == "LoversChosen":
            say("history.lovers", seat=who(e["first"]), other=who(e["second"]))
        elif kind == "SeerSaw":
            say("history.seer", seat=who(e["target"]), role=e["role"])
        elif kind == "WitchActed" and e.get("healed"):
            say("history.healed")
        elif kind == "DawnBroke" and not e.get("deaths"):
            say("history.no_death")
        elif kind == "PlayerDied":
            say(DEATH_KEYS[Cause(e["cause"])], seat=who(e["seat"]), role=e["role"])
        elif kind == "CaptainElected":
            say("history.captain", seat=who(e["seat"]))
        elif kind == "CaptainSucceeded" and e.get("successor") is not None:
            say("history.captain", seat=who(e["successor"]))
        elif kind == "NobodyEliminated":
            say("history.nobody_eliminated")
        elif kind == "GameEnded":
            lines.append(pack.panel_text("history.winner", {"side": e["winner"]}))
    return lines
