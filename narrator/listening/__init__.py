"""Listening: the numeric keypad, offline Vosk speech recognition, the speech model store, and
automatic players (no one at the table: headless play, the demo).

Heavy modules (vosk, sounddevice, numpy) are imported inside functions, never at import time.
"""

from __future__ import annotations

# Seats a keypad or a grammar can ever name (docs/rules-spec.md#players: 4 to 30 players).
MAX_SEAT = 30
