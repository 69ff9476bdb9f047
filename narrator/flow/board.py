"""The public board: only what the whole table may know, drawn after every step."""

from __future__ import annotations

from narrator.flow.machine import NIGHT_CALLS
from narrator.ports import PublicBoard
from narrator.roles import BOARD, PUBLIC
from narrator.roles.base import PanelLine
from narrator.rules import Awaiting, Game, Phase


def at_night(step: str) -> bool:
    """A night step: nightfall or a night call (not the dawn)."""
    return step == "night_falls" or step in NIGHT_CALLS


class Board:
    """The public board as the table sees it. It changes only at dawn and by day: through the night it
    stays as the day left it, but for the night's number and the Captain a night election names
    with everyone awake. A night step that kills (the Knight's diseased wolf at nightfall) or
    changes a public card (the Actor's) shows nothing before dawn."""

    def __init__(self) -> None:
        self.night: PublicBoard | None = None  # the board as the day left it, kept through the night

    def before(self, game: Game, step: str, morning: list[PanelLine]) -> None:
        """At the start of a step: a night keeps the board as the day left it, before nightfall's own changes."""
        if at_night(step) and self.night is None:
            self.night = public(game, step, morning)

    def after(self, game: Game, step: str, morning: list[PanelLine]) -> PublicBoard:
        """The board to draw once the step is done."""
        if not at_night(step) or self.night is None:
            self.night = None
            return public(game, step, morning)
        if step == "night_election":  # the Captain elected at the end of the first night, in public
            self.night = {**self.night, "captain": game.state.captain}
        return {**self.night, "night": game.state.night}


def public(game: Game, step: str, morning: list[PanelLine]) -> PublicBoard:
    """Only what the whole table may know: seats alive or dead, roles revealed, the Captain."""
    s = game.state
    revealed: dict[int, str] = {}
    if s.options.reveal_role_on_death or s.phase is Phase.OVER:
        # A night death's card the Devoted Servant may still take at dawn is not shown yet.
        waiting = {p for p, _ in s.queue if p >= s.awaiting_seat and game.window_at_dawn(p)} \
            if s.awaiting is Awaiting.WINDOW and s.awaiting_seat is not None else set()
        for seat in range(1, s.players + 1):
            if s.phase is Phase.OVER or (not s.alive[seat - 1] and seat not in s.taken and seat not in waiting):
                revealed[seat] = s.roles[seat - 1].value
    for cards in PUBLIC:  # cards public by design (the Villager-Villager)
        for seat, role in cards(game).items():
            revealed.setdefault(seat, role)
    night = at_night(step)
    return PublicBoard(
        phase="night" if night else step,
        night=s.night,
        day=max(s.day, s.night),  # the day the table is in: a pending dawn chain is no secret count
        alive=[seat for seat in range(1, s.players + 1) if s.alive[seat - 1]],
        revealed=revealed,
        captain=s.captain,
        # Public by design, line keys: the Sectarian's groups, the Actor's cards on the table;
        # then, by day, this day's morning lines (the Bear Tamer's growl, the Raven's mark).
        public=[(key, dict(slots)) for board in BOARD for key, slots in board(game)]
        + [(key, dict(slots)) for key, slots in (morning if not night else [])],
    )
