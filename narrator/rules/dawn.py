"""Dawn: the night's devourings, saves and spare lives, the poisoned, and the window a death may open.

Each step reads the game (`GameView`) and hands its events to `emit`, which folds them in.
"""

from __future__ import annotations

from narrator.rules import chains, checks
from narrator.rules.events import Cause, DawnBroke, LifeLost, PlayerDied, WindowOpened
from narrator.rules.state import _AWAITING_NOTHING, _PHASE_NIGHT
from narrator.rules.view import Emit, GameView


def dawn(game: GameView, emit: Emit) -> None:
    """End the night (docs/rules-spec.md#dawn): 1. the devoured (the pack's victim, and the
    roles' devourings `Hooks.devourings`); 2. each saved by a heal tonight (`State.saved_tonight`:
    the Witch's potion) or a role's protection (`Hooks.saves`: the Savior) if the devouring can be
    stopped, else absorbed by a spare life (`Hooks.absorbs`: the Elder), else dead; 3. those doomed
    tonight whatever protects them (`State.doomed`: the poisoned); 4. the roles' deaths at dawn
    (`Hooks.dawn_deaths`: the disease); then the deaths in seat order, then their chain reactions."""
    s = game.state
    hooks = game.hooks
    if s.phase is not _PHASE_NIGHT or s.awaiting is not _AWAITING_NOTHING:  # checked inline: once a night
        checks.phase(game, _PHASE_NIGHT, "dawn comes only at the end of a night")
    dead: dict[int, Cause] = {}
    for seat, cause, stoppable in game.devoured():
        if seat in dead:
            continue
        if stoppable and (seat in s.saved_tonight or (hooks.saves and _saved(game, seat, cause))):
            continue
        if hooks.absorbs and any(absorbs(game, seat, cause) for absorbs in hooks.absorbs):
            emit(LifeLost(seat))
            continue
        dead[seat] = cause
    for seat, why in s.doomed:  # step 3: the poisoned
        if s.alive[seat - 1]:
            dead.setdefault(seat, why)
    for dies in hooks.dawn_deaths:  # step 4: the disease (knight_disease_timing=next_dawn)
        for seat, why in dies(game):
            if s.alive[seat - 1]:
                dead.setdefault(seat, why)
    # Those who died at dusk (the disease) are announced now with the others.
    earlier = dict(s.night_dead)
    order = tuple(sorted({*dead, *earlier}))
    emit(DawnBroke(s.night, order))
    queue: list[tuple[int, Cause]] = []
    for seat in order:
        if seat in dead:
            emit(PlayerDied(seat, dead[seat], s.roles[seat - 1]))
        queue.append((seat, dead.get(seat) or earlier[seat]))
    if not order and game.last_two():
        lower = _lower_of_two(game)
        if lower is not None:
            emit(PlayerDied(lower, Cause.LAST_TWO, s.roles[lower - 1]))
            queue.append((lower, Cause.LAST_TWO))
    if hooks.windows and window(game, emit, queue, 0):
        return  # a card may be taken before the chain reactions (`take_card` resumes them)
    chains.resolve(game, emit, queue)


def _lower_of_two(game: GameView) -> int | None:
    """The two-player game's dawn with no death (docs/rules-spec.md#last-two): of the last two,
    the lower in the order pack member, then everyone else, is eliminated; None when the game
    has already ended (the mixed Lovers alone) or both stand equal."""
    if game.check_outcome() is not None:
        return None
    first, second = game.state.living
    if game.is_pack(first) == game.is_pack(second):
        return None
    return second if game.is_pack(first) else first


def window(game: GameView, emit: Emit, queue: list[tuple[int, Cause]], after: int) -> bool:
    """Open the window of the first night death after seat `after` that has one, if any."""
    for seat, _cause in queue:
        if seat > after and game.window_at_dawn(seat):
            emit(WindowOpened(seat, tuple(queue)))
            return True
    return False


def _saved(game: GameView, seat: int, cause: Cause) -> bool:
    """Whether a role's protection saves this devoured seat tonight (`Hooks.saves`: the Savior)."""
    for save in game.hooks.saves:
        if save(game, seat, cause):
            return True
    return False
