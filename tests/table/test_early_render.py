"""Rendering starts while the wizard asks its last questions (narrator/table/early.py),
on a fake slow synth on a virtual clock (narrator/fakes.py SlowLines): no wall clock anywhere."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from narrator import i18n
from narrator.clock import VirtualClock
from narrator.fakes import RandomListener, ScriptedAsker, SlowLines
from narrator.flow.run import start_game
from narrator.flow.sequencer import all_cues
from narrator.headless import Timeline, TimelineSpeaker, run_game
from narrator.packs import VoicePack, every_cue, load_pack
from narrator.speech.need import NeedSpeaker, plan_of
from narrator.speech.pool import RenderPool
from narrator.speech.render import ENGINE, VoiceSettings
from narrator.table.config import TableConfig
from narrator.table.early import EarlyRender
from narrator.table.play import setup_from_config
from narrator.table.wizard import Wizard

AFTER = ["", "", "", "", ""]  # Enter at every question after the language: inputs, turns, cards, names, phones
# The first question asked once composition, rules and language are answered ("Answers by:", in the
# language chosen) comes right after the language question.


def first_night_lines(config: TableConfig) -> list[str]:
    pack = load_pack(config.language)
    setup = setup_from_config(config, 0)
    return plan_of(pack, all_cues(pack, start_game(setup), setup.timing))[1]


@dataclass
class CheckingAsker(ScriptedAsker):
    """Answers from a list; when the question after the language comes, notes which of the first
    night's lines the render queue had received by then."""

    slow: SlowLines | None = None
    queued_at_question: list[set[str]] = field(default_factory=list)

    def ask(self, question: str) -> str:
        # The question after the language one: asked in the language just chosen, so known by its place.
        after_language = bool(self.questions) and self.questions[-1].startswith("Language:")
        if after_language and self.slow is not None:
            self.queued_at_question.append(set(self.slow.done_at))
        return super().ask(question)


def _wizard(answers: list[str], slow: SlowLines | None, config: TableConfig | None = None,
            offer_last: bool = False) -> tuple[TableConfig, CheckingAsker, EarlyRender | None]:
    asker = CheckingAsker(list(answers), slow=slow)
    wizard = Wizard(asker, config or TableConfig(), ["en", "fr"])
    early = None
    if slow is not None:
        def open_lines(pack: VoicePack) -> SlowLines:
            assert slow is not None
            return slow

        early = EarlyRender(open_lines, background=False)
        wizard.composed = early
    with i18n.language("en"):  # each wizard starts in English (a French answer switches the process's printed words)
        result = wizard.run(offer_last=offer_last)
    assert not asker.answers, "the wizard did not use every answer"
    return result, asker, early


def test_the_first_nights_lines_are_queued_before_the_question_after_the_language() -> None:
    # 12 players, the default composition, French: every first-night line of that game is in the
    # render queue when the table is asked how it answers (and then turn lengths, cards, names).
    slow = SlowLines(VirtualClock(), cost=0.05, jobs=2)
    config, asker, early = _wizard(["12", "", "", "2", *AFTER], slow)
    assert config.players == 12 and config.language == "fr"
    first = first_night_lines(config)
    assert len(first) > 30
    assert len(asker.queued_at_question) == 1
    assert set(first) <= asker.queued_at_question[0]
    # The first night's lines go to the workers before any other.
    assert set(slow.order[: len(first)]) == set(first)
    assert early is not None and early.planned == [config]


def test_the_wizard_asks_and_prints_the_same_with_the_early_render() -> None:
    answers = ["10", "3+", "", "", "2", "", "1*30", "", "2", "", ""]
    with_early, asker, _ = _wizard(answers, SlowLines(VirtualClock(), cost=0.05))
    without, plain, _ = _wizard(answers, None)
    assert with_early == without
    assert (asker.questions, asker.told) == (plain.questions, plain.told)


def test_a_table_that_changes_after_the_early_plan_still_gets_every_line_it_needs_never_late() -> None:
    """The last table is offered (its lines are planned at once), then changed: more players, other
    roles, French. The early lines are of a game that will not be played: the game still renders
    its own first night before its first line, and no line is late; its nights are those of a warm cache."""
    last = TableConfig(players=8)
    clock = VirtualClock()
    slow = SlowLines(clock, cost=0.05, jobs=2)
    config, asker, early = _wizard(["1", "12", "5+", "", "", "2", *AFTER], slow, last, offer_last=True)
    assert early is not None and early.planned == [last, config] and config.players == 12
    old_only = set(first_night_lines(last)) - set(first_night_lines(config))
    assert old_only, "the changed table must need other lines"

    def play(lines: SlowLines, game_clock: VirtualClock) -> tuple[list[dict[str, object]], NeedSpeaker]:
        setup = setup_from_config(config, 3)
        pack = load_pack(setup.language)
        timeline = Timeline(game_clock)
        speaker = NeedSpeaker(TimelineSpeaker(pack, timeline), pack, lines)
        run_game(setup, RandomListener(game_clock, random.Random(3), silence=0.25, late=0.1), 3, game_clock,
                 speaker=speaker)
        return timeline.entries, speaker

    cold, speaker = play(slow, clock)
    said = [e for e in cold if e["kind"] == "say"]
    assert said and speaker.late == []
    # The timeline holds each line as shown; the renderer was given it as said (numbers in words).
    pack = load_pack(config.language)
    spoken = {pack.text(c, v): pack.spoken(c, v) for c in every_cue(pack, config.players, domains={"count": range(61)})
              for v in range(len(pack.lines[c.key]))}
    assert all(slow.done_at[spoken.get(str(e["text"]), str(e["text"]))] <= float(str(e["t"])) + 1e-9 for e in said)
    warm_clock = VirtualClock()
    warm, _ = play(SlowLines(warm_clock, cost=0.05, warm=True), warm_clock)

    def nights(entries: list[dict[str, object]]) -> list[tuple[object, ...]]:
        start = next(float(str(e["t"])) for e in entries if e["kind"] == "say")
        return [(round(float(str(e["t"])) - start, 6), e["key"], e["text"]) for e in entries
                if e["kind"] == "say" and str(e["phase"]).startswith("night.")]

    assert nights(cold) == nights(warm)


@pytest.mark.slow
def test_a_new_plan_on_the_workers_drops_what_the_early_plan_still_had_queued(tmp_path: Path) -> None:
    """The game's plan replaces the setup's (PoolLines.plan): lines of the early plan not yet sent
    to a worker are never rendered; what was sent finishes. Real espeak-ng, one worker."""
    settings = VoiceSettings("en", 150, 1.0)
    pool = RenderPool(ENGINE, tmp_path, jobs=1, batch=1)
    try:
        early = [f"Early line {i}." for i in range(20)]
        game = [f"Game line {i}." for i in range(3)]
        pool.plan([(t, 0.0) for t in early], settings)
        pool.plan([(t, 0.0) for t in game], settings, replace=True)
        assert pool.wait(game, settings)
        sent_early = [t for t, _ in pool.sent if t in early]
        assert len(sent_early) <= 2  # at most two tasks in flight per worker when the game planned
        assert pool.pending() == 0
    finally:
        pool.close()


@pytest.mark.slow
def test_at_the_table_the_setups_workers_render_into_the_cache_the_game_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`narrator play`'s hook on real espeak-ng workers: the plan is made on its own thread; once
    stopped, the workers are handed over with the first night's lines going into the very cache
    folder the game's renderer reads (so `in_order_of_need` takes them over); silent: no workers."""
    import argparse

    from narrator.speech.render import Renderer, cache_root
    from narrator.speech.speaker import make_engine
    from narrator.table.early import TablePool

    monkeypatch.setenv("NARRATOR_CACHE", str(tmp_path))
    table = TablePool(argparse.Namespace(no_audio=False, recorded=None, engine=None))
    hook = EarlyRender(table)
    config = TableConfig(players=6)
    hook(config)  # returns at once: the plan is made on a thread
    hook.join()
    hook.stop()
    pool = table.take()
    assert table.take() is None
    assert pool is not None and hook.planned == [config]
    try:
        pack = load_pack("en")
        synth, settings = make_engine(pack)
        try:
            assert (pool.engine, pool.root) == (synth.engine, Renderer(synth).root) == (ENGINE, cache_root() / "tts")
        finally:
            synth.close()
        first = first_night_lines(config)
        assert pool.pending() > 0  # planned, not waited for
        assert pool.wait(first, settings)
        assert all(pool.path(t, settings).is_file() for t in first)
    finally:
        pool.close()
    silent = TablePool(argparse.Namespace(no_audio=True, recorded=None, engine=None))
    assert silent(load_pack("en")) is None and silent.take() is None
