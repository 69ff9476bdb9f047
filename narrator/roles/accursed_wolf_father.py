"""The Accursed Wolf-Father (l'Infect Père des Loups, Personnages): a pack card who devours with
the pack; every night, alone right after it, he may once a game infect the pack's victim instead
(docs/rules-spec.md#role-accursed_wolf_father).

- Infected, the victim is not devoured (so the Witch is not shown him): he joins the pack at once
  and secretly (event JoinedPack), keeps his card and its night power, wakes with the pack from
  the next night (its panel tells him, `infected.you`) and wins with the Werewolves.
- Only if the pack named a victim tonight. An infection is not a devouring: the Savior's
  protection does not stop it, nor does the Elder's spare life: every infection aimed at the
  pack's victim takes, so the panel's "tap seat N" is true whatever the hidden state.
- The infected player learns it by `designation_notice` (narrator/roles/designation.py): the
  Wolf-Father's panel tells him whom to tap, or tells the helper whom to touch, while he is awake;
  the power `notifies`, so the engine records `Notified` (the pack's victim is its target).
- Secrecy: called every night when possible, dealt or not, alive or not, after the infection is
  spent and with no victim: the same prompt, the answer accepted and ignored.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Sequence

from narrator.ports import Heard
from narrator.roles.designation import LINES as NOTICE_LINES
from narrator.roles.designation import notice_lines
from narrator.roles.base import (Ask, Call, CallTurn, Card, NightTurn, PanelLine, RoleModule, Schedule, closed_turn,
                                  joined_pack_panel)
from narrator.rules import hooks
from narrator.rules.events import Event, JoinedPack
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView, Power

if TYPE_CHECKING:
    from narrator.rules.game import Game

ORDER = 15  # docs/rules-spec.md#night-order: right after the pack


def spent(game: GameView) -> bool:
    return bool(game.state.lasting_choices.get("accursed_wolf_father"))


def targets(game: GameView, father: int) -> tuple[int, ...]:
    """The pack's victim, while the infection is unspent and he has his power."""
    victim = game.pack_victim()
    if victim is None or spent(game) or not game.powered(father):
        return ()
    return (victim,)


def check(game: GameView, father: int, chosen: tuple[int, ...]) -> str | None:
    if not chosen:
        return None  # he declines
    if spent(game):
        return "the infection is spent (once a game)"
    if not game.powered(father):
        return "the Accursed Wolf-Father has lost his power"
    if chosen != (game.state.victim,) or game.pack_victim() is None:
        return "he may only infect the pack's victim of tonight"
    return None


def effect(game: GameView, father: int, chosen: tuple[int, ...]) -> Sequence[Event]:
    if not chosen:
        return ()  # declined
    return (JoinedPack(chosen[0], "infected"), *(e for hook in game.hooks.infected for e in hook(game, chosen[0])))


def run(game: Game, rng: random.Random) -> CallTurn:
    father = game.living_holder(Role.ACCURSED_WOLF_FATHER)
    if father is None:
        return CallTurn("accursed_wolf_father.wake", closed_turn("accursed_wolf_father"))
    victim = game.pack_victim()
    able = targets(game, father)
    head: list[PanelLine] = [("accursed_wolf_father.prompt", {})]
    head.append(("accursed_wolf_father.no_victim", {}) if victim is None else
                ("accursed_wolf_father.victim", {"seat": victim}))
    if victim is not None and not able:
        head.append(("power.none", {}))  # spent or powerless: the answer changes nothing

    def question(answers: list[Heard]) -> Ask | None:
        return None if answers else Ask("night.accursed_wolf_father", (), ("yes", "no"))

    def panel(answers: list[Heard]) -> list[PanelLine]:
        if not answers:
            return head
        yes = answers[-1].choice == "yes"
        lines = [*head, ("echo.infect_yes" if yes else "echo.infect_no", {})]
        if yes and able:
            lines += notice_lines(game.options, able)
        return [*lines, ("echo.change", {})]

    def finish(answers: list[Heard]) -> None:
        if answers and answers[-1].choice == "yes" and able:
            game.use_power("accursed_wolf_father", able)

    return CallTurn("accursed_wolf_father.wake", NightTurn("accursed_wolf_father", question, panel), finish)


MODULE = RoleModule(
    Card(Role.ACCURSED_WOLF_FATHER, Team.WOLVES, moons=3, pack=True, box="characters"),
    (Call("accursed_wolf_father", ORDER, Schedule.EVERY_NIGHT, Role.ACCURSED_WOLF_FATHER, run, turn=20.0,
          lines=("accursed_wolf_father.prompt", "accursed_wolf_father.victim", "accursed_wolf_father.no_victim",
                 "echo.infect_yes", "echo.infect_no", "infected.you", *NOTICE_LINES, "power.none")),),
    powers=(Power("accursed_wolf_father", Role.ACCURSED_WOLF_FATHER, ORDER, check, targets, effect=effect,
                  lasting=True, notifies=True),),
    # The pack's first call after an infection tells the infected player (he wakes with it).
    panels=(("werewolves", joined_pack_panel("infected", "infected.you")),),
)
