"""Lines rendered in the order of need, never late (docs/voice.md).

A game knows when each line can first be said. Every line the first night can say (the setup's,
the night's, the dawn's) is needed before the first line: line lengths set the night's schedule,
so none of them may be missing once the game speaks. The lines of the day (the dawn, the deaths,
the Sheriff's election, the debate, the vote) are first said after the first night: they render in the background while the
night plays. If one is still not ready when it is due (a very slow machine), the narrator says so
and waits openly, at that public moment, instead of speaking late; a night line is never waited for.

`NeedSpeaker` wraps any `Speaker`; `ReadyLines` is the render queue behind it: `RenderPool`
(worker processes, `PoolLines`) at the table, a fake slow synth on a virtual clock in tests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, Protocol

from narrator.i18n import tr
from narrator.packs import VoicePack
from narrator.ports import Cue, Speaker

if TYPE_CHECKING:
    from narrator.speech.pool import RenderPool
    from narrator.speech.render import VoiceSettings

FIRST = 0.0  # needed before the game's first line
LATER = 1.0  # first said after the first night: rendered while it plays
UNLIKELY = 2.0  # a line of a role not in this game: rendered last (every line the pack has is)
# Keys first said in the day, after the first night: the dawn and its deaths, the chain of deaths,
# the Sheriff's election, the debate, the vote, the game's end (every one said at a day.* or game.over phase).
LATER_PREFIXES = ("day.", "chain.", "captain.", "debate.", "vote.", "game.over")
WAIT_KEY = "game.voices_wait"  # "One moment: the narrator is still preparing its voice."


def need_of(key: str) -> float:
    """The soonest a line with this key can be said: FIRST (before the first line) or LATER."""
    return LATER if key.startswith(LATER_PREFIXES) and key != WAIT_KEY else FIRST


def role_of_key(pack: VoicePack, key: str) -> str | None:
    """The role whose line this is ("seer.wake": seer; "devoted_servant_reset.call": devoted_servant), if any."""
    prefix = key.split(".", 1)[0]
    matches = [r for r in pack.roles if prefix == r or prefix.startswith(r + "_")]
    return max(matches, key=len) if matches else None


def roles_not_in_play(pack: VoicePack, cues: list[Cue]) -> set[str]:
    """The pack's roles no cue names: the game's lines name every role in play (its role slots)."""
    from narrator.packs import ROLE_SLOTS

    named = {str(v) for cue in cues for k, v in cue.slots.items() if k in ROLE_SLOTS}
    if not named:
        return set()
    return {r for r in pack.roles if r not in named}


def is_public(cue: Cue) -> bool:
    """Whether the table is awake when this cue is said: the only moments the narrator may wait openly."""
    return not cue.phase.startswith("night.")


class ReadyLines(Protocol):
    """A render queue: lines planned with the moment they are needed, rendered soonest-needed first."""

    def plan(self, lines: Iterable[tuple[str, float]]) -> None: ...

    def ready(self, text: str) -> bool: ...

    def wait(self, texts: Iterable[str]) -> None:
        """Block until every line is rendered (most urgent first)."""
        ...


def texts_of_cue(pack: VoicePack, cue: Cue, engine: str | None = None) -> list[str]:
    """Every variant's spoken text of a cue, as the engine renders it (variants take turns: any
    of them may be said)."""
    return [pack.spoken(cue, v, engine) for v in range(len(pack.lines.get(cue.key, ("",))))]


def plan_of(pack: VoicePack, cues: Iterable[Cue],
            texts: Callable[[Cue], list[str]] | None = None) -> tuple[dict[str, float], list[str]]:
    """Every line these cues can say with the moment it is first needed (FIRST, LATER or UNLIKELY),
    and the lines the first night needs before the game's first line (the wait line's among them)."""
    texts = texts or (lambda cue: texts_of_cue(pack, cue))
    cues = list(cues)
    first: list[str] = list(texts(Cue(WAIT_KEY)))
    planned: dict[str, float] = dict.fromkeys(first, FIRST)
    absent = roles_not_in_play(pack, cues)
    for cue in cues:
        need = need_of(cue.key)
        if need == FIRST and role_of_key(pack, cue.key) in absent:
            need = UNLIKELY
        for text in texts(cue):
            if planned.get(text, float("inf")) > need:
                planned[text] = need
            if need == FIRST:
                first.append(text)
    return planned, list(dict.fromkeys(first))


class NeedSpeaker:
    """A `Speaker` whose lines render in the order of need: `prepare` waits only for the first
    night's lines; `say` never speaks a line that is not ready, and waits openly for one only at a
    public moment (after saying `WAIT_KEY`)."""

    def __init__(self, inner: Speaker, pack: VoicePack, lines: ReadyLines,
                 texts: Callable[[Cue], list[str]] | None = None) -> None:
        self.inner = inner
        self.pack = pack
        self.lines = lines
        self.texts = texts or (lambda cue: texts_of_cue(pack, cue))
        self.waits: list[Cue] = []  # the cues the narrator waited for, openly
        self.late: list[Cue] = []  # cues said before they were ready: must stay empty

    def prepare(self, cues: Iterable[Cue]) -> None:
        planned, first = plan_of(self.pack, cues, self.texts)
        self.lines.plan(planned.items())
        self.lines.wait(first)

    def say(self, cue: Cue, at: float | None = None) -> float:
        texts = self.texts(cue)
        if not all(self.lines.ready(t) for t in texts):
            if is_public(cue):
                self.waits.append(cue)
                said = self.inner.say(Cue(WAIT_KEY, phase=cue.phase))
                self.lines.wait(texts)
                at = said  # the moment has moved: said once it is ready, after the wait's own line
            else:  # pragma: no cover - prepare waited for every line the night can say
                self.late.append(cue)
        return self.inner.say(cue, at)

    def close(self) -> None:
        try:
            self.inner.close()
        finally:
            close = getattr(self.lines, "close", None)
            if close is not None:
                close()


class PoolLines:
    """`ReadyLines` on the render workers (narrator/speech/pool.py), for one voice."""

    def __init__(self, pool: "RenderPool", settings: "VoiceSettings", label: str | None = None) -> None:
        self.pool = pool
        self.settings = settings
        self.label = label  # the first wait (before the game's screen) shows a progress bar with it

    def plan(self, lines: Iterable[tuple[str, float]]) -> None:
        # A plan replaces the one before (the setup's early plan, when the table changed since).
        self.pool.plan(lines, self.settings, replace=True)

    def ready(self, text: str) -> bool:
        return self.pool.ready(text, self.settings)

    def wait(self, texts: Iterable[str]) -> None:
        import sys

        texts = list(texts)
        label, self.label = self.label, None
        todo = [t for t in texts if not self.pool.ready(t, self.settings)]
        if not todo or label is None or not sys.stderr.isatty():
            self.pool.wait(texts, self.settings)
            return
        from narrator.speech.render import progress_bar

        with progress_bar(label) as step:
            done = [0]

            def on_done(n: int) -> None:
                done[0] += n
                step(min(done[0], len(todo)), len(todo))

            self.pool.on_done = on_done
            try:
                self.pool.wait(texts, self.settings)
            finally:
                self.pool.on_done = None

    def close(self) -> None:
        self.pool.close()


def in_order_of_need(speaker: Speaker, started: "RenderPool | None" = None) -> Speaker:
    """The table's speaker with its engine's lines rendered in the order of need by worker processes;
    unchanged when there is nothing to render that way (no audio, a recorded pack, another engine).
    `started`: the workers the setup started while it asked its last questions (narrator/table/early.py),
    taken over when they render for this engine into this cache, else closed."""
    from narrator.speech.render import POOLED_ENGINES
    from narrator.speech.speaker import AudioSpeaker

    engine = speaker.renderer.synth.engine if isinstance(speaker, AudioSpeaker) else None
    if (not isinstance(speaker, AudioSpeaker) or speaker.recorded is not None or engine not in POOLED_ENGINES
            or engine is None):
        if started is not None:
            started.close()
        return speaker
    if started is not None and (started.engine, started.root) == (engine, speaker.renderer.root):
        pool = started
    else:
        if started is not None:
            started.close()
        from narrator.speech.pool import RenderPool

        pool = RenderPool(engine, speaker.renderer.root)
    label = tr("rendering {pack} voice lines for the first night", pack=speaker.pack.name)
    from narrator.speech.speaker import pack_engine

    said_by = pack_engine(engine)
    pack = speaker.pack
    return NeedSpeaker(speaker, pack, PoolLines(pool, speaker.settings, label),
                       lambda cue: texts_of_cue(pack, cue, said_by))
