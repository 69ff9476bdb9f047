"""The tests' twins of the ports, in one place: a whole game with no audio, no screen and no wait.

Production code never imports this module (tests/test_layering.py proves it): the twins are the
device-free adapters production uses too (headless play, the demo), under the names tests know.
"""

from __future__ import annotations

from narrator.clock import VirtualClock
from narrator.headless import Timeline, TimelineDisplay, TimelineSpeaker
from narrator.journal import MemoryJournal
from narrator.listening.automatic import RandomPlayers as RandomListener
from narrator.listening.automatic import ScriptPlayers as FakeListener
from narrator.speech.estimated import EstimatedSpeaker, estimated_duration

__all__ = ["EstimatedSpeaker", "FakeListener", "MemoryJournal", "RandomListener", "Timeline", "TimelineDisplay",
           "TimelineSpeaker", "VirtualClock", "estimated_duration"]
