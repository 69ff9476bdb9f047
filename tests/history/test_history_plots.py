"""The history's pictures (`narrator history --stats --plots DIR`, narrator/history/plots.py): wins by
side over time, by composition and by person as SVG files and a page holding them, every name
shown as text; a table's regulars counted by name across games."""

from __future__ import annotations

import argparse
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from narrator.errors import UsageError
from narrator.history import db
from narrator.history.cli import register
from narrator.history.record import from_events
from narrator.history.stats import compute

from tests.history.test_history import village_wins_five, village_wins_six, wolves_win_five

SVG = "{http://www.w3.org/2000/svg}"


def history(tmp_path: Path) -> Path:
    path = tmp_path / "h.sqlite3"
    conn = db.connect(path)
    names = {1: "Ann", 2: "<script>alert(1)</script>", 3: "Zoé 🐺"}
    for i, game in enumerate((village_wins_five(), wolves_win_five(), village_wins_six(), village_wins_five())):
        db.save(conn, from_events({"language": "en", "i": i}, game.events, names=names, duration_s=600.0))
    conn.close()
    return path


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["history", *argv])
    return int(args.func(args))


def test_stats_count_a_tables_regulars_by_name_across_games(tmp_path: Path) -> None:
    stats = compute(db.connect(history(tmp_path)))
    people = {r.key: (r.wins, r.games) for r in stats.section("person")}
    # Seat 1 is a Werewolf in every game (one won), seats 2 and 3 on the village's side (three won).
    assert people == {"Ann": (1, 4), "<script>alert(1)</script>": (3, 4), "Zoé 🐺": (3, 4)}


def test_the_pictures_are_written_as_svg_files_and_a_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = history(tmp_path)
    out = tmp_path / "plots"
    assert run("--stats", "--db", str(base), "--plots", str(out)) == 0
    printed = capsys.readouterr().out
    assert "wins by person" in printed and str(out / "index.html") in printed
    files = {p.name for p in out.iterdir()}
    assert files == {"index.html", "wins-over-time.svg", "wins-by-composition.svg", "wins-by-person.svg"}
    for name in files - {"index.html"}:
        ET.parse(out / name)  # well-formed: every label escaped
    over_time = ET.parse(out / "wins-over-time.svg").getroot()
    lines = over_time.findall(f"{SVG}polyline")
    assert len(lines) == 2  # the village and the Werewolves: the sides that won
    village = [tuple(map(float, p.split(","))) for p in lines[0].get("points", "").split()]
    assert len(village) == 5 and village[0][1] > village[-1][1]  # 0 then 3 wins, drawn upwards
    texts = [t.text or "" for t in over_time.iter(f"{SVG}text")]
    assert "the village 3" in texts and "the Werewolves 1" in texts
    person = ET.parse(out / "wins-by-person.svg").getroot()
    labels = [t.text for t in person.iter(f"{SVG}text")]
    assert "<script>alert(1)</script>" in labels and "Zoé 🐺" in labels  # text, never markup
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page.count("<svg") == 3 and "village wins by composition" in page
    # The list too, with its pictures.
    assert run("--db", str(base), "--plots", str(tmp_path / "list")) == 0
    assert (tmp_path / "list" / "wins-over-time.svg").is_file()


def test_plots_with_one_games_story_is_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="--plots goes with the list or --stats"):
        run("1", "--db", str(history(tmp_path)), "--plots", str(tmp_path / "p"))
