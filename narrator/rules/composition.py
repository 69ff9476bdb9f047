"""Which cards go in the deck for N players: the suggestion, validation, and the deal."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final, Mapping

from narrator.errors import marked
from narrator.rules import hooks
from narrator.rules.errors import CompositionError, UnknownRoleError
from narrator.rules.options import Options
from narrator.rules.roles import Role, Team

# Read once per simulated game: module constants, cheaper than `Role.THIEF` on Python 3.11 (rules/game.py).
_ROLE_THIEF: Final = Role.THIEF
_ROLE_VILLAGER: Final = Role.VILLAGER

MIN_PLAYERS = 4
MAX_PLAYERS = 30
RECOMMENDED = range(8, 19)

Composition = Mapping[Role, int]


class Note(str):
    """A warning about a deck that can be played: its English text, keeping its template and slots
    (like a NarratorError's) so that the command line can print it in the table's language."""

    template: str
    slots: dict[str, object]

    def __new__(cls, template: str, /, **slots: object) -> "Note":
        note = super().__new__(cls, template.format(**slots))
        note.template, note.slots = template, dict(slots)
        return note



def suggested_wolves(players: int) -> int:
    """Werewolves in the simplified French distribution, extended past 8–18 at the same ratio."""
    if players < 8:
        return 1
    if players <= 11:
        return 2
    if players <= 18:
        return 3
    return 4 if players <= 24 else 5


def suggest(players: int) -> dict[Role, int]:
    """The default composition: the simplified distribution (wolves, one Seer, rest Villagers)."""
    check_players(players)
    wolves = suggested_wolves(players)
    return {Role.WEREWOLF: wolves, Role.SEER: 1, Role.VILLAGER: players - wolves - 1}


# The default composition for 8-18 players (Enter at the wizard's roles question): for each number of
# players a deck of the base box that the balance advisor (`narrator balance`) rates fair, the village
# winning 45-55% of games between informed players (its FAIR band), after 1000 games of the shipped
# table (tests/rules/test_rules_composition.py checks every one of them against the table).
_W, _S, _WI, _H, _C, _L = Role.WEREWOLF, Role.SEER, Role.WITCH, Role.HUNTER, Role.CUPID, Role.LITTLE_GIRL
FAIR_DEFAULTS: Final[Mapping[int, Mapping[Role, int]]] = {
    8: {_W: 2, _S: 1, _WI: 1, _H: 1},  # village 52.0%
    9: {_W: 2, _S: 1, _WI: 1},  # 51.8%
    10: {_W: 2, _S: 1, _L: 1},  # 51.3%
    11: {_W: 2, _S: 1, _C: 1},  # 52.5%
    12: {_W: 3, _S: 1, _WI: 1, _H: 1, _L: 1},  # 51.3%
    13: {_W: 3, _S: 1, _WI: 1, _C: 1, _L: 1},  # 51.3%
    14: {_W: 3, _S: 1, _WI: 1, _H: 1},  # 51.0%
    15: {_W: 3, _S: 1, _WI: 1},  # 51.8%
    16: {_W: 3, _S: 1, _H: 1, _C: 1},  # 49.5%
    17: {_W: 4, _S: 1, _WI: 1, _H: 1, _L: 1},  # 49.1%
    18: {_W: 4, _S: 1, _WI: 1, _L: 1},  # 51.0%
}


def default_deck(players: int) -> dict[Role, int]:
    """The composition a table gets when it names no roles: for 8-18 players one the balance advisor
    rates fair (`FAIR_DEFAULTS`), else the simplified distribution (`suggest`)."""
    check_players(players)
    special = FAIR_DEFAULTS.get(players)
    if special is None:
        return suggest(players)
    return {**special, Role.VILLAGER: players - sum(special.values())}


def check_players(players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise CompositionError(
            "{players!r} players is out of range; the game takes {min_players} to {max_players} players",
            players=players, min_players=MIN_PLAYERS, max_players=MAX_PLAYERS
        )


def deck_size(players: int, composition: Composition, options: Options) -> int:
    """Cards in the deck: one a seat, plus two for the Thief when the extras come from the deck."""
    if composition.get(Role.THIEF, 0) and options.thief_extra_cards == "from_deck":
        return players + 2
    return players


def parse_roles(spec: str) -> dict[Role, int]:
    """Read `werewolf=3,seer=1,witch` (a bare name means one)."""
    counts: dict[Role, int] = {}
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        name, sep, num = part.partition("=")
        role = Role.parse(name)
        if sep:
            try:
                count = int(num)
            except ValueError:
                raise CompositionError("count {num!r} for {name!r} is not a whole number",
                                       num=num.strip(), name=name.strip()) from None
        else:
            count = role.copies or 1  # `two_sisters` alone means both Sisters
        if count < 0:
            raise CompositionError("count {count} for {name!r} cannot be negative", count=count, name=name.strip())
        counts[role] = counts.get(role, 0) + count
    if not counts:
        raise CompositionError("no roles in {spec!r}; write them like werewolf=3,seer=1", spec=spec)
    return counts


def complete(players: int, named: Composition, options: Options) -> dict[Role, int]:
    """Fill the deck with Villagers; roles not named are Villagers. Validates the result."""
    check_players(players)
    deck = {role: n for role, n in named.items() if n > 0}
    size = deck_size(players, deck, options)
    specials = sum(n for role, n in deck.items() if role is not Role.VILLAGER)
    if specials > size:
        if size > players:
            raise CompositionError("{specials} role cards ({describe}) do not fit {players} players (+2 cards for the Thief); "
                                   "remove some roles or add players", specials=specials, describe=describe(deck), players=players)
        raise CompositionError("{specials} role cards ({describe}) do not fit {players} players; remove some roles or "
                               "add players",
                               specials=specials, describe=describe(deck), players=players)
    named_villagers = deck.get(Role.VILLAGER, 0)
    if named_villagers and specials + named_villagers > size:
        raise CompositionError("{describe} is {specials} cards; {players} players take {size}",
                               describe=describe(deck), specials=specials + named_villagers, players=players, size=size)
    deck[Role.VILLAGER] = size - specials
    if deck[Role.VILLAGER] == 0:
        del deck[Role.VILLAGER]
    validate(players, deck, options)
    return deck


# Decks already found playable, with their warnings: the simulator validates the same deck every game.
# The deck is keyed as a set of (role, count): a deck counted from a shuffled deal lists its roles in
# the deal's order, which would make every game's deck a new key. The options are keyed by identity
# (the simulator passes the same object every game; hashing its many fields cost more than the
# check saved); the entry keeps them alive, so their id cannot be reused while it is cached.
_PLAYABLE: dict[tuple[int, frozenset[tuple[Role, int]], int], tuple[Options, tuple[str, ...]]] = {}


def validate(players: int, deck: Composition, options: Options) -> list[str]:
    """Refuse a deck that cannot be played; return warnings for one that can but is unusual."""
    key: tuple[int, frozenset[tuple[Role, int]], int] | None
    try:
        key = (players, frozenset(deck.items()), id(options))
        known = _PLAYABLE.get(key)
    except TypeError:  # an unhashable count or role: checked (and refused) below
        key, known = None, None
    if known is not None and known[0] is options:
        return list(known[1])
    warnings = _validate(players, deck, options)
    if key is not None and len(_PLAYABLE) < 4096:
        _PLAYABLE[key] = (options, tuple(warnings))
    return warnings


def _validate(players: int, deck: Composition, options: Options) -> list[str]:
    check_players(players)
    for role, count in deck.items():
        if not isinstance(role, Role):
            raise UnknownRoleError("unknown role {role!r}", role=role)
        if count < 0:
            raise CompositionError("{count} {value} cards: a count cannot be negative", count=count, value=role.value)
        if role.unique and count > 1:
            raise CompositionError("{count} {value} cards: the {value} is a single card", count=count, value=role.value)
        if role.copies and count not in (0, role.copies):
            raise CompositionError(
                "{count} {value} cards: the {value} come as {copies} cards, all dealt ({value}={copies})",
                count=count, value=role.value, copies=role.copies
            )
    size = deck_size(players, deck, options)
    total = sum(deck.values())
    if total != size:
        raise CompositionError("the deck {describe} has {total} cards; {players} players need {size}",
                               describe=describe(deck), total=total, players=players, size=size)
    # Any pack card of the Werewolves' team counts as a Werewolf (a special wolf replaces one: the
    # Big Bad Wolf, the Accursed Wolf-Father). The White Werewolf plays alone: alone, he is no pack.
    wolves = sum(n for role, n in deck.items() if role in hooks.PACK and role.team is Team.WOLVES)
    if wolves < 1:
        if deck.get(Role.WHITE_WEREWOLF):
            raise CompositionError("the deck {describe} has no Werewolf (the White Werewolf plays alone: he is no pack); "
                                   "add werewolf=1 or more", describe=describe(deck))
        raise CompositionError("the deck {describe} has no Werewolf; add werewolf=1 or more", describe=describe(deck))
    if total - sum(n for role, n in deck.items() if role in hooks.PACK) < 1:
        raise CompositionError("the deck {describe} has only Werewolves; add at least one other role", describe=describe(deck))
    warnings: list[str] = []
    if players not in RECOMMENDED:
        warnings.append(Note(marked("{players} players: the game is best with 8 to 18"), players=players))
    pack = sum(n for role, n in deck.items() if role in hooks.PACK)  # wolf cards (the White Werewolf too)
    if pack * 2 >= players:
        warnings.append(Note(marked("{wolves} Werewolves for {players} players: the village can hardly win"),
                             wolves=pack, players=players))
    return warnings


def describe(deck: Composition) -> str:
    return ",".join(f"{role.value}={n}" for role, n in sorted(deck.items(), key=lambda kv: kv[0].value) if n)


@dataclass(frozen=True, slots=True)
class Deal:
    """Who holds which card (index 0 is seat 1) and the Thief's two extra cards, if any."""

    seats: tuple[Role, ...]
    extra: tuple[Role, ...] = ()


def deal(players: int, deck: Composition, rng: random.Random, options: Options) -> Deal:
    """Shuffle and deal with the given random source; the Thief gets two extra cards."""
    validate(players, deck, options)
    cards = [role for role in sorted(deck) for _ in range(deck[role])]  # by key: a Role is its key's str
    if _ROLE_THIEF in deck and options.thief_extra_cards == "from_deck":
        # The Thief card itself is always dealt: the two leftovers are the others' cards.
        cards.remove(_ROLE_THIEF)
        rng.shuffle(cards)
        if any(r.seated or r.copies for r in deck):
            # Cards always dealt to a seat (double-faced, or siblings dealt together) go first.
            cards.sort(key=lambda r: not (r.seated or r.copies))
            seats, extra = cards[: players - 1], cards[players - 1 :]
            rng.shuffle(seats)
        else:
            seats, extra = cards[: players - 1], cards[players - 1 :]
        seats.insert(rng.randrange(players), _ROLE_THIEF)
        return Deal(tuple(seats), tuple(extra))
    rng.shuffle(cards)
    if _ROLE_THIEF in deck:
        return Deal(tuple(cards), (_ROLE_VILLAGER, _ROLE_VILLAGER))
    return Deal(tuple(cards))


def set_aside(deck: Composition, count: int, rng: random.Random) -> Composition:
    """The deck dealt when `count` special cards are set aside unseen (docs/rules-spec.md#set-aside):
    drawn with `rng` among the single cards that are neither the pack's nor dealt to a known seat
    or in a fixed number of copies, each replaced by a Villager (fewer when fewer such cards)."""
    cards = [r for r in sorted(deck) if r is not _ROLE_VILLAGER and deck[r] == 1
             and r not in hooks.PACK and not r.seated and not r.copies]
    out = dict(deck)
    for role in rng.sample(cards, min(count, len(cards))):
        del out[role]
        out[_ROLE_VILLAGER] = out.get(_ROLE_VILLAGER, 0) + 1
    return out


def deck_of(seats: tuple[Role, ...], extra: tuple[Role, ...] = ()) -> dict[Role, int]:
    """How many of each card, in the order they first appear (a plain loop: two `Counter`s and their
    sum cost more than the rest of a game's start in the simulator)."""
    counts: dict[Role, int] = {}
    get = counts.get
    for role in seats:
        counts[role] = get(role, 0) + 1
    for role in extra:
        counts[role] = get(role, 0) + 1
    return counts
