"""The largest message a phone can be sent: what `crypto.FRAME` is sized from (docs/phones.md).

Every message to a phone is padded to one length, so that length must hold the largest view any
pack can produce at any table size, or a real game would have a view that does not fit. A view
(`PhoneTable._set`) is: the seat, its card (with a charm or infection notice), the panel's lines,
the last note, a button per seat and per word, its mode, night flag and number. The bound here
takes each part at its largest for a pack and a number of seats:

- a line is any `[panel]` line of the pack with every slot at its longest (a seat: the highest
  seat; a list of seats: every seat; a role: the longest role name; a number: three digits; what
  was typed: `REASON` characters of the widest script); a panel holds at most `PANEL_LINES` lines
  (the Witch with three devoured seats, her two questions, two echoes and `Change (-)` is eight;
  a line another role adds makes nine), counted as the pack's longest lines, all different (a
  panel repeats only its short lines: one per devoured or charmed seat), plus a day title;
- the note is the longest line; the card the longest role name with the longest notice; a day
  panel's title the longest of the page's own words;
- the buttons: every seat and every word button.

`frame_needed(pack, players)` is the padded size that view needs inside its wrapper (type, the key
a move hands over, the challenge, a counter of ten digits). A view that still does not fit (a
note of typed text longer than `REASON`) is cut by the hub, never dropped (`PhoneHub._fit`).
"""

from __future__ import annotations

import string
from typing import Any

from narrator.packs import MENU_SLOTS, ROLE_SLOTS, SIDE_SLOTS, VoicePack
from narrator.phones.crypto import encode, key_text, new_key
from narrator.phones.dead import asides
from narrator.phones.table import phone_labels

PANEL_LINES = 10
REASON = 40  # characters of typed text a note quotes ("Not possible: 40. Choose again.")
MENU = 3  # cards in a menu (the Thief's two, the Actor's three)
_WIDE = "\u5b57"  # three bytes in UTF-8: the widest character of any pack's script
_NOTICES = ("charmed", "infected")
_WORD_BUTTONS = ("nobody", "yes", "change", "claim")


def _longest(values: Any) -> str:
    return max((str(v) for v in values), key=lambda v: len(v.encode("utf-8")), default="")


def _slot(pack: VoicePack, name: str, players: int) -> str:
    if name in ROLE_SLOTS:
        return _longest(pack.roles.values())
    if name in SIDE_SLOTS:
        return _longest(pack.sides.values())
    if name in MENU_SLOTS:
        role = _longest(pack.roles.values())
        return ", ".join(f"{n} {role}" for n in range(1, MENU + 1))
    if name == "seats":
        return ", ".join(str(seat) for seat in range(1, players + 1))
    if name in ("seat", "other"):
        return str(players)
    if name == "reason":
        return _WIDE * REASON
    return "999"  # a count, a number of minutes, seconds, nights


def longest_line(pack: VoicePack, key: str, players: int) -> str:
    """`key`'s panel line with every slot at its longest."""
    template = pack.panel[key][0]
    names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    return template.format(**{name: _slot(pack, name, players) for name in names})


def largest_view(pack: VoicePack, players: int) -> dict[str, Any]:
    """A view no real one of this pack and table size outgrows (see the module's note)."""
    lines = sorted((longest_line(pack, key, players) for key in pack.panel), key=lambda t: -len(t.encode("utf-8")))
    labels = phone_labels(pack)
    card = f"{_longest(pack.roles.values())}. {_longest(labels[n] for n in _NOTICES)}"
    titles = list(labels.values())  # a day panel's title is one of the page's words: the longest of them
    return {"mode": "panel", "lines": lines[:PANEL_LINES] + [_longest(titles)],
            "choices": [[seat, str(seat)] for seat in range(1, players + 1)]
            + [[word, labels[word]] for word in _WORD_BUTTONS],
            "note": lines[0], "seat": players, "card": card, "night": False, "id": 10 ** 9}


def frame_needed(pack: VoicePack, players: int) -> int:
    """Bytes the largest view of this pack and table size takes as a sealed message's plaintext."""
    message = {"t": "view", "view": largest_view(pack, players), "key": key_text(new_key()),
               "c": "x" * 22, "n": 10 ** 10}
    return len(encode(message))


def aside_needed(pack: VoicePack, players: int, warning: str) -> int:
    """Bytes the larger of the view for the dead's two frames (narrator/phones/dead.py) takes at its
    largest, as a sealed message's plaintext: every card the longest role name, the awake role the
    longest call's name with the pack's longest panel lines."""
    role = _longest(pack.roles.values())
    calls = [pack.call_name(key.removeprefix("call.")) for key in pack.panel if key.startswith("call.")]
    lines = sorted((longest_line(pack, key, players) for key in pack.panel), key=lambda t: -len(t.encode("utf-8")))
    wrapper = {"c": "x" * 22, "n": 10 ** 10}
    largest = asides(warning, [[players, role]] * players, _longest([*calls, role]), lines[:PANEL_LINES])
    return max(len(encode({**message, **wrapper})) for message in largest)
