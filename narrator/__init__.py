"""narrator: an offline, hands-free narrator for the party game Werewolf."""

__version__ = "0.1.0"

# The role catalogue fills the engine's registries (narrator/rules/hooks.py) as it loads; it is
# loaded here, with the package, so that the engine is complete whatever is imported first,
# and the engine itself never imports its catalogue (no rules <-> roles import cycle).
import narrator.roles  # noqa: E402,F401  (pure: cards and calls, no I/O)
