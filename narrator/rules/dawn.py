"""Dawn: the night's devourings, saves and spare lives, the poisoned, and the window a death may open.

Each function is a method of `Game` (bound in narrator/rules/game.py), written with `self: Game`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from narrator.rules.events import Cause, DawnBroke, LifeLost, PlayerDied, WindowOpened
from narrator.rules.state import _CAUSE_DISEASE, _CAUSE_POISON, _CAUSE_WOLVES, _PHASE_NIGHT

if TYPE_CHECKING:
    from narrator.rules.game import Game


def dawn(self: Game) -> None:
    """End the night (docs/rules-spec.md#dawn): 1. the devoured (the pack's victim, and the
    roles' devourings `hooks.DEVOURINGS`); 2. each saved by the Witch's potion or a role's
    protection (`hooks.SAVES`) if the devouring can be stopped, else absorbed by a spare life
    (`hooks.ABSORBS`: the Elder), else dead; 3. the poisoned; then the deaths in seat order,
    then their chain reactions."""
    s = self.state
    self._require_phase(_PHASE_NIGHT, "dawn comes only at the end of a night")
    dead: dict[int, Cause] = {}
    for seat, cause, stoppable in self.devoured():
        if seat in dead:
            continue
        if stoppable and (
            (s.healed and seat == s.saved) or (s.chosen_tonight and any(save(self, seat, cause) for save in self.hooks.SAVES))
        ):
            continue
        if self.hooks.ABSORBS and any(absorbs(self, seat, cause) for absorbs in self.hooks.ABSORBS):
            self._emit(LifeLost(seat))
            continue
        dead[seat] = cause
    if s.poisoned is not None:
        dead.setdefault(s.poisoned, _CAUSE_POISON)
    for dies in self.hooks.DAWN_DEATHS:  # step 4: the disease (knight_disease_timing=next_dawn)
        for seat in dies(self):
            if s.alive[seat - 1]:
                dead.setdefault(seat, _CAUSE_DISEASE)
    # Those who died at dusk (the disease) are announced now with the others.
    earlier = dict(s.night_dead)
    order = tuple(sorted({*dead, *earlier}))
    self._emit(DawnBroke(s.night, order))
    queue: list[tuple[int, Cause]] = []
    for seat in order:
        if seat in dead:
            self._emit(PlayerDied(seat, dead[seat], s.roles[seat - 1]))
        queue.append((seat, dead.get(seat) or earlier[seat]))
    if self.hooks.WINDOW and self._dawn_window(queue, 0):
        return  # a card may be taken before the chain reactions (`take_card` resumes them)
    self._resolve(queue)


def window_at_dawn(self: Game, seat: int) -> bool:
    """Whether a window opens at dawn for this night death before his card is shown (public
    facts only: the Devoted Servant possible, `servant_scope=any_death`)."""
    return any(w.at_dawn is not None and w.at_dawn(self, seat) for w in self.hooks.WINDOW)


def _dawn_window(self: Game, queue: list[tuple[int, Cause]], after: int) -> bool:
    """Open the window of the first night death after seat `after` that has one, if any."""
    for seat, _cause in queue:
        if seat > after and self.window_at_dawn(seat):
            self._emit(WindowOpened(seat, tuple(queue)))
            return True
    return False


def devoured(self: Game) -> list[tuple[int, Cause, bool]]:
    """Dawn step 1: the night's devourings (seat, cause, stoppable): the pack's victim (unless
    he joined the pack tonight: infected), then the roles' (`hooks.DEVOURINGS`: the Big Bad
    Wolf's victim)."""
    s = self.state
    out: list[tuple[int, Cause, bool]] = []
    victim = self.pack_victim()
    if victim is not None:
        out.append((victim, _CAUSE_WOLVES, True))
    if s.chosen_tonight and self.hooks.DEVOURINGS:
        for devours in self.hooks.DEVOURINGS:
            out.extend(devours(self))
    return out
