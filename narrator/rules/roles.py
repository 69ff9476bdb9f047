"""Roles, teams and the sides that can win."""

from __future__ import annotations

from enum import Enum

from narrator.errors import marked


class Team(str, Enum):
    """The team a role card plays for."""

    VILLAGE = "village"
    WOLVES = "wolves"
    # Loners (docs/rules-spec.md#terms): each wins alone.
    PIED_PIPER = "pied_piper"
    WHITE_WEREWOLF = "white_werewolf"
    # Loners (docs/rules-spec.md#terms): each wins alone.
    ANGEL = "angel"
    ABOMINABLE_SECTARIAN = "abominable_sectarian"


class Side(str, Enum):
    """Who won a game: the four outcomes of docs/rules-spec.md#end, and the loners of docs/rules-spec.md#end."""

    VILLAGE = "village"
    WEREWOLVES = "werewolves"
    LOVERS = "lovers"
    NOBODY = "nobody"
    # Loners, each alone (docs/rules-spec.md#end).
    PIED_PIPER = "pied_piper"
    WHITE_WEREWOLF = "white_werewolf"
    # Loners (docs/rules-spec.md#end).
    ANGEL = "angel"
    ABOMINABLE_SECTARIAN = "abominable_sectarian"


class Role(str, Enum):
    """A role card. The value is the stable key used in files, packs and the CLI."""

    VILLAGER = "villager"
    WEREWOLF = "werewolf"
    SEER = "seer"
    WITCH = "witch"
    HUNTER = "hunter"
    CUPID = "cupid"
    LITTLE_GIRL = "little_girl"
    THIEF = "thief"
    SAVIOR = "savior"
    RAVEN = "raven"
    VILLAGE_IDIOT = "village_idiot"
    # The loners of Nouvelle Lune and Le Village (narrator/roles/pied_piper.py, white_werewolf.py).
    PIED_PIPER = "pied_piper"
    WHITE_WEREWOLF = "white_werewolf"
    # Personnages (Characters): the village's cards.
    VILLAGER_VILLAGER = "villager_villager"
    TWO_SISTERS = "two_sisters"
    THREE_BROTHERS = "three_brothers"
    FOX = "fox"
    BEAR_TAMER = "bear_tamer"
    KNIGHT_RUSTY_SWORD = "knight_rusty_sword"
    STUTTERING_JUDGE = "stuttering_judge"
    # The Elder and the Scapegoat (narrator/roles/elder.py, scapegoat.py).
    ELDER = "elder"
    SCAPEGOAT = "scapegoat"
    # Personnages: a loner of the first turn, a loner of two groups, the Actor.
    ANGEL = "angel"
    ABOMINABLE_SECTARIAN = "abominable_sectarian"
    ACTOR = "actor"
    # Personnages: team changes and the pack's extra powers.
    WILD_CHILD = "wild_child"
    WOLF_HOUND = "wolf_hound"
    ACCURSED_WOLF_FATHER = "accursed_wolf_father"
    BIG_BAD_WOLF = "big_bad_wolf"
    DEVOTED_SERVANT = "devoted_servant"

    @property
    def team(self) -> Team:
        """The team at the deal, as the role's card declares it (narrator/roles/<role>.py)."""
        return _TEAMS[self]

    @property
    def copies(self) -> int:
        """The fixed number of copies the card is dealt in (the Two Sisters: 2), or 0."""
        return _COPIES.get(self, 0)

    @property
    def seated(self) -> bool:
        """Always dealt to a seat, never one of the Thief's extra cards (a double-faced card)."""
        return self in _SEATED

    @property
    def unique(self) -> bool:
        """At most one copy in a deck, as the role's card declares it."""
        return self in _UNIQUE

    @classmethod
    def parse(cls, text: str) -> Role:
        """Read a role name as a user types it (`little girl`, `Little-Girl`, `werewolves`)."""
        from narrator.rules.errors import UnknownRoleError

        key = text.strip().lower().replace("-", "_").replace(" ", "_")
        key = _ALIASES.get(key, key)
        if key in _NOT_PLAYED:
            raise UnknownRoleError(_NOT_PLAYED[key], text=text)
        try:
            return cls(key)
        except ValueError:
            known = ", ".join(r.value for r in cls)
            raise UnknownRoleError("unknown role {text!r}; known roles: {known}", text=text, known=known) from None


# Roles of docs/rules-spec.md this narrator will not play, and why.
_NOT_PLAYED = {
    "pyromaniac": marked("{text!r}: the Pyromaniac is not played: his power burns one of Le Village's building cards, "
                         "which the narrator does not have (see narrator rules)"),
}

_ALIASES = {
    "werewolves": "werewolf",
    "wolf": "werewolf",
    "wolves": "werewolf",
    "villagers": "villager",
    "girl": "little_girl",
}

# Filled by the role catalogue (narrator.roles) from the cards when it is loaded; the
# `narrator` package loads it first, whatever is imported.
_TEAMS: dict[Role, Team] = {}
_UNIQUE: set[Role] = set()
_COPIES: dict[Role, int] = {}  # cards dealt in a fixed number of copies (the Two Sisters: 2)
_SEATED: set[Role] = set()
