"""Every template of the five packs rendered with every role (the French deal once said "ta carte est
Joueur de Flûte", without its article).

What is checked, for every line and panel template with a role slot ({role}, {role_a}, {role_b}),
rendered with every role name of its pack:
- the name is the pack's (never a key such as `pied_piper`), and no slot is left unfilled;
- in French, Spanish and Italian, nothing the name must agree with stands right before it: no
  article (le/la/l', el/la, il/lo/la... whose gender would have to match each role's) and no verb
  that needs an article before a role (est, es, è...): a role is named where it needs neither,
  as in "la carte {role}", "{role} :" or "({role})";
- in English, no "is/are/became" or "a/an" right before it (the article "the" is always right);
- in Korean, no particle that depends on the name's last sound (은/는, 이/가, 을/를, 와/과) right
  after it.
"""

from __future__ import annotations

import re

import pytest

from narrator.packs import ROLE_SLOTS, available_languages, load_pack, slots_of
from narrator.rules import Role

BEFORE = {
    "en": r"\b(?:is|are|am|was|were|became|become|a|an)\s+$",
    "fr": r"(?:\b(?:le|la|les|un|une|du|des|au|aux|est|es|êtes|suis|sont|était|étais|devenu|devenue|devient|deviens)\s+"
          r"|\bl'|\bd'|\bqu')$",
    "es": r"\b(?:el|la|los|las|un|una|del|al|es|eres|soy|son|era|eras)\s+$",
    "it": r"(?:\b(?:il|lo|la|i|gli|le|un|uno|una|del|della|dello|al|alla|allo|è|sei|sono|era|eri)\s+|\bl'|\bun')$",
}
AFTER = {"ko": r"^[은는이가을를와과](?!\()"}
KEYS = re.compile(r"\b(" + "|".join(r.value for r in Role if "_" in r.value) + r")\b")


def templates(lang: str) -> list[tuple[str, str]]:
    pack = load_pack(lang)
    return [(key, t) for table in (pack.lines, pack.panel) for key, variants in table.items() for t in variants
            if slots_of(t) & ROLE_SLOTS]


@pytest.mark.parametrize("lang", available_languages())
def test_every_template_names_every_role_as_the_language_wants(lang: str) -> None:
    pack = load_pack(lang)
    found = templates(lang)
    assert found, "the role templates are found"
    problems = []
    for key, template in found:
        for match in re.finditer(r"\{(role|role_a|role_b)\}", template):
            before, after = template[:match.start()], template[match.end():]
            if lang in BEFORE and re.search(BEFORE[lang], before, re.IGNORECASE):
                problems.append(f"{key}: {before[-12:]!r} before the role in {template!r}")
            if lang in AFTER and re.search(AFTER[lang], after):
                problems.append(f"{key}: {after[:3]!r} after the role in {template!r}")
        for role in Role:
            slots: dict[str, object] = {s: (role.value if s in ROLE_SLOTS else 3) for s in slots_of(template)}
            text = template.format(**{s: (pack.role_name(str(v)) if s in ROLE_SLOTS else v) for s, v in slots.items()})
            assert pack.role_name(role.value) in text and not KEYS.search(text) and "{" not in text, (lang, key, text)
    assert problems == [], "\n".join(problems)


def test_the_check_catches_the_reported_line() -> None:
    """The French deal line of the report fails the check; its fix passes."""
    assert re.search(BEFORE["fr"], "Numéro {seat} : ta carte est ", re.IGNORECASE)
    assert not re.search(BEFORE["fr"], "Numéro {seat} : tu as la carte ", re.IGNORECASE)
    assert re.search(BEFORE["fr"], "Élection du ", re.IGNORECASE) and re.search(BEFORE["it"], "l'", re.IGNORECASE)
    assert re.search(AFTER["ko"], "이 죽었습니다") and not re.search(AFTER["ko"], "이(가) 죽었습니다")
