"""Rendering starts while the wizard asks its last questions (docs/voice.md).

The wizard fixes the composition with its roles and rules questions and the voice with its language
question; what it asks after that (answers by, the voice check, turn lengths, the cards, names,
phones) changes no line of the first night. So as soon as the language is answered (or the last
table is offered again) the first night's lines go to the render queue, in the order of need, and
the table's last answers are given while they render. Nothing is printed and no question waits.

If the table then changes its composition or language (the last table offered, then changed), the
early lines may not be needed: the game plans its own lines again, which replaces the early plan
(what a worker is rendering finishes; a line in the cache is never rendered twice).
"""

from __future__ import annotations

import argparse
import threading
from typing import TYPE_CHECKING, Callable

from narrator.errors import NarratorError
from narrator.packs import VoicePack
from narrator.table.config import TableConfig

if TYPE_CHECKING:
    from narrator.speech.need import ReadyLines
    from narrator.speech.pool import RenderPool


class EarlyRender:
    """The wizard's hook (`Wizard.composed`): plans the lines a table's game can say on the render
    queue `open_lines` gives for its pack (None: nothing to render ahead, e.g. no sound).

    At the table the plan is made on a thread of its own (`background`), so the next question is
    asked at once; `stop` makes sure no plan is made after it returns (the game plans its own)."""

    def __init__(self, open_lines: Callable[[VoicePack], "ReadyLines | None"], background: bool = True) -> None:
        self.open_lines = open_lines
        self.background = background
        self.planned: list[TableConfig] = []  # the tables planned for, in order
        self._lock = threading.Lock()
        self._stopped = False
        self._threads: list[threading.Thread] = []

    def __call__(self, config: TableConfig) -> None:
        if not self.background:
            self._plan(config)
            return
        thread = threading.Thread(target=self._quietly, args=(config,), name="narrator-early-render", daemon=True)
        self._threads.append(thread)
        thread.start()

    def join(self) -> None:
        """Wait until every plan asked for is made (or dropped)."""
        for thread in self._threads:
            thread.join()

    def _quietly(self, config: TableConfig) -> None:
        try:
            self._plan(config)
        except Exception:  # noqa: BLE001 - nothing may print over the wizard: the game renders what it needs
            pass

    def _plan(self, config: TableConfig) -> None:
        from narrator.flow.run import start_game
        from narrator.flow.sequencer import all_cues
        from narrator.packs import PackError, load_pack
        from narrator.speech.need import plan_of
        from narrator.table.setups import setup_from_config

        try:
            pack = load_pack(config.language)
            setup = setup_from_config(config, 0)  # any deal: the lines depend on the deck, not on who holds what
        except (PackError, NarratorError):
            return  # the game says what is wrong, at its own time
        planned, _ = plan_of(pack, all_cues(pack, start_game(setup), setup.timing))
        with self._lock:
            if self._stopped:
                return
            lines = self.open_lines(pack)
            if lines is None:
                return
            lines.plan(planned.items())
            self.planned.append(config)

    def stop(self) -> None:
        """No plan after this (one being made is finished first)."""
        with self._lock:
            self._stopped = True


class TablePool:
    """`open_lines` at the table: the render workers of the engine the game will speak with, started
    on the first plan and handed to the game's speaker (`take`); closed if the game never takes them."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.pool: RenderPool | None = None

    def __call__(self, pack: VoicePack) -> "ReadyLines | None":
        from narrator.speech.need import PoolLines
        from narrator.speech.render import cache_root
        from narrator.speech.speaker import engine_voice

        if getattr(self.args, "no_audio", False) or getattr(self.args, "recorded", None):
            return None  # silent, or a recorded voice: nothing the workers render ahead
        found = engine_voice(pack, getattr(self.args, "engine", None))
        if found is None:
            return None
        engine, settings = found  # (a missing engine or voice: the game says so when it opens it)
        root = cache_root() / "tts"
        if self.pool is not None and (self.pool.engine, self.pool.root) != (engine, root):
            self.close()
        if self.pool is None:
            from narrator.speech.pool import RenderPool

            self.pool = RenderPool(engine, root)
        return PoolLines(self.pool, settings)

    def take(self) -> "RenderPool | None":
        pool, self.pool = self.pool, None
        return pool

    def close(self) -> None:
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.close()
