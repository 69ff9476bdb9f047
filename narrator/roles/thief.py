"""The Thief: first night only, sees the two extra cards and may swap his card for one of them;
two Werewolf cards force a take (the card he gets without choosing is drawn before the turn)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Literal

from narrator.ports import Heard
from narrator.roles.base import (Ask, Call, CallTurn, Card, NightTurn, Option, PanelLine, RoleModule, Schedule,
                                  closed_turn)
from narrator.rules.errors import IllegalActionError, InvalidTargetError
from narrator.rules.events import Event, ThiefChose
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView, Power

if TYPE_CHECKING:
    from narrator.rules.game import Game

ORDER = 1  # docs/rules-spec.md#night-order: the first call of the first night


def forced(game: GameView) -> bool:
    """Two Werewolf cards among the extra cards: he must take one."""
    return all(r in game.pack for r in game.state.extra)


def targets(game: GameView, thief: int) -> tuple[int, ...]:
    """The extra card he takes (1 or 2), or 0 to keep his own."""
    return (1, 2) if forced(game) else (0, 1, 2)


def chose(game: GameView, thief: int, chosen: tuple[int, ...]) -> tuple[Event, ...]:
    """His card, checked: 0 keeps his own (not with two Werewolf cards), 1 or 2 takes that one."""
    card = chosen[0] if len(chosen) == 1 else chosen
    if card not in (0, 1, 2):
        raise InvalidTargetError("card {card!r}: the Thief chooses 1 or 2, or 0 to keep his card", card=card)
    if card == 0 and forced(game):
        raise IllegalActionError("card 0: both extra cards are Werewolves, so the Thief must take one (1 or 2)")
    return (ThiefChose(thief, chosen[0], game.state.extra[chosen[0] - 1] if chosen[0] else None),)


def said(chosen: tuple[int, ...]) -> str:
    return f"Thief card {chosen[0] if len(chosen) == 1 else chosen!r}"


def run(game: Game, rng: random.Random) -> CallTurn:
    seat = game.living_holder(Role.THIEF)
    if seat is None:
        return CallTurn("thief.wake", closed_turn("thief"))
    extra = game.state.extra
    must = forced(game)
    # Two Werewolf cards: he must take one. The card he gets without choosing is drawn now
    # and shown from the start, so that nothing is drawn or shown after the deadline.
    default = rng.choice((1, 2)) if must else 0

    def card(answers: list[Heard]) -> int:
        if not answers:
            return default
        return 0 if answers[-1].choice == "nobody" else int(answers[-1].choice)

    def panel(answers: list[Heard]) -> list[PanelLine]:
        cards = {"role_a": extra[0].value, "role_b": extra[1].value}
        lines: list[PanelLine] = (
            [("thief.cards_forced", cards), ("thief.forced", {"seat": default})] if must else [("thief.cards", cards)]
        )
        if answers:
            chosen = card(answers)
            took: PanelLine = ("thief.took", {"role": extra[chosen - 1].value}) if chosen else ("thief.kept", {})
            lines += [took, ("echo.change", {})]
        return lines

    words = () if must else ("nobody",)
    turn = NightTurn("thief", lambda answers: None if answers else Ask("night.thief", (1, 2), words), panel)

    def finish(answers: list[Heard]) -> None:
        game.use_power("thief", (card(answers),))

    return CallTurn("thief.wake", turn, finish)


ExtraCards = Literal["villagers", "from_deck"]
OPTIONS = (
    Option("thief_extra_cards", ExtraCards, "villagers"),
)


MODULE = RoleModule(
    Card(Role.THIEF, Team.VILLAGE, moons=2),
    (Call("thief", ORDER, Schedule.FIRST_NIGHT, Role.THIEF, run, turn=20.0,
          lines=("thief.cards", "thief.cards_forced", "thief.forced", "thief.took", "thief.kept")),),
    powers=(Power("thief", Role.THIEF, ORDER, None, targets, first_night_only=True, seats=False, record=chose,
                  renewed=False, lost_with_power=False, who="the Thief", said=said),),
    options=OPTIONS,
)
