"""Seeded games of every role through the sequencer, and a digest of everything each game did at
the ports: every line said (key, slots, phase, clock time), every prompt asked (name, choices,
deadline, flags), every screen drawn and every journal record; then the same game resumed from a
cut of its journal. The flow's behaviour written down, so that a change of its structure can be
shown to change nothing the table hears, sees or types (tests/flow/test_flow_seeded_games.py).

The players answer at random on a virtual clock: seats and words, early, late or never, keys the
prompt refuses, `*` (repeat), pauses, more time, votes by voice said back and taken back, seats
heard as look-alikes asked back. Lines last a time drawn from their key, not from their text: a
change of a pack's words changes no digest. The games come from tests/rules/seeded_games.py's
frozen tables.

Record again (only when the flow is meant to change, and say why in the commit):

    .venv/bin/python tests/flow/seeded_flow.py --games 12
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any, Iterable, Mapping

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(ROOT / "tests" / "rules") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests" / "rules"))

from seeded_games import Spec, frozen_options, load as load_tables, specs  # noqa: E402

from narrator.clock import VirtualClock  # noqa: E402
from narrator.flow.run import play_game, resume_from  # noqa: E402
from narrator.flow.script import Setup  # noqa: E402
from narrator.flow.timing import Timing  # noqa: E402
from narrator.journal import MemoryJournal  # noqa: E402
from narrator.packs import load_pack  # noqa: E402
from narrator.ports import Cue, Heard, PanelLines, Prompt, SlotValue  # noqa: E402
from narrator.rules import Options, Role, deal  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "seeded_flow.json"
TIMING = {"debate": 90, "more_time": 30, "defence": 5, "vote": 6, "chain": 6}
LONGEST = 200_000.0  # clock seconds: a game still going then never ends


def plain(value: Any) -> Any:
    """A JSON-ready copy (a typed board or record as its fields)."""
    # The exact types that make up most of a log first: the checks below (a Mapping's above all)
    # cost far more, and none of them matches a plain str, number, None, list or dict otherwise.
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is list or kind is tuple:
        return [v if type(v) in _SCALARS else plain(v) for v in value]
    if kind is dict:
        return {str(k): v if type(v) in _SCALARS else plain(v) for k, v in value.items()}
    if hasattr(value, "__dataclass_fields__"):
        import dataclasses

        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


_SCALARS = (str, int, float, bool, type(None))


class Ports:
    """The speaker, the display and the log of prompts, on one virtual clock, into one list."""

    def __init__(self, clock: VirtualClock, boards_before_speech: bool = True) -> None:
        self.clock = clock
        self.log: list[Any] = []
        # A resumed game: the boards drawn while the journal is replayed are not compared, only the
        # last one before the first line (what the screen shows when the game goes on).
        self.pending: Any = None
        self.boards_before_speech = boards_before_speech
        self.spoke = False

    # Speaker
    def say(self, cue: Cue, at: float | None = None) -> float:
        if not self.spoke and self.pending is not None:
            self.log.append(self.pending)
        self.spoke = True
        start = self.clock.now() if at is None else max(at, self.clock.now())
        self.log.append(["say", cue.key, plain(cue.slots), cue.phase, round(start, 3)])
        return start + 0.6 + 0.05 * (sum(map(ord, cue.key)) % 40)

    def prepare(self, cues: Iterable[Cue]) -> None:
        return None

    def close(self) -> None:
        return None

    # Display
    def board(self, state: Any) -> None:
        entry = ["board", plain(state), round(self.clock.now(), 3)]
        if self.spoke or self.boards_before_speech:
            self.log.append(entry)
        else:
            self.pending = entry

    def show_private(self, key: str, slots: Mapping[str, SlotValue], more: PanelLines = ()) -> None:
        self.log.append(["private", key, plain(slots), plain(more), round(self.clock.now(), 3)])

    def clear_private(self) -> None:
        self.log.append(["clear", round(self.clock.now(), 3)])

    def feedback(self, key: str, slots: Mapping[str, SlotValue]) -> None:
        self.log.append(["feedback", key, plain(slots), round(self.clock.now(), 3)])


class ChaosPlayers:
    """Random answers of every kind a table gives (see the module's docstring)."""

    def __init__(self, clock: VirtualClock, rng: random.Random, ports: Ports) -> None:
        self.clock = clock
        self.rng = rng
        self.ports = ports

    def listen(self, prompt: Prompt) -> Heard | None:
        clock, rng = self.clock, self.rng
        self.ports.log.append(["ask", prompt.name, list(prompt.seats), list(prompt.words), prompt.night,
                               None if prompt.deadline is None else round(prompt.deadline, 3), prompt.risky,
                               prompt.number, prompt.idle, prompt.ask_back, round(clock.now(), 3)])
        if clock.now() > LONGEST:
            raise AssertionError("the game never ends")
        if prompt.name == "game.pause":
            clock.sleep_until(clock.now() + 7.0)
            return Heard("pause", "keypad", "/")
        deadline = prompt.deadline
        left = 60.0 if deadline is None else deadline - clock.now()
        if left <= 0:
            return None
        if deadline is not None and rng.random() < 0.08:  # a key the prompt refuses
            wrong = [c for c in (99, 0, "nobody", "yes", "no", "more_time", "9") if not prompt.allows(c)]
            if wrong:
                clock.sleep_until(clock.now() + rng.uniform(0, left) * 0.5)
                return Heard(rng.choice(wrong), "keypad", "x")
        if prompt.idle:
            if "no" in prompt.words and rng.random() < 0.25:
                clock.sleep_until(clock.now() + rng.uniform(0, left) * 0.5)
                return Heard("no", "keypad" if prompt.night else rng.choice(("keypad", "voice")), "-")
            if deadline is not None:
                clock.sleep_until(deadline)
            return None
        if prompt.name.endswith(".ask_back"):
            clock.sleep_until(clock.now() + rng.uniform(0, left) * 0.8)
            return Heard(rng.choice(("yes", "yes", "no")), "voice", "")
        words = [w for w in prompt.words if w in ("nobody", "yes", "no", "more_time", "vote_now")]
        rare = [w for w in prompt.words if w in ("repeat", "pause")]
        roll = rng.random()
        if roll < 0.15 or (not prompt.seats and not words and not rare):
            if deadline is not None:
                clock.sleep_until(deadline + (rng.uniform(0, 2) if roll < 0.05 else 0))
            return None
        if rare and roll < 0.2:
            choice: Any = rng.choice(rare)
        else:
            pool: list[Any] = [*prompt.seats, *words]
            if not pool:
                if deadline is not None:
                    clock.sleep_until(deadline)
                return None
            choice = rng.choice(pool)
        clock.sleep_until(clock.now() + rng.uniform(0, left) * 0.7)
        if prompt.night:
            return Heard(choice, "keypad", str(choice))
        source = rng.choice(("keypad", "voice"))
        lookalike = source == "voice" and prompt.ask_back and isinstance(choice, int) and rng.random() < 0.3
        return Heard(choice, source, str(choice), lookalike=lookalike)


def setup_of(spec: Spec) -> tuple[Setup, int]:
    rng = random.Random(spec.seed)
    options = Options().with_values(dict(spec.options))
    dealt = deal(spec.players, {Role(r): n for r, n in spec.deck}, rng, options)
    possible = frozenset(Role(r) for r, _ in spec.deck)
    setup = Setup(spec.players, "en", dealt, possible, options, Timing().with_values(TIMING))
    return setup, rng.randrange(2**32)


def run(setup: Setup, seed: int, records: list[dict[str, Any]] | None = None, players: int = 1
        ) -> tuple[list[Any], list[dict[str, Any]]]:
    """One game (or the rest of one, from a journal's records): what the ports saw, and the journal.
    `seed` is the game's (its draws), `seed + players` the players'."""
    clock = VirtualClock()
    ports = Ports(clock, boards_before_speech=records is None)
    listener = ChaosPlayers(clock, random.Random(seed + players), ports)
    journal = MemoryJournal(records)
    resume = resume_from(records) if records is not None else None
    game = play_game(setup, load_pack("en"), listener, ports, ports, clock, journal, seed, resume)
    assert game.outcome is not None
    return ports.log, journal.records()


def digest(value: Any) -> str:
    """A short hash of a game's log and journal. Both are JSON-ready already (the ports append `plain`
    values; the journal's records come back decoded), so only the options tables are cut to the frozen ones."""
    text = json.dumps(frozen_options(value), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def play(spec: Spec) -> tuple[str, str]:
    """The game's digest, and the digest of the same game resumed from a cut of its journal."""
    setup, seed = setup_of(spec)
    log, records = run(setup, seed)
    cut = random.Random(seed).randint(1, len(records) - 1)
    resumed_log, resumed_records = run(setup, seed, records[:cut], players=7)
    return digest([log, records]), digest([cut, resumed_log, resumed_records])


def record(games: int) -> dict[str, Any]:
    tables = load_tables()["tables"]
    digests = {role: [list(play(spec)) for spec in specs(tables, role, games, seed=36)] for role, _ in tables["roles"]}
    return {"seed": 36, "games": games, "digests": digests}


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


def main() -> int:
    parser = argparse.ArgumentParser(description="Record the digests of the seeded flow games of every role.")
    parser.add_argument("--games", type=int, default=12, help="games a role (default 12)")
    args = parser.parse_args()
    data = record(args.games)
    text = json.dumps(data, separators=(",", ":")).replace(']],"', ']],\n"')
    DATA.write_text(text + "\n", encoding="utf-8")
    print(f"{sum(len(v) for v in data['digests'].values())} games of {len(data['digests'])} roles recorded in {DATA}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
