"""QR codes of the seats' links: drawn in the terminal (the laptop's screen) and as SVG."""

from __future__ import annotations

import qrcode
import qrcode.image.svg


def matrix(data: str, border: int = 2) -> list[list[bool]]:
    """The code's modules, True for dark, with a quiet zone of `border` modules."""
    code = qrcode.QRCode(border=border, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(data)
    code.make(fit=True)
    return [[bool(cell) for cell in row] for row in code.get_matrix()]


def terminal(data: str, border: int = 2) -> str:
    """The code in half blocks, two modules a character cell, light modules drawn (a phone reads it
    on the usual dark terminal; dark modules are the background)."""
    cells = matrix(data, border)
    if len(cells) % 2:
        cells.append([False] * len(cells[0]))
    glyph = {(False, False): "█", (False, True): "▀", (True, False): "▄", (True, True): " "}
    return "\n".join("".join(glyph[(top, bottom)] for top, bottom in zip(cells[y], cells[y + 1]))
                     for y in range(0, len(cells), 2))


def svg(data: str) -> str:
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    text = image.to_string(encoding="unicode")
    return text if isinstance(text, str) else bytes(text).decode("utf-8")
