"""How long the physical cards' roll call takes before night 1 (deal mode b): a 12-player deck of
9 roles, on the virtual clock, each line lasting its estimated length in each shipped pack
(`narrator.speech.estimated`, within about 20% of espeak-ng), the turns of the default `[timing]`.

Three tables: everyone answers; one role (the Seer) misses its turn; the Werewolves give one seat
of their three. Each holder types its seats at a random moment in the first third of its turn.
Usage: .venv/bin/python bench/roll_call.py
"""

from __future__ import annotations

import random

from narrator.clock import VirtualClock
from narrator.fakes import Timeline, TimelineDisplay, TimelineSpeaker
from narrator.flow.timing import Timing
from narrator.packs import load_pack
from narrator.ports import Heard, Prompt
from narrator.rules import Deal, Options, Role, deal
from narrator.table.deal import roll_call

DECK = {Role.WEREWOLF: 3, Role.SEER: 1, Role.WITCH: 1, Role.HUNTER: 1, Role.CUPID: 1, Role.LITTLE_GIRL: 1,
        Role.SAVIOR: 1, Role.FOX: 1, Role.RAVEN: 1, Role.VILLAGER: 1}  # 12 players, 9 roles called


class Holders:
    """The holders of each role type their seats; `miss`: seats a role leaves out in its first turn."""

    def __init__(self, clock: VirtualClock, truth: Deal, rng: random.Random, miss: dict[Role, int]) -> None:
        self.clock, self.truth, self.rng, self.miss = clock, truth, rng, miss
        self.turn: dict[Role, float] = {}  # the deadline of the turn each role is in
        self.typed: dict[Role, list[int]] = {}
        self.plan: dict[Role, list[int]] = {}

    def listen(self, prompt: Prompt) -> Heard | None:
        assert prompt.deadline is not None
        role = Role(prompt.name.split(".")[1])
        if self.turn.get(role) != prompt.deadline:  # a new turn: what this role types in it
            self.turn[role] = prompt.deadline
            mine = [s for s, r in enumerate(self.truth.seats, 1) if r is role]
            if role in self.typed:  # called again: the seats it left out
                self.plan[role] = [s for s in mine if s not in self.typed[role]]
            else:
                self.plan[role] = mine[: len(mine) - self.miss.get(role, 0)]
                self.typed[role] = []
        if not self.plan[role]:
            self.clock.sleep_until(prompt.deadline)
            return None
        self.clock.sleep_until(self.clock.now() + self.rng.uniform(0, (prompt.deadline - self.clock.now()) / 3))
        seat = self.plan[role].pop(0)
        self.typed[role].append(seat)
        return Heard(seat, "keypad", str(seat))


def measure(language: str, miss: dict[Role, int], seed: int = 1) -> tuple[float, int]:
    clock = VirtualClock()
    timeline = Timeline(clock)
    pack = load_pack(language)
    truth = deal(12, DECK, random.Random(seed), Options())
    learnt = roll_call(12, DECK, Options(), TimelineSpeaker(pack, timeline), Holders(clock, truth, random.Random(seed), miss),
                       TimelineDisplay(pack, timeline), clock, Timing())
    assert learnt == truth
    wakes = sum(1 for e in timeline.entries if e["kind"] == "say" and e["key"] == "deal.seat_wake")
    return clock.now(), wakes


def main() -> None:
    print("roll call, 12 players, 9 roles (werewolf=3,seer,witch,hunter,cupid,little_girl,savior,fox,raven),"
          " default timing, estimated line lengths")
    for language in ("en", "fr", "es", "it", "ko"):
        everyone, calls = measure(language, {})
        seer, calls_seer = measure(language, {Role.SEER: 1})
        wolves, calls_wolves = measure(language, {Role.WEREWOLF: 2})
        print(f"  {language}: everyone answers {everyone:5.1f} s ({everyone / 60:.2f} min, {calls} calls); "
              f"the Seer misses her turn +{seer - everyone:4.1f} s ({calls_seer} calls); "
              f"the Werewolves give 1 seat of 3 +{wolves - everyone:4.1f} s ({calls_wolves} calls)")


if __name__ == "__main__":
    main()
