"""`narrator demo`: automatic players play a whole short game, fully narrated, for newcomers."""

from __future__ import annotations

import random
from typing import Any, Mapping

from narrator.flow.script import Setup
from narrator.flow.timing import DEFAULT_TURNS, Timing
from narrator.i18n import tr
from narrator.roles import CALLS
from narrator.rules import Options, Role, complete, deal, default_deck, parse_roles

# The demo plays the default composition for 8 players, one the balance advisor rates fair
# (narrator/rules/composition.py); `demo --roles` plays any other deck, extension roles too.
DEMO_PLAYERS = 8
DEMO_DECK: dict[Role, int] = default_deck(DEMO_PLAYERS)
# Seed 2 is a two-night game of about three minutes with the Hunter's shot.
DEMO_SEED = 2
# Short turns: the whole game in a few minutes, every kind of call heard at least once; every
# call of the catalogue has one (2.5 s unless named), so any deck of `--roles` plays.
_SHORT = {"thief": 2.0, "cupid": 2.5, "lovers": 1.5, "seer": 2.0, "werewolves": 2.5, "witch": 2.5}
DEMO_TIMING = Timing(
    turns={name: _SHORT.get(name, 2.5) for name in DEFAULT_TURNS},
    gap=0.4, suspense=1.0, debate=6.0, more_time=5.0, defence=3.0, vote=1.2, chain=2.0,
)


def demo_deck(roles: str | None, players: int | None) -> tuple[int, dict[Role, int]]:
    """`demo --roles SPEC [--players N]`: the players and the deck (roles not named are Villagers;
    N defaults to 8, or one more than the cards named when they are more). Without --roles, the
    default composition for N players."""
    if roles is None:
        n = DEMO_PLAYERS if players is None else players
        return n, default_deck(n)
    named = parse_roles(roles)
    n = players if players is not None else max(DEMO_PLAYERS, sum(named.values()) + 1)
    return n, complete(n, named, Options())


def demo_setup(language: str, seed: int, pace: float = 1.0, deck: Mapping[Role, int] | None = None) -> Setup:
    from narrator.table.play import scaled

    rng = random.Random(seed)
    options = Options()
    cards = dict(deck) if deck is not None else DEMO_DECK
    players = sum(cards.values())
    return Setup(players, language, deal(players, cards, rng, options), None, options,
                 scaled(DEMO_TIMING, pace), 0.6 * pace)


def run_demo(language: str, seed: int, text: bool, pace: float = 1.0, out: Any = None, sound: Any = None,
             deck: Mapping[Role, int] | None = None) -> int:
    """One game by automatic players on the real clock; returns the number of lines said."""
    import sys

    from narrator.clock import RealClock
    from narrator.flow.run import play_game
    from narrator.journal import MemoryJournal
    from narrator.listening.automatic import RandomPlayers
    from narrator.packs import load_pack
    from narrator.table.text import TextDisplay, text_speaker

    setup = demo_setup(language, seed, pace, deck)
    pack = load_pack(language)
    clock = RealClock()
    # Nobody stays silent in the demo: every call gets an answer, so every kind of line is heard.
    players = RandomPlayers(clock, random.Random(seed + 1), silence=0.0, late=0.0)
    journal = MemoryJournal()
    head = {"mode": "demo", "seed": seed, "setup": setup.to_record()}
    stream = out or sys.stdout
    if text:
        speaker = text_speaker(pack, clock, stream, pace=setup.speech_scale)
        stream.write(cards_line(pack, setup) + "\n")
        game = play_game(setup, pack, players, speaker, TextDisplay(pack, stream), clock, journal, seed, None, head)
    else:
        import argparse

        from narrator.table.screen import ScreenDisplay, ScreenSpeaker
        from narrator.table.sound import open_table_speaker

        voice = open_table_speaker(pack, clock, sound or argparse.Namespace(no_audio=True), setup.speech_scale)
        screen = ScreenDisplay(pack, clock, timing=setup.timing)
        screen.title = tr("narrator demo")
        screen.start()
        try:
            speaker_s = ScreenSpeaker(voice, pack, screen)
            game = play_game(setup, pack, players, speaker_s, screen, clock, journal, seed, None, head)
            clock.sleep_until(clock.now() + 3.0 * pace)
        finally:
            screen.stop()
            voice.close()
        stream.write(cards_line(pack, setup) + "\n")
    outcome = game.outcome
    assert outcome is not None
    # What the automatic players did: the night answers nobody saw, and who voted for whom.
    stream.write(pack.panel_text("demo.answers", {}) + "\n")
    for line in what_happened(pack, journal.records()):
        stream.write(f"  {line}\n")
    stream.write(pack.panel_text("demo.over", {"side": outcome.winner.value}) + "\n")
    return sum(1 for r in journal.records() if r.get("kind") == "step")


def cards_line(pack: Any, setup: Setup) -> str:
    cards = ", ".join(pack.panel_text("demo.card", {"seat": seat, "role": r.value})
                      for seat, r in enumerate(setup.deal.seats, 1))
    return f"{pack.panel_text('demo.start', {'count': setup.players})} {cards}"


# Night prompts and day prompts by the role that answers them.
def night_role(prompt: str) -> str | None:
    """The role that answers a night prompt, named night.<call>[.<step>] (narrator/roles)."""
    kind, _, rest = prompt.partition(".")
    call = CALLS.get(rest.split(".")[0]) if kind == "night" else None
    return None if call is None or rest.endswith((".change", ".early")) else call.role.value
DAY_ROLES = {"day.hunter": "hunter", "day.successor": "captain", "day.tiebreak": "captain"}


def what_happened(pack: Any, records: list[dict[str, Any]]) -> list[str]:
    """Every answer the game took, in the pack's words: "Night 1, Seer: seat 3", "Seat 4 voted for seat 2"."""
    lines: list[str] = []
    nights = 0
    for record in records:
        kind = record.get("kind")
        if kind == "step" and record.get("state") == "night_falls":
            nights += 1
        if kind != "input" or record.get("choice") is None:
            continue
        prompt = str(record["prompt"])
        choice = record["choice"]
        if isinstance(choice, int):
            reason = pack.panel_text("demo.seat", {"seat": choice})
        elif choice == "nobody":
            reason = pack.panel_text("demo.nobody", {})
        else:
            words = pack.words.get(str(choice))
            reason = words[0] if words else str(choice)
        if prompt == "night.witch.heal":
            reason = pack.panel_text("demo.heal", {"reason": reason})
        elif prompt == "night.witch.poison":
            reason = pack.panel_text("demo.poison", {"reason": reason})
        answering = night_role(prompt)
        if answering is not None:
            lines.append(pack.panel_text("demo.night", {"count": nights, "role": answering, "reason": reason}))
        elif prompt in DAY_ROLES:
            lines.append(pack.panel_text("demo.day", {"count": max(nights, 1), "role": DAY_ROLES[prompt], "reason": reason}))
        elif prompt.startswith(("day.vote.", "day.captain.")) and prompt.rsplit(".", 1)[-1].isdigit():
            lines.append(pack.panel_text("demo.vote", {"seat": int(prompt.rsplit(".", 1)[-1]), "reason": reason}))
    return lines
