"""What a role module declares: its card, its night calls, and the turn each call runs.

Pure data and pure functions over a game: no I/O, no clock. The sequencer drives every call
the same way from these declarations (wake line -> panel -> prompt until the deadline, answers
echoed and changeable with `-` -> sleep line); see `narrator.flow.night.NightCall`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Callable, Mapping, Union

from narrator.ports import Heard, Prompt, SlotValue
from narrator.rules.errors import OptionError
from narrator.rules.events import JoinedPack, NightBegan
from narrator.rules.view import GameView, Hooks, Power
from narrator.rules.options import Options
from narrator.rules.roles import Role, Team

if TYPE_CHECKING:
    from narrator.rules.game import Game

PanelLine = tuple[str, Mapping[str, SlotValue]]


# The boxes a card comes in: the base game, and the expansions Nouvelle Lune (New Moon), Le Village
# (The Village) and Personnages (Characters), by their English names.
BOXES = ("base", "new_moon", "village", "characters")


@dataclass(frozen=True)
class Card:
    """A role card: its key, its team at the deal, whether it wakes with the pack, its copies."""

    role: Role
    team: Team
    pack: bool = False
    unique: bool = True  # at most one copy in a deck
    wizard: bool = True  # offered in the setup wizard's role menu (the Villager fills the rest)
    box: str = "base"  # the box the card comes in: one of BOXES
    copies: int = 0  # dealt in exactly this many copies when in the deck (the Two Sisters: 2); 0: any
    extra_card: bool = True  # may be one of the Thief's extra cards (not a double-faced card)
    # Against the Elder's revenge (docs/rules-spec.md#powers-lost), which strikes the living
    # village-team players: True keeps the power whatever the team; a string names a boolean
    # option that, when true, takes the power after all whatever the team (the Pied Piper:
    # keeps_power="piper_elder_revenge"); False: the team decides.
    keeps_power: bool | str = False
    # Its level, as the Italian rule book's moons sort roles (docs/rules-spec.md#moons; the levels are
    # our judgement): 1 for new players (two sides, simple goals), 2 for a role that changes sides or
    # adds a goal, 3 for a loner or a role that turns the game over. Every card has one.
    moons: int = 0

    def __post_init__(self) -> None:
        if self.moons not in (1, 2, 3):
            raise ValueError(f"the card {self.role.value} needs its level: moons=1, 2 or 3 (docs/rules-spec.md#moons)")


class Schedule(str, Enum):
    """Which nights a call is made. The schedule depends only on public facts."""

    EVERY_NIGHT = "every night"
    FIRST_NIGHT = "first night"
    ALTERNATE = "every other night"  # on the nights `Call.nights` says (an option's parity)
    AFTER = "after another call"  # made right after the call named in `Call.after`, on its nights
    SOME_NIGHTS = "some nights"  # on the nights `Call.nights` says, from the options and the night number


@dataclass(frozen=True)
class Ask:
    """One question of a night turn: its prompt's name and legal choices."""

    name: str
    seats: tuple[int, ...] = ()
    words: tuple[str, ...] = ()  # "nobody" where the rules allow no choice


class NightTurn:
    """One call's answers while its turn lasts: a stack of accepted choices.

    `question(answers)` is the next question (None once all are answered), `panel(answers)` the
    private panel with what was taken. Once an answer is echoed, `-` ("no") takes the last one
    back and asks that question again; before that, `-` is "no" where a question allows it (the
    Witch's heal). A `final` turn takes nothing back (the Seer has seen the card).
    """

    def __init__(
        self,
        call: str,
        question: Callable[[list[Heard]], Ask | None],
        panel: Callable[[list[Heard]], list[PanelLine]],
        final: bool = False,
        on_answer: Callable[[list[Heard]], None] | None = None,
    ) -> None:
        self.call = call
        self.question = question
        self.panel = panel
        self.final = final
        self.on_answer = on_answer

    def withdraws(self, answers: list[Heard]) -> bool:
        return bool(answers) and not self.final

    def prompt(self, answers: list[Heard], deadline: float, number: int) -> Prompt:
        ask = self.question(answers)
        back = ("no",) if self.withdraws(answers) else ()
        if ask is None:
            # Nothing (more) to ask: `-` may still take an answer back until the deadline.
            name = f"night.{self.call}.change" if answers else f"night.{self.call}"
            return Prompt(name, (), back, night=True, deadline=deadline, number=number, idle=True)
        words = ask.words + tuple(w for w in back if w not in ask.words)
        return Prompt(ask.name, ask.seats, words, night=True, deadline=deadline, number=number)

    def take(self, answers: list[Heard], heard: Heard) -> None:
        if heard.choice == "no" and self.withdraws(answers):
            answers.pop()
            return
        answers.append(heard)
        if self.on_answer is not None:
            self.on_answer(answers)


def closed_turn(call: str) -> NightTurn:
    """The turn of a role nobody holds or whose holder is dead: the same length, nothing to take.
    One panel for every role: "Keep your eyes closed." (`night.closed`), the
    only true instruction to whoever looks, never a role's own prompt (which asked a question
    nobody could answer)."""
    return NightTurn(call, lambda answers: None, lambda answers: [("night.closed", {})], final=True)


def powerless_turn(turn: NightTurn) -> NightTurn:
    """The turn of a living role whose power is lost (docs/rules-spec.md#powers-lost): the same
    questions and deadline, the answers taken and echoed as usual and handed to the engine, which
    ignores them; the private panel says the power is lost. The wake and sleep lines and the
    turn's length are the call's own, so nothing audible changes (Secrecy)."""

    def panel(answers: list[Heard]) -> list[PanelLine]:
        return [("power.none", {})]

    return NightTurn(turn.call, turn.question, panel, final=turn.final, on_answer=turn.on_answer)


def living_neighbours(game: GameView, seat: int) -> tuple[int, ...]:
    """A living seat's nearest living neighbour on each side (seat+1 clockwise, seat-1), skipping the
    dead (docs/rules-spec.md#terms): one if only two live, none if he is alone or dead. The Fox's group
    and the Bear Tamer's bear use it."""
    living = game.living()
    if seat not in living or len(living) < 2:
        return ()
    i = living.index(seat)
    return tuple(sorted({living[(i + 1) % len(living)], living[(i - 1) % len(living)]}))


def joined_pack_panel(reason: str, key: str) -> Callable[[GameView], list[PanelLine]]:
    """A line for the pack's panel at its first call after a player joined it for `reason`
    (the infected player, the Wild Child): he wakes with the pack and learns it there."""

    def panel(game: GameView) -> list[PanelLine]:
        for event in reversed(game.events):
            if isinstance(event, JoinedPack) and event.reason == reason:
                return [(key, {})]
            if isinstance(event, NightBegan) and event.night < game.state.night:
                return []
        return []

    return panel


def _nothing(answers: list[Heard]) -> None:
    return None


@dataclass
class CallTurn:
    """What one night call runs tonight: its wake line, its turn, and what the standing answers do."""

    wake: str
    turn: NightTurn
    finish: Callable[[list[Heard]], None] = _nothing


@dataclass(frozen=True)
class Call:
    """A night call: its name (the state and the line keys `<name>.wake`, `<name>.sleep`), its
    place in the merged night order (docs/rules-spec.md#night-order), its schedule, the role whose being
    possible makes it, and the function that builds tonight's turn from the game."""

    name: str
    order: float
    schedule: Schedule
    role: Role  # whose call it is: the call is made when this role is possible
    run: Callable[[Game, random.Random], CallTurn]
    always: bool = False  # called every night whatever the deal (the Werewolves)
    turn: float = 20.0  # default seconds of the turn, from the end of the wake line (timing)
    after: str | None = None  # with Schedule.AFTER: the call this one always follows
    lines: tuple[str, ...] = ()  # the line and panel keys of this call, besides wake and sleep
    # Besides its schedule, a public fact the call needs (the night after a public takeover).
    due: Callable[[GameView], bool] | None = None
    # With Schedule.ALTERNATE or SOME_NIGHTS: whether tonight is one of its nights (public facts
    # only: the options and the night number).
    nights: Callable[[Options, int], bool] | None = None
    # False for a call where other players wake, not the role's holder (the charmed players):
    # a powerless holder does not change that call's panel.
    by_holder: bool = True
    # The wake line's key on a night (public facts only: the options and the night number); None:
    # `<name>.wake`. The call's `run` wakes with it, and so does `narrator assist` (no game there).
    wake_line: Callable[[Options, int], str] | None = None

    def wake(self, options: Options, night: int) -> str:
        """The key of the line that wakes this call on night `night`."""
        return self.wake_line(options, night) if self.wake_line is not None else f"{self.name}.wake"

    @property
    def condition(self) -> str | None:
        """The name of the sequencer's condition for this call (drawn by `narrator graph`)."""
        if self.always or self.schedule is Schedule.AFTER:
            return None
        if self.due is not None:
            return f"{self.name}_due"
        if self.schedule is Schedule.FIRST_NIGHT:
            return f"first_night_and_{self.role.value}_possible"
        if self.schedule in (Schedule.SOME_NIGHTS, Schedule.ALTERNATE):
            return f"{self.name}_night_and_{self.role.value}_possible"
        return f"{self.role.value}_possible"


OptionValue = Union[str, bool, int]


@dataclass(frozen=True)
class Option:
    """A rule option a role brings (docs/rules.md#rule-options), declared once, in the role's module:
    its key, its type (a `Literal` of its words, `bool`, `int` with its `span`, or `str` with its
    `check`) and its default. The engine's `Options` holds it as a typed field written from this
    declaration (narrator/rules/options.py's generated part, `python scripts/options.py`), so mypy
    checks every `options.<key>` and every word compared with it."""

    key: str
    kind: Any
    default: OptionValue
    span: range | None = None  # the whole numbers it may take
    check: Callable[[str, str], OptionError | None] | None = None  # a text's check: a refusal, or None
    read: Callable[[str], str] | None = None  # how a typed text is read (default: stripped)


@dataclass(frozen=True)
class RoleModule:
    """Everything about one role: its card, its night calls, its powers and hooks into the engine,
    and its lines in the narration."""

    card: Card
    calls: tuple[Call, ...] = ()
    powers: tuple[Power, ...] = ()  # night powers the engine runs through `Game.use_power`
    # Its hooks into the engine's steps (narrator/rules/view.py's `Hooks`: dawn, the chain
    # reactions, the vote, the end check...).
    hooks: Hooks = Hooks()
    # Public lines for the engine's events, said as the sequencer narrates them (the pardon...).
    announce: Callable[[GameView, object], list[PanelLine]] | None = None
    # Dawn step 9: public lines said in the morning if the game goes on, after the deaths.
    morning: Callable[[GameView], list[PanelLine]] | None = None
    morning_order: float = 50.0  # place of its morning lines in dawn step 9 (Elder 10, Bear 20, Raven 30, Actor 40)
    # Cards public by design, shown on the public board all game long (seat -> role key).
    public: Callable[[GameView], Mapping[int, str]] | None = None
    # Public lines said before the first call (docs/rules-spec.md#opening).
    opening: Callable[[GameView], list[PanelLine]] | None = None
    # Public by design, on the public board all game long (the Sectarian's groups, the Actor's cards).
    board: Callable[[GameView], list[PanelLine]] | None = None
    # Private lines this role adds to other calls' panels: (call, lines).
    panels: tuple[tuple[str, Callable[[GameView], list[PanelLine]]], ...] = ()
    # The rule options it brings (`Option`).
    options: tuple[Option, ...] = ()
    # The numbers its lines may say in a `count` slot (the Raven's extra votes), rendered ahead.
    counts: tuple[int, ...] = ()
