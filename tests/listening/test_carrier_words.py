"""The words people say around a seat ("I vote seven", "je vote sept", "voto il
sette", "seven please") are in the grammar, and only around a seat: alone they are no choice."""

from __future__ import annotations

import pytest

from narrator.listening.grammar import build_grammar
from narrator.packs import load_pack
from narrator.ports import Prompt

CARRIED = {"en": ("i vote seven", "i vote for seven", "seven please"),
           "fr": ("je vote sept", "je vote pour le sept"),
           "es": ("voto al siete", "voto por el siete"),
           "it": ("voto il sette", "voto per il sette")}


@pytest.mark.parametrize("lang", sorted(CARRIED))
def test_carrier_words_around_a_seat(lang: str) -> None:
    g = build_grammar(Prompt("day.vote.vote.3", seats=(6, 7, 8), words=("nobody",)), load_pack(lang))
    for phrase in CARRIED[lang]:
        assert g.phrases.get(phrase) == 7, (phrase, sorted(g.phrases))
        assert g.interpret([(w, 1.0) for w in phrase.split()]).choice == 7
    # The carrier words alone, or around no seat, are no choice.
    carrier = CARRIED[lang][0].rsplit(" ", 1)[0]
    assert carrier not in g.phrases
    assert g.interpret([(w, 1.0) for w in carrier.split()]).choice is None
