"""The Pied Piper (le Joueur de Flûte, Nouvelle Lune): a loner who charms the village, and the
charmed players' call (docs/rules-spec.md#role-pied_piper).

- Every night (row 20) he charms exactly `piper_charms_per_night` living players who are not yet
  charmed, never himself; all of them if fewer remain. When the turn ends, what he chose so far
  is charmed. The charm lasts the whole game: the Savior and the Witch cannot stop it, it does not
  pass between Lovers, the charmed keep their powers and goals.
- The players he charms learn it by `designation_notice` (narrator/roles/designation.py): his
  panel tells him to tap them, or tells a helper to touch them, while he is awake.
- Then (row 21, `charmed`) every living charmed player, old and new, wakes and sees on the
  screen who is charmed. The call is made every night the Piper is possible, even when nobody
  charmed is alive (Secrecy).
- He wins alone at the first end check (every morning, even with no death, and after each
  elimination) where he is alive, powered, and every other living player is charmed (rank 4 of
  the end check, `hooks.WINS`).
- Infected (the Accursed Wolf-Father's infection): a pack member; `piper_infected=powerless` takes his charms and his win.
  The Elder's revenge spares him, unless `piper_elder_revenge` (his card's `keeps_power`).
- `charmed_public`: the charmed seats are said every morning.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Literal

from narrator.ports import Heard
from narrator.roles.base import (Ask, Call, CallTurn, Card, NightTurn, Option, PanelLine, RoleModule, Schedule,
                                  closed_turn, powerless_turn)
from narrator.roles.designation import LINES as NOTICE_LINES
from narrator.roles.designation import notice_lines
from narrator.rules.events import Event, PowerLost
from narrator.rules.roles import Role, Side, Team
from narrator.rules.view import GameView, Hooks, Power, Win

if TYPE_CHECKING:
    from narrator.rules.game import Game

ORDER = 20  # docs/rules-spec.md#night-order: after the Witch
CHARMED_ORDER = 21  # then the charmed players, before the Raven


def charmed(game: GameView) -> frozenset[int]:
    """Every player the Piper has charmed in this game (alive or dead)."""
    return frozenset(game.state.lasting_choices.get("pied_piper", ()))


def living_charmed(game: GameView) -> tuple[int, ...]:
    seats = game.state.lasting_choices.get("pied_piper", ())
    return tuple(p for p in game.living() if p in seats)


def powered(game: GameView, piper: int) -> bool:
    """His power works: not lost (the Elder's revenge with `piper_elder_revenge`: `GameView.powered`),
    and not infected (a pack member) with `piper_infected=powerless`."""
    if not game.powered(piper):
        return False
    return not (game.is_pack(piper) and game.options.piper_infected == "powerless")


def infected(game: GameView, seat: int) -> tuple[Event, ...]:
    """The infection took (`Hooks.infected`): `piper_infected=powerless` takes his power for good,
    so the engine ignores his charms from then on (event PowerLost), not only his win."""
    if (game.state.roles[seat - 1] is Role.PIED_PIPER and game.options.piper_infected == "powerless"
            and game.powered(seat)):
        return (PowerLost(seat, Role.PIED_PIPER, "infected"),)
    return ()


def targets(game: GameView, piper: int) -> tuple[int, ...]:
    """Living players other than himself, not yet charmed."""
    done = charmed(game)
    return tuple(p for p in game.living() if p != piper and p not in done)


def count(game: GameView, piper: int) -> int:
    """How many he charms tonight: his option's number, or all that remain."""
    return min(game.options.piper_charms_per_night, len(targets(game, piper)))


def check(game: GameView, piper: int, chosen: tuple[int, ...]) -> str | None:
    done = charmed(game)
    for seat in chosen:
        if seat == piper:
            return f"seat {seat} is the Pied Piper himself; he charms other players"
        if seat in done:
            return f"seat {seat} is already charmed"
    if len(set(chosen)) != len(chosen):
        return "a player is charmed once"
    most = count(game, piper)
    if len(chosen) > most:
        return f"{len(chosen)} players: the Pied Piper charms {most} tonight (piper_charms_per_night)"
    return None


def wins(game: GameView) -> tuple[int, ...] | None:
    """End check, rank 4: the Piper alive, powered, every other living player charmed."""
    piper = game.living_holder(Role.PIED_PIPER)
    if piper is None or not powered(game, piper):
        return None
    done = game.state.lasting_choices.get("pied_piper", ())
    if all(p == piper or p in done for p in game.living()):
        return (piper,)
    return None


def morning(game: GameView) -> list[PanelLine]:
    """With `charmed_public`: every charmed living seat, said each morning."""
    if not game.options.charmed_public:
        return []
    seats = living_charmed(game)
    if not seats:
        return [("charmed.public_none", {})]
    return [("charmed.public", {}), *(("charmed.public_seat", {"seat": s}) for s in seats)]


def run(game: Game, rng: random.Random) -> CallTurn:
    piper = game.living_holder(Role.PIED_PIPER)
    if piper is None:
        return CallTurn("pied_piper.wake", closed_turn("pied_piper"))
    if not powered(game, piper):
        return CallTurn("pied_piper.wake", powerless_turn(closed_turn("pied_piper")))
    choices = targets(game, piper)
    wanted = count(game, piper)
    head: list[PanelLine] = [("pied_piper.prompt", {"count": wanted})]
    head += [("pied_piper.charmed", {"seat": s}) for s in living_charmed(game)]

    def question(answers: list[Heard]) -> Ask | None:
        if len(answers) >= wanted:
            return None
        taken = {a.choice for a in answers}
        return Ask("night.pied_piper", tuple(p for p in choices if p not in taken))

    def panel(answers: list[Heard]) -> list[PanelLine]:
        if not answers:
            return head
        echo: list[PanelLine] = [("echo.charm", {"seat": a.choice}) for a in answers]
        return [*head, *echo, *notice_lines(game.options, (a.choice for a in answers)), ("echo.change", {})]

    def finish(answers: list[Heard]) -> None:
        if answers:
            game.use_power("pied_piper", tuple(int(a.choice) for a in answers))

    return CallTurn("pied_piper.wake", NightTurn("pied_piper", question, panel), finish)


def run_charmed(game: GameView, rng: random.Random) -> CallTurn:
    """Every living charmed player wakes and sees the others; nothing to answer."""
    seats = living_charmed(game)
    if not seats:
        return CallTurn("charmed.wake", closed_turn("charmed"))
    shown: list[PanelLine] = [("charmed.you", {}), *(("charmed.show", {"seat": s}) for s in seats)]
    return CallTurn("charmed.wake", NightTurn("charmed", lambda answers: None, lambda answers: shown, final=True))


Infected = Literal["powerless", "keeps_power"]
OPTIONS = (
    Option("piper_charms_per_night", int, 2, span=range(1, 6)),
    Option("piper_infected", Infected, "powerless"),
    Option("piper_elder_revenge", bool, False),
    Option("charmed_public", bool, False),
)


MODULE = RoleModule(
    # The Elder's revenge spares him unless `piper_elder_revenge` (docs/rules-spec.md#role-elder).
    Card(Role.PIED_PIPER, Team.PIED_PIPER, moons=3, box="new_moon", keeps_power="piper_elder_revenge"),
    (
        Call("pied_piper", ORDER, Schedule.EVERY_NIGHT, Role.PIED_PIPER, run, turn=25.0,
             lines=("pied_piper.prompt", "pied_piper.charmed", "echo.charm", "power.none", *NOTICE_LINES,
                    "charmed.public", "charmed.public_seat", "charmed.public_none")),
        Call("charmed", CHARMED_ORDER, Schedule.EVERY_NIGHT, Role.PIED_PIPER, run_charmed, turn=10.0, by_holder=False,
             lines=("charmed.you", "charmed.show", "charmed.none")),
    ),
    powers=(Power("pied_piper", Role.PIED_PIPER, ORDER, check, targets, count_of=count, lasting=True, status=True,
                  notifies=True),),
    morning=morning,
    hooks=Hooks(
        wins=(Win(4, Side.PIED_PIPER, wins, Role.PIED_PIPER),),
        infected=(infected,),
    ),
    options=OPTIONS,
)
