"""The end check's base rows (who wins when); the roles add theirs (`Hooks.wins`, one table in rank order)."""

from __future__ import annotations

from narrator.rules import hooks
from narrator.rules.roles import Side
from narrator.rules.state import _TEAM_VILLAGE, _TEAM_WOLVES
from narrator.rules.view import GameView, Hooks, Win


# ---- the end check's base rows (docs/rules-spec.md#end; the table in narrator/rules/hooks.py) ----


def _nobody_alive(game: GameView) -> tuple[int, ...] | None:
    return None if game.state.living else ()


def _lovers_alone(game: GameView) -> tuple[int, ...] | None:
    s = game.state
    if s.lovers is None or len(s.living) != 2:
        return None
    team = game.lovers_alive()
    return None if team is None else tuple(sorted(team))


def _no_pack_alive(game: GameView) -> tuple[int, ...] | None:
    s = game.state
    if s.pack_living:
        return None
    team = game.lovers_team() if s.lovers is not None else None
    return game.side_seats(_TEAM_VILLAGE, team or ())


def _only_pack_alive(game: GameView) -> tuple[int, ...] | None:
    s = game.state
    # Living players outside the pack: most end checks stop here, before the Lovers are looked at.
    if len(s.living) - s.pack_living > (1 if s.options.wolves_win_at_parity else 0):
        return None
    if s.lovers is not None and game.lovers_alive() is not None:
        return None  # a living mixed couple: the Lovers may still win
    team = game.lovers_team() if s.lovers is not None else None
    return game.side_seats(_TEAM_WOLVES, team or ())


hooks.declare(None, Hooks(wins=(
    Win(1, Side.NOBODY, _nobody_alive),
    Win(3, Side.LOVERS, _lovers_alone),
    Win(7, Side.VILLAGE, _no_pack_alive),
    Win(8, Side.WEREWOLVES, _only_pack_alive),
)))
