"""The roles' rule options as the engine's `Options` declares them: its typed fields, written from
each module's `RoleModule.options` (`python scripts/options.py` puts them in narrator/rules/options.py)."""

from __future__ import annotations

import typing
from typing import Literal

from narrator.roles.base import Option, RoleModule

START = "    # ---- the roles' options, from their modules: written by `python scripts/options.py` ----\n"
END = "    # ---- end of the roles' options ----\n"


def annotation(option: Option) -> str:
    """The field's type as the engine's `Options` writes it."""
    if typing.get_origin(option.kind) is Literal:
        return "Literal[" + ", ".join(f'"{word}"' for word in typing.get_args(option.kind)) + "]"
    return {bool: "bool", int: "int", str: "str"}[option.kind]


def fields(modules: typing.Iterable[RoleModule]) -> str:
    """The typed fields of every role's options, one role after another in the catalogue's order."""
    lines: list[str] = []
    for module in modules:
        if not module.options:
            continue
        lines.append(f"    # narrator/roles/{module.card.role.value}.py\n")
        for option in module.options:
            lines.append(f"    {option.key}: {annotation(option)} = {option.default!r}\n".replace("'", '"'))
    return "".join(lines)


def source(text: str, modules: typing.Iterable[RoleModule]) -> str:
    """narrator/rules/options.py's text with the roles' fields written between its two markers."""
    start, end = text.index(START) + len(START), text.index(END)
    return text[:start] + fields(modules) + text[end:]
