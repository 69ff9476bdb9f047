"""The order of the table's steps: one plain table, read top to bottom (docs/state-machine.md draws it).

The engine owns the game's state (its phase, what it awaits, how far the night has gone:
narrator/rules/state.py). This table owns only the order of what the table does: which call comes
next at night, the debate before the vote, a chain step while the engine awaits an answer. Each
row is (from, to, condition); from a step the first row whose condition holds is taken. Every
condition is a question asked of the engine, on public facts only (the night number, the possible
roles, the options), never a copy of its state, and never who holds a role or whether he lives.
`transitions` only draws the table (narrator/flow/graph.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from narrator.roles import NIGHT_ELECTION_ORDER, Call, Schedule, night_calls
from narrator.rules import Awaiting, Game, Phase

# The night's calls in order, each with the condition under which it is called, derived from the
# role catalogue (narrator/roles: the night order table is there).
def _night_order() -> tuple[tuple[str, str | None], ...]:
    entries: list[tuple[float, str, str | None]] = [(NIGHT_ELECTION_ORDER, "night_election", "captain_election_due")]
    entries += [(c.order, c.name, c.condition) for c in night_calls()]
    return (*((name, cond) for _, name, cond in sorted(entries, key=lambda e: e[0])), ("dawn", None))


NIGHT_ORDER: tuple[tuple[str, str | None], ...] = _night_order()
NIGHT_CALLS = frozenset(name for name, _ in NIGHT_ORDER) - {"dawn"}
# A call that always follows another one (the Lovers after Cupid) is reached only through it.
FOLLOWS: dict[str, str] = {c.after: c.name for c in night_calls() if c.after is not None}

STATES: tuple[str, ...] = (
    "setup",
    "night_falls",
    *(name for name, _ in NIGHT_ORDER),
    "chain",
    "election",
    "debate",
    "vote",
    "dusk",
    "game_over",
)


@dataclass(frozen=True)
class Row:
    """From step `source` to step `dest`, when `condition` (a name of `CONDITIONS`) holds, or always."""

    source: str
    dest: str
    condition: str | None = None


def _night_rows() -> list[Row]:
    """From each night step, to the first later call whose condition holds."""
    out: list[Row] = []
    sources = ["night_falls", *(name for name, _ in NIGHT_ORDER[:-1])]
    for i, source in enumerate(sources):
        later = NIGHT_ORDER[i:]  # sources[i] stands just before NIGHT_ORDER[i]
        if source in FOLLOWS:
            later = ((FOLLOWS[source], None),)
        for dest, condition in later:
            if dest in FOLLOWS.values() and FOLLOWS.get(source) != dest:
                continue
            out.append(Row(source, dest, condition))
            if condition is None:
                break
    return out


# The opening and the day, top to bottom; the night's rows go between them (`ROWS`).
OPENING: tuple[Row, ...] = (
    # docs/rules-spec.md#opening: a Day 0 when a role asks for it (the Angel).
    Row("setup", "election", "day_zero_election_due"),
    Row("setup", "debate", "day_zero_due"),
    Row("setup", "night_falls"),
)
DAY: tuple[Row, ...] = (
    Row("dawn", "chain", "awaiting_chain"),
    Row("dawn", "game_over", "is_over"),
    Row("dawn", "election", "captain_election_due"),
    Row("dawn", "debate"),
    Row("chain", "chain", "awaiting_chain"),
    Row("chain", "game_over", "is_over"),
    Row("chain", "dusk", "day_is_done"),
    Row("chain", "vote", "second_vote_due"),
    Row("chain", "election", "captain_election_due"),
    Row("chain", "debate"),
    Row("election", "debate"),
    Row("debate", "vote"),
    Row("vote", "chain", "awaiting_chain"),
    Row("vote", "game_over", "is_over"),
    Row("vote", "vote", "second_vote_due"),
    Row("vote", "dusk"),
    Row("dusk", "night_falls"),
)
ROWS: tuple[Row, ...] = (*OPENING, *_night_rows(), *DAY)

# The answers a chain step waits for (the engine awaits one of them).
CHAIN_ANSWERS = frozenset({Awaiting.HUNTER, Awaiting.SUCCESSOR, Awaiting.VOTERS, Awaiting.WINDOW})


def call_due(call: Call, game: Game) -> bool:
    """A call is made on its nights when its role is possible (docs/rules-spec.md#terms: dealt or
    not, alive or not), and when its public fact holds (the night after a public takeover)."""
    if not call.always and call.role not in game.state.possible:
        return False
    if call.due is not None and not call.due(game):
        return False
    if call.nights is not None and not call.nights(game.options, game.state.night):
        return False
    return call.schedule is not Schedule.FIRST_NIGHT or game.state.night == 1


CONDITIONS: dict[str, Callable[[Game], bool]] = {
    "captain_election_due": lambda game: game.captain_election_due(),
    "day_zero_due": lambda game: game.day_zero_due(),
    "day_zero_election_due": lambda game: game.day_zero_due() and game.options.captain_election == "day1",
    "awaiting_chain": lambda game: game.state.awaiting in CHAIN_ANSWERS,
    # The second vote the Stuttering Judge asked for: at once, without debate.
    "second_vote_due": lambda game: game.second_vote_due(),
    "is_over": lambda game: game.outcome is not None,
    "day_is_done": lambda game: game.state.phase is Phase.DUSK,
}
def _due(call: Call) -> Callable[[Game], bool]:
    return lambda game: call_due(call, game)


CONDITIONS.update({call.condition: _due(call) for call in night_calls() if call.condition is not None})


def next_step(step: str, game: Game) -> str:
    """The step after `step`: the first row from it whose condition holds."""
    for row in ROWS:
        if row.source == step and (row.condition is None or CONDITIONS[row.condition](game)):
            return row.dest
    raise LookupError(f"no row of the table leaves step {step!r}")  # the table always has one


def transitions_table() -> list[dict[str, str]]:
    """The table as `transitions` reads it (for the drawing)."""
    return [{"trigger": "advance", "source": row.source, "dest": row.dest,
             **({"conditions": row.condition} if row.condition else {})} for row in ROWS]
