"""The view for the dead (`narrator play --phones --dead-view`; docs/phones.md, "The view for the
dead"): off by default. On, a dead seat's phone shows, from the moment of its death, what the
narrator knows: every seat's card as it is now, and at night the role awake and its panel as it
sees it (its question, what it was shown, what it chose), as the choices are made; with a warning
to keep a straight face. It goes to a dead seat's phone only: never to a living seat's, never to
the TV page (tests/phones/test_dead_view.py reads every frame every phone and TV received).
"""

from __future__ import annotations

from typing import Any

from narrator.packs import VoicePack
from narrator.rules.game import Game


def dead_part(game: Game, pack: VoicePack, warning: str, call: str, lines: list[str]) -> dict[str, Any]:
    """What a dead seat's phone shows besides its own view (`view["dead"]`): the awake role's panel
    lines hold what it was shown and what it chose ("Victim: seat 7."); the notes on its typing do not."""
    awake = pack.call_name(call) if lines and call else ""
    return {"warning": warning,
            "cards": [[seat, pack.role_name(game.role(seat).value)] for seat in range(1, game.players + 1)],
            "awake": awake, "lines": list(lines) if awake else []}
