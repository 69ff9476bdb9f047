"""The Stuttering Judge (le Juge Bègue, Personnages): once per game (`judge_second_votes`) he makes
the village hold a second elimination vote at once, without debate (docs/rules-spec.md#role-stuttering_judge; Day steps
3 and 6).

- Night 1 (row 7): he wakes and his panel shows his sign. No input; the call is made whether he is
  dealt or not, alive or not.
- `judge_signal: sign_during_vote` (default): his sign is a keypad key he presses during the day's
  first vote, hands-free and unseen: when his seat is called in the roll call he presses `+`
  before his vote (`+ 7 Enter`). During every round of the first vote every voter's prompt takes
  `+` alike, with the same feedback and no line (the engine's `signal_second_vote`); it counts only
  for a living, powered Judge with requests left. Nothing is said until the first vote's batch
  is resolved; then, if the game goes on, "A second vote, now, without debate" and the second
  vote opens at once (never who asked).
- `judge_signal: night_arm` (for tables where even a key press could be seen): row 23, every
  night, he answers `+` (arm tomorrow's second vote) or `-`; an armed second vote follows the
  next day's first vote.
- The request stands if the first vote eliminates him (`judge_request_survives_death`); a
  request made when powerless is ignored.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Literal

from narrator.ports import Heard
from narrator.roles.base import (Ask, Call, CallTurn, Card, NightTurn, Option, PanelLine, RoleModule, Schedule,
                                  closed_turn)
from narrator.rules.events import SecondVoteAsked
from narrator.rules.options import Options
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView, Hooks, Power

if TYPE_CHECKING:
    from narrator.rules.game import Game

ORDER = 7  # docs/rules-spec.md#night-order: Night 1, after the Lovers
ARM_ORDER = 23  # the last call of the night, only with judge_signal=night_arm


def requests_left(game: GameView, seat: int) -> bool:
    used = sum(1 for e in game.events if isinstance(e, SecondVoteAsked) and e.seat == seat)
    return used < game.options.judge_second_votes


def may_ask(game: GameView, seat: int) -> bool:
    """A living, powered Judge (his card, or the Actor holding it) with requests left."""
    return (game.acts_as(seat, Role.STUTTERING_JUDGE) and game.state.alive[seat - 1]
            and game.powered(seat) and requests_left(game, seat))


def sign_open(game: GameView) -> bool:
    return Role.STUTTERING_JUDGE in game.state.possible and game.options.judge_signal == "sign_during_vote"


def signals(game: GameView, voter: int) -> bool:
    return game.options.judge_signal == "sign_during_vote" and may_ask(game, voter)


def armed(game: GameView) -> int | None:
    if game.options.judge_signal != "night_arm":
        return None
    seats = game.state.chosen_tonight.get("stuttering_judge_arm", ())
    return seats[0] if seats and may_ask(game, seats[0]) else None


def stands(game: GameView, seat: int) -> bool:
    return game.options.judge_request_survives_death or game.state.alive[seat - 1]


def arm_nights(options: Options, night: int) -> bool:
    return options.judge_signal == "night_arm"


def arm_targets(game: GameView, judge: int) -> tuple[int, ...]:
    return (judge,) if arm_nights(game.options, game.state.night) else ()


def arm_check(game: GameView, judge: int, chosen: tuple[int, ...]) -> str | None:
    return None if chosen in ((), (judge,)) else "the Judge arms a second vote (his own seat) or not (nobody)"


def run(game: GameView, rng: random.Random) -> CallTurn:
    if game.living_holder(Role.STUTTERING_JUDGE) is None:
        return CallTurn("stuttering_judge.wake", closed_turn("stuttering_judge"))
    key = "stuttering_judge.prompt" if game.options.judge_signal == "sign_during_vote" else "stuttering_judge_arm.prompt"
    shown: list[PanelLine] = [(key, {})]
    return CallTurn("stuttering_judge.wake",
                    NightTurn("stuttering_judge", lambda answers: None, lambda answers: shown, final=True))


def run_arm(game: Game, rng: random.Random) -> CallTurn:
    judge = game.living_holder(Role.STUTTERING_JUDGE)
    if judge is None:
        return CallTurn("stuttering_judge_arm.wake", closed_turn("stuttering_judge_arm"))
    able = may_ask(game, judge)

    def question(answers: list[Heard]) -> Ask | None:
        return None if answers else Ask("night.stuttering_judge_arm", (), ("yes", "no"))

    def panel(answers: list[Heard]) -> list[PanelLine]:
        head: list[PanelLine] = [("stuttering_judge_arm.prompt", {})]
        if not answers:
            return head
        echo: PanelLine = ("echo.arm_yes", {}) if answers[-1].choice == "yes" else ("echo.arm_no", {})
        return [*head, echo, *([] if able else [("power.none", {})]), ("echo.change", {})]

    def finish(answers: list[Heard]) -> None:
        assert judge is not None
        yes = bool(answers) and answers[-1].choice == "yes"
        game.use_power("stuttering_judge_arm", (judge,) if yes else ())

    return CallTurn("stuttering_judge_arm.wake", NightTurn("stuttering_judge_arm", question, panel), finish)


Signal = Literal["sign_during_vote", "night_arm"]
OPTIONS = (
    Option("judge_second_votes", int, 1, span=range(1, 6)),
    Option("judge_request_survives_death", bool, True),
    Option("judge_signal", Signal, "sign_during_vote"),
)


MODULE = RoleModule(
    Card(Role.STUTTERING_JUDGE, Team.VILLAGE, moons=2, box="characters"),
    (Call("stuttering_judge", ORDER, Schedule.FIRST_NIGHT, Role.STUTTERING_JUDGE, run, turn=15.0,
          lines=("stuttering_judge.prompt", "stuttering_judge.second_vote")),
     Call("stuttering_judge_arm", ARM_ORDER, Schedule.SOME_NIGHTS, Role.STUTTERING_JUDGE, run_arm, turn=15.0,
          lines=("stuttering_judge_arm.prompt", "echo.arm_yes", "echo.arm_no", "power.none"), nights=arm_nights)),
    powers=(Power("stuttering_judge_arm", Role.STUTTERING_JUDGE, ARM_ORDER, arm_check, arm_targets, nights=arm_nights),),
    hooks=Hooks(
        signals=(signals,),
        sign_open=(sign_open,),
        armed=(armed,),
        second_vote_stands=(stands,),
    ),
    options=OPTIONS,
)
