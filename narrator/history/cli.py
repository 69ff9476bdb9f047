"""`narrator history`: the games played, one game's story, statistics; and recording a game at its end."""

from __future__ import annotations

import argparse
import csv
import functools
import json
import sys
import time
from pathlib import Path
from typing import Any, Mapping, Sequence

from narrator.errors import UsageError
from narrator.i18n import message_of, tr


def register(sub: Any) -> None:
    p = sub.add_parser("history", help="the games played: a list, one game's story (history N), --stats; "
                                       "history import [JOURNAL ...]; history delete N ...; history prune --abandoned")
    p.add_argument("what", nargs="*", metavar="GAME | import [JOURNAL ...] | delete N ... | prune",
                   help="a game's number for its story; or 'import' and journals (default: every journal of the games "
                        "folder); or 'delete' and game numbers; or 'prune --abandoned' (the stopped games)")
    p.add_argument("--abandoned", action="store_true", help="with prune: remove every game stopped before its end")
    p.add_argument("--yes", action="store_true", help="with delete or prune: do not ask before removing (for scripts)")
    p.add_argument("--stats", action="store_true", help="win rates by side, composition, players, role and person")
    p.add_argument("--include-headless", action="store_true",
                   help="with --stats: count scripted `play --headless` runs too (left out by default)")
    p.add_argument("--plots", type=Path, metavar="DIR",
                   help="with the list or --stats: write the pictures (wins by side over time, by composition, by "
                        "person) as SVG files and DIR/index.html, a page to open in a browser")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--csv", action="store_true", help="print CSV")
    p.add_argument("--db", type=Path, metavar="FILE", help="the history database (default: in the user data folder)")
    p.add_argument("--lang", metavar="L", help="language of the story (default: the game's) and of --stats (default: en)")
    p.set_defaults(func=run_history)


def run_history(args: argparse.Namespace) -> int:
    from narrator.history import db

    if args.json and args.csv:
        raise UsageError("--json and --csv: choose one")
    what: list[str] = list(args.what)
    conn = db.connect(args.db)
    try:
        if what and what[0] == "import":
            return _import(conn, [Path(p) for p in what[1:]])
        if what and what[0] in ("delete", "prune"):
            return _remove(conn, what, args)
        if args.abandoned:
            raise UsageError("--abandoned goes with prune: narrator history prune --abandoned")
        if args.plots is not None and (what or args.json or args.csv):
            raise UsageError("--plots goes with the list or --stats: narrator history --stats --plots DIR")
        if args.stats:
            return _stats(conn, args)
        if what:
            if len(what) > 1 or not what[0].isdigit():
                raise UsageError("history {what!r}: give one game's number (see 'narrator history'), or 'import'",
                                 what=' '.join(what))
            return _detail(conn, int(what[0]), args)
        return _list(conn, args)
    finally:
        conn.close()


def _list(conn: Any, args: argparse.Namespace) -> int:
    from narrator.history import db

    rows = db.games(conn, events=False)  # nothing below shows a game's events (to_json leaves them out)
    if args.plots is not None:
        _plots(conn, args)
    if args.json:
        print(json.dumps([r.to_json() for r in rows], ensure_ascii=False))
        return 0
    fields = ["id", "status", "ended_at", "players", "language", "composition", "nights", "days", "winner", "journal", "source"]
    if args.csv:
        w = csv.writer(sys.stdout)
        w.writerow(fields)
        for r in rows:
            w.writerow([getattr(r, f) for f in fields])
        return 0
    if not rows:
        print(tr("No game in the history yet. Play one, or import journals: {command}",
                 command="narrator history import"))
        return 0
    for r in rows:
        print(_line(r, args.lang))
    if any(r.status != "finished" for r in rows):
        print(tr("(stopped games are 'abandoned': {prune} removes them; {delete} removes one)",
                 prune="narrator history prune --abandoned", delete="narrator history delete N"))
    return 0


def _line(r: Any, lang: str | None = None) -> str:
    """One game of the list: its cards in the game's language (or `lang`)."""
    pack = _pack(lang or r.language)
    winner = pack.sides.get(r.winner, r.winner) if r.winner else tr("(abandoned)")
    mark = "  " + tr("(headless)") if r.source == "headless" else ""
    return (f"{r.id:>4}  {(r.ended_at or r.started_at or '?')[:16]:16}  "
            + tr("players: {players}  {deck}  nights: {nights}  winner: {winner}", players=f"{r.players:>2}",
                 deck=pack.deck_text(r.composition), nights=r.nights, winner=winner) + mark)


@functools.lru_cache(maxsize=None)
def _pack(language: str) -> Any:
    """The pack of a language (English for a language no pack has any more)."""
    from narrator.packs import PackError, load_pack

    try:
        return load_pack(language)
    except PackError:
        return load_pack("en")


def _detail(conn: Any, gid: int, args: argparse.Namespace) -> int:
    from narrator.history import db
    from narrator.history.stats import story
    from narrator.packs import load_pack

    row = db.game(conn, gid)
    if row is None:
        raise UsageError("no game number {gid} in the history; 'narrator history' lists them", gid=gid)
    seats = list(conn.execute("SELECT seat, name, dealt, role, team, won FROM seats WHERE game_id = ? ORDER BY seat", (gid,)))
    deaths = list(conn.execute("SELECT seat, role, cause, phase, number FROM deaths WHERE game_id = ? ORDER BY ord", (gid,)))
    votes = list(conn.execute("SELECT round, phase, number, ballot, voter, target FROM votes WHERE game_id = ? "
                              "ORDER BY round, voter", (gid,)))
    names = {s[0]: s[1] for s in seats if s[1]}
    if args.json or args.csv:
        detail = {**row.to_json(),
                  "seats": [dict(zip(("seat", "name", "dealt", "role", "team", "won"), s)) for s in seats],
                  "deaths": [dict(zip(("seat", "role", "cause", "phase", "number"), d)) for d in deaths],
                  "votes": [dict(zip(("round", "phase", "number", "ballot", "voter", "target"), v)) for v in votes]}
        if args.json:
            print(json.dumps(detail, ensure_ascii=False))
        else:
            w = csv.writer(sys.stdout)
            w.writerow(["seat", "name", "dealt", "role", "team", "won"])
            w.writerows(seats)
        return 0
    pack = load_pack(args.lang or row.language)
    told = story(row.events, pack, names)  # the whole story before the first line is printed
    status = tr("finished") if row.status == "finished" else tr("abandoned")
    if row.journal:
        print(tr("Game {game}: players: {players}; {deck}; {status}, journal {journal}", game=row.id,
                 players=row.players, deck=pack.deck_text(row.composition), status=status, journal=row.journal))
    else:
        print(tr("Game {game}: players: {players}; {deck}; {status}", game=row.id, players=row.players,
                 deck=pack.deck_text(row.composition), status=status))
    for line in told:
        print(line)
    return 0


def _stats(conn: Any, args: argparse.Namespace) -> int:
    from narrator.history.stats import compute

    stats = compute(conn, include_headless=args.include_headless)
    if args.json:
        print(json.dumps(stats.to_json(), ensure_ascii=False))
        return 0
    if args.csv:
        w = csv.writer(sys.stdout)
        w.writerow(["section", "key", "games", "wins", "rate"])
        for r in stats.rows:
            w.writerow([r.section, r.key, r.games, r.wins, f"{r.rate:.4f}"])
        return 0
    from narrator.i18n import current_language

    for line in stats_lines(stats, _pack(args.lang or current_language())):
        print(line)
    if args.plots is not None:
        _plots(conn, args)
    return 0


def _plots(conn: Any, args: argparse.Namespace) -> None:
    """The history's pictures in args.plots (SVG files and a page that holds them), their paths printed."""
    from narrator.history import db
    from narrator.history.plots import COLOURS, bars, wins_over_time, write_plots
    from narrator.history.stats import compute
    from narrator.i18n import current_language

    pack = _pack(args.lang or current_language())
    stats = compute(conn, include_headless=args.include_headless)
    finished = [r for r in db.games(conn)
                if r.status == "finished" and (args.include_headless or r.source != "headless") and r.winner]
    sides = {str(k): str(v) for k, v in pack.sides.items()}
    charts = {"wins-over-time": wins_over_time([str(r.winner) for r in finished], sides, pack.panel_text("stats.side", {})),
              "wins-by-composition": bars(stats.section("composition"),
                                          {r.key: pack.deck_text(r.key) for r in stats.section("composition")},
                                          pack.panel_text("stats.composition", {}))}
    if stats.section("person"):
        charts["wins-by-person"] = bars(stats.section("person"), {}, pack.panel_text("stats.person", {}), COLOURS["lovers"])
    try:
        written = write_plots(args.plots, charts, "narrator history", stats_lines(stats, pack))
    except OSError as exc:
        raise UsageError("the pictures cannot be written in {folder} ({reason}); choose a folder you can write",
                         folder=args.plots, reason=exc.strerror or exc) from None
    for path in written:
        print(tr("Written: {path}", path=path))


def stats_lines(stats: Any, pack: Any = None) -> list[str]:
    """The statistics as a plain table (docs/history.md shows one), in the pack's language: its words,
    its role and side names (--json and --csv keep the keys)."""
    if pack is None:
        from narrator.packs import load_pack

        pack = load_pack("en")
    names = {"side": lambda key: pack.sides.get(key, key), "composition": pack.deck_text,
             "role": pack.role_name}
    lines = [pack.panel_text("stats.summary", {"count": stats.games, "nights": f"{stats.mean_nights:.1f}",
                                               "days": f"{stats.mean_days:.1f}"})
             + (pack.panel_text("stats.minutes", {"minutes": f"{stats.mean_minutes:.0f}"})
                if stats.mean_minutes is not None else "")]
    if stats.headless_left_out:
        lines.append(pack.panel_text("stats.headless", {"count": stats.headless_left_out}))
    for section in ("side", "composition", "players", "role", "person"):
        rows = stats.section(section)
        if not rows:
            continue
        name = names.get(section, str)
        keys = [name(r.key) for r in rows]
        width = max(len(k) for k in keys)
        lines.append("")
        lines.append(pack.panel_text(f"stats.{section}", {}) + ":")
        for key, r in zip(keys, rows):
            lines.append(f"  {key:<{width}}  {r.wins:>4} / {r.games:<4} {r.rate:>6.1%}")
    return lines


def _remove(conn: Any, what: list[str], args: argparse.Namespace) -> int:
    """`history delete N ...` and `history prune --abandoned`: list what goes, ask (unless --yes), remove."""
    from narrator.history import db

    rows = {r.id: r for r in db.games(conn)}
    if what[0] == "delete":
        numbers = what[1:]
        if not numbers:
            raise UsageError("history delete: give the numbers of the games to remove, e.g. narrator history delete 3 4")
        bad = [n for n in numbers if not n.isdigit()]
        if bad:
            raise UsageError("history delete {bad!r}: give game numbers (see 'narrator history')", bad=bad[0])
        unknown = [n for n in numbers if int(n) not in rows]
        if unknown:
            raise UsageError("history delete: no game number {unknown} in the history; 'narrator history' lists them",
                             unknown=unknown[0])
        ids = sorted({int(n) for n in numbers})
    else:
        if len(what) > 1 or not args.abandoned:
            raise UsageError("history prune: say what to remove: narrator history prune --abandoned")
        ids = [gid for gid, r in rows.items() if r.status != "finished"]
        if not ids:
            print(tr("No abandoned game in the history: nothing to remove."))
            return 0
    print(tr("Games to remove: {count}", count=len(ids)))
    for gid in ids:
        print(_line(rows[gid], args.lang))
    if not args.yes:
        print(tr("Remove them from the history? Type y then Enter (anything else keeps them): "), end="", flush=True)
        answer = sys.stdin.readline()
        if answer.strip().lower() not in ("y", "yes", tr("y"), tr("yes")):
            print("" if answer.endswith("\n") else "\n", end="")
            print(tr("Nothing removed. ({flag} removes without asking.)", flag="--yes"))
            return 1
    removed = db.delete(conn, ids)
    print(tr("Games removed from the history: {count}", count=removed))
    return 0


def _import(conn: Any, paths: Sequence[Path]) -> int:
    from narrator.flow.script import game_journals, games_folder
    from narrator.journal import JournalError, read_journal
    from narrator.history import db
    from narrator.history.record import HistoryError, from_journal

    if not paths:
        folder = games_folder()
        paths = game_journals(folder, "*.jsonl")
        if not paths:
            raise UsageError("no journal to import in {folder}; name them: narrator history import FILE ...", folder=folder)
    imported = skipped = 0
    for path in paths:
        try:
            records, _ = read_journal(path)
            written = path.stat().st_mtime
            record = from_journal(records, path, **_journal_times(records, written, ended_at=_iso(written)))
        except (JournalError, HistoryError) as exc:
            print(tr("skipped {path}: {error}", path=path, error=message_of(exc)), file=sys.stderr)
            skipped += 1
            continue
        db.save(conn, record)
        imported += 1
    print(tr("games imported: {imported}, skipped: {skipped}", imported=imported, skipped=skipped) if skipped
          else tr("games imported: {imported}", imported=imported))
    return 0 if imported or not skipped else 1


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(t))


def _journal_times(records: Sequence[Mapping[str, Any]], end: float, **known: Any) -> dict[str, Any]:
    """started_at and duration_s from the journal's own times (every part of a resumed game), where it has them."""
    from narrator.history.record import journal_start, played_seconds

    start = journal_start(records[0]) if records else None
    played = played_seconds(records, end)
    times = dict(known)
    if start is not None:
        times["started_at"] = _iso(start)
    if played is not None:
        times["duration_s"] = played
    return times


class Recorder:
    """Records the game being played at its end (finished or abandoned); never stops the game for it."""

    def __init__(self, names: Mapping[int, str] | None = None) -> None:
        self.started_at = _iso(time.time())
        self.started = time.monotonic()
        self.names = dict(names or {})

    def journal(self, path: Path | None, setup: Mapping[str, Any] | None = None) -> None:
        """Record the game of this journal (it holds everything, even for a game stopped half-way).

        A game stopped during its deal has written nothing yet: with its `setup` (a Setup's
        record) it is recorded as abandoned before its first night."""
        from narrator.journal import JournalError, read_journal
        from narrator.history.record import HistoryError, from_events, from_journal, start_event

        if path is None:
            return
        if not path.exists() or path.stat().st_size == 0:
            if setup is not None:
                try:
                    record = from_events(setup, [start_event(setup)], names=self.names, journal=path, mode="text",
                                         **self._times())
                except HistoryError as exc:
                    print("narrator: " + tr("the game was not added to the history: {error}", error=message_of(exc)), file=sys.stderr)
                    return
                self._save(record)
            return
        try:
            records, _ = read_journal(path)
            if self.names and "names" not in records[0]:
                records[0] = {**records[0], "names": {str(k): v for k, v in self.names.items()}}
            now = self._times()
            record = from_journal(records, path, **_journal_times(records, time.time(), **now))
        except (JournalError, HistoryError) as exc:
            print("narrator: " + tr("the game was not added to the history: {error}", error=message_of(exc)), file=sys.stderr)
            return
        self._save(record)

    def events(self, setup: Mapping[str, Any], events: Sequence[Any], seed: int | None, mode: str) -> None:
        """Record a game that has no journal, from its events."""
        from narrator.history.record import HistoryError, from_events

        try:
            record = from_events(setup, events, names=self.names, seed=seed, mode=mode, **self._times())
        except HistoryError as exc:
            print("narrator: " + tr("the game was not added to the history: {error}", error=message_of(exc)), file=sys.stderr)
            return
        self._save(record)

    def _times(self) -> dict[str, Any]:
        return {"started_at": self.started_at, "ended_at": _iso(time.time()),
                "duration_s": round(time.monotonic() - self.started, 3)}

    def _save(self, record: Any) -> None:
        from narrator.history import db

        try:
            conn = db.connect()
            try:
                db.save(conn, record)
            finally:
                conn.close()
        except Exception as exc:  # the game is over; the history must not crash it
            print("narrator: " + tr("the game was not added to the history: {error}", error=message_of(exc)), file=sys.stderr)
