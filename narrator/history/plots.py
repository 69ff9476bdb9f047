"""Pictures of the history (`narrator history --plots DIR`; docs/history.md): wins by side over time,
village wins by composition, wins by person; each an SVG file, and one HTML page holding them all
with the statistics, to open in a browser.

SVG written here (a few dozen lines of text), not a plotting library: the pictures are bars and
lines, the package stays light (matplotlib would add about 40 MB and a font cache to every
install for three charts), and every label goes through one escape (`_text`), names included.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Sequence

from narrator.history.stats import SIDES, Row

COLOURS = {"village": "#5aa469", "werewolves": "#d9534f", "lovers": "#e07bb5", "nobody": "#999999"}
OTHER = "#8e7cc3"  # a loner side
WIDTH = 720
FONT = "font-family='sans-serif' font-size='13'"
TITLE = "font-family='sans-serif' font-size='16' font-weight='bold'"


def _text(value: object) -> str:
    """Any label as SVG or HTML text: markup in a name or a pack's words is shown, never read."""
    return html.escape(str(value), quote=True)


def wins_over_time(winners: Sequence[str], side_name: dict[str, str], title: str) -> str:
    """Each side's wins counted game after game (finished games in the order they ended)."""
    height, left, top, bottom, right = 320, 50, 40, 40, 170
    n = max(1, len(winners))
    sides = [s for s in SIDES if s in winners] or ["village", "werewolves"]
    counts = {s: [0] for s in sides}
    for w in winners:
        for s in sides:
            counts[s].append(counts[s][-1] + (w == s))
    most = max(1, max(c[-1] for c in counts.values()))
    plot_w, plot_h = WIDTH - left - right, height - top - bottom

    def xy(i: int, v: int) -> str:
        return f"{left + plot_w * i / n:.1f},{top + plot_h * (1 - v / most):.1f}"

    parts = [f"<text x='{left}' y='24' {TITLE}>{_text(title)}</text>",
             f"<line x1='{left}' y1='{top + plot_h}' x2='{left + plot_w}' y2='{top + plot_h}' stroke='#888'/>",
             f"<line x1='{left}' y1='{top}' x2='{left}' y2='{top + plot_h}' stroke='#888'/>",
             f"<text x='{left - 8}' y='{top + 4}' {FONT} text-anchor='end'>{most}</text>",
             f"<text x='{left - 8}' y='{top + plot_h + 4}' {FONT} text-anchor='end'>0</text>",
             f"<text x='{left + plot_w}' y='{top + plot_h + 20}' {FONT} text-anchor='end'>{len(winners)}</text>"]
    for k, side in enumerate(sides):
        colour = COLOURS.get(side, OTHER)
        points = " ".join(xy(i, v) for i, v in enumerate(counts[side]))
        parts.append(f"<polyline fill='none' stroke='{colour}' stroke-width='3' points='{points}'/>")
        y = top + 18 * k + 6
        parts.append(f"<rect x='{WIDTH - right + 16}' y='{y - 10}' width='12' height='12' fill='{colour}'/>")
        parts.append(f"<text x='{WIDTH - right + 34}' y='{y}' {FONT}>{_text(side_name.get(side, side))} "
                     f"{counts[side][-1]}</text>")
    return _svg(WIDTH, height, parts)


def bars(rows: Sequence[Row], label: dict[str, str], title: str, colour: str = COLOURS["village"]) -> str:
    """One bar a row: its share of wins, with "wins / games"."""
    bar_h, gap, top, label_w = 20, 8, 40, 300
    height = top + len(rows) * (bar_h + gap) + 10
    plot_w = WIDTH - label_w - 110
    parts = [f"<text x='10' y='24' {TITLE}>{_text(title)}</text>"]
    for i, r in enumerate(rows):
        y = top + i * (bar_h + gap)
        name = label.get(r.key, r.key)
        shown = name if len(name) <= 44 else name[:43] + "\u2026"
        parts += [f"<text x='{label_w - 8}' y='{y + 15}' {FONT} text-anchor='end'>{_text(shown)}</text>",
                  f"<rect x='{label_w}' y='{y}' width='{plot_w}' height='{bar_h}' fill='#eee'/>",
                  f"<rect x='{label_w}' y='{y}' width='{plot_w * r.rate:.1f}' height='{bar_h}' fill='{colour}'/>",
                  f"<text x='{label_w + plot_w + 8}' y='{y + 15}' {FONT}>{r.wins} / {r.games} "
                  f"({r.rate:.0%})</text>"]
    return _svg(WIDTH, height, parts)


def _svg(width: int, height: int, parts: Sequence[str]) -> str:
    body = "\n".join(parts)
    return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
            f"viewBox='0 0 {width} {height}'>\n<rect width='100%' height='100%' fill='white'/>\n{body}\n</svg>\n")


def page(title: str, svgs: Sequence[str], lines: Sequence[str]) -> str:
    """One HTML page: the pictures, then the statistics as text."""
    figures = "\n".join(f"<figure>{svg}</figure>" for svg in svgs)
    table = _text("\n".join(lines))
    return (f"<!doctype html>\n<html><head><meta charset='utf-8'><title>{_text(title)}</title>"
            "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; style-src 'unsafe-inline'\">"
            "<style>body{font-family:sans-serif;margin:2em;background:#fafafa}figure{margin:0 0 2em}"
            "pre{background:#fff;padding:1em}</style></head>"
            f"<body><h1>{_text(title)}</h1>\n{figures}\n<pre>{table}</pre></body></html>\n")


def write_plots(folder: Path, charts: dict[str, str], title: str, lines: Sequence[str]) -> list[Path]:
    """Each chart as `folder/NAME.svg`, and `folder/index.html` with them all; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, svg in charts.items():
        path = folder / f"{name}.svg"
        path.write_text(svg, encoding="utf-8")
        written.append(path)
    index = folder / "index.html"
    index.write_text(page(title, list(charts.values()), lines), encoding="utf-8")
    return [index, *written]
