"""Lines whose key or slot depends on a length of time: the debate's minutes and the time left."""

from __future__ import annotations

from narrator.ports import Cue


def minutes_cue(key: str, seconds: float) -> Cue:
    """A debate line that counts minutes; one minute has a line of its own (no "1 minutes")."""
    minutes = max(1, round(seconds / 60))
    if minutes == 1:
        return Cue(f"{key}_one", phase="day.debate")
    return Cue(key, {"minutes": minutes}, phase="day.debate")


def debate_cue(seconds: float) -> Cue:
    """The debate's opening line: its length in minutes, or under 50 s in seconds (a 20-second
    debate is not "one minute")."""
    if seconds < 50:
        return Cue("debate.start_seconds", {"seconds": round(seconds)}, phase="day.debate")
    return minutes_cue("debate.start", seconds)


def time_left_cue(seconds: float) -> Cue:
    """What `*` says during the debate: the time actually left, in minutes, or tens of seconds."""
    if seconds >= 90:
        return Cue("debate.left", {"minutes": round(seconds / 60)}, phase="day.debate")
    if seconds >= 50:
        return Cue("debate.one_minute", phase="day.debate")
    if seconds > 10:
        return Cue("debate.left_seconds", {"count": min(50, 10 * int((seconds + 9) // 10))}, phase="day.debate")
    return Cue("debate.ten_seconds", phase="day.debate")
