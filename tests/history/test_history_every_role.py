"""The history tells and counts every game of the catalogue (`history N` once crashed on a
game in which the White Werewolf devoured someone): random games of every role are recorded,
then shown (`history N` in every pack's language, `history --stats`), and between them they hold
every cause of death and every win the engine knows (`Cause`, `Side`: derived, not listed here)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from narrator import i18n
from narrator.cli import main
from narrator.history import db
from narrator.history.record import from_events
from narrator.history.stats import DEATH_KEYS, compute, story
from narrator.packs import available_languages, load_pack
from narrator.rules import Role, Side
from narrator.rules.events import Cause, PlayerDied
from tests.random_games import games_of_every_role

# The random games are recorded once (the module's `recorded`), on one worker.
pytestmark = pytest.mark.xdist_group("history-every-role")
PER_ROLE = 60  # enough random games a card for every cause and every win to come up (asserted below)
LANGUAGES = tuple(available_languages())
# An internal key a person must never read: a role, side or cause key of two words or more.
INTERNAL = re.compile(r"\b(" + "|".join(sorted({k.value for k in (*Role, *Side, *Cause) if "_" in k.value}, key=len,
                                                 reverse=True)) + r")\b")


def test_every_cause_of_death_has_its_story_line_in_every_pack() -> None:
    assert set(DEATH_KEYS) == set(Cause)
    for lang in LANGUAGES:
        pack = load_pack(lang)
        for cause in Cause:
            line = story([{"type": "PlayerDied", "seat": 3, "cause": cause.value, "role": "white_werewolf"}], pack)
            assert line == ["  " + pack.panel_text(DEATH_KEYS[cause], {"seat": 3, "role": "white_werewolf"})]
            assert pack.role_name("white_werewolf") in line[0] and not INTERNAL.search(line[0]), (lang, line)
        for side in Side:
            won = story([{"type": "GameEnded", "winner": side.value}], pack)
            assert pack.sides[side.value] in won[0] and not INTERNAL.search(won[0]), (lang, won)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[int, list[Cause]], dict[int, Side]]:
    """Random games of every role, in a history database: each game's causes of death and winner."""
    path = tmp_path_factory.mktemp("history") / "history.sqlite3"
    conn = db.connect(path)
    conn.execute("PRAGMA synchronous = OFF")  # a throwaway database: no wait on the disk for each game
    causes: dict[int, list[Cause]] = {}
    winners: dict[int, Side] = {}
    for n, (_role, game) in enumerate(games_of_every_role(PER_ROLE)):
        assert game.outcome is not None
        gid = db.save(conn, from_events({"language": LANGUAGES[n % len(LANGUAGES)], "n": n}, game.events))
        causes[gid] = [e.cause for e in game.events if isinstance(e, PlayerDied)]
        winners[gid] = game.outcome.winner
    conn.close()
    return path, causes, winners


@pytest.mark.slow
def test_random_games_of_every_role_hold_every_cause_of_death_and_every_win(
        recorded: tuple[Path, dict[int, list[Cause]], dict[int, Side]]) -> None:
    _, causes, winners = recorded
    assert {c for cs in causes.values() for c in cs} == set(Cause)
    assert set(winners.values()) == set(Side)


@pytest.mark.slow
def test_every_recorded_game_is_told_in_every_language(
        recorded: tuple[Path, dict[int, list[Cause]], dict[int, Side]]) -> None:
    path, causes, winners = recorded
    conn = db.connect(path)
    packs = {lang: load_pack(lang) for lang in LANGUAGES}
    for gid, dead in causes.items():
        row = db.game(conn, gid)
        assert row is not None
        died = [e for e in row.events if e["type"] == "PlayerDied"]
        assert [Cause(e["cause"]) for e in died] == dead
        expected = {lang: ["  " + pack.panel_text(DEATH_KEYS[Cause(e["cause"])], {"seat": e["seat"], "role": e["role"]})
                           for e in died] for lang, pack in packs.items()}
        for lang, pack in packs.items():
            lines = story(row.events, pack)
            assert lines[-1] == pack.panel_text("history.winner", {"side": winners[gid].value})
            told = [line for line in lines if line in expected[lang]]
            assert told == expected[lang], (gid, lang, lines)
            # One search of the story: a key is a word of one line, and no line break is in one.
            assert not INTERNAL.search("\n".join(lines)), (gid, lang, lines)
    conn.close()


@pytest.mark.slow
def test_history_shows_a_game_of_every_cause_and_every_win_on_the_command_line(
        recorded: tuple[Path, dict[int, list[Cause]], dict[int, Side]], capsys: pytest.CaptureFixture[str]) -> None:
    path, causes, winners = recorded
    shown = {next(g for g, cs in causes.items() if cause in cs) for cause in Cause}
    shown |= {next(g for g, w in winners.items() if w is side) for side in Side}
    for gid in sorted(shown):
        for lang in LANGUAGES:
            assert main(["history", str(gid), "--db", str(path), "--lang", lang]) == 0
            out = capsys.readouterr()
            with i18n.language(lang):  # the story's header in the language asked for (docs/languages.md)
                header = i18n.tr("Game {game}: players: {players}; {deck}; {status}", game=gid, players="", deck="",
                                 status="")
            opening = header[:header.index(str(gid)) + len(str(gid))]
            assert out.err == "" and out.out.startswith(opening), (gid, lang, out.err, opening)
            assert load_pack(lang).panel_text("history.winner", {"side": winners[gid].value}) in out.out
    assert main(["history", "--stats", "--db", str(path)]) == 0
    out = capsys.readouterr()
    assert out.err == "" and f"Finished games: {len(causes)};" in out.out
    conn = db.connect(path)
    assert compute(conn, include_headless=True).games == len(causes)
    conn.close()


@pytest.mark.slow
def test_the_list_the_story_and_the_statistics_name_every_role_in_the_tables_language(
        recorded: tuple[Path, dict[int, list[Cause]], dict[int, Side]], capsys: pytest.CaptureFixture[str]) -> None:
    """No internal key (`white_werewolf`, `devoted_servant=1`) reaches a person."""
    path, causes, _ = recorded
    shown: dict[str, str] = {}
    for lang in LANGUAGES:
        pack = load_pack(lang)
        assert main(["history", "--stats", "--db", str(path), "--lang", lang]) == 0
        stats = shown[lang] = capsys.readouterr().out
        assert pack.panel_text("stats.side", {}) in stats and pack.panel_text("stats.role", {}) in stats
        # The text's own searches once, not again beside each role's (the same answer each time).
        if INTERNAL.search(stats) or "=" in stats or any(f" {role.value} " in stats for role in Role):
            raise AssertionError(f"{lang}: an internal key in the statistics:\n{stats}")
        assert pack.role_name("white_werewolf") in stats and pack.sides["abominable_sectarian"] in stats
        assert main(["history", "--db", str(path), "--lang", lang]) == 0
        listed = capsys.readouterr().out
        assert not INTERNAL.search(listed) and "=" not in listed, lang
        first = min(causes)
        assert main(["history", str(first), "--db", str(path), "--lang", lang]) == 0
        header = capsys.readouterr().out.splitlines()[0]
        assert not INTERNAL.search(header) and "=" not in header, header
    # The French statistics shown above (the same command on the same database), in French words.
    assert "victoires par camp:" in shown["fr"]
