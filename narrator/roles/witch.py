"""The Witch: one saving potion and one poison, each once a game, both usable the same night.
She is shown the devoured players of the night (`witch_sees`: all of them that can be saved, or the
pack's victim only; `witch_sees_victim_after_heal`) and answers in two steps: with one devoured
player, "save him?" (+/-); with several, the seat she saves (0 for nobody). The call's lines and
length are the same whatever the number devoured; only her private panel differs."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from narrator.ports import Heard
from narrator.roles.base import Ask, Call, CallTurn, Card, NightTurn, PanelLine, RoleModule, Schedule, closed_turn
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView

if TYPE_CHECKING:
    from narrator.rules.game import Game


def run(game: Game, rng: random.Random) -> CallTurn:
    if game.living_holder(Role.WITCH) is None:
        return CallTurn("witch.wake", closed_turn("witch"))
    view = game.witch_view()
    devoured = view.devoured
    heals = view.can_heal and bool(devoured)
    which = len(devoured) > 1  # several devoured: she names the seat she saves
    poisons = view.can_poison
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
        return Ask("night.witch.poison", view.targets, ("nobody",))

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
        game.witch_act(saved is not None, poison if isinstance(poison, int) else None, saved)

    return CallTurn("witch.wake", NightTurn("witch", question, panel, final=not (heals or poisons)), finish)


MODULE = RoleModule(
    Card(Role.WITCH, Team.VILLAGE),
    (Call("witch", 19, Schedule.EVERY_NIGHT, Role.WITCH, run, turn=30.0,
          lines=("witch.victim", "witch.no_victim", "witch.unknown_victim", "witch.heal_prompt", "witch.poison_prompt",
                 "witch.nothing", "witch.devoured", "witch.heal_which", "echo.save_seat", "echo.save_yes", "echo.save_no", "echo.poison", "echo.poison_nobody")),),
)
