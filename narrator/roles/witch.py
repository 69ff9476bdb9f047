"""The Witch: one saving potion and one poison, each once a game, both usable the same night.
She is shown the pack's victim (`witch_sees_victim_after_heal`) and answers in two steps."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from narrator.ports import Heard
from narrator.roles.base import Ask, Call, CallTurn, Card, NightTurn, PanelLine, RoleModule, Schedule, closed_turn
from narrator.rules.roles import Role, Team

if TYPE_CHECKING:
    from narrator.rules.game import Game


def run(game: Game, rng: random.Random) -> CallTurn:
    if game.living_holder(Role.WITCH) is None:
        return CallTurn("witch.wake", closed_turn("witch"))
    view = game.witch_view()
    heals = view.can_heal and view.victim is not None
    poisons = view.can_poison
    # What she is told of the victim depends only on what she may know: her healing potion
    # left, or the option that shows the victim after it is spent.
    may_know = game.state.heal_left or game.options.witch_sees_victim_after_heal
    head: PanelLine
    if view.victim is not None:
        head = ("witch.victim", {"seat": view.victim})
    elif may_know:
        head = ("witch.no_victim", {})
    else:
        head = ("witch.unknown_victim", {})
    steps = [*(["heal"] if heals else []), *(["poison"] if poisons else [])]

    def question(answers: list[Heard]) -> Ask | None:
        todo = steps[len(answers):]
        if not todo:
            return None
        if todo[0] == "heal":
            return Ask("night.witch.heal", (), ("yes", "no"))
        return Ask("night.witch.poison", view.targets, ("nobody",))

    def decided(answers: list[Heard]) -> tuple[bool | None, int | None | str]:
        heal: bool | None = None
        poison: int | None | str = "open"
        for step, heard in zip(steps, answers):
            if step == "heal":
                heal = heard.choice == "yes"
            else:
                poison = None if heard.choice == "nobody" else int(heard.choice)
        return heal, poison

    def panel(answers: list[Heard]) -> list[PanelLine]:
        lines: list[PanelLine] = [head]
        if heals:
            lines.append(("witch.heal_prompt", {}))
        if poisons:
            lines.append(("witch.poison_prompt", {}))
        if not heals and not poisons:
            lines.append(("witch.nothing", {}))
        heal, poison = decided(answers)
        if heal is not None:
            lines.append(("echo.save_yes" if heal else "echo.save_no", {}))
        if poison is None:
            lines.append(("echo.poison_nobody", {}))
        elif isinstance(poison, int):
            lines.append(("echo.poison", {"seat": poison}))
        if answers:
            lines.append(("echo.change", {}))
        return lines

    def finish(answers: list[Heard]) -> None:
        heal, poison = decided(answers)
        game.witch_act(bool(heal), poison if isinstance(poison, int) else None)

    return CallTurn("witch.wake", NightTurn("witch", question, panel, final=not (heals or poisons)), finish)


MODULE = RoleModule(
    Card(Role.WITCH, Team.VILLAGE),
    (Call("witch", 19, Schedule.EVERY_NIGHT, Role.WITCH, run, turn=30.0,
          lines=("witch.victim", "witch.no_victim", "witch.unknown_victim", "witch.heal_prompt", "witch.poison_prompt",
                 "witch.nothing", "echo.save_yes", "echo.save_no", "echo.poison", "echo.poison_nobody")),),
)
