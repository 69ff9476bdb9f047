"""The pack lines a native reader found wrong, as a game shows and says them."""

from __future__ import annotations

import pytest
from flow_helpers import during, play, said

from narrator.packs import load_pack

BASIC = {"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf", 4: "witch", 5: "hunter"}}
LANGUAGES = ["en", "fr", "es", "it", "ko"]

NOT_A_WOLF = {
    "en": "Seat 4 is not a Werewolf.",
    "fr": "Le numéro 4 n'est pas un Loup-Garou.",
    "es": "El número 4 no es un Hombre Lobo.",
    "it": "Il numero 4 non è un Lupo Mannaro.",
    "ko": "4번은 늑대인간이 아닙니다.",
}
A_WOLF = {
    "en": "Seat 2 is a Werewolf.",
    "fr": "Le numéro 2 est un Loup-Garou.",
    "es": "El número 2 es un Hombre Lobo.",
    "it": "Il numero 2 è un Lupo Mannaro.",
    "ko": "2번은 늑대인간입니다.",
}


def seer_panel(lang: str, target: int) -> list[str]:
    r = play({**BASIC, "language": lang, "options": {"seer_sees": "team"}},
             {"nights": [{"seer": target}], "days": [{"eliminate": 2}, {"eliminate": 3}]})
    return [str(e.get("text")) for e in during(r, "seer.wake", "seer.sleep")]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_seer_team_result_has_the_whole_predicate(lang: str) -> None:
    assert NOT_A_WOLF[lang] in seer_panel(lang, 4)
    assert A_WOLF[lang] in seer_panel(lang, 2)


@pytest.mark.parametrize("lang, heal_words, save, poison", [
    ("en", ("heal",), "save them", "poison someone"),
    ("fr", ("guérir",), "la sauver", "empoisonner quelqu'un"),
    ("es", ("curar",), "salvarla", "envenenar a alguien"),
    ("it", ("guarire",), "salvarla", "avvelenare qualcuno"),
])
def test_witch_is_asked_to_save_and_to_poison(lang: str, heal_words: tuple[str, ...], save: str,
                                                            poison: str) -> None:
    r = play({**BASIC, "language": lang}, {"nights": [{}], "days": [{"eliminate": 2}, {"eliminate": 3}]})
    wake = load_pack(lang).lines["witch.wake"][0]
    assert wake in said(r)
    assert not any(word in wake for word in heal_words), wake
    assert save in wake and poison in wake


def test_single_lines() -> None:
    fr, es, it, en = (load_pack(lang) for lang in ("fr", "es", "it", "en"))
    assert fr.lines["deal.seat_wake"] == ("La personne qui a la carte {role} ouvre les yeux et tape son numéro.",)
    assert fr.lines["deal.roll_sleep"] == ("Fermez les yeux.",)  # the roll call's sleep line
    assert es.lines["deal.seat_wake"] == ("Quien tenga la carta {role}, que abra los ojos y pulse su número.",)
    assert es.lines["deal.roll_sleep"] == ("Ojos cerrados.",)
    assert it.lines["deal.roll_call"][0].startswith("Prima che scenda la prima notte,")
    assert "è già stata usata" in it.panel["witch.unknown_victim"][0]
    assert en.lines["lovers.wake"] == ("Lovers, wake up. Look at the screen and recognise each other.",)


def test_the_english_captain_is_the_sheriff() -> None:
    en = load_pack("en")
    assert en.role_name("captain") == "Sheriff"
    texts = [t for variants in (*en.lines.values(), *en.panel.values()) for t in variants]
    texts += [*en.roles.values(), *en.rules.values()]
    assert [t for t in texts if "Captain" in t or "captain" in t.replace("captain_", "")] == []
    assert sum("Sheriff" in t for t in texts) >= 10


def test_the_sheriff_is_named_in_a_game() -> None:
    r = play({"players": 8, "roles": {1: "seer", 2: "werewolf", 3: "werewolf"}},
             {"nights": [{}], "days": [{"captain": 1, "eliminate": 2}, {"eliminate": 3}]})
    assert "Elect your Sheriff. Each of you, vote for one player." in said(r)
    assert "Seat 1 is the Sheriff. Their vote counts double." in said(r)
