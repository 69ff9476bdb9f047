"""The view for the dead (`narrator play --phones --dead-view`; docs/phones.md, "The view for the
dead"): off by default. On, a dead seat's phone shows, from the moment of its death, what the
narrator knows: every seat's card as it is now, and at night the role awake and its panel as it
sees it (its question, what it was shown, what it chose), as the choices are made; with a warning
to keep a straight face. It goes to a dead seat's phone only: never to a living seat's, never to
the TV page (tests/phones/test_tv_wire.py reads every frame every phone and TV received).

It rides beside the seat's view, not in it: a view already fills its frame at 30 seats, and every
card with the awake role's panel would not fit beside it. So it is two asides (`PhoneHub.aside`),
each sent in a frame of its own on a beat when it changed: `dead` (the warning and every card) and
`awake` (the role awake and its panel's lines); `aside_needed` is what the larger one takes, which
the frame holds for every pack at every table size (tests/phones/test_frame.py).
"""

from __future__ import annotations

from typing import Any

from narrator.packs import VoicePack
from narrator.phones.crypto import encode
from narrator.phones.frame import PANEL_LINES, _longest, longest_line
from narrator.rules.game import Game


def dead_asides(game: Game, pack: VoicePack, warning: str, call: str, lines: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """What a dead seat's phone shows besides its own view: every card with the warning, and the
    awake role's panel lines, which hold what it was shown and what it chose ("Victim: seat 7.");
    the notes on its typing do not."""
    awake = pack.call_name(call) if lines and call else ""
    return ({"t": "dead", "warning": warning,
             "cards": [[seat, pack.role_name(game.role(seat).value)] for seat in range(1, game.players + 1)]},
            {"t": "awake", "awake": awake, "lines": list(lines) if awake else []})


def aside_needed(pack: VoicePack, players: int, warning: str) -> int:
    """Bytes the larger of the two asides takes at its largest, as a sealed message's plaintext
    (with the counter the channel adds): every card the longest role name, the awake role the
    longest call's name with the pack's longest panel lines."""
    role = _longest(pack.roles.values())
    calls = [pack.call_name(key.removeprefix("call.")) for key in pack.panel if key.startswith("call.")]
    lines = sorted((longest_line(pack, key, players) for key in pack.panel), key=lambda t: -len(t.encode("utf-8")))
    cards = {"t": "dead", "warning": warning, "cards": [[players, role]] * players}
    awake = {"t": "awake", "awake": _longest([*calls, role]), "lines": lines[:PANEL_LINES]}
    wrapper = {"c": "x" * 22, "n": 10 ** 10}
    return max(len(encode({**cards, **wrapper})), len(encode({**awake, **wrapper})))
