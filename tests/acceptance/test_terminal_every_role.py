"""Every role of the catalogue in play, in text mode in a real terminal (tmux), to the end of the game:
one game on each 18-player composition of tests/all_roles.py.

The table types as a simple table would: each seat reads its card in the program's deal; by night
nobody types (every turn runs out: the rules allow it for every call); by day the debate is ended
with `+` and each voter votes (before the first night, on a Day 0, for nobody; then) for the
first living seat of a fixed order (the pack's cards, then
the loners, then the cards whose team can change, then the others). The game must reach its
game-over line, and the program must exit 0 after Enter (no rematch).

Short turns keep a night of ~30 calls to a few seconds; no answer races a turn (nothing is typed
at night), and a day's prompt waits far longer than a loaded machine needs to type.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from narrator import i18n
from narrator.packs import load_pack
from narrator.roles import CARDS, MODULES, night_calls
from narrator.rules import Role
from narrator.rules.roles import Team
from tests.all_roles import PLAYERS, compositions, in_pack, label
from tests.table import tmux
from tests.table.tmux import Tmux, card_names, needs_tmux, start

pytestmark = [
    pytest.mark.slow,
    pytest.mark.xdist_group("terminal"),  # real time: one at a time (docs/testing.md)
    needs_tmux,
]

DECKS = compositions()
GAME = 600.0  # seconds a whole game may take on a loaded machine before the test gives up
VOTER = re.compile(r"^Seat (\d+), (?:your vote\?|who do you vote for\?)$")


def config(deck: dict[Role, int]) -> str:
    roles = "\n".join(f"{r.value} = {n}" for r, n in deck.items() if r is not Role.VILLAGER)
    turns = "\n".join(f"{c.name} = 0.3" for c in night_calls())
    return f"""
players = {PLAYERS}
language = "en"
inputs = "keypad"
deal = "program"
speech_scale = 0.01
[roles]
{roles}
[timing]
{turns}
gap = 0.1
settle = 0.1
suspense = 0.1
debate = 60
more_time = 1
defence = 1
vote = 6
chain = 1
"""


def order(dealt: dict[int, Role]) -> list[int]:
    """Whom the table votes out first: the pack, the loners, the cards whose team can change."""
    def rank(seat: int) -> int:
        role = dealt[seat]
        if in_pack(role):
            return 0
        if CARDS[role].team is not Team.VILLAGE:
            return 1
        return 2 if MODULES[role].hooks.team else 3
    return sorted(dealt, key=lambda s: (rank(s), s))


def said(scrollback: str) -> list[str]:
    return [ln[4:].strip() for ln in scrollback.splitlines() if ln.startswith("  » ")]


def alive(scrollback: str) -> set[int] | None:
    """The living seats on the last public board line."""
    word = load_pack("en").panel_text("board.alive", {})
    boards = [ln for ln in scrollback.splitlines() if f"{word}:" in ln]
    if not boards:
        return None
    found = re.search(rf"{re.escape(word)}:((?:\s+\d+)*)", boards[-1])
    return {int(s) for s in found.group(1).split()} if found else None


def deal(t: Tmux) -> dict[int, Role]:
    """The program's deal, seat by seat: each seat's card."""
    names = card_names()
    return {seat: Role(names[name]) for seat, name in tmux.deal(t, PLAYERS).items()}


def play(t: Tmux, dealt: dict[int, Role]) -> bool:
    """Answer the day's prompts until the game-over line; whether a night was seen before it."""
    import time

    first = order(dealt)
    night = False  # a night was seen
    done = ""  # the prompt line answered; answered again only once another line is said
    end = time.monotonic() + GAME
    while time.monotonic() < end:
        back = t.scrollback()
        lines = said(back)
        # (The screen and its scrollback are wiped with each private panel: a flag.)
        night = night or any(ln.startswith(("Night falls", "The sun rises")) for ln in lines)
        if any(ln.startswith("The game is over.") for ln in lines):
            return night
        last = lines[-1] if lines else ""
        if last != done:
            done = ""
            if VOTER.match(last):
                living = alive(back) or set(dealt)
                # Before the first night (a Day 0, the Angel's): nobody, so that the nights come.
                target = next((s for s in first if s in living), 0) if night else 0
                t.type(str(target))
                done = last
            elif last.endswith("to debate."):
                t.type("+")
                done = last
        time.sleep(0.1)
    raise AssertionError(f"the game did not end in {GAME:g} s; the screen shows:\n{t.screen()}")


@pytest.mark.parametrize("deck", DECKS, ids=[f"table{i + 1}" for i in range(len(DECKS))])
def test_a_full_game_with_every_role_in_text_mode(tmp_path: Path, deck: dict[Role, int]) -> None:
    t = start(tmp_path, config(deck), "--screen", "text")
    try:
        dealt = deal(t)
        assert sorted(dealt.values()) == sorted(r for r, n in deck.items() for _ in range(n)), label(deck)
        assert play(t, dealt), "the game ended before its first night"
        t.wait("Enter alone finishes.")
        t.send("Enter")  # no rematch
        assert t.exit_code() == 0, t.screen()
    finally:
        t.close()
    after_the_game(tmp_path, deck)


# A key a person must never read: a role, side or call key of two words or more (`white_werewolf`).
INTERNAL = re.compile(r"\b(" + "|".join(sorted({k for k in [*(r.value for r in Role), *(c.name for c in night_calls())]
                                                 if "_" in k}, key=len, reverse=True)) + r")\b")


def command(tmp_path: Path, *args: str) -> str:
    """`narrator ARGS` in the terminal, to its end: what it wrote (it must exit 0)."""
    t = tmux.narrator(tmp_path, *args)
    try:
        code = t.exit_code()
        out = t.output()
        assert code == 0 and "Traceback" not in out, out
        return out
    finally:
        t.close()


def label(screen: str) -> str:
    """Assist's last step label in its output ("[night 1] Seer: awake")."""
    labels = [ln for ln in screen.splitlines() if ln.startswith("[")]
    return labels[-1] if labels else ""


def after_the_game(tmp_path: Path, deck: dict[Role, int]) -> None:
    """The game just played in `history N` and `history --stats`, and
    `assist` with the same roles: no traceback, every call of the roles made, every name in the
    table's language (and in French)."""
    from narrator.rules import Options
    from narrator.table.assist import calls_tonight

    for lang in ("en", "fr"):
        pack = load_pack(lang)
        story = command(tmp_path, "history", "1", "--lang", lang)
        with i18n.language(lang):  # the story's header is printed in the language asked for
            game_1 = i18n.tr("Game {game}: players: {players}; {deck}; {status}", game=1, players="", deck="",
                             status="").split(":")[0].strip("\xa0 ")
        assert game_1 in story and pack.panel_text("history.night", {"count": 1}) in story, story
        assert not INTERNAL.search(story) and "=" not in story, story
        stats = command(tmp_path, "history", "--stats", "--lang", lang)
        assert pack.panel_text("stats.role", {}) in stats and not INTERNAL.search(stats) and "=" not in stats, stats
        for role in deck:
            assert pack.role_name(role.value) in stats, (lang, role, stats)
    pack = load_pack("en")
    t = tmux.narrator(tmp_path, "assist", "--config", str(tmp_path / "config.toml"), "--text")
    skip = "c to call it, Enter to skip it"
    waits = ("morning: announce the deaths, then Enter", "] debate", "vote: run it, then Enter")
    try:
        # Two nights and the day between: a call made only when due is skipped (Enter), and so are
        # the day's steps; the second morning ends the test. Read from the program's output, not
        # the screen: a long label wraps there.
        import time

        end = time.monotonic() + GAME
        answered = ""
        while True:
            out = t.output()
            last = label(out)
            if "[day 2] morning" in last:
                break
            due = last.endswith(skip) or any(w in last for w in waits)
            if due and last != answered:
                t.send("Enter")
                answered = last
            assert time.monotonic() < end, f"assist did not reach the second morning; it wrote:\n{out[-3000:]}"
            time.sleep(0.1)
        t.send("q")
        assert t.exit_code() == 0
        out = t.output()
    finally:
        t.close()
    assert "Traceback" not in out and not INTERNAL.search(out), out
    called = [*calls_tonight(1, deck, Options()), *calls_tonight(2, deck, Options())]
    assert {c.role for c in called} >= {r for r in deck if any(c.due is None for c in MODULES[r].calls)}
    for call in called:
        name = pack.call_name(call.name)
        assert f"{name}: awake" in out or (call.due is not None and f"{name}: called only when due" in out), (call.name, out)
