"""The rules engine: pure, event-sourced, and the only place that knows the rules of the game.

The engine never imports its role catalogue (narrator/roles): the role modules fill its
registries (narrator/rules/hooks.py) when they load, and the `narrator` package loads them
first, whatever module of narrator is imported."""

from narrator.rules.composition import Deal, complete, deal, default_deck, parse_roles, suggest, validate
from narrator.rules.errors import (
    CompositionError,
    IllegalActionError,
    InvalidTargetError,
    OptionError,
    RulesError,
    UnknownRoleError,
    WrongPhaseError,
)
from narrator.rules.events import Ballot, Cause, Event
from narrator.rules.game import Awaiting, Game, Outcome, Phase, Step
from narrator.rules.options import Options
from narrator.rules.roles import Role, Side, Team

__all__ = [
    "Awaiting", "Ballot", "Cause", "CompositionError", "Deal", "Event", "Game", "IllegalActionError",
    "InvalidTargetError", "OptionError", "Options", "Outcome", "Phase", "Role",
    "RulesError", "Side", "Step", "Team", "UnknownRoleError", "WrongPhaseError",
    "complete", "deal", "default_deck", "parse_roles", "suggest", "validate",
]
