"""What the table hears: lines said one after another, and the night's lines queued on its schedule."""

from __future__ import annotations

from narrator.ports import Clock, Cue, Speaker


class Voice:
    """Says cues through the speaker. By day a line is said and waited for (`say`); at night each
    line has its place on the clock before the call starts and is queued `queue_lead` ahead with
    its time (`line`), which the speaker keeps to the audio frame (`Speaker.say(cue, at)`): no
    journal write, however slow the disk, moves a line the table hears."""

    # The night's lines are queued this long before their time, and the speaker starts each at
    # its time on the audio clock: a thread late by less than this changes nothing audible.
    queue_lead = 0.3

    def __init__(self, speaker: Speaker, clock: Clock) -> None:
        self.speaker = speaker
        self.clock = clock
        self.last_cue: Cue | None = None  # what `*` says again
        # When the first line of the coming step is due (the last night step's `hold`), and the time
        # a night step's last line asks the next one to keep.
        self.due: float | None = None
        self.hold: float | None = None

    def take_due(self) -> float | None:
        due, self.due = self.due, None
        return due

    def say(self, cue: Cue) -> None:
        """Say a line (when the step's first line is due, or now) and wait for its end."""
        self.last_cue = cue
        end = self.speaker.say(cue, self.take_due())
        self.clock.sleep_until(end)

    def line(self, cue: Cue, at: float | None = None) -> float:
        """Start a line (at clock time `at`, or when the step's first line is due, or now) and
        return when it will end, without waiting for it (the night's schedule)."""
        self.last_cue = cue
        due = self.take_due()
        return self.speaker.say(cue, at if at is not None else due)

    def wait_until(self, t: float) -> None:
        self.clock.sleep_until(t)
