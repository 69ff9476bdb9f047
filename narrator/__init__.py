"""narrator: an offline, hands-free narrator for the party game Werewolf."""

__version__ = "0.1.0"
