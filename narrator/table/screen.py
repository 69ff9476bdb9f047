"""The full-screen board (Rich): public state in big digits by day, a dark screen by night.

The private panel exists only between `show_private` and `clear_private`, which the sequencer
calls at the end of a wake line and at the sleep line; `clear_private` redraws at once, so the
card is gone before the sleep line is heard.
"""

from __future__ import annotations

import threading
from typing import Any, Iterable, Mapping

from rich.align import Align
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from narrator.flow.timing import Timing
from narrator.i18n import tr
from narrator.packs import VoicePack
from narrator.ports import Clock, Cue, Heard, Listener, PanelLines, Prompt, SlotValue, Speaker

GLYPHS: dict[str, tuple[str, ...]] = {
    "0": ("███", "█ █", "█ █", "█ █", "███"),
    "1": (" █ ", "██ ", " █ ", " █ ", "███"),
    "2": ("███", "  █", "███", "█  ", "███"),
    "3": ("███", "  █", "███", "  █", "███"),
    "4": ("█ █", "█ █", "███", "  █", "  █"),
    "5": ("███", "█  ", "███", "  █", "███"),
    "6": ("███", "█  ", "███", "█ █", "███"),
    "7": ("███", "  █", "  █", "  █", "  █"),
    "8": ("███", "█ █", "███", "█ █", "███"),
    "9": ("███", "█ █", "███", "  █", "███"),
    ":": (" ", "█", " ", "█", " "),
    " ": ("  ",) * 5,
}

# The night's private box, in character cells (smaller on a smaller terminal): wide enough for a
# card's reminder in two lines, high enough for the Witch's panel with what was typed and a note.
PANEL_WIDTH = 100
PANEL_HEIGHT = 16

# What the table is doing, from the phase of the last line said (the board lags one step).
# Labels are the pack's panel lines `phase.*`.
PHASES = {
    "day.morning": "phase.morning", "day.chain": "phase.morning", "day.captain": "phase.captain",
    "day.debate": "phase.debate", "day.vote": "phase.vote", "day.dusk": "phase.dusk", "game.over": "phase.over",
    "game.pause": "phase.paused",
}


def big(text: str) -> str:
    """Digits five rows high, readable across the table."""
    rows = []
    for r in range(5):
        rows.append(" ".join(GLYPHS.get(ch, GLYPHS[" "])[r] for ch in text))
    return "\n".join(rows)


class ScreenDisplay:
    """The Display port on a Rich console; `start()` takes the whole terminal until `stop()`."""

    def __init__(self, pack: VoicePack, clock: Clock, console: Console | None = None, timing: Timing | None = None) -> None:
        self.pack = pack
        self.clock = clock
        self.console = console or Console()
        self.timing = timing or Timing()
        self.state: dict[str, Any] = {}
        self.private: str | None = None
        self.note = ""
        self.caption = ""
        self.phase = ""  # the phase of the last line said: `night.*` darkens the screen
        self.typed = ""
        self.timer_end: float | None = None
        self.prompt_end: float | None = None
        self.paused_at: float | None = None
        self.title = "narrator"
        self.final_hint = ""  # after the game: which key ends it
        self.hint = ""  # by day, while a seat is asked for: how to answer
        self.live: Any = None
        self.lock = threading.Lock()

    # ---- lifetime -----------------------------------------------------------------------

    def start(self) -> None:
        from rich.live import Live

        self.live = Live(get_renderable=self.render, console=self.console, screen=True, auto_refresh=True,
                         refresh_per_second=4, redirect_stdout=False, redirect_stderr=False)
        self.live.start()

    def stop(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None

    def refresh(self) -> None:
        if self.live is not None:
            self.live.refresh()

    # ---- the Display port ---------------------------------------------------------------

    def board(self, state: Mapping[str, Any]) -> None:
        with self.lock:
            self.state = dict(state)
        self.refresh()

    def show_private(self, key: str, slots: Mapping[str, SlotValue], more: PanelLines = ()) -> None:
        with self.lock:
            self.private = "\n".join(self.pack.panel_text(k, s) for k, s in ((key, slots), *more))
            self.note = ""
        self.refresh()

    def clear_private(self) -> None:
        with self.lock:
            self.private = None
            self.note = ""
            self.typed = ""
        self.refresh()

    def feedback(self, key: str, slots: Mapping[str, SlotValue]) -> None:
        with self.lock:
            self.note = self.pack.panel_text(key, slots)
        self.refresh()

    # ---- what the other adapters tell the screen ----------------------------------------

    def said(self, cue: Cue, text: str, end: float) -> None:
        """A spoken line: the caption, and the debate timer, which only public lines move."""
        with self.lock:
            self.caption = text
            self.note = ""  # an input's feedback belongs to the line it answered
            # A chain (a grief, the Hunter's shot) belongs to the part of the day it follows:
            # a death after the vote stays under "Vote", not "Morning".
            chain_by_day = cue.phase == "day.chain" and self.phase.startswith("day.")
            if cue.phase and cue.phase != "game.pause" and not chain_by_day:
                self.phase = cue.phase
            if cue.key in ("debate.start", "debate.start_one", "debate.start_seconds"):
                self.timer_end = end + self.timing.debate
            elif cue.key in ("debate.more_time", "debate.more_time_one") and self.timer_end is not None:
                self.timer_end += self.timing.more_time
            elif cue.key == "game.paused":
                self.paused_at = self.clock.now()
            elif cue.key == "game.resumed" and self.paused_at is not None:
                if self.timer_end is not None:
                    self.timer_end += self.clock.now() - self.paused_at
                self.paused_at = None
            elif cue.key in ("debate.end", "vote.start", "day.dusk", "night.falls"):
                self.timer_end = None
        self.refresh()

    def listening(self, prompt: Prompt | None) -> None:
        with self.lock:
            self.prompt_end = None if prompt is None or prompt.night else prompt.deadline
            asks_seat = prompt is not None and not prompt.night and bool(prompt.seats) and not prompt.name.startswith("deal.")
            self.hint = self.pack.panel_text("prompt.seat_hint", {}) if asks_seat else ""
            if prompt is None:
                self.typed = ""

    def echo(self, typed: str) -> None:
        with self.lock:
            self.typed = typed
        self.refresh()

    # ---- drawing ------------------------------------------------------------------------

    def render(self) -> RenderableType:
        with self.lock:
            if not self.state or self.phase.startswith("night") or not self.phase:
                return self._night()
            return self._day()

    def _night(self) -> RenderableType:
        """Dark and the same for every call; only the awake role's panel, while it is awake."""
        height = self.console.size.height
        parts: list[RenderableType] = []
        if self.private is not None:
            body = Text(self.private, style="bold white")
            if self.typed:
                body.append(f"\n\n> {self.typed}", style="bold yellow")
            if self.note:
                body.append(f"\n\n{self.note}", style="yellow")
            # Every private box is the same size whatever it holds: a box as wide as its text would
            # tell the table across the room which card or which answer it shows. A long line wraps.
            width = max(20, min(PANEL_WIDTH, self.console.size.width - 10))
            height = max(5, min(PANEL_HEIGHT, self.console.size.height - 4))
            parts.append(Panel(Align.center(body, vertical="middle"), title="private", border_style="grey50",
                               padding=(1, 4), width=width, height=height))
        else:
            night = max(1, int(self.state.get("night", 0) or 0))
            label = self.pack.panel_text("board.night", {"count": night}) if self.phase else self.title
            parts.append(Align.center(Text(label, style="grey30")))
        if self.caption:
            parts.append(Text(""))
            parts.append(Align.center(Text(self.caption, style="grey35")))
        group = Group(*parts)
        return Align(group, align="center", vertical="middle", height=height, style="on black")

    def _day(self) -> RenderableType:
        s = self.state
        key = PHASES.get(self.phase)
        day = max(s.get("day", 0), s.get("night", 0))  # 0: the Angel's Day 0, before the first night
        phase = self.pack.panel_text(key, {"role": "captain"}) if key else self.pack.panel_text("board.day", {"count": day})
        header = Table.grid(expand=True)
        header.add_column(ratio=1)
        header.add_column(justify="right")
        timer = self._timer()
        title = Text(f"{phase}\n", style="bold")
        # The morning after night k is day k (the engine counts days from the first vote).
        title.append(self.pack.panel_text("board.day", {"count": day}), style="cyan")
        header.add_row(title, Align.right(Text(big(timer) if timer else "", style="bold green", justify="left", no_wrap=True)))
        parts: list[RenderableType] = [header, self._seats()]
        if self.private is not None:
            parts.append(Panel(Text(self.private, style="bold"), title=tr("private"), border_style="yellow"))
        line = Text(self.caption, style="italic")
        if self.typed:
            line.append(f"   > {self.typed}", style="bold yellow")
        if self.note:
            line.append(f"   {self.note}", style="yellow")
        if self.hint and not self.typed:
            line.append(f"   {self.hint}", style="grey62")
        if self.final_hint:
            line.append(f"\n{self.final_hint}", style="bold yellow")
        parts.append(Panel(line, border_style="grey50"))
        return Group(*parts)

    def _timer(self) -> str:
        end = self.timer_end if self.timer_end is not None else self.prompt_end
        if end is None:
            return ""
        now = self.paused_at if self.paused_at is not None else self.clock.now()
        left = max(0, int(end - now + 0.999))
        return f"{left // 60}:{left % 60:02d}"

    def _seats(self) -> RenderableType:
        s = self.state
        alive = set(s.get("alive", []))
        revealed: Mapping[Any, str] = s.get("revealed", {})
        captain = s.get("captain")
        seats = sorted(alive | {int(k) for k in revealed})
        width = max(20, self.console.size.width)
        rows_free = self.console.size.height - 14
        per_row = max(1, width // 13)
        big_digits = (len(seats) + per_row - 1) // per_row * 8 <= rows_free
        grid = Table.grid(padding=(0, 1))
        for _ in range(min(per_row, max(1, len(seats)))):
            grid.add_column(width=12, justify="center")
        cells: list[RenderableType] = []
        for seat in seats:
            dead = seat not in alive
            number = Text(big(str(seat)) if big_digits else str(seat), style="grey35" if dead else "bold white",
                          justify="left", no_wrap=True)
            role = revealed.get(seat) or revealed.get(str(seat))
            # The seat's name, as text (never markup), cut to the card's width.
            name = Text(self.pack.people.shown(seat) or "", style="grey50" if dead else "bold cyan", no_wrap=True,
                        overflow="ellipsis", justify="center")
            status = Text()
            if seat == captain:
                status.append(f"★ {self.pack.role_name('captain')}\n", style="bold yellow")
            if dead:
                status.append(self.pack.panel_text("board.dead", {}), style="red")
            else:
                status.append(self.pack.panel_text("board.alive", {}), style="green")
            if role:
                status.append(f"\n{self.pack.role_name(str(role))}", style="grey62" if dead else "white")
            cells.append(Group(Align.center(number), name, Align.center(status)))
        for i in range(0, len(cells), per_row):
            row = cells[i : i + per_row]
            grid.add_row(*row, *[""] * (min(per_row, len(cells)) - len(row)))
        public = s.get("public", [])  # public by design: the Sectarian's groups, the Actor's cards
        if public:
            lines = "  ".join(self.pack.text(Cue(str(key), dict(slots))) for key, slots in public)
            return Group(grid, Text(lines, style="white"))
        return grid


class ScreenSpeaker:
    """Puts each line on the screen as a caption, and lets the inner speaker say it."""

    def __init__(self, inner: Speaker, pack: VoicePack, screen: ScreenDisplay) -> None:
        self.inner = inner
        self.pack = pack
        self.screen = screen

    def say(self, cue: Cue, at: float | None = None) -> float:
        end = self.inner.say(cue, at)
        self.screen.said(cue, self.pack.text(cue), end)
        return end

    def prepare(self, cues: Iterable[Cue]) -> None:
        self.inner.prepare(cues)

    def close(self) -> None:
        self.inner.close()


class ScreenListener:
    """Tells the screen what is asked (its countdown by day) and echoes the typed keys."""

    def __init__(self, inner: Listener, screen: ScreenDisplay) -> None:
        self.inner = inner
        self.screen = screen

    @property
    def closed(self) -> bool:
        return bool(getattr(self.inner, "closed", False))

    def listen(self, prompt: Prompt) -> Heard | None:
        self.screen.listening(prompt)
        try:
            return self.inner.listen(prompt)
        finally:
            self.screen.listening(None)
