"""Events as plain JSON-ready dicts (for the journal and the timeline), and back."""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from narrator.rules import events as ev
from narrator.rules.errors import RulesError
from narrator.rules.options import Options
from narrator.rules.roles import Role

_TYPES: dict[str, type] = {cls.__name__: cls for cls in ev.Event.__args__}  # type: ignore[attr-defined]


# The exact types an event's field holds most: returned as they are, before the checks below (a
# Role is a `str` too, but its type is Role, not str, so it still reaches the Enum check).
_SCALARS = (int, str, bool, type(None))


def _plain(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is tuple:  # tested before the checks below: a vote's ballots are tuples of tuples
        return [v if type(v) in _SCALARS else _plain(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Options):
        return value.to_dict()
    if isinstance(value, frozenset):
        return sorted(_plain(v) for v in value)
    if isinstance(value, (tuple, list)):
        return [v if type(v) in _SCALARS else _plain(v) for v in value]
    return value


def event_to_dict(event: ev.Event) -> dict[str, Any]:
    """A field added later (`_DEFAULTED`) is left out while at its default: the event is written
    as a journal made before that field wrote it, so resuming such a journal compares equal."""
    kind = type(event)
    out: dict[str, Any] = {"type": kind.__name__}
    fields = _FIELDS.get(kind)
    if fields is None:
        later = _DEFAULTED.get(kind, ())
        fields = _FIELDS[kind] = tuple((f.name, f.name in later, f.default) for f in dataclasses.fields(kind))
    for name, defaulted, default in fields:
        value = getattr(event, name)
        if defaulted and value == default:
            continue
        out[name] = value if type(value) in _SCALARS else _plain(value)
    return out


# Each event type's fields (name, added later, default), read once: a journal writes every event of
# a game, and `dataclasses.fields` builds its answer again on each call.
_FIELDS: dict[type, tuple[tuple[str, bool, Any], ...]] = {}


# Fields added to an event after journals were written, with a default.
_DEFAULTED: dict[type, tuple[str, ...]] = {ev.GameStarted: ("laid",), ev.WitchActed: ("saved",),
                                           ev.WindowOpened: ("queue",)}


def event_from_dict(data: dict[str, Any]) -> ev.Event:
    name = data.get("type")
    cls = _TYPES.get(str(name))
    if cls is None:
        raise RulesError("unknown event type {name!r}", name=name)
    hints = {f.name: f.type for f in dataclasses.fields(cls)}
    kwargs: dict[str, Any] = {}
    for key, kind in hints.items():
        if key not in data and key in _DEFAULTED.get(cls, ()):
            continue  # a field added later with a default (journals written before it)
        if key not in data:
            raise RulesError("event {name} lacks field {key!r}", name=name, key=key)
        kwargs[key] = _typed(str(kind), data[key])
    event: ev.Event = cls(**kwargs)
    return event


def _typed(kind: str, value: Any) -> Any:
    if value is None and kind.endswith("| None"):
        return None
    if kind == "Options":
        return Options().with_values(value)
    if kind == "frozenset[Role]":
        return frozenset(Role(v) for v in value)
    if kind in ("tuple[Role, ...]",):
        return tuple(Role(v) for v in value)
    if kind in ("Role", "Role | None"):
        return None if value is None else Role(value)
    if kind == "Cause":
        return ev.Cause(value)
    if kind == "Ballot":
        return ev.Ballot(value)
    if kind == "Side":
        from narrator.rules.roles import Side

        return Side(value)
    if kind == "tuple[tuple[int, Cause], ...]":
        return tuple((int(s), ev.Cause(c)) for s, c in value)
    if kind.startswith("tuple[tuple["):
        return tuple(tuple(pair) for pair in value)
    if kind.startswith("tuple["):
        return tuple(value)
    return value
