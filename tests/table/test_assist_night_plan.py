"""`narrator assist`'s night plan is the catalogue's night order (not only the Seer, the Werewolves
and the Witch): every call, on its nights, with its turn, saying the same
wake and sleep lines as a played game of the same roles and options."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from narrator.clock import VirtualClock
from narrator.flow.script import parse_script, parse_setup
from narrator.flow.timing import Timing
from narrator.headless import Timeline, TimelineSpeaker, play_headless
from narrator.packs import available_languages, load_pack
from narrator.roles import night_calls
from narrator.rules import Options, Role
from narrator.table.assist import Assistant, night_steps
from narrator.fakes import ScriptedKeys
from tests.all_roles import compositions, script_toml, seats, setup_toml

# Rule options that change which calls are made, and when (the rest keep their defaults).
OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"captain_election": "night1_end", "first_night_kill": False, "siblings_wake": "every_night",
     "white_werewolf_nights": "odd", "judge_signal": "night_arm"},
)


def played_nights(timeline: list[dict[str, Any]]) -> list[list[str]]:
    """The night lines of a played game (night falls, wake and sleep lines, a night election's
    lines), night by night up to each dawn; the nights the game ended in are left out."""
    nights: list[list[str]] = [[]]
    for entry in timeline:
        if entry.get("kind") != "say":
            continue
        phase = str(entry["phase"])
        if entry["key"] == "day.dawn" and phase == "day.morning":
            nights.append([])
        elif phase == "night.falls" or phase == "day.captain" and entry["key"] == "day.dawn" or (
                phase.startswith("night.") and (entry["key"].startswith(phase.removeprefix("night.") + ".wake")
                                                or entry["key"] == phase.removeprefix("night.") + ".sleep")):
            nights[-1].append(str(entry["key"]))
    return nights[:-1]


def planned(night: int, possible: frozenset[Role], options: Options, made: list[str]) -> list[str]:
    """Assist's lines for that night up to dawn; a call it leaves to the narrator (`optional`) is
    kept when the played game made it."""
    return [s.cue.key for s in night_steps(night, possible, Timing(), options)
            if s.cue.phase != "day.morning" and not s.cue.phase.startswith("day.") or s.cue.phase == "day.captain"
            if not s.optional or s.cue.key in made]


@pytest.mark.parametrize("values", OPTIONS, ids=["defaults", "other-nights"])
@pytest.mark.parametrize("deck", compositions(), ids=lambda d: f"{len(d)}-roles")
def test_assist_calls_every_night_as_a_played_game_does(deck: dict[Role, int], values: dict[str, Any]) -> None:
    dealt = seats(deck)
    setup = parse_setup(tomllib.loads(setup_toml(dealt, values)), "SETUP")
    result = play_headless(setup, parse_script(tomllib.loads(script_toml(dealt)), len(dealt), "SCRIPT"))
    options = Options().with_values(values)
    nights = played_nights(result.timeline)
    assert len(nights) >= 3
    for number, made in enumerate(nights, 1):
        assert planned(number, result.game.state.possible, options, made) == made, number


def test_every_call_of_the_catalogue_is_in_a_plan_with_its_turn() -> None:
    every = frozenset(Role)
    options = Options(captain_election="night1_end", judge_signal="night_arm")
    timing = Timing()
    seen: dict[str, float | None] = {}
    for night in range(1, 5):
        for step in night_steps(night, every, timing, options):
            if step.call and step.cue.key != f"{step.call}.sleep":
                seen[step.call] = step.wait
    assert seen == {c.name: timing.turn(c.name) for c in night_calls()}


def test_the_plan_names_each_call_in_the_tables_language() -> None:
    for lang in available_languages():
        pack = load_pack(lang)
        for call in night_calls():
            name = pack.call_name(call.name)
            assert name != call.name or call.name not in pack.roles and "_" not in name, (lang, call.name)
            assert "_" not in name and "." not in name, (lang, name)


def test_a_call_made_only_when_due_is_called_or_skipped_by_the_narrator() -> None:
    clock = VirtualClock()
    timeline = Timeline(clock)
    pack = load_pack("en")
    roles = {Role.WEREWOLF, Role.DEVOTED_SERVANT}
    # Each night the narrator is asked before the Servant's call: Enter skips it (nights 1 and 3), c calls it
    # (night 2); Enter after the morning's deaths and after the vote.
    keys = [(10.0, "\n"), (100.0, "\n"), (300.0, "\n"), (320.0, "c"), (450.0, "\n"), (650.0, "\n"),
            (700.0, "\n"), (800.0, "\n"), (1000.0, "\n")]
    timing = Timing(gap=1.0, debate=120.0)
    Assistant(pack, TimelineSpeaker(pack, timeline), clock, ScriptedKeys(clock, keys), roles, timing, Options()).run(3)
    said = [e["key"] for e in timeline.entries if e["kind"] == "say"]
    assert said.count("devoted_servant_reset.wake") == 1 and said.count("devoted_servant_reset.sleep") == 1
    assert said.count("werewolves.wake") == 2 and said.count("day.dusk") == 3
    assert said.index("devoted_servant_reset.wake") < said.index("werewolves.wake")
