"""Precise errors for illegal actions; every message quotes the input it refuses."""

from __future__ import annotations

from narrator.errors import NarratorError


class RulesError(NarratorError):
    """Root of every refusal by the rules engine. The game state is unchanged after one."""


class UnknownRoleError(RulesError):
    """A role name that is not a role of the game."""


class OptionError(RulesError):
    """An unknown option key or a value the option does not take."""


class CompositionError(RulesError):
    """A deck that cannot be dealt to this table."""


class IllegalActionError(RulesError):
    """An action the rules forbid right now (wrong phase, spent potion, dead actor...)."""


class InvalidTargetError(IllegalActionError):
    """A target that may not be chosen: out of range, dead, a Werewolf for the Werewolves..."""


class WrongPhaseError(IllegalActionError):
    """An action outside the moment of the game that allows it."""
