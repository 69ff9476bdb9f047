"""The root of every error the narrator raises on purpose."""

from __future__ import annotations


class NarratorError(Exception):
    """Base of every deliberate error: a user's mistake or a refused action.

    The command line turns these into one clear line and a non-zero exit;
    anything else is a bug and keeps its traceback.

    The message is an English template with named slots, filled from `slots`:
    `UsageError("no seat {seat}", seat=7)`. `str(exc)` is the English text; the command line
    prints it in the table's language with `narrator.i18n.message_of` (see docs/languages.md).
    """

    def __init__(self, template: object = "", /, **slots: object) -> None:
        self.template = str(template)
        self.slots: dict[str, object] = dict(slots)
        super().__init__(english(self.template, slots))


def english(template: str, slots: dict[str, object]) -> str:
    """A template's English text, its slots filled (a template whose slots do not fit keeps them
    beside it, so nothing is lost from a message)."""
    if not slots:
        return template
    try:
        return template.format(**slots)
    except (KeyError, IndexError, ValueError):
        return f"{template} {slots!r}"


class UsageError(NarratorError):
    """Bad input from the command line, a setup file or a config file."""


def marked(template: str, /) -> str:
    """`template` as it is: marks an English template that is chosen here and translated later
    (with `narrator.i18n.tr`, or as an error's template), so that `python -m narrator.messages`
    collects it. It lives here, beside the errors, so that any layer may mark its templates."""
    return template
