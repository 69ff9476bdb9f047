"""Every role of the catalogue in play: the 18-player compositions that cover it, and the checks
of a whole game played on one: a full game with every role is what shows that every role works.

Everything is derived from the catalogue at run time (`narrator.roles.CARDS`, `night_calls()`):
a role module that lands later is covered with no edit here. The compositions are used by
tests/test_all_roles.py (headless command line) and tests/acceptance/test_terminal_every_role.py (text
mode in a real terminal).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Iterable, Mapping

from narrator.roles import CARDS, MODULES, Call, Schedule, night_calls
from narrator.rules import Options, Role
from narrator.rules.roles import Team

PLAYERS = 18
# The cards every composition holds besides the roles it covers: one Werewolf (a deck needs one).
WOLF = Role.WEREWOLF


def copies(role: Role) -> int:
    """Cards a role comes as (the Two Sisters: 2, the Three Brothers: 3; any other: 1)."""
    return int(getattr(CARDS[role], "copies", 0) or 1)


def in_pack(role: Role) -> bool:
    card = CARDS[role]
    return bool(card.pack) or card.team is Team.WOLVES


def compositions(players: int = PLAYERS) -> list[dict[Role, int]]:
    """As few `players`-card decks as hold every role of the catalogue at least once.

    Each deck has one Werewolf; the pack's other cards are spread over the decks (so no deck is
    only wolves), then the other roles, largest first, each where most seats are left; the first
    deck keeps a seat for the Villager; the seats left are Villagers.
    """
    roles = [r for r in CARDS if r not in (WOLF, Role.VILLAGER)]
    cards = sum(copies(r) for r in roles)
    count = max(1, math.ceil((cards + 1) / (players - 1)))  # +1: the Villager somewhere
    room = [players - 1 - (1 if i == 0 else 0) for i in range(count)]
    decks: list[dict[Role, int]] = [{WOLF: 1} for _ in range(count)]
    pack = [r for r in roles if in_pack(r)]
    rest = sorted((r for r in roles if not in_pack(r)), key=lambda r: -copies(r))
    for i, role in enumerate(pack):
        decks[i % count][role] = copies(role)
        room[i % count] -= copies(role)
    for role in rest:
        best = max(range(count), key=lambda i: room[i])
        if room[best] < copies(role):
            raise AssertionError(f"{role.value} does not fit any of {count} decks of {players}: {room}")
        decks[best][role] = copies(role)
        room[best] -= copies(role)
    for i, deck in enumerate(decks):
        if room[i] + (1 if i == 0 else 0):
            deck[Role.VILLAGER] = room[i] + (1 if i == 0 else 0)
    return decks


def seats(deck: Mapping[Role, int]) -> tuple[Role, ...]:
    """A fixed deal of the deck: the pack's cards spread round the table, the others between."""
    pack = [r for r in deck for _ in range(deck[r]) if in_pack(r)]
    others = [r for r in deck for _ in range(deck[r]) if not in_pack(r)]
    out: list[Role] = []
    step = max(1, len(others) // max(1, len(pack)))
    while pack or others:
        if pack:
            out.append(pack.pop(0))
        out.extend(others[:step])
        del others[:step]
    return tuple(out)


def label(deck: Mapping[Role, int]) -> str:
    return ",".join(f"{r.value}={n}" for r, n in deck.items())


# ---- headless: SETUP.toml and SCRIPT.toml ------------------------------------------------------

def setup_toml(dealt: tuple[Role, ...], options: Mapping[str, Any] | None = None) -> str:
    roles = ", ".join(f'{seat} = "{role.value}"' for seat, role in enumerate(dealt, 1))
    lines = [f"players = {len(dealt)}", 'language = "en"', f"roles = {{ {roles} }}"]
    if Role.THIEF in dealt:
        lines.append('extra = ["villager", "villager"]')
    if options:
        lines.append("[options]")
        lines += [f"{k} = {json.dumps(v)}" for k, v in options.items()]
    return "\n".join(lines) + "\n"


def _day_zero_roles() -> set[Role]:
    return {r for r, m in MODULES.items() if m.hooks.day_zero}


def targets(dealt: tuple[Role, ...]) -> tuple[list[int], list[int]]:
    """Who the script eliminates by day (the village, then the loners, a role with a Day 0 (the
    Angel eliminated early would end the game before the nights), the pack last: a long game,
    many nights), and who the pack devours (the village cards from the last seat back)."""
    late = _day_zero_roles()
    seat_of = list(enumerate(dealt, 1))
    pack = [s for s, r in seat_of if in_pack(r)]
    loners = [s for s, r in seat_of if not in_pack(r) and CARDS[r].team is not Team.VILLAGE and r not in late]
    village = [s for s, r in seat_of if CARDS[r].team is Team.VILLAGE and r not in late]
    last = [s for s, r in seat_of if r in late and s not in pack]
    return village + loners + last + pack, village[::-1]


NIGHTS = 40  # more than a game of 18 can last: two deaths or more a night and a day


def script_toml(dealt: tuple[Role, ...]) -> str:
    """The players' answers: each night the pack devours the next village card; each day the
    table eliminates the first of four seats still alive, in `targets` order (the votes 6, 5,
    4, 3: a dead first choice leaves the next one the most votes); nobody else answers."""
    day_order, victims = targets(dealt)
    players = len(dealt)
    out = ["answer_delay = 1.0"]
    for n in range(NIGHTS):
        out += ["[[nights]]", f"werewolves = {victims[n % len(victims)]}"]
    weights = (6, 5, 4, 3)
    for n in range(NIGHTS):
        four = [day_order[(n + i) % len(day_order)] for i in range(len(weights))]
        votes: list[str] = []
        voter = 1
        for target, weight in zip(four, weights):
            for _ in range(weight):
                if voter <= players:
                    votes.append(f"{voter} = {target}")
                voter += 1
        out += ["[[days]]", f"captain = {victims[-1]}", "vote_now = true", f"votes = {{ {', '.join(votes)} }}",
                f"tiebreak = {four[0]}"]
    return "\n".join(out) + "\n"


# ---- checks on a played game ---------------------------------------------------------------------

def nights_called(timeline: Iterable[Mapping[str, Any]]) -> list[list[str]]:
    """The calls made each night (a call is made when its wake line is said: the first line of
    its phase `night.<call>`), night by night; a night ends at its dawn."""
    nights: list[list[str]] = [[]]
    for entry in timeline:
        if entry.get("kind") != "say":
            continue
        if entry["key"] == "day.dawn" and entry["phase"] == "day.morning":
            nights.append([])
            continue
        phase = str(entry["phase"])
        if phase.startswith("night.") and phase != "night.falls":
            call = phase.removeprefix("night.")
            if not nights[-1] or nights[-1][-1] != call:
                nights[-1].append(call)
    if not nights[-1]:
        nights.pop()  # the game ended by day: no night after the last dawn
    return nights


def expected(call: Call, night: int, made: list[str], options: Options, possible: frozenset[Role]) -> bool | None:
    """Whether the rules make `call` on night `night` (None: it hangs on the game, not on public
    facts alone, such as a card taken by day; not checked)."""
    if not call.always and call.role not in possible:
        return False
    if getattr(call, "due", None) is not None:
        return None
    if call.schedule is Schedule.AFTER:
        return call.after in made
    if call.schedule is Schedule.FIRST_NIGHT:
        return night == 1
    nights = getattr(call, "nights", None)
    if nights is not None:
        return bool(nights(options, night))
    return True


def missing_calls(timeline: Iterable[Mapping[str, Any]], options: Options, possible: frozenset[Role]) -> list[str]:
    """Every call the rules make on a night of this game whose wake line was not said (and every
    call said on a night the rules do not make it), as readable lines; empty when all is well."""
    problems = []
    for number, made in enumerate(nights_called(timeline), 1):
        for call in night_calls():
            want = expected(call, number, made, options, possible)
            if want is None:
                continue
            if want and call.name not in made:
                problems.append(f"night {number}: {call.name} ({call.role.value}) was not called")
            if not want and call.name in made:
                problems.append(f"night {number}: {call.name} ({call.role.value}) was called off its nights")
    return problems


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
