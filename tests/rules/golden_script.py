"""Golden game scripts: parse a `.game` file, play its actions, render the events as text lines.

Format (blank lines and `#` comments are ignored):

    seats: werewolf werewolf hunter seer villager villager cupid witch   # seat 1, 2, ...
    extra: werewolf villager          # optional: the Thief's two extra cards
    option: vote_procedure=runoff     # optional, repeatable
    actions:
    day-zero                          # open_day_zero(): the Day 0 opening (the Angel)
    night                             # begin_night
    thief 1                           # thief_choose(1); 0 keeps the Thief card
    cupid 3 5                         # cupid_choose(3, 5)
    election-open                     # open_captain_election()
    captain-votes 1>2 3>2 4>-         # cast_votes; `-` abstains
    seer 4                            # seer_inspect(4)
    wolves 2 | wolves none            # wolves_choose(2) / no consensus
    witch | witch heal | witch heal poison=6 | witch poison=6
    dawn
    hunter 3 | hunter none            # hunter_shoot
    successor 4 | successor none      # name_successor
    voters 2 5 | voters nobody | voters all   # designate_voters (the dead Scapegoat's list; all: no answer)
    vote-open                         # open_vote()
    votes 1>2 2>1 ...                 # cast_votes
    tiebreak 3 | tiebreak none        # break_tie
    signal 4                          # signal_second_vote(4): a voter's sign during the first vote
    morning                           # the roles' public morning lines now, rendered `says KEY slot=value`
    draw-seed 7                       # the random.Random(7) given to the next cast_votes
    power wild_child 4                # a catalogue role's night call (use_power); no seat: nobody
    reset wild_child 4                # the same, in the devoted_servant_reset call
    take 5 | take none                # the Devoted Servant's window (take_card), by day or at dawn
    refuse wolves 1                   # this action must be refused, leaving the state unchanged
    events:
    night 1                           # the expected events, one a line (see `render`)
    ...

The expected events are written by hand from docs/rules-spec.md; the runner never writes them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from narrator.rules import Deal, Game, Options, Role, RulesError
from narrator.rules import events as ev


@dataclass
class Script:
    path: Path
    seats: tuple[Role, ...] = ()
    extra: tuple[Role, ...] = ()
    options: dict[str, str] = field(default_factory=dict)
    actions: list[tuple[int, str]] = field(default_factory=list)  # (line number, text)
    expected: list[str] = field(default_factory=list)


class ScriptError(Exception):
    """A mistake in a `.game` file (not a rules refusal)."""


def parse(path: Path) -> Script:
    script = Script(path)
    section = "setup"
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line in ("actions:", "events:"):
            section = line[:-1]
            continue
        if section == "setup":
            key, _, value = line.partition(":")
            if key == "seats":
                script.seats = tuple(Role.parse(w) for w in value.split())
            elif key == "extra":
                script.extra = tuple(Role.parse(w) for w in value.split())
            elif key == "option":
                name, _, val = value.strip().partition("=")
                script.options[name.strip()] = val.strip()
            else:
                raise ScriptError(f"{path.name}:{number}: unknown setup line {raw!r}")
        elif section == "actions":
            script.actions.append((number, line))
        else:
            script.expected.append(" ".join(line.split()))
    if not script.seats or not script.expected:
        raise ScriptError(f"{path.name}: a script needs seats: and events:")
    return script


def _seat(word: str) -> int | None:
    return None if word in ("none", "-") else int(word)


def _votes(words: list[str]) -> dict[int, int | None]:
    result: dict[int, int | None] = {}
    for pair in words:
        voter, sep, target = pair.partition(">")
        if not sep:
            raise ScriptError(f"vote {pair!r} is not VOTER>TARGET")
        result[int(voter)] = _seat(target)
    return result


class Player:
    """Plays a script's actions on a game."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.game = Game.start(Deal(script.seats, script.extra), Options().with_values(script.options))
        self.rng: random.Random | None = None
        self.said: list[tuple[int, str]] = []  # (events so far, line): public lines asked for by `morning`

    def play(self) -> None:
        for number, line in self.script.actions:
            where = f"{self.script.path.name}:{number}: {line!r}"
            if line.startswith("refuse "):
                before, count = self.game.state.copy(), len(self.game.events)
                try:
                    self.do(line[len("refuse "):].split())
                except RulesError:
                    assert self.game.state == before, f"{where}: refused but the state changed"
                    assert len(self.game.events) == count
                    continue
                raise AssertionError(f"{where}: expected a refusal, the action was accepted")
            try:
                self.do(line.split())
            except RulesError as exc:
                raise AssertionError(f"{where}: refused: {exc}") from exc

    def do(self, words: list[str]) -> None:
        g, verb, args = self.game, words[0], words[1:]
        if verb == "night":
            g.begin_night()
        elif verb == "day-zero":
            g.open_day_zero()
        elif verb == "thief":
            g.thief_choose(int(args[0]))
        elif verb == "cupid":
            g.cupid_choose(int(args[0]), int(args[1]))
        elif verb == "seer":
            g.seer_inspect(int(args[0]))
        elif verb == "wolves":
            g.wolves_choose(_seat(args[0]))
        elif verb == "witch":
            poison = [a for a in args if a.startswith("poison=")]
            healed = [a for a in args if a.startswith("heal=")]  # heal=N: whom, among the devoured
            g.witch_act("heal" in args or bool(healed), int(poison[0].split("=")[1]) if poison else None,
                        int(healed[0].split("=")[1]) if healed else None)
        elif verb == "dawn":
            g.dawn()
        elif verb == "hunter":
            g.hunter_shoot(_seat(args[0]))
        elif verb == "successor":
            g.name_successor(_seat(args[0]))
        elif verb == "voters":
            g.designate_voters(None if args == ["all"] else () if args == ["nobody"] else [int(a) for a in args])
        elif verb == "election-open":
            g.open_captain_election()
        elif verb == "vote-open":
            g.open_vote()
        elif verb in ("votes", "captain-votes"):
            g.cast_votes(_votes(args), self.rng)
        elif verb == "tiebreak":
            g.break_tie(_seat(args[0]))
        elif verb == "power":  # a catalogue role's night call: power <call> <seat>... (none: nobody)
            g.use_power(args[0], [int(a) for a in args[1:]])
        elif verb == "signal":  # a voter's secret sign during the day's first vote
            g.signal_second_vote(int(args[0]))
        elif verb == "reset":  # the devoted_servant_reset call: reset <call> <seat>...
            g.use_power(args[0], [int(a) for a in args[1:]], reset=True)
        elif verb == "take":  # the Devoted Servant's window: take <seat> | take none
            g.take_card(_seat(args[0]))
        elif verb == "morning":  # the roles' public morning lines now (dawn step 9), as `says KEY`
            from narrator.roles import MORNING

            for lines in MORNING:
                for key, slots in lines(g):
                    shown = " ".join(f"{k}={v}" for k, v in slots.items())
                    self.said.append((len(g.events), f"says {key}{' ' + shown if shown else ''}"))
        elif verb == "draw-seed":
            self.rng = random.Random(int(args[0]))
        else:
            raise ScriptError(f"unknown action {verb!r}")


def _seats(seats: tuple[int, ...]) -> str:
    return " ".join(map(str, seats)) if seats else "-"


def render(event: ev.Event) -> str:
    """One event as one line of text, the form the `events:` section is written in."""
    e = event
    if isinstance(e, ev.GameStarted):
        return f"start {e.players}"
    if isinstance(e, ev.NightBegan):
        return f"night {e.night}"
    if isinstance(e, ev.ThiefChose):
        return f"thief {e.seat} keeps" if e.took is None else f"thief {e.seat} takes card {e.card}: {e.took.value}"
    if isinstance(e, ev.LoversChosen):
        return f"lovers {e.first} {e.second} (cupid {e.cupid})"
    if isinstance(e, ev.SeerSaw):
        return f"seer {e.seer} sees {e.target}: {e.role.value}"
    if isinstance(e, ev.WolvesChose):
        return f"wolves choose {_seats(() if e.target is None else (e.target,))}"
    if isinstance(e, ev.WitchActed):
        acts = ([f"heal {e.saved}" if e.saved is not None else "heal"] if e.healed else []) + ([f"poison {e.poisoned}"] if e.poisoned is not None else [])
        return f"witch {e.witch}: {', '.join(acts) or 'nothing'}"
    if isinstance(e, ev.DawnBroke):
        return f"dawn {e.night}: deaths {_seats(e.deaths)}"
    if isinstance(e, ev.PlayerDied):
        return f"dies {e.seat} ({e.cause.value}): {e.role.value}"
    if isinstance(e, ev.HunterCalled):
        return f"hunter {e.hunter} called"
    if isinstance(e, ev.HunterShot):
        return f"hunter {e.hunter} shoots {_seats(() if e.target is None else (e.target,))}"
    if isinstance(e, ev.SuccessorCalled):
        return f"captain {e.captain} names a successor"
    if isinstance(e, ev.CaptainSucceeded):
        return f"captain {e.previous} -> {'vacant' if e.successor is None else e.successor}"
    if isinstance(e, ev.VoteOpened):
        return f"open {e.ballot.value}: candidates {_seats(e.candidates)} voters {_seats(e.voters)}"
    if isinstance(e, ev.VotesCast):
        counts = " ".join(f"{c}={n}" for c, n in e.counts if n)
        return f"counted {e.ballot.value}: {counts or 'no votes'}"
    if isinstance(e, ev.TieToBreak):
        return f"captain breaks tie: {_seats(e.tied)}"
    if isinstance(e, ev.CaptainElected):
        return f"captain {'drawn' if e.by_draw else 'elected'} {e.seat}"
    if isinstance(e, ev.PlayerEliminated):
        return f"eliminated {e.seat}{' by captain' if e.by_captain else ''}"
    if isinstance(e, ev.NobodyEliminated):
        return f"nobody eliminated ({e.reason})"
    if isinstance(e, ev.DayBegan):
        return f"day {e.day}"
    if isinstance(e, ev.DuskFell):
        return f"dusk {e.day}"
    if isinstance(e, ev.PlayerSpared):
        return f"spared {e.seat}: {e.role.value}"
    if isinstance(e, ev.PowerUsed):
        return f"{'reset' if e.reset else 'power'} {e.call} {e.seat}: {_seats(e.targets)}"
    if isinstance(e, ev.PowerLost):
        return f"power lost {e.seat}: {e.role.value} ({e.reason})"
    if isinstance(e, ev.Marked):
        return f"marked {e.mark} {e.seat} (by {e.by})"
    if isinstance(e, ev.SecondVoteAsked):
        return f"second vote asked by {e.seat}"
    if isinstance(e, ev.SecondVoteDue):
        return f"second vote {e.day}"
    if isinstance(e, ev.Notified):
        return f"notified {_seats(e.seats)} ({e.reason})"
    if isinstance(e, ev.JoinedPack):
        return f"joins the pack {e.seat} ({e.reason})"
    if isinstance(e, ev.WindowOpened):  # at dawn (servant_scope=any_death): the deaths resolved after
        return f"window {e.seat}" + (f" (dawn: {_seats(tuple(p for p, _ in e.queue))})" if e.queue else "")
    if isinstance(e, ev.WindowClosed):
        return f"window {e.seat} closed"
    if isinstance(e, ev.CardTaken):
        return f"servant {e.servant} takes {e.seat}'s card: {e.role.value}"
    if isinstance(e, ev.PowerIgnored):
        return f"ignored {e.call} {e.seat}: powerless"
    if isinstance(e, ev.PowersLost):
        return f"powers lost ({e.cause}): {_seats(e.seats)}"
    if isinstance(e, ev.LifeLost):
        return f"life lost {e.seat}"
    if isinstance(e, ev.TieVictim):
        return f"tie {_seats(e.tied)}: {e.seat} eliminated instead"
    if isinstance(e, ev.VotersCalled):
        return f"scapegoat {e.seat} names voters"
    if isinstance(e, ev.VotersDesignated):
        voters = "all" if e.voters is None else _seats(e.voters)
        return f"voters of day {e.day}: {voters}"
    if isinstance(e, ev.GameEnded):
        return f"end {e.winner.value}: {_seats(e.winners)}"
    raise TypeError(f"no rendering for {event!r}")


def run(path: Path) -> tuple[list[str], list[str], Game]:
    """Play the script; return (expected lines, rendered lines after GameStarted, the game)."""
    script = parse(path)
    player = Player(script)
    player.play()
    rendered: list[str] = []
    said = list(player.said)
    for i, event in enumerate(player.game.events):
        if i:
            rendered.append(render(event))
        while said and said[0][0] == i + 1:
            rendered.append(said.pop(0)[1])
    return script.expected, rendered, player.game
