"""The ports between the sequencer and the world: typed messages and small Protocols.

The sequencer (flow) speaks only to these. Each has real adapters (speech, listening, the
screens in narrator/table, narrator/journal.py, narrator/clock.py) and the tests' twins in
`narrator.fakes`. Cues go out, `Heard` comes in: one direction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Literal, Mapping, Protocol, Sequence, TypedDict, Union

from narrator.errors import NarratorError

if TYPE_CHECKING:
    from typing_extensions import NotRequired  # typing's own from Python 3.11

# A slot value in a cue: a seat number, a role key (`seer`), a side key (`village`), a count.
SlotValue = Union[int, str]


@dataclass(frozen=True, slots=True)
class Cue:
    """One spoken line: a key of the voice pack plus its slots.

    Every slot holds one value (a seat, a role key, a number), never a list, so that every line
    the game can say is a finite set that can be rendered before the game starts.
    """

    key: str
    slots: Mapping[str, SlotValue] = field(default_factory=dict)
    phase: str = ""

    def __hash__(self) -> int:
        return hash((self.key, tuple(sorted(self.slots.items())), self.phase))


# Words a player may answer besides a seat number. The value is the stable English name used
# in `Heard.choice`, in grammars and in `narrator listen` output, whatever the language.
WORDS: tuple[str, ...] = (
    "nobody",
    "yes",
    "no",
    "repeat",
    "pause",
    "more_time",
    "vote_now",
)

# A choice is a seat number or one of WORDS.
Choice = Union[int, str]


@dataclass(frozen=True, slots=True)
class Heard:
    """A choice that came in from the table, and how."""

    choice: Choice
    source: str = "keypad"  # "keypad", "voice" or "script"
    text: str = ""  # what was typed or heard, for the screen and the journal
    confidence: float = 1.0
    # A seat heard by voice but refused as a look-alike (another legal seat's word is often heard
    # as this one): no answer yet. Only a prompt that asks back (`Prompt.ask_back`) gets one; the
    # sequencer asks "{seat}? Yes or no." and takes the seat only on "yes" (docs/voice.md).
    lookalike: bool = False
    # The voter said "yes" when that look-alike was asked back: it is not said back again.
    confirmed: bool = False


@dataclass(frozen=True, slots=True)
class Prompt:
    """What the sequencer waits for: the legal choices, until a deadline on the `Clock`."""

    name: str  # e.g. "night.seer", "day.vote.voter.3", "chain.hunter"
    seats: tuple[int, ...] = ()
    words: tuple[str, ...] = ()
    night: bool = False  # at night the microphone takes no choices and nothing is audible
    deadline: float | None = None  # clock time; None waits until an answer comes
    risky: bool = False  # an elimination, the Hunter's shot, a successor: read back and confirm
    number: int = 0  # the night or day this prompt belongs to
    # No question is open: keys are only watched for (during a wake line, or after a night
    # answer, when `-` may take it back). A script of piped answers has nothing for it.
    idle: bool = False
    # By day, a seat refused by voice as a look-alike comes back as `Heard(lookalike=True)` for
    # the sequencer to ask back, instead of "please repeat" (the roll call; never at night).
    ask_back: bool = False
    # Its answer is the player's secret (the secret accusation vote): it is never shown, not even
    # as an answer given back when a stopped game resumes.
    secret: bool = False

    def allows(self, choice: Choice) -> bool:
        if isinstance(choice, bool):
            return False
        if isinstance(choice, int):
            return choice in self.seats
        return choice in self.words


def drops_stale_keys(previous: Prompt | None, prompt: Prompt) -> bool:
    """Whether keys typed before `prompt` opened must be thrown away.

    At night a key left over from another role's turn must not answer this one, nor may a key
    typed at night answer the first question of the day. Within one turn (Cupid's two seats, the
    Witch's heal then poison) and by day (a voter answers while their seat is being said) what
    was typed is kept.
    """
    if previous is None:
        return prompt.night
    if prompt.night:
        return _turn(previous) != _turn(prompt) or not previous.night
    return previous.night


def _turn(prompt: Prompt) -> str:
    return ".".join(prompt.name.split(".")[:2])


# Further lines of the private panel: (panel key, slots), in order.
PanelLines = Sequence[tuple[str, Mapping[str, SlotValue]]]


class Speaker(Protocol):
    """Says cues. `say` returns the clock time at which the line ends.

    With `at` (a clock time, given ahead) the line starts at `at` exactly, not when the call
    happens to run: the night's schedule queues its lines early, so a late thread moves nothing
    the table hears. A line cannot start before the call: a late `at` starts as soon as it can.
    """

    def say(self, cue: Cue, at: float | None = None) -> float: ...

    def prepare(self, cues: Iterable[Cue]) -> None:
        """Render ahead every cue the game may say (a no-op where nothing needs rendering)."""
        ...

    def close(self) -> None:
        """Let the last line finish and release the device (a no-op where there is none)."""
        ...


class Listener(Protocol):
    """Waits for one choice until the prompt's deadline (clock time); None when none came in time.

    A keypad may return a choice the prompt does not allow: the sequencer refuses it, silently
    at night (feedback on the private panel), and listens again. A voice listener only returns
    choices of the prompt's grammar.
    """

    def listen(self, prompt: Prompt) -> Heard | None: ...


class PublicBoard(TypedDict):
    """What the whole table may know, as the screens and the phones draw it (never a hidden card)."""

    phase: str  # "night", or the day's step: "election", "debate", "vote", "chain", "dusk", "game_over"...
    night: int
    day: int  # the day the table is in (the morning after night k is day k already)
    alive: list[int]
    revealed: dict[int, str]  # seat -> role key: the cards shown (dead players', those public by design)
    captain: int | None
    # Lines public by design (the Sectarian's groups, the Actor's cards) and, by day, this day's
    # morning lines (the Bear Tamer's growl, the Raven's mark): (line key, slots).
    public: list[tuple[str, dict[str, SlotValue]]]


class Display(Protocol):
    """The screen: a public board, and a private panel shown only while a role is awake."""

    def board(self, state: PublicBoard) -> None: ...

    def show_private(self, key: str, slots: Mapping[str, SlotValue], more: PanelLines = ()) -> None:
        """Open (or redraw) the private panel: the line `key`, then the lines of `more`, in order."""
        ...

    def clear_private(self) -> None: ...

    def feedback(self, key: str, slots: Mapping[str, SlotValue]) -> None:
        """Silent feedback on an input (accepted, refused): on the private panel at night."""
        ...


class Clock(Protocol):
    """Time as the sequencer knows it: real, or virtual in tests."""

    def now(self) -> float: ...

    def sleep_until(self, t: float) -> None: ...


class JournalError(NarratorError):
    """A journal that cannot be read or continued, or that does not match the game it replays."""


class SetupRecord(TypedDict):
    """A journal's first record: how the game was set up (the setup, and how it is played)."""

    kind: Literal["setup"]
    setup: dict[str, Any]
    mode: NotRequired[str]  # "test", "headless", "table"...
    seed: NotRequired[int]
    script: NotRequired[dict[str, Any]]
    clock: NotRequired[str]


class InputRecord(TypedDict):
    """An accepted answer of step `n` (or a prompt that ran out: `choice` None, `source` "timeout")."""

    kind: Literal["input"]
    n: int
    prompt: str
    choice: Choice | None
    source: str
    asked_back: NotRequired[bool]  # a look-alike the voter confirmed: not said back on resume


class StepRecord(TypedDict):
    """A step of the game done: its state in the sequencer's table and the engine's events (as
    narrator/rules/codec.py writes them)."""

    kind: Literal["step"]
    n: int
    state: str
    events: list[dict[str, Any]]


class ResumedRecord(TypedDict):
    """The game went on after a stop: when, and when the journal was last written before it."""

    kind: Literal["resumed"]
    at: float
    stopped: float


Record = Union[SetupRecord, InputRecord, StepRecord, ResumedRecord]


class Journal(Protocol):
    """Append-only record of accepted inputs and events, synced before the game moves on."""

    def append(self, record: Mapping[str, Any]) -> None: ...

    def records(self) -> list[dict[str, Any]]: ...
