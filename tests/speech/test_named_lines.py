"""Names in the lines (narrator/packs.py `VoicePack.with_people`, each pack's [people]; docs/names.md):
said and shown by day in place of the seat's number, never at night; a name the voice cannot say
and a pack without [people] keep the number; every named line rendered before it is first due."""

from __future__ import annotations

import dataclasses
import random
import re

from narrator.clock import VirtualClock
from narrator.fakes import RandomListener, SlowLines
from narrator.flow.script import parse_script, parse_setup
from narrator.headless import Timeline, TimelineSpeaker, run_game
from narrator.listening.automatic import ScriptPlayers
from narrator.names import People
from narrator.packs import load_pack
from narrator.ports import Cue
from narrator.speech.need import NeedSpeaker

DAY = "day.vote"
SETUP = {"language": "en", "players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 5: "hunter"},
         "timing": {"debate": 60, "defence": 5}}
SCRIPT = {"nights": [{"seer": 2, "werewolves": 6, "witch": {"heal": False, "poison": 0}}],
          "days": [{"eliminate": 2}, {"eliminate": 3}]}
NAMES = {1: "Ann", 2: "Bo", 3: "Cleo", 4: "Dmitri", 5: "Eve", 6: "Fay", 7: "Gus", 8: "Hana"}


def named(language: str, names: dict[int, str]) -> object:
    return load_pack(language).with_people(People(names))


def test_the_day_lines_say_the_names_in_english_russian_and_japanese() -> None:
    en = load_pack("en").with_people(People({6: "Ann", 4: "Bo"}))
    assert en.text(Cue("vote.voter", {"seat": 6}, phase=DAY)) == "Ann, your vote?"
    assert en.spoken(Cue("vote.voter", {"seat": 6}, phase=DAY), 1) == "Ann, who do you vote for?"
    assert en.text(Cue("vote.eliminated", {"seat": 6}, phase=DAY)) == "Ann is eliminated."
    reveal = [en.text(Cue("day.death", {"seat": 6}, phase=DAY)), en.text(Cue("day.card", {"role": "witch"}, phase=DAY))]
    assert reveal == ["Ann.", "Their card: Witch."]
    assert en.spoken(Cue("vote.said", {"seat": 6, "other": 4}, phase=DAY)) == "Ann votes Bo."
    assert en.text(Cue("vote.voter", {"seat": 5}, phase=DAY)) == "Seat 5, your vote?"  # no name: the number
    ru = load_pack("ru").with_people(People({6: "Аня"}))
    assert ru.text(Cue("vote.voter", {"seat": 6}, phase=DAY)) == "Аня, твой голос?"
    assert ru.spoken(Cue("vote.eliminated", {"seat": 6}, phase=DAY)) == "Аня исключён."
    assert ru.spoken(Cue("devoted_servant.card", {"other": 6}, phase=DAY)) == "Она тайно забирает карту Аня."
    ja = load_pack("ja").with_people(People({6: "アン"}))
    assert ja.spoken(Cue("vote.voter", {"seat": 6}, phase=DAY)) == "アン さん、とうひょうを どうぞ。"
    assert ja.spoken(Cue("vote.said", {"seat": 6, "other": 3}, phase=DAY)) == "アン さんわ さん ばんに とうひょう。"


def test_two_seats_with_one_name_are_said_with_their_numbers() -> None:
    en = load_pack("en").with_people(People({3: "Ann", 6: "Ann"}))
    cue = Cue("vote.eliminated", {"seat": 6}, phase=DAY)
    assert en.text(cue) == "Ann (6) is eliminated."
    assert en.spoken(cue) == "Ann (six) is eliminated."


def test_a_name_the_voice_cannot_say_and_a_pack_without_people_keep_the_number() -> None:
    people = People({6: "🐺", 7: "Gus"})
    people.unsay(6, "not a letter")
    en = load_pack("en").with_people(people)
    assert en.spoken(Cue("vote.voter", {"seat": 6}, phase=DAY)) == "Seat six, your vote?"
    assert en.text(Cue("vote.voter", {"seat": 6}, phase=DAY)) == "Seat 6, your vote?"
    bare = dataclasses.replace(en, people_phrases={})
    assert bare.text(Cue("vote.voter", {"seat": 7}, phase=DAY)) == "Seat 7, your vote?"


def test_no_night_line_names_anyone_and_the_nights_are_those_of_a_table_without_names() -> None:
    """A whole game spoken with names: the night's lines, and when they are said, are exactly those
    of the same game without names; the day's name the players."""
    def game(people: People | None) -> list[dict[str, object]]:
        s = parse_setup(SETUP, "SETUP")
        clock = VirtualClock()
        timeline = Timeline(clock)
        pack = load_pack("en") if people is None else load_pack("en").with_people(people)
        script = parse_script(SCRIPT, 8, "SCRIPT")
        run_game(s, ScriptPlayers(clock, script.answer), 0, clock, speaker=TimelineSpeaker(pack, timeline))
        return [e for e in timeline.entries if e["kind"] == "say"]

    def by_night(said: list[dict[str, object]]) -> list[list[tuple[str, float]]]:
        # Each night's lines, as shown, with their offsets from its fall (a day with names is
        # shorter or longer: the nights start at other times, never with other lines).
        out: list[list[tuple[str, float]]] = []
        for e in said:
            if str(e["phase"]).startswith("night"):
                if e["key"] == "night.falls":
                    out.append([])
                    start = float(str(e["t"]))
                out[-1].append((str(e["text"]), round(float(str(e["t"])) - start, 6)))
        return out

    plain, with_names = game(None), game(People(NAMES))
    assert len(by_night(plain)) >= 2 and by_night(plain) == by_night(with_names)
    day_text = " ".join(str(e["text"]) for e in with_names if not str(e["phase"]).startswith("night"))
    assert "Bo is eliminated." in day_text and "Fay." in day_text and "Ann, your vote?" in day_text
    assert not any(re.search(rf"\b{name}\b", str(e["text"])) for e in with_names
                   if str(e["phase"]).startswith("night") for name in NAMES.values())


def test_every_named_line_is_rendered_before_it_is_first_due() -> None:
    s = parse_setup(SETUP, "SETUP")
    pack = load_pack("en").with_people(People(NAMES))
    clock = VirtualClock()
    timeline = Timeline(clock)
    slow = SlowLines(clock, 0.05)
    speaker = NeedSpeaker(TimelineSpeaker(pack, timeline), pack, slow)
    run_game(s, RandomListener(clock, random.Random(3), silence=0.25, late=0.15), 3, clock, speaker=speaker)
    said = [str(e["text"]) for e in timeline.entries if e["kind"] == "say"]
    assert sum(any(n in text for n in NAMES.values()) for text in said) > 10, "the days named their players"
    # Every line was ready when it was due: none said late, none waited for (the day's are rendered
    # while the night plays, in the order of need, names and all).
    assert speaker.late == [] and speaker.waits == []
    assert any("Ann, your vote?" == t for t in slow.order)
