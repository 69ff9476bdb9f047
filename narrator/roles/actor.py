"""The Actor (le Comédien, Personnages): three character cards lie face up on the table; every
night he may take one and holds its power until his next call (docs/rules-spec.md#role-actor).

- The cards (`actor_cards`): the first three of the list that are played by this narrator, not a
  Werewolf card, not a Villager, and not a possible role of the table (so never in the dealt
  composition; when every listed card is in play, none is laid). Public by design: said before the first call ("The Actor's cards are laid face
  up...", one line a card) and on the public board while they lie there. They become possible
  roles: their calls are made every night, dealt or not, like any possible role.
- Called every night, row 2 (first of the night after the Thief): he types a card's number or 0.
  The card leaves the table; the next morning the table hears which (dawn step 9). Until his next
  call he holds that role's power, fresh (a Witch card gives one healing and one poison for that
  night), and is woken in that role's call that night. With no card left he is a plain Villager,
  still called, with the same lines.
- Infected (the Accursed Wolf-Father's infection), with `actor_infected=powerless` (the default)
  he loses his power for good (event PowerLost): he takes no more cards and the card he holds does
  nothing from the infection on; his calls stay the same, his answers are ignored. `keeps_power`:
  he goes on as before, now a pack member.
- The cards a role reads through `GameView.living_holder` / `GameView.acts_as` (the Seer, the Witch, the
  Savior, the Raven, the Hunter's shot...) act for him.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Literal

from narrator.ports import Heard
from narrator.roles.base import (Ask, Call, CallTurn, Card, NightTurn, Option, PanelLine, RoleModule, Schedule,
                                  closed_turn)
from narrator.rules.errors import CompositionError, OptionError
from narrator.rules.events import Event, PowerLost
from narrator.rules.options import Options
from narrator.rules.roles import Role, Team
from narrator.rules.view import GameView, Hooks, Power

if TYPE_CHECKING:
    from narrator.rules.game import Game

ORDER = 2  # docs/rules-spec.md#night-order: right after the Thief
CARDS = 3
# The cards listed by default (docs/rules-spec.md#role-actor), some of them played by later roles.
DEFAULT = ("seer", "witch", "hunter", "little_girl", "savior", "elder", "scapegoat", "village_idiot", "fox",
           "bear_tamer", "stuttering_judge", "knight_rusty_sword", "raven")
NEVER = frozenset({Role.VILLAGER, Role.ACTOR})


def cards_check(name: str, text: str) -> OptionError | None:
    """Role keys separated by commas (which of them may be the Actor's is checked at the start)."""
    known = {r.value for r in Role} | set(DEFAULT)
    wrong = [w.strip() for w in text.split(",") if w.strip() and w.strip() not in known]
    if not wrong:
        return None
    return OptionError("option {name} cannot be {value!r}; {wrong!r} is not a role; give role keys separated by commas, "
                       "e.g. seer,witch,hunter", name=name, value=text, wrong=wrong[0])


def listed(options: Options) -> tuple[str, ...]:
    return tuple(w.strip() for w in options.actor_cards.split(",") if w.strip())


def lays(possible: frozenset[Role], options: Options) -> tuple[Role, ...]:
    """The three cards laid face up, when the Actor is possible."""
    if Role.ACTOR not in possible:
        return ()
    keys = {r.value: r for r in Role}
    cards: list[Role] = []
    for key in listed(options):
        role = keys.get(key)
        if role is None or role in NEVER or role.team is Team.WOLVES or role in possible or role in cards:
            continue
        cards.append(role)
        if len(cards) == CARDS:
            break
    return tuple(cards)


def setup_check(players: int, possible: frozenset[Role], options: Options) -> CompositionError | None:
    if Role.ACTOR not in possible:
        return None
    keys = {r.value: r for r in Role}
    for key in listed(options):
        role = keys.get(key)
        if role is None and key not in DEFAULT:
            return CompositionError("actor_cards: {key!r} is not a role; give role keys separated by commas, e.g. "
                                    "seer,witch,hunter", key=key)
        if role is not None and (role.team is Team.WOLVES or role in NEVER):
            return CompositionError("actor_cards: {key!r} cannot be one of the Actor's cards (never a Werewolf, a "
                                    "Villager or the Actor)", key=key)
    return None  # every listed card in play: no card is laid, and he is a plain Villager (still called)


def left(game: GameView) -> tuple[int, ...]:
    """The numbers (1..3) of the cards still on the table."""
    taken = game.state.chosen_in_game.get("actor", ())
    return tuple(i for i in range(1, len(game.state.laid) + 1) if i not in taken)


def held(game: GameView) -> Role | None:
    """The card he holds now: taken at his last call (tonight, or last night by day)."""
    taken = game.state.chosen_tonight.get("actor", ())
    return game.state.laid[taken[0] - 1] if taken else None


def acting(game: GameView, role: Role) -> int | None:
    s = game.state
    if Role.ACTOR not in s.possible or not s.chosen_tonight.get("actor") or held(game) is not role:
        return None
    # The seat playing the Actor's card: not one whose card the Devoted Servant took (she plays it now).
    return next((i + 1 for i, r in enumerate(s.roles) if r is Role.ACTOR and i + 1 not in s.taken), None)


def targets(game: GameView, actor: int) -> tuple[int, ...]:
    return left(game)


def check(game: GameView, actor: int, chosen: tuple[int, ...]) -> str | None:
    if len(chosen) > 1:
        return "the Actor takes one card, or none"
    if chosen and chosen[0] not in left(game):
        cards = ", ".join(map(str, left(game))) or "none"
        return f"card {chosen[0]} is not on the table (cards left: {cards})"
    return None


def infected(game: GameView, seat: int) -> tuple[Event, ...]:
    """The infection took (`Hooks.infected`): `actor_infected=powerless` takes his power for good."""
    if (game.state.roles[seat - 1] is Role.ACTOR and game.options.actor_infected == "powerless"
            and game.powered(seat)):
        return (PowerLost(seat, Role.ACTOR, "infected"),)
    return ()


def opening(game: GameView) -> list[PanelLine]:
    if not game.state.laid:
        return []
    return [("actor.cards", {}), *(("actor.card", {"role": r.value}) for r in game.state.laid)]


def board(game: GameView) -> list[PanelLine]:
    """All day on the public board: each card still on the table, saying it is the Actor's."""
    return [("actor.on_table", {"role": game.state.laid[i - 1].value}) for i in left(game)]


def morning(game: GameView) -> list[PanelLine]:
    card = held(game)
    return [] if card is None else [("actor.used", {"role": card.value})]


def run(game: Game, rng: random.Random) -> CallTurn:
    if game.living_holder(Role.ACTOR) is None:
        return CallTurn("actor.wake", closed_turn("actor"))
    laid = game.state.laid
    choices = left(game)
    head: list[PanelLine] = [("actor.prompt", {})]
    head += [("actor.card_left", {"count": i, "role": laid[i - 1].value}) for i in choices]
    if not choices:
        head.append(("actor.no_cards", {}))

    def question(answers: list[Heard]) -> Ask | None:
        return None if answers or not choices else Ask("night.actor", choices, ("nobody",))

    def panel(answers: list[Heard]) -> list[PanelLine]:
        if not answers:
            return head
        choice = answers[-1].choice
        echo: PanelLine = (("echo.actor_nobody", {}) if choice == "nobody"
                           else ("echo.actor_card", {"role": laid[int(choice) - 1].value}))
        return [*head, echo, ("echo.change", {})]

    def finish(answers: list[Heard]) -> None:
        if answers:
            choice = answers[-1].choice
            game.use_power("actor", () if choice == "nobody" else (int(choice),))

    return CallTurn("actor.wake", NightTurn("actor", question, panel), finish)


Infected = Literal["powerless", "keeps_power"]
OPTIONS = (
    Option("actor_cards", str, ",".join(DEFAULT), check=cards_check),
    Option("actor_infected", Infected, "powerless"),
)


MODULE = RoleModule(
    Card(Role.ACTOR, Team.VILLAGE, moons=3, box="characters"),
    (Call("actor", ORDER, Schedule.EVERY_NIGHT, Role.ACTOR, run, turn=20.0,
          lines=("actor.prompt", "actor.card_left", "actor.no_cards", "echo.actor_card", "echo.actor_nobody",
                 "actor.cards", "actor.card", "actor.used", "actor.on_table")),),
    powers=(Power("actor", Role.ACTOR, ORDER, check, targets, seats=False),),
    morning=morning,
    opening=opening,
    board=board,
    hooks=Hooks(
        acting=(acting,),
        setup_checks=(setup_check,),
        laid=(lays,),
        infected=(infected,),
    ),
    options=OPTIONS,
)
