"""The players' names, by seat (docs/names.md).

A name is public: typed at the setup or on a seat's own phone, it is shown on the board, the
phones and the TV page, kept in the history, and said by day instead of the seat's number. It is
plain text, whatever was typed: `clean_name` keeps letters, marks, symbols and punctuation, turns
every kind of blank into one space and drops every control and format character (an escape
sequence, a bidirectional override, a NUL) and cuts it to `MAX_NAME` characters. Every page and
screen shows it as text (never as HTML or terminal markup).

`People` holds a game's names: `set` while the table is joining, then `freeze` when the game
starts, so every line naming a seat can be rendered before it is due. Two seats with the same name
are told apart by their number ("Ann (6)"). A name the voice cannot say (`unsay`) is not said:
lines name that seat by its number, as without a name.
"""

from __future__ import annotations

import threading
import unicodedata
from typing import Mapping

MAX_NAME = 24  # characters: a name fits a seat's card on the board and a button on a phone
# Format characters that belong inside a name: the zero-width joiner and non-joiner (emoji
# sequences, Persian and Indic spellings). Every other one (bidirectional overrides, invisible
# separators) and every control character goes.
_KEPT_FORMAT = frozenset("\u200c\u200d")
_DROPPED = frozenset({"Cc", "Cs", "Co", "Cn", "Cf"})


def clean_name(raw: str) -> str:
    """A typed name as the table sees it: NFC, blanks made one space, no control or format
    character, trimmed and cut to `MAX_NAME` characters ("" when nothing is left)."""
    text = unicodedata.normalize("NFC", raw[:100_000])
    out: list[str] = []
    for ch in text:
        if len(out) > MAX_NAME:
            break  # a 10,000-character paste is cut here, not read to its end
        if ch.isspace() or unicodedata.category(ch) in ("Zl", "Zp"):
            if out and out[-1] != " ":
                out.append(" ")
        elif ch in _KEPT_FORMAT or unicodedata.category(ch) not in _DROPPED:
            out.append(ch)
    name = "".join(out).strip()[:MAX_NAME].rstrip()
    # A cut inside an emoji sequence leaves a joiner with nothing to join.
    return name.rstrip("\u200c\u200d\ufe0f").rstrip()


class People:
    """A game's names by seat (thread-safe: a phone's name arrives on the server's thread)."""

    def __init__(self, names: Mapping[int, str] | None = None, frozen: bool = False) -> None:
        self._lock = threading.Lock()
        self._names: dict[int, str] = {}
        self._unsaid: dict[int, str] = {}
        self.version = 0  # bumped at every change (the phones get the names again)
        for seat, raw in (names or {}).items():
            name = clean_name(str(raw))
            if name:
                self._names[int(seat)] = name
        self._frozen = frozen

    def __bool__(self) -> bool:
        with self._lock:
            return bool(self._names)

    @property
    def frozen(self) -> bool:
        return self._frozen

    def set(self, seat: int, raw: str) -> str:
        """Name a seat (its cleaned name; "" removes it). Refused once the game has started."""
        name = clean_name(raw)
        with self._lock:
            if self._frozen:
                raise ValueError("the names are fixed once the game has started")
            if name:
                self._names[seat] = name
            else:
                self._names.pop(seat, None)
            self._unsaid.pop(seat, None)
            self.version += 1
        return name

    def freeze(self) -> None:
        """The game starts: the names stay as they are (every line naming a seat can be rendered)."""
        with self._lock:
            self._frozen = True

    def unsay(self, seat: int, why: str) -> None:
        """The voice cannot say this seat's name: lines name the seat by its number."""
        with self._lock:
            if seat in self._names:
                self._unsaid[seat] = why
                self.version += 1

    def names(self) -> dict[int, str]:
        """Every named seat's name, as typed (cleaned)."""
        with self._lock:
            return dict(sorted(self._names.items()))

    def name(self, seat: int) -> str | None:
        with self._lock:
            return self._names.get(seat)

    def shown(self, seat: int) -> str | None:
        """The seat's name as the board shows it: "Ann", or "Ann (6)" when another seat is Ann too."""
        with self._lock:
            name = self._names.get(seat)
            if name is None:
                return None
            key = name.casefold()
            twins = any(s != seat and n.casefold() == key for s, n in self._names.items())
        return f"{name} ({seat})" if twins else name

    def all_shown(self) -> dict[int, str]:
        return {seat: shown for seat in self.names() if (shown := self.shown(seat)) is not None}

    def said(self, seat: int) -> bool:
        """Whether lines name this seat by its name (it has one, and the voice can say it)."""
        with self._lock:
            return seat in self._names and seat not in self._unsaid

    def unsaid(self) -> dict[int, str]:
        """The seats whose name the voice cannot say, and why."""
        with self._lock:
            return dict(self._unsaid)

    def twin(self, seat: int) -> bool:
        """Whether another seat has the same name (then the seat's number goes with it)."""
        name = self.name(seat)
        return name is not None and self.shown(seat) != name


NO_PEOPLE = People(frozen=True)  # a pack's names when the table gave none


def head_names(head: Mapping[str, object]) -> dict[int, str]:
    """The names in a journal's head record (`{"names": {"3": "Ann"}}`), by seat."""
    raw = head.get("names")
    return {int(k): str(v) for k, v in raw.items() if str(k).isdigit()} if isinstance(raw, Mapping) else {}
