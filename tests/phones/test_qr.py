"""The seats' QR codes: the terminal drawing is the code's own modules."""

from __future__ import annotations

from narrator.phones.hub import PhoneHub
from narrator.phones.qr import matrix, svg, terminal


def test_the_terminal_drawing_shows_every_module_of_the_link() -> None:
    link = PhoneHub(8).link(3, "http://192.0.2.7:8765")
    cells = matrix(link)
    lines = terminal(link).splitlines()
    assert len(lines) == (len(cells) + 1) // 2 and all(len(line) == len(cells[0]) for line in lines)
    back = {"█": (False, False), "▀": (False, True), "▄": (True, False), " ": (True, True)}
    for y, line in enumerate(lines):
        for x, ch in enumerate(line):
            top, bottom = back[ch]
            assert top == cells[2 * y][x]
            if 2 * y + 1 < len(cells):
                assert bottom == cells[2 * y + 1][x]
    # Long enough for a 256-bit token and a 256-bit key, still small enough to scan on a screen.
    assert len(cells) <= 70


def test_the_svg_is_one_image() -> None:
    text = svg("http://192.0.2.7:8765/p/x#y")
    assert text.lstrip().startswith("<") and "<path" in text
