"""The Devoted Servant (la Servante Dévouée, Personnages): when the village eliminates a player,
before his card is shown, she may reveal herself and take his card (docs/rules-spec.md#role-devoted_servant).

- The window opens after every elimination by the day's vote whenever the role is possible, dealt
  or not (a public line, a fixed length: `Sequencer._window`). A living, powered Servant who is
  not a Lover may take the card: she plays that role to the end, fresh (the Witch's potions
  renewed, a Wild Child's model and a Wolf-Hound's side to choose again); she keeps an infection;
  a Captain Servant names a successor. The eliminated player still dies (grief, succession and
  a Wild Child's model still apply to him), his card is never shown, and its effects do not
  apply (a taken Hunter does not shoot).
- The night after, the reset call (`devoted_servant_reset`, a public fact: the takeover) wakes her
  first: her panel shows her new card, and a first-night power of it (the Wild Child's model, the
  Wolf-Hound's side) is played there; otherwise nothing to do. From then on she is called in her
  new role's rows.
- `servant_scope`: `vote_only` (the default, the card's text): the day vote's eliminated only.
  `any_death`: also at dawn, after the night's deaths are announced (their cards not shown yet),
  one window for each of them in seat order, before any chain reaction: a taken card's effects
  do not apply (a Hunter devoured at night does not shoot), grief and the Wild Child's model do.
  Each card not taken is shown when its window closes (`reveal_role_on_death`). Only the deaths
  announced at dawn open one; a chain death (grief, the Hunter's shot) does not.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Literal

from narrator.roles import wild_child, wolf_hound
from narrator.roles.base import Call, CallTurn, Card, NightTurn, Option, PanelLine, RoleModule, Schedule, closed_turn
from narrator.rules.events import CardTaken
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView, Hooks, Window

if TYPE_CHECKING:
    from narrator.rules.game import Game

RESET_ORDER = 3  # docs/rules-spec.md#night-order: the night after a takeover, early


def opens(game: GameView, seat: int) -> bool:
    """Public facts only: the role is possible (dealt or not, alive or not)."""
    return Role.DEVOTED_SERVANT in game.state.possible


def at_dawn(game: GameView, seat: int) -> bool:
    """Public facts only: the role is possible and her scope is every death."""
    return game.state.options.servant_scope == "any_death" and opens(game, seat)


def check(game: GameView, taker: int, seat: int) -> str | None:
    s = game.state
    if s.roles[taker - 1] is not Role.DEVOTED_SERVANT:
        return f"seat {taker} is not the Devoted Servant"
    if not s.alive[taker - 1] or taker == seat:
        return f"seat {taker} is not alive to take it"
    if s.lovers is not None and taker in s.lovers:
        return "a Devoted Servant in love cannot take a card"
    if not game.powered(taker):
        return "the Devoted Servant has lost her power"
    return None


def taker(game: GameView, seat: int) -> int | None:
    servant = game.living_holder(Role.DEVOTED_SERVANT)
    return servant if servant is not None and check(game, servant, seat) is None else None


def announce(game: GameView, event: object) -> list[PanelLine]:
    if isinstance(event, CardTaken):
        return [("devoted_servant.steps", {"seat": event.servant}), ("devoted_servant.card", {"other": event.seat})]
    return []


def reset_due(game: GameView) -> bool:
    s = game.state
    return s.took_day > 0 and s.night == s.took_day + 1


def run_reset(game: Game, rng: random.Random) -> CallTurn:
    """Her new card's first night: its power if it has one, else nothing to do."""
    wake = "devoted_servant_reset.wake"
    servant = game.taker()
    if servant is None or not game.is_alive(servant):
        return CallTurn(wake, closed_turn("devoted_servant_reset"))
    role = game.state.roles[servant - 1]
    took: PanelLine = ("devoted_servant.took", {"role": role.value})
    if role is Role.WILD_CHILD:
        turn = wild_child.turn(game, servant)
        finish = wild_child.finish(game, reset=True)
    elif role is Role.WOLF_HOUND:
        turn = wolf_hound.turn(game, servant)
        finish = wolf_hound.finish(game, servant, rng, reset=True)
    else:
        return CallTurn(wake, NightTurn("devoted_servant_reset", lambda answers: None,
                                        lambda answers: [took, ("devoted_servant_reset.nothing", {})], final=True))
    own = turn.panel
    return CallTurn(wake, NightTurn("devoted_servant_reset", turn.question, lambda answers: [took, *own(answers)]),
                    finish)


Scope = Literal["vote_only", "any_death"]
OPTIONS = (
    Option("servant_scope", Scope, "vote_only"),
)


MODULE = RoleModule(
    Card(Role.DEVOTED_SERVANT, Team.VILLAGE, moons=3, box="characters"),
    (Call("devoted_servant_reset", RESET_ORDER, Schedule.EVERY_NIGHT, Role.DEVOTED_SERVANT, run_reset, turn=20.0,
          due=reset_due, lines=("devoted_servant.took", "devoted_servant_reset.nothing", "devoted_servant.window",
                                "devoted_servant.steps", "devoted_servant.card", "devoted_servant.none")),),
    announce=announce,
    hooks=Hooks(
        windows=(Window(opens, check, taker, at_dawn),),
    ),
    options=OPTIONS,
)
