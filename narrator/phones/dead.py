"""The view for the dead (`narrator play --phones --dead-view`; docs/phones.md, "The view for the
dead"): off by default. On, a dead seat's phone shows, from the moment of its death, what the
narrator knows: every seat's card as it is now, and at night the role awake and its panel as it
sees it (its question, what it was shown, what it chose), as the choices are made; with a warning
to keep a straight face. It goes to a dead seat's phone only: never to a living seat's, never to
the TV page (tests/phones/test_tv_wire.py reads every frame every phone and TV received).

It rides beside the seat's view, not in it: a view already fills its frame at 30 seats, and every
card with the awake role's panel would not fit beside it. So it is two asides (`PhoneHub.aside`),
each sent in a frame of its own on a beat when it changed: `dead` (the warning and every card) and
`awake` (the role awake and its panel's lines); `frame.aside_needed` is what the larger one takes, which
the frame holds for every pack at every table size (tests/phones/test_frame.py).
"""

from __future__ import annotations

from typing import Any

from narrator.packs import VoicePack
from narrator.rules.game import Game


def asides(warning: str, cards: list[list[Any]], awake: str, lines: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The two frames' messages: the warning with every card (`[seat, role's name]`), and the role
    awake with its panel's lines."""
    return {"t": "dead", "warning": warning, "cards": cards}, {"t": "awake", "awake": awake, "lines": lines}


def dead_asides(game: Game, pack: VoicePack, warning: str, call: str,
                lines: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """What a dead seat's phone shows besides its own view: every card with the warning, and the
    awake role's panel lines, which hold what it was shown and what it chose ("Victim: seat 7.");
    the notes on its typing do not."""
    awake = pack.call_name(call) if lines and call else ""
    cards = [[seat, pack.role_name(game.role(seat).value)] for seat in range(1, game.players + 1)]
    return asides(warning, cards, awake, list(lines) if awake else [])
