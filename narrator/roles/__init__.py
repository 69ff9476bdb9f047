"""The catalogue: one module a role (`narrator/roles/<role>.py`), each declaring its card and calls.

Everything role-specific outside the engine's rules is derived from here: the night order (one
table, `NIGHT_ORDER_TABLE`), the cards' teams and copies (composition), the wizard's role list,
`simulate`'s role names and the state machine `narrator graph` draws. Modules are found by name:
adding a role adds a module here and never edits this file or the sequencer.

The night order (docs/rules-spec.md#night-order; `narrator graph` draws it):

    order  call             nights                   role possible?   module
    1      thief            first night              thief            thief.py
    2      actor            every night              actor            actor.py
    5      cupid            first night              cupid            cupid.py
    6      lovers           right after cupid        cupid            cupid.py
    10.5   night_election   captain_election=night1_end (the sequencer's, not a role's)
    12     seer             every night              seer             seer.py
    14     werewolves       every night              (always)         werewolf.py
    19     witch            every night              witch            witch.py
"""

from __future__ import annotations

import importlib
import pkgutil

from typing import Callable

from narrator.roles.base import Call, Card, PanelLine, RoleModule, Schedule
from narrator.rules import hooks as _hooks
from narrator.rules import options as _options
from narrator.rules import roles as _roles
from narrator.rules.roles import Role
from narrator.rules.view import GameView

__all__ = ["ANNOUNCE", "BOARD", "CALLS", "CARDS", "COUNTS", "MODULES", "MORNING", "NIGHT_ELECTION_ORDER", "OPENING_LINES", "PANELS", "PUBLIC",
           "Call", "Card", "RoleModule", "Schedule",
           "card", "night_calls", "night_order_table", "wizard_roles"]

# Where the Captain election of `captain_election=night1_end` sits in the night: after the first
# night's preparation (Thief, Cupid, Lovers), before the first call of every night.
NIGHT_ELECTION_ORDER = 10.5


def _load() -> dict[Role, RoleModule]:
    found: dict[Role, RoleModule] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name == "base":
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        declared = getattr(module, "MODULE", None)
        if isinstance(declared, RoleModule):
            found[declared.card.role] = declared
    missing = [r.value for r in Role if r not in found]
    if missing:
        raise ImportError(f"roles without a module in narrator/roles: {', '.join(missing)}")
    return {r: found[r] for r in Role}  # in the Role enum's order


MODULES: dict[Role, RoleModule] = _load()
CARDS: dict[Role, Card] = {r: m.card for r, m in MODULES.items()}
_roles._TEAMS.update({r: c.team for r, c in CARDS.items()})
_roles._UNIQUE.update(r for r, c in CARDS.items() if c.unique)
_hooks.PACK.update(r for r, c in CARDS.items() if c.pack)
_roles._COPIES.update({r: c.copies for r, c in CARDS.items() if c.copies})
_roles._SEATED.update(r for r, c in CARDS.items() if not c.extra_card)
# Each module's powers and hooks, in the catalogue's order, recorded with its role: a game calls only
# the hooks of its possible roles (narrator/rules/hooks.py's `of_game`).
for _module in MODULES.values():
    _hooks.POWERS.update({p.call: p for p in _module.powers})
    _hooks.declare(_module.card.role, _module.hooks)
    for _option in _module.options:  # how the engine's Options checks and reads them
        if _option.span is not None:
            _options.NUMBERS[_option.key] = _option.span
        if _option.check is not None:
            _options.TEXTS[_option.key] = _option.check
        if _option.read is not None:
            _options.READERS[_option.key] = _option.read
_hooks.KEEPS_POWER.update({r: c.keeps_power for r, c in CARDS.items() if c.keeps_power is not False})
# Lines the roles add to the narration of the engine's events, in the catalogue's order.
ANNOUNCE = tuple(m.announce for m in MODULES.values() if m.announce is not None)
# Dawn step 9: the public morning lines of the roles, in the catalogue's order.
MORNING = tuple(m.morning for m in sorted(MODULES.values(), key=lambda m: m.morning_order) if m.morning is not None)
# Cards public by design, on the public board all game long (the Villager-Villager's).
PUBLIC = tuple(m.public for m in MODULES.values() if m.public is not None)
# Before the first call: the roles' public opening lines, in the catalogue's order.
# The line that opens a Day 0 (the Angel's) comes last, right before that day.
OPENING_LINES = tuple(m.opening for m in sorted(MODULES.values(), key=lambda m: bool(m.hooks.day_zero))
                      if m.opening is not None)
# Public by design, on the public board all game (the Sectarian's groups, the Actor's cards).
BOARD = tuple(m.board for m in MODULES.values() if m.board is not None)
# Private lines roles add to another call's panel (call -> lines), e.g. the pack's panel tells a
# Wild Child he has turned.
PANELS: dict[str, tuple[Callable[[GameView], list[PanelLine]], ...]] = {
    call: tuple(lines for m in MODULES.values() for name, lines in m.panels if name == call)
    for call in dict.fromkeys(name for m in MODULES.values() for name, _ in m.panels)
}
# The numbers the roles' lines may say in a `count` slot (the Raven's extra votes).
COUNTS = tuple(sorted({n for m in MODULES.values() for n in m.counts}))
CALLS: dict[str, Call] = {c.name: c for c in sorted((c for m in MODULES.values() for c in m.calls), key=lambda c: c.order)}


def card(role: Role) -> Card:
    return CARDS[role]


def night_calls() -> tuple[Call, ...]:
    """Every night call in the merged night order."""
    return tuple(CALLS.values())


def wizard_roles() -> tuple[Role, ...]:
    """The roles the setup wizard offers (the Villager fills the deck)."""
    return tuple(r for r, c in CARDS.items() if c.wizard)


def night_order_table() -> str:
    """The night order as a plain table (what `narrator graph --page` puts in docs/state-machine.md)."""
    rows = [("order", "call", "nights", "when possible")]
    entries: list[tuple[float, tuple[str, str, str, str]]] = [
        (NIGHT_ELECTION_ORDER, (f"{NIGHT_ELECTION_ORDER:g}", "night_election", "captain_election=night1_end", "-"))
    ]
    for c in night_calls():
        nights = f"right after {c.after}" if c.schedule is Schedule.AFTER else c.schedule.value
        if c.schedule is Schedule.SOME_NIGHTS and c.nights is not None:
            listed = ",".join(str(n) for n in range(1, 6) if c.nights(_options.Options(), n))
            nights = f"{listed},... (options)" if listed else "by option"
        entries.append((c.order, (f"{c.order:g}", c.name, nights, "always" if c.always else c.role.value)))
    rows += [row for _, row in sorted(entries, key=lambda e: e[0])]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    return "\n".join("  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in rows)
