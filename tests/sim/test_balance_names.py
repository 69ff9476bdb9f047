"""The balance advisor names roles as a person reads them, in the table's language (not as keys
such as `devoted_servant=1` and `-1 white_werewolf`)."""

from __future__ import annotations

import re
from pathlib import Path

from narrator.packs import available_languages, load_pack
from narrator.rules import Options, Role, complete
from narrator.sim.balance import Store, advise
from narrator.sim.cli import advice_lines

# A role key a person must never read (the keys of one word are English words too: "seer").
KEYS = re.compile(r"\b(" + "|".join(r.value for r in Role if "_" in r.value) + r")\b")


def test_the_advisors_lines_name_the_roles_in_the_tables_language(tmp_path: Path) -> None:
    named = {Role.WEREWOLF: 2, Role.WHITE_WEREWOLF: 1, Role.DEVOTED_SERVANT: 1, Role.SEER: 1}
    chosen = complete(12, named, Options())
    store = Store(tmp_path / "cache.json", shipped=None)
    # Every deck one card away known (fair ones among them), so the nearest fair compositions are listed.
    advice = advise(12, chosen, Options(), [Role.WITCH, Role.WHITE_WEREWOLF, Role.DEVOTED_SERVANT], budget=0.5,
                    store=store)
    for lang in available_languages():
        pack = load_pack(lang)
        lines = advice_lines(advice, pack)
        text = "\n".join(lines)
        assert pack.role_name("devoted_servant") in lines[0] and pack.role_name("white_werewolf") in lines[0], text
        assert "=" not in text and not KEYS.search(text), (lang, text)
