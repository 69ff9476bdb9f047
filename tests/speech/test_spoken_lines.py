"""What the voice is given, and what the screen shows, in every language (docs/languages.md, "Shown
and said"): number slots in the pack's words with their counters, stress and readings respelled for
the voice only, the growl said, plural forms and numbers by CLDR, the lines once found wrong."""

from __future__ import annotations

import subprocess
import wave
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from narrator.packs import available_languages, load_pack
from narrator.ports import Cue
from narrator.speech.render import Renderer, VoiceSettings
from narrator.speech.speaker import LineSource


@dataclass
class RecordingSynth:
    """A fake twin of the espeak-ng synth: writes a short silent WAV and keeps each text it was given."""

    engine: str = "pyttsx3-espeak-ng"
    said: list[str] = field(default_factory=list)

    def synthesize(self, text: str, settings: VoiceSettings, path: Path) -> None:
        self.said.append(text)
        with wave.open(str(path), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(22050)
            w.writeframes(b"\0\0" * 220)

    def voices(self) -> list[str]:
        return []

    def close(self) -> None:
        pass


def _voice_gets(lang: str, cue: Cue, tmp_path: Path) -> str:
    """The text the speech engine is given for a cue (through the real line source)."""
    pack = load_pack(lang)
    synth = RecordingSynth()
    LineSource(pack, Renderer(synth, tmp_path)).audio(cue, 0)
    return synth.said[-1]


def _phonemes(voice: str, text: str) -> str:
    return subprocess.run(["espeak-ng", "-q", "-x", "-v", voice], input=text, capture_output=True, text=True,
                          check=True).stdout


@pytest.mark.parametrize("lang", available_languages())
def test_every_language_says_seat_numbers_with_its_own_number_words(lang: str, tmp_path: Path) -> None:
    pack = load_pack(lang)
    for seat in (4, 7, 10, 14, 17, 24, 27):
        said = _voice_gets(lang, Cue("day.death", {"seat": seat}), tmp_path)
        assert pack.numbers[seat] in said and str(seat) not in said, said
        assert str(seat) in pack.text(Cue("day.death", {"seat": seat}))  # the screen keeps digits


def test_japanese_minutes_and_votes_take_their_counters_sound_changes(tmp_path: Path) -> None:
    minutes = {3: "さんぷん", 4: "よんぷん", 6: "ろっぷん", 8: "はっぷん", 10: "じゅっぷん", 13: "じゅうさんぷん",
               20: "にじゅっぷん", 2: "にふん", 7: "ななふん"}
    for n, said in minutes.items():
        assert said in _voice_gets("ja", Cue("debate.start", {"minutes": n}), tmp_path)
    votes = {2: "にひょう", 3: "さんびょう", 4: "よんひょう", 5: "ごひょう"}
    for n, said in votes.items():
        assert said in _voice_gets("ja", Cue("raven.votes", {"count": n}), tmp_path)


def test_japanese_particles_are_shown_as_written_and_said_as_spoken(tmp_path: Path) -> None:
    pack = load_pack("ja")
    assert pack.text(Cue("seer.wake")).startswith("うらないしは ")
    assert pack.text(Cue("game.welcome")).startswith("むらへ ")
    assert _voice_gets("ja", Cue("seer.wake"), tmp_path).startswith("うらないしわ ")
    assert _voice_gets("ja", Cue("game.welcome"), tmp_path).startswith("むらえ ")
    assert "ひとえの" in _voice_gets("ja", Cue("raven.votes", {"count": 2}), tmp_path)
    assert "きつおん" in pack.roles["stuttering_judge"] and "どもり" not in pack.path.read_text(encoding="utf-8")


def test_korean_votes_are_counted_in_native_numbers(tmp_path: Path) -> None:
    assert "두 표" in _voice_gets("ko", Cue("raven.votes", {"count": 2}), tmp_path)
    assert "네 표" in _voice_gets("ko", Cue("raven.votes", {"count": 4}), tmp_path)


def test_mandarin_says_liang_before_a_measure_word_but_not_in_twelve(tmp_path: Path) -> None:
    assert "两分钟" in _voice_gets("zh", Cue("debate.start", {"minutes": 2}), tmp_path)
    assert "十二分钟" in _voice_gets("zh", Cue("debate.start", {"minutes": 12}), tmp_path)
    assert "两票" in _voice_gets("zh", Cue("raven.votes", {"count": 2}), tmp_path)


@pytest.mark.slow  # espeak-ng -x in a child process
def test_russian_werewolves_are_stressed_on_the_third_syllable_in_speech_only(tmp_path: Path) -> None:
    pack = load_pack("ru")
    for key in ("werewolves.wake", "werewolves.sleep", "wolf_hound.chose_wolves"):
        said = _voice_gets("ru", Cue(key), tmp_path)
        phonemes = _phonemes(pack.voice, said)
        assert "'obVrVt" not in phonemes and "r'ot" in phonemes, (said, phonemes)
        shown = pack.text(Cue(key))
        assert "\u0301" not in shown and "[[" not in shown


@pytest.mark.slow  # espeak-ng -x in a child process
def test_mandarin_readings_are_respelled_for_the_voice_only(tmp_path: Path) -> None:
    pack = load_pack("zh")
    heard = _phonemes(pack.voice, _voice_gets("zh", Cue("captain.election"), tmp_path))
    assert "ts.h'A35N" not in heard and "ts.'a214N" in heard  # 警长: jǐng zhǎng, not jǐng cháng
    heard = _phonemes(pack.voice, _voice_gets("zh", Cue("elder.revenge"), tmp_path))
    assert "ts.h'A35N" not in heard  # 长老: zhǎng lǎo
    heard = _phonemes(pack.voice, _voice_gets("zh", Cue("captain.revote"), tmp_path))
    assert "ts.'ong51" not in heard  # 重新: chóng xīn
    assert "警长" in pack.text(Cue("captain.election"))


@pytest.mark.slow  # espeak-ng -x in a child process
@pytest.mark.parametrize("lang", [lang for lang in available_languages() if "Grrr" in load_pack(lang).lines["bear_tamer.growl"][0]])
def test_the_growl_is_said_not_spelled_out(lang: str, tmp_path: Path) -> None:
    pack = load_pack(lang)
    said = _voice_gets(lang, Cue("bear_tamer.growl"), tmp_path)
    trace = subprocess.run(["espeak-ng", "-q", "-X", "-v", pack.voice], input=said, capture_output=True, text=True,
                           check=True).stdout
    spelled = [line for line in trace.splitlines() if line.startswith("Found: '") and line[8:10] in ("g'", "r'")]
    assert not spelled, (said, spelled)
    assert pack.text(Cue("bear_tamer.growl")).startswith("Grrr")


@pytest.mark.parametrize(("lang", "deck", "shown"), [
    ("de", {"werewolf": 2, "seer": 1, "villager": 9}, "2 Werwölfe, 1 Seherin, 9 Dorfbewohner"),
    ("ru", {"werewolf": 2, "villager": 5}, "2 Оборотня, 5 Мирных жителей"),
    ("ru", {"werewolf": 5, "villager": 21}, "5 Оборотней, 21 Мирный житель"),
    ("pl", {"villager": 6, "werewolf": 2}, "6 Wieśniaków, 2 Wilkołaki"),
    ("nl", {"werewolf": 2}, "2 Weerwolven"),
    ("pt", {"werewolf": 2}, "2 Lobisomens"),
    ("fr", {"werewolf": 3}, "3 Loups-Garous"),
    ("ja", {"werewolf": 2, "seer": 1}, "2 じんろう、1 うらないし"),
])
def test_a_count_of_cards_takes_the_languages_plural_form(lang: str, deck: dict[str, int], shown: str) -> None:
    assert load_pack(lang).deck_text(deck) == shown


# Words and phrases read wrong in the packs, each gone (the corrected lines are in the commits).
FOUND_WRONG = {
    "de": ["Gleichauf-Liegenden", "Vorne-Liegenden", "mit deinem letzten Atemzug schieß", "Gebt jeder eure"],
    "nl": ["Die stem telt", "heeft, open je ogen", "tussen de gelijke spelers"],
    "pt": ["reconheçam-se", "você quer ver", "Faz-se um sorteio", "opção a muda"],
    "pl": ["Głosujcie jeszcze raz spośród", "Minut na dyskusję", "graj z tym"],
    "ru": ["последним вздохом выстрели", "последним вздохом назови", "нажмите минус", "ещё время", "ввод {inputs}"],
    "zh": ['"game.over" = "游戏结束。获胜', "错误: ", "用法: "],
    "ja": ["95% 区間", "ひとり ひとり、ひとりに", "どもり", "うらないしわ", "むらえ"],
    "es": ["Elige tu bando: la aldea", "la aldea se reúne"],
}


@pytest.mark.parametrize("lang", sorted(FOUND_WRONG))
def test_the_lines_found_wrong_are_gone(lang: str) -> None:
    pack = load_pack(lang)
    text = pack.path.read_text(encoding="utf-8") + (pack.path.parent / "messages.toml").read_text(encoding="utf-8")
    assert [w for w in FOUND_WRONG[lang] if w in text] == []


def test_the_nobody_words_hold_what_the_narrator_says() -> None:
    assert "弃票" in load_pack("zh").words["nobody"]  # said by vote.ask_back_nobody
    assert "ни за кого" in load_pack("ru").words["nobody"]  # said by vote.said_nobody


@pytest.mark.parametrize(("lang", "carrier"), [
    ("de", "ich stimme für sieben"), ("nl", "ik stem op zeven"), ("pt", "voto no sete"), ("pl", "głosuję na siedem"),
    ("ru", "голосую за семь"), ("ru", "за седьмого"), ("ru", "голосую за седьмого"), ("zh", "我投七号"), ("ja", "なな ばんに とうひょう"),
])
def test_players_may_say_their_vote_with_the_words_people_use(lang: str, carrier: str) -> None:
    from narrator.listening.grammar import normalise, phrases_for

    assert normalise(carrier) in phrases_for(7, load_pack(lang))
