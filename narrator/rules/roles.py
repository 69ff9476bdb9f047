"""Roles, teams and the sides that can win."""

from __future__ import annotations

from enum import Enum


class Team(str, Enum):
    """The team a role card plays for."""

    VILLAGE = "village"
    WOLVES = "wolves"


class Side(str, Enum):
    """Who won a game: the four outcomes of RULES.md."""

    VILLAGE = "village"
    WEREWOLVES = "werewolves"
    LOVERS = "lovers"
    NOBODY = "nobody"


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

    @property
    def team(self) -> Team:
        return Team.WOLVES if self is Role.WEREWOLF else Team.VILLAGE

    @property
    def is_wolf(self) -> bool:
        return self is Role.WEREWOLF

    @property
    def unique(self) -> bool:
        """Only Villagers and Werewolves may appear more than once in a deck."""
        return self not in (Role.VILLAGER, Role.WEREWOLF)

    @classmethod
    def parse(cls, text: str) -> Role:
        """Read a role name as a user types it (`little girl`, `Little-Girl`, `werewolves`)."""
        from narrator.rules.errors import UnknownRoleError

        key = text.strip().lower().replace("-", "_").replace(" ", "_")
        key = _ALIASES.get(key, key)
        try:
            return cls(key)
        except ValueError:
            known = ", ".join(r.value for r in cls)
            raise UnknownRoleError(f"unknown role {text!r}; known roles: {known}") from None


_ALIASES = {
    "werewolves": "werewolf",
    "wolf": "werewolf",
    "wolves": "werewolf",
    "villagers": "villager",
    "girl": "little_girl",
}

# Roles with a call of their own at night, in calling order (RULES.md "The night").
NIGHT_ROLES: tuple[Role, ...] = (Role.THIEF, Role.CUPID, Role.SEER, Role.WEREWOLF, Role.WITCH)
