"""The root of every error the narrator raises on purpose."""


class NarratorError(Exception):
    """Base of every deliberate error: a user's mistake or a refused action.

    The command line turns these into one clear line and a non-zero exit;
    anything else is a bug and keeps its traceback.
    """


class UsageError(NarratorError):
    """Bad input from the command line, a setup file or a config file."""
