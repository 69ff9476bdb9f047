"""The Werewolves: every night the pack wakes and chooses one victim by agreement, or nobody.
Called every night whatever the deal (there are always Werewolves)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from narrator.ports import Heard
from narrator.roles.base import Ask, Call, CallTurn, Card, NightTurn, PanelLine, RoleModule, Schedule, closed_turn
from narrator.rules.options import Options
from narrator.rules.roles import Role, Team

if TYPE_CHECKING:
    from narrator.rules.game import Game


def wake_line(options: Options, night: int) -> str:
    """The first night the pack meets (and kills, if `first_night_kill`); later nights it wakes."""
    if night == 1:
        return "werewolves.wake_first" if options.first_night_kill else "werewolves.wake_meet"
    return "werewolves.wake"


def run(game: Game, rng: random.Random) -> CallTurn:
    wake = wake_line(game.options, game.state.night)
    if not game.living_wolves():
        return CallTurn(wake, closed_turn("werewolves"))
    targets = game.wolf_targets()

    def question(answers: list[Heard]) -> Ask | None:
        return None if answers else Ask("night.werewolves", targets, ("nobody",))

    def panel(answers: list[Heard]) -> list[PanelLine]:
        if not answers:
            return [("werewolves.prompt", {})]
        victim = answers[-1].choice
        echo: PanelLine = ("echo.victim_nobody", {}) if victim == "nobody" else ("echo.victim", {"seat": victim})
        return [("werewolves.prompt", {}), echo, ("echo.change", {})]

    def finish(answers: list[Heard]) -> None:
        choice = answers[-1].choice if answers else "nobody"
        game.wolves_choose(None if choice == "nobody" else int(choice))

    return CallTurn(wake, NightTurn("werewolves", question, panel), finish)


MODULE = RoleModule(
    Card(Role.WEREWOLF, Team.WOLVES, moons=1, pack=True, unique=False),
    (Call("werewolves", 14, Schedule.EVERY_NIGHT, Role.WEREWOLF, run, always=True, turn=40.0, wake_line=wake_line,
          lines=("werewolves.wake_first", "werewolves.wake_meet", "werewolves.prompt", "echo.victim", "echo.victim_nobody")),),
)
