"""The Witch: one saving potion and one poison, each once a game, both usable the same night.
She is shown the devoured players of the night (`witch_sees`: all of them that can be saved, or the
pack's victim only; `witch_sees_victim_after_heal`) and answers in two steps: with one devoured
player, "save him?" (+/-); with several, the seat she saves (0 for nobody). The call's lines and
length are the same whatever the number devoured; only her private panel differs. Her heal and
her poison are seen to at dawn (`State.saved_tonight`, `State.doomed`: narrator/rules/dawn.py)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from narrator.ports import Heard
from narrator.roles.base import (Ask, Call, CallTurn, Card, NightTurn, Option, PanelLine, RoleModule, Schedule,
                                  closed_turn)
from narrator.rules import checks
from narrator.rules.errors import IllegalActionError, InvalidTargetError
from narrator.rules.events import Event, WitchActed
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView, Power

if TYPE_CHECKING:
    from narrator.rules.game import Game

ORDER = 19  # docs/rules-spec.md#night-order: after the pack


@dataclass(frozen=True, slots=True)
class WitchView:
    """What the Witch is shown and may do this night."""

    victim: int | None  # None: no victim, or not shown (healing potion spent, option off)
    can_heal: bool
    can_poison: bool
    targets: tuple[int, ...]  # who may be poisoned
    # The devoured players she is shown, in seat order (`witch_sees`: every devouring of the night
    # that can be stopped, or the pack's victim only); empty when not shown. She heals one of them.
    devoured: tuple[int, ...] = ()


def view(game: GameView) -> WitchView:
    s = game.state
    witch = game.living_holder(Role.WITCH)
    if witch is not None and witch in s.powerless:
        return WitchView(victim=None, can_heal=False, can_poison=False, targets=())
    victim = game.pack_victim()
    devoured = healable(game)
    shows = s.heal_left or s.options.witch_sees_victim_after_heal
    return WitchView(
        victim=victim if shows else None,
        can_heal=s.heal_left and bool(devoured),
        can_poison=s.poison_left,
        targets=game.living() if s.poison_left else (),
        devoured=devoured if shows else (),
    )


def healable(game: GameView) -> tuple[int, ...]:
    """The devoured players the healing potion may save tonight, in seat order
    (docs/rules-spec.md#role-base, `witch_sees`)."""
    s = game.state
    if s.options.witch_sees == "pack_victim_only" or not (s.chosen_tonight and game.hooks.devourings):
        # Only the pack's victim can be devoured (`devoured()` without the roles' devourings).
        victim = game.pack_victim()
        return () if victim is None else (victim,)
    return tuple(sorted({seat for seat, _cause, stoppable in game.devoured() if stoppable}))


def targets(game: GameView, witch: int) -> tuple[int, ...]:
    """Whom she may poison: any living player."""
    return game.living()


def choice(heal: bool, poison: int | None, saved: int | None = None) -> tuple[int, ...]:
    """Her answer as her power reads it: heal (1 or 0), the seat she saves (0: the pack's victim
    if he can be healed, else the first devoured), then the seat she poisons, if any."""
    return (int(heal), saved or 0, *(() if poison is None else (poison,)))


def said(chosen: tuple[int, ...]) -> str:
    heal = bool(chosen[0]) if len(chosen) in (2, 3) else chosen
    return f"the Witch (heal={heal!r}, poison={chosen[2] if len(chosen) == 3 else None!r})"


def acted(game: GameView, witch: int, chosen: tuple[int, ...]) -> tuple[Event, ...]:
    """Her potions, checked: each once a game, the heal on a devoured player, the poison on a living one."""
    if len(chosen) not in (2, 3) or chosen[0] not in (0, 1):
        raise IllegalActionError("{said}: {problem}", said=said(chosen), problem="the Witch answers heal (1 or 0), the "
                                 "seat saved (0: the pack's victim), then the seat poisoned")
    s = game.state
    saved: int | None = None
    if chosen[0]:
        saved = chosen[1]
        if not s.heal_left:
            raise IllegalActionError("heal: the Witch has already used her healing potion")
        devoured = healable(game)
        if not devoured:
            raise IllegalActionError("heal: there is no victim tonight, so the healing potion cannot be used")
        if not saved:  # the pack's victim if he can be healed, else the first devoured
            victim = game.pack_victim()
            saved = victim if victim in devoured else devoured[0]
        elif saved not in devoured:
            raise InvalidTargetError("heal seat {saved!r}: not devoured tonight (devoured: {healable}); she heals one "
                                     "of them", saved=saved, healable=" ".join(map(str, devoured)))
    if len(chosen) == 3:
        if not s.poison_left:
            raise IllegalActionError("poison seat {poison}: the Witch has already used her poison", poison=chosen[2])
        checks.target(game, chosen[2], "the Witch")
    # `saved` is written only when it is not the pack's victim (journals stay as they were).
    return (WitchActed(witch, bool(chosen[0]), chosen[2] if len(chosen) == 3 else None,
                       None if saved == s.victim else saved),)


def run(game: Game, rng: random.Random) -> CallTurn:
    if game.living_holder(Role.WITCH) is None:
        return CallTurn("witch.wake", closed_turn("witch"))
    seen = view(game)
    devoured = seen.devoured
    heals = seen.can_heal and bool(devoured)
    which = len(devoured) > 1  # several devoured: she names the seat she saves
    poisons = seen.can_poison
    # What she is told of the victims depends only on what she may know: her healing potion
    # left, or the option that shows the victims after it is spent.
    may_know = game.state.heal_left or game.options.witch_sees_victim_after_heal
    head: list[PanelLine]
    if which:
        head = [("witch.devoured", {"seat": seat}) for seat in devoured]
    elif devoured:
        head = [("witch.victim", {"seat": devoured[0]})]
    elif may_know:
        head = [("witch.no_victim", {})]
    else:
        head = [("witch.unknown_victim", {})]
    steps = [*(["heal"] if heals else []), *(["poison"] if poisons else [])]

    def question(answers: list[Heard]) -> Ask | None:
        todo = steps[len(answers):]
        if not todo:
            return None
        if todo[0] == "heal":
            return Ask("night.witch.heal", devoured, ("nobody",)) if which else Ask("night.witch.heal", (), ("yes", "no"))
        return Ask("night.witch.poison", seen.targets, ("nobody",))

    def decided(answers: list[Heard]) -> tuple[int | None | str, int | None | str]:
        """The seat saved (None: nobody) and the seat poisoned (None: nobody); "open": not yet."""
        heal: int | None | str = "open"
        poison: int | None | str = "open"
        for step, heard in zip(steps, answers):
            if step == "heal":
                heal = (devoured[0] if heard.choice == "yes" else None) if not which else (
                    None if heard.choice == "nobody" else int(heard.choice))
            else:
                poison = None if heard.choice == "nobody" else int(heard.choice)
        return heal, poison

    def panel(answers: list[Heard]) -> list[PanelLine]:
        lines: list[PanelLine] = [*head]
        if heals:
            lines.append(("witch.heal_which", {}) if which else ("witch.heal_prompt", {}))
        if poisons:
            lines.append(("witch.poison_prompt", {}))
        if not heals and not poisons:
            lines.append(("witch.nothing", {}))
        heal, poison = decided(answers)
        if isinstance(heal, int):
            lines.append(("echo.save_seat", {"seat": heal}) if which else ("echo.save_yes", {}))
        elif heal is None:
            lines.append(("echo.save_no", {}))
        if poison is None:
            lines.append(("echo.poison_nobody", {}))
        elif isinstance(poison, int):
            lines.append(("echo.poison", {"seat": poison}))
        if answers:
            lines.append(("echo.change", {}))
        return lines

    def finish(answers: list[Heard]) -> None:
        heal, poison = decided(answers)
        saved = heal if isinstance(heal, int) else None
        game.use_power("witch", choice(saved is not None, poison if isinstance(poison, int) else None, saved))

    return CallTurn("witch.wake", NightTurn("witch", question, panel, final=not (heals or poisons)), finish)


Sees = Literal["all_devoured", "pack_victim_only"]
OPTIONS = (
    Option("witch_sees_victim_after_heal", bool, False),
    Option("witch_sees", Sees, "all_devoured"),
)


MODULE = RoleModule(
    Card(Role.WITCH, Team.VILLAGE, moons=1),
    (Call("witch", ORDER, Schedule.EVERY_NIGHT, Role.WITCH, run, turn=30.0,
          lines=("witch.victim", "witch.no_victim", "witch.unknown_victim", "witch.heal_prompt", "witch.poison_prompt",
                 "witch.nothing", "witch.devoured", "witch.heal_which", "echo.save_seat", "echo.save_yes", "echo.save_no", "echo.poison", "echo.poison_nobody")),),
    powers=(Power("witch", Role.WITCH, ORDER, None, targets, seats=False, record=acted,
                  who="the Witch", said=said),),
    options=OPTIONS,
)
