"""Every voice pack: every key with the same slots, published role names, installed espeak-ng voices."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from narrator.packs import available_languages, check_packs, every_cue, load_pack, packs_root, slots_of
from narrator.roles import night_calls
from narrator.speech.render import Pyttsx3Synth, Renderer, VoiceSettings, voice_aliases

LANGUAGES = ["de", "en", "es", "fr", "it", "ja", "ko", "nl", "pl", "pt", "ru", "zh"]
# Every night call of the catalogue (docs/rules-spec.md#night-order), and the lines of the night itself.
CALLS = [c.name for c in night_calls()]
NIGHT_CALLS = re.compile(rf"^night\.|^({'|'.join(CALLS)})\.(wake|wake_\w+|sleep)$")


def test_the_packs_are_there() -> None:
    assert available_languages() == LANGUAGES


def test_every_pack_has_every_key_with_the_same_slots() -> None:
    assert check_packs() == []
    en = load_pack("en")
    for lang in LANGUAGES:
        pack = load_pack(lang)
        assert set(pack.lines) == set(en.lines) and set(pack.panel) == set(en.panel)
        for key, variants in en.lines.items():
            for text in pack.lines[key]:
                assert slots_of(text) == slots_of(variants[0]), (lang, key)
        assert sorted(pack.numbers) == list(range(1, 31))
        assert set(pack.roles) == set(en.roles) and set(pack.words) == set(en.words)


def test_night_calls_have_no_slot_and_no_variant() -> None:
    """Said the same way whatever the hidden state: no slot can carry it, no variant can hint."""
    for lang in LANGUAGES:
        pack = load_pack(lang)
        calls = [k for k in pack.lines if NIGHT_CALLS.match(k)]
        assert {f"{c}.{line}" for c in CALLS for line in ("wake", "sleep")} <= set(calls), lang
        for key in calls:
            assert len(pack.lines[key]) == 1, (lang, key)
            assert slots_of(pack.lines[key][0]) == frozenset(), (lang, key)


@pytest.mark.parametrize(
    "lang, names",
    [
        ("fr", {"seer": "Voyante", "witch": "Sorcière", "hunter": "Chasseur", "cupid": "Cupidon",
                "little_girl": "Petite Fille", "thief": "Voleur", "captain": "Capitaine"}),
        ("es", {"seer": "Vidente", "witch": "Bruja", "hunter": "Cazador", "cupid": "Cupido",
                "little_girl": "Niña", "thief": "Ladrón", "captain": "Alguacil"}),
        # Die Werwölfe von Düsterwald (Pegasus Spiele).
        ("de", {"seer": "Seherin", "witch": "Hexe", "hunter": "Jäger", "cupid": "Amor",
                "little_girl": "Mädchen", "thief": "Dieb", "captain": "Hauptmann"}),
        # De Weerwolven van Wakkerdam.
        ("nl", {"seer": "Ziener", "witch": "Heks", "hunter": "Jager", "cupid": "Cupido",
                "little_girl": "Onschuldig Meisje", "thief": "Dief", "captain": "Burgemeester"}),
        ("it", {"seer": "Veggente", "witch": "Strega", "hunter": "Cacciatore", "cupid": "Cupido",
                "little_girl": "Bambina", "thief": "Ladro", "captain": "Capitano"}),
    ],
)
def test_role_names_are_those_of_the_published_editions(lang: str, names: dict[str, str]) -> None:
    pack = load_pack(lang)
    for role, name in names.items():
        assert pack.roles[role] == name
    # The night calls use the same names.
    assert pack.lines["seer.wake"][0].startswith(names["seer"])
    assert pack.lines["witch.wake"][0].startswith(names["witch"])


def _espeak_voice_ids() -> set[str]:
    """Voice ids as the espeak-ng program lists them (independently of pyttsx3)."""
    out = subprocess.run(["espeak-ng", "--voices"], capture_output=True, text=True, check=True).stdout
    ids: set[str] = set()
    for row in out.splitlines()[1:]:
        cols = row.split()
        if len(cols) >= 5:
            ids |= voice_aliases([cols[4]])
    return ids


@pytest.mark.slow
def test_every_configured_voice_exists_in_espeak_ng() -> None:
    installed = _espeak_voice_ids()
    assert "gmw/en" in installed
    synth = Pyttsx3Synth()
    try:
        through_pyttsx3 = voice_aliases(synth.voices())
    finally:
        synth.close()
    for lang in LANGUAGES:
        voice = load_pack(lang).voice.lower()
        assert voice in installed, f"{lang}: {voice!r} not in espeak-ng --voices"
        assert voice in through_pyttsx3


def test_every_pack_speaks_its_night_calls(tmp_path: Path) -> None:
    """Real espeak-ng, every language: each night call comes out as seconds of audio, not silence."""
    import wave

    synth = Pyttsx3Synth()
    try:
        renderer = Renderer(synth, tmp_path)
        for lang in LANGUAGES:
            pack = load_pack(lang)
            settings = VoiceSettings(pack.voice, pack.rate, pack.volume)
            for key in ("night.falls", "seer.wake", "werewolves.wake", "witch.sleep"):
                with wave.open(str(renderer.ensure(pack.lines[key][0], settings))) as w:
                    seconds = w.getnframes() / w.getframerate()
                assert 0.8 < seconds < 12, (lang, key, seconds)
    finally:
        synth.close()


def _copy_packs(tmp_path: Path) -> Path:
    root = tmp_path / "voices"
    shutil.copytree(packs_root(), root)
    return root


def test_check_names_a_missing_key(tmp_path: Path) -> None:
    root = _copy_packs(tmp_path)
    fr = root / "fr" / "pack.toml"
    fr.write_text("\n".join(l for l in fr.read_text(encoding="utf-8").splitlines() if not l.startswith('"seer.sleep"')), encoding="utf-8")
    problems = check_packs(root)
    assert len(problems) == 1 and "'seer.sleep'" in problems[0] and "fr" in problems[0]


def test_check_names_a_changed_slot(tmp_path: Path) -> None:
    root = _copy_packs(tmp_path)
    it = root / "it" / "pack.toml"
    it.write_text(it.read_text(encoding="utf-8").replace('"vote.eliminated" = "Il numero {seat}', '"vote.eliminated" = "Il numero {seats}'), encoding="utf-8")
    problems = check_packs(root)
    assert len(problems) == 1
    assert "'vote.eliminated'" in problems[0] and "{seat}" in problems[0] and "{seats}" in problems[0]


def test_check_names_a_broken_pack(tmp_path: Path) -> None:
    root = _copy_packs(tmp_path)
    (root / "es" / "pack.toml").write_text('[pack]\nvoice = "es"\n[lines\n', encoding="utf-8")
    problems = check_packs(root)
    assert len(problems) == 1 and "es" in problems[0] and "cannot be read" in problems[0]


def test_check_names_a_missing_number_and_a_variant_with_other_slots(tmp_path: Path) -> None:
    root = _copy_packs(tmp_path)
    ko = root / "ko" / "pack.toml"
    text = ko.read_text(encoding="utf-8").replace('17 = "십칠"\n', "")
    text = text.replace('"vote.voter" = ["{seat}번, 투표해 주세요."', '"vote.voter" = ["투표해 주세요."')
    ko.write_text(text, encoding="utf-8")
    problems = check_packs(root)
    assert any("missing seat numbers 17" in p for p in problems)
    assert any("'vote.voter' variant 1" in p and "missing slots {seat}" in p for p in problems)


def test_every_deal_key_of_the_packs_is_used_by_the_code() -> None:
    """The deal's lines are never built from parts: each key is written out where it is used, so a
    key no code names (the old `deal.seat_taken`) is a line nobody can see."""
    package = Path(__file__).resolve().parents[2] / "narrator"
    source = "\n".join(p.read_text(encoding="utf-8") for p in package.rglob("*.py"))
    for language in available_languages():
        pack = load_pack(language)
        unused = [k for k in [*pack.lines, *pack.panel] if k.startswith("deal.") and f'"{k}"' not in source]
        assert unused == [], f"{language}: pack keys no code uses: {unused}"


def test_a_line_is_kept_for_its_key_variant_and_slots_and_is_the_line_filled_afresh() -> None:
    """With no names at the table, `text` keeps each line it fills. Every line of every variant, asked
    for twice in an order that reuses the kept lines, reads as a fresh fill; and a slot's type is part of
    what is kept: a True in a number slot is not the 1 said before it."""
    pack = replace(load_pack("en"))  # its own kept lines
    cues = every_cue(pack, 8)
    for cue in [*cues, *reversed(cues)]:
        for variant in range(len(pack.lines[cue.key])):
            assert pack.text(cue, variant) == pack._fill(pack.template(cue.key, variant), cue.slots, cue.key)
    one = next(c for c in cues if any(type(v) is int for v in c.slots.values()))
    name = next(n for n, v in one.slots.items() if type(v) is int)
    pack.text(replace(one, slots={**one.slots, name: 1}))
    truth = replace(one, slots={**one.slots, name: True})
    assert pack.text(truth) == replace(load_pack("en")).text(truth)
