"""Property-based tests: invariants of docs/rules-spec.md over random legal games (Hypothesis)."""

from __future__ import annotations

import dataclasses

import random
from dataclasses import dataclass, field
from typing import Any, cast

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from narrator.roles import wizard_roles
from narrator.rules import Awaiting, Game, Options, Phase, Role, RulesError, Side, Step, Team, complete, deal
from narrator.rules import hooks
from narrator.rules.game import step_of
from narrator.rules.hooks import Power
from narrator.rules import events as ev
from narrator.sim.policies import RandomPolicy, play_day, play_night
from rules_kit import OPTION_VALUES, new_game
from tests.hypo import examples

# Every special card of the catalogue (narrator/roles): a new role is drawn as soon as it exists.
SPECIALS = tuple(r for r in wizard_roles() if r is not Role.WEREWOLF)


@dataclass(frozen=True)
class Setup:
    players: int
    deck: dict[Role, int]
    options: Options
    seed: int

    def start(self) -> Game:
        return Game.start(deal(self.players, self.deck, random.Random(self.seed), self.options), self.options)


@st.composite
def setups(draw: st.DrawFn, max_players: int = 12) -> Setup:
    players = draw(st.integers(4, max_players))
    options = Options(**{key: draw(st.sampled_from(values)) for key, values in OPTION_VALUES.items()})
    if draw(st.booleans()):  # the Sectarian's groups: any split of this table with both groups
        groups = draw(st.lists(st.sampled_from("AB"), min_size=players, max_size=players).filter(lambda g: len(set(g)) == 2))
        options = dataclasses.replace(options, sectarian_groups="".join(groups))
    wolves = draw(st.integers(1, max(1, players // 3)))
    specials = draw(st.lists(st.sampled_from(SPECIALS), unique=True, max_size=players - wolves))
    named = {Role.WEREWOLF: wolves}
    for role in specials:  # a card dealt in copies (the Two Sisters) comes with all of them
        if sum(named.values()) + (role.copies or 1) <= players:
            named[role] = role.copies or 1
    if wolves == 1 and (named.get(Role.BIG_BAD_WOLF) or named.get(Role.ACCURSED_WOLF_FATHER)) and draw(st.booleans()):
        del named[Role.WEREWOLF]  # a special wolf alone is the pack
    return Setup(players, complete(players, named, options), options, draw(st.integers(0, 2**32 - 1)))


# ---- the win conditions, recomputed apart from the engine -------------------------------


# Written apart from the catalogue: the pack cards and the loners (docs/rules-spec.md#terms).
PACK = (Role.WEREWOLF, Role.WHITE_WEREWOLF, Role.BIG_BAD_WOLF, Role.ACCURSED_WOLF_FATHER)
LONERS = (Role.PIED_PIPER, Role.WHITE_WEREWOLF)


def in_pack(game: Game, joined: set[int], seat: int) -> bool:
    """A pack member (docs/rules-spec.md#terms): a pack card, or joined since (the checker's own count)."""
    return game.state.roles[seat - 1] in PACK or seat in joined


def team_of(game: Game, joined: set[int], seat: int) -> Team:
    return Team.WOLVES if seat in joined else game.state.roles[seat - 1].team


def lovers_team(game: Game, joined: set[int] = set()) -> tuple[int, int] | None:
    lovers = game.state.lovers
    if lovers is None:
        return None
    roles = [game.state.roles[p - 1] for p in lovers]
    wolves = [in_pack(game, joined, p) for p in lovers]
    mixed = wolves.count(True) == 1
    both = wolves.count(True) == 2 and game.options.lovers_team_if_both_wolves
    piper = Role.PIED_PIPER in roles and not any(wolves) and not all(r is Role.PIED_PIPER for r in roles)
    return lovers if (mixed or both or piper) else None


def groups(game: Game) -> str:
    given, n = game.options.sectarian_groups.upper(), game.players
    return given if len(given) == n else "A" * ((n + 1) // 2) + "B" * (n // 2)


def win_conditions(game: Game, alive: set[int], charmed: set[int] | None = None,
                   angel: int | None = None, joined: set[int] = set()) -> dict[Side, tuple[int, ...]]:
    """Every outcome that holds on these living players, with the seats that win with it, in
    the order of docs/rules-spec.md#end (the first one wins; `angel`: the seat of
    an Angel killed as his card says, followed by the Checker; `joined`: who joined the pack)."""
    roles = game.state.roles
    if not alive:
        return {Side.NOBODY: ()}
    if angel is not None:
        return {Side.ANGEL: (angel,)}
    first_turn = game.state.day <= (0 if game.options.angel_opening == "day_first" else 1)

    def loner(p: int) -> bool:
        return roles[p - 1] in LONERS or roles[p - 1] is Role.ABOMINABLE_SECTARIAN or (
            roles[p - 1] is Role.ANGEL and first_turn)
    team = lovers_team(game, joined)
    team_alive = team is not None and set(team) <= alive
    wolves_alive = [p for p in alive if in_pack(game, joined, p)]
    others_alive = [p for p in alive if not in_pack(game, joined, p)]
    in_team = set(team or ())
    held: dict[Side, tuple[int, ...]] = {}
    if team is not None and team_alive and alive == set(team):
        held[Side.LOVERS] = tuple(sorted(team))
    pipers = [p for p in alive if roles[p - 1] is Role.PIED_PIPER]
    infected_piper = bool(pipers) and pipers[0] in joined and game.options.piper_infected == "powerless"
    if (pipers and alive - set(pipers) <= (charmed or set()) and pipers[0] not in game.state.powerless
            and not infected_piper):
        held[Side.PIED_PIPER] = (pipers[0],)
    if len(alive) == 1 and roles[min(alive) - 1] is Role.WHITE_WEREWOLF:
        held[Side.WHITE_WEREWOLF] = (min(alive),)
    sectarian = next((p for p in alive if roles[p - 1] is Role.ABOMINABLE_SECTARIAN), None)
    # His goal is lost with his power, and by the infection unless sectarian_infected=keeps_goal.
    infected_sectarian = sectarian in joined and game.options.sectarian_infected == "powerless"
    if sectarian is not None and sectarian not in game.state.powerless and not infected_sectarian:
        split = groups(game)
        if all(split[p - 1] == split[sectarian - 1] for p in alive):
            held[Side.ABOMINABLE_SECTARIAN] = (sectarian,)
    if not wolves_alive and Side.LOVERS not in held:
        held[Side.VILLAGE] = tuple(
            p for p in range(1, game.players + 1)
            if not in_pack(game, joined, p) and p not in in_team and not loner(p)
        )
    parity = game.options.wolves_win_at_parity and len(others_alive) <= 1
    if wolves_alive and not team_alive and (not others_alive or parity):
        held[Side.WEREWOLVES] = tuple(
            p for p in range(1, game.players + 1) if team_of(game, joined, p) is Team.WOLVES and p not in in_team
        )
    assert not (Side.VILLAGE in held and Side.WEREWOLVES in held), "the village and the wolves cannot both win"
    return held


# ---- the checker: follows the events with its own model ---------------------------------


@dataclass
class Checker:
    game: Game
    alive: set[int] = field(default_factory=set)
    seen: int = 0
    # Potions used, per seat that acted as the Witch: a Devoted Servant who takes the Witch's card
    # starts with both again, an Actor holding the card has one of each for that night.
    heals: dict[int, int] = field(default_factory=dict)
    poisons: dict[int, int] = field(default_factory=dict)
    saved: int | None = None  # the seat the Witch heals tonight (witch_sees: any devoured)
    victim: int | None = None
    healed: bool = False
    poisoned: int | None = None
    protected: int | None = None
    white_victim: int | None = None
    charmed: set[int] = field(default_factory=set)
    hunter_due: bool = False
    # Personnages: who joined the pack, the pack members who died, the Big Bad Wolf's victim,
    # tonight's infection, the infections used, the Wild Child's model, the cards taken.
    joined: set[int] = field(default_factory=set)
    pack_died: set[int] = field(default_factory=set)
    extra: int | None = None
    infected: int | None = None
    infections: int = 0
    model: int | None = None
    taken: set[int] = field(default_factory=set)
    taken_by: set[int] = field(default_factory=set)
    living_before: int = 0
    powerless: set[int] = field(default_factory=set)  # docs/rules-spec.md#powers-lost
    lives_lost: dict[int, int] = field(default_factory=dict)
    absorbed: int | None = None
    revenge_due: bool = False
    day: int | None = None  # the day under way (None at night)
    night: int = 0
    angel: int | None = None  # an Angel killed as his card says (he wins)
    lovers: tuple[int, int] | None = None  # as the events followed so far leave them

    def __post_init__(self) -> None:
        self.alive = set(range(1, self.game.players + 1))
        self.living_before = self.game.players
        # The cards as the events followed so far leave them: a batch of events (a whole night,
        # its dawn windows included) is followed after the game has moved on (a card taken at dawn).
        started = self.game.events[0]
        assert isinstance(started, ev.GameStarted)
        self.cards = list(started.roles)

    def _alive(self, seat: int | None, what: str) -> None:
        assert seat is None or seat in self.alive, f"{what}: seat {seat} is dead"

    def check(self) -> None:
        game = self.game
        for event in game.events[self.seen:]:
            self.follow(event)
        self.seen = len(game.events)
        assert set(game.living()) == self.alive
        living = len(game.living())
        assert living <= self.living_before, "the number of living players increased"
        self.living_before = living
        s = game.state
        angel_won = s.outcome is not None and s.outcome.winner is Side.ANGEL  # the game stops at once
        # A Captain who dies at night (the Knight's diseased wolf, at dusk) names his successor at
        # dawn, when his death is told: until then he stays Captain.
        night = s.phase is Phase.NIGHT
        if s.captain is not None and s.phase is not Phase.RESOLVING and not night and self.alive and not angel_won:
            assert s.captain in self.alive, f"the Captain (seat {s.captain}) is dead after the resolution"

    def follow(self, e: ev.Event) -> None:
        game = self.game
        self.powerless_do_nothing(e)
        if isinstance(e, ev.NightBegan):
            self.victim, self.healed, self.poisoned, self.protected = None, False, None, None
            self.saved = None
            self.extra, self.infected = None, None
            self.white_victim = None
            self.absorbed = None
            self.day, self.night = None, e.night
        elif isinstance(e, ev.DayBegan):
            self.day = e.day
        elif isinstance(e, ev.ThiefChose):
            if e.took is not None:
                self.cards[e.seat - 1] = e.took
            assert game.state.night == 1
            self._alive(e.seat, "the Thief acts")
        elif isinstance(e, ev.LoversChosen):
            assert game.state.night == 1
            for seat in (e.cupid, e.first, e.second):
                self._alive(seat, "Cupid's choice")
            self.lovers = (e.first, e.second)
        elif isinstance(e, ev.SeerSaw):
            self._alive(e.seer, "the Seer acts")
            self._alive(e.target, "the Seer's target")
            assert e.seer != e.target
        elif isinstance(e, ev.WolvesChose):
            assert any(in_pack(game, self.joined, p) for p in self.alive), "no living Werewolf chose"
            self._alive(e.target, "the Werewolves' victim")
            assert e.target is None or not (self.cards[e.target - 1] in PACK or e.target in self.joined)
            self.victim = e.target
        elif isinstance(e, ev.WitchActed):
            self._alive(e.witch, "the Witch acts")
            self._alive(e.poisoned, "the Witch's poison")
            self.healed, self.poisoned = e.healed, e.poisoned
            self.heals[e.witch] = self.heals.get(e.witch, 0) + e.healed
            self.poisons[e.witch] = self.poisons.get(e.witch, 0) + (e.poisoned is not None)
            assert self.heals[e.witch] <= 1 and self.poisons[e.witch] <= 1, "a potion was used twice"
            # The pack's victim unless infected; witch_sees=all_devoured: also the Big Bad Wolf's victim,
            # and the White Werewolf's when his kill can be stopped. `saved` None: the pack's victim's
            # seat (who may also be the White Werewolf's victim, the infected pack member he devours).
            pack = {self.victim} - {None, self.infected}
            others = {self.extra} | ({self.white_victim} if game.options.white_werewolf_kill_blockable else set())
            healable = pack | (others - {None} if game.options.witch_sees == "all_devoured" else set())
            if e.healed:
                seat = self.victim if e.saved is None else e.saved
                assert healable, "healed with no victim"
                assert seat in healable, f"healed seat {seat}, not devoured ({sorted(healable)})"
                self.saved = seat
            else:
                assert e.saved is None
        elif isinstance(e, ev.PowerUsed):
            power = hooks.POWERS[e.call]
            # Its role's holder, or the Actor holding that card tonight.
            assert game.state.roles[e.seat - 1] in (power.role, Role.ACTOR), f"{e.call} used by seat {e.seat}, not its role"
            self._alive(e.seat, f"{e.call} acts")
            for target in e.targets if power.seats else ():  # the Actor's choice is a card's number
                self._alive(target, f"{e.call}'s choice")
            if e.call == "savior":
                (self.protected,) = e.targets
            elif e.call == "wild_child":
                (self.model,) = e.targets
            elif e.call == "big_bad_wolf":
                (self.extra,) = e.targets
                assert not (game.options.bbw_loses_power_on_wolf_death and self.pack_died - {e.seat}), \
                    "the Big Bad Wolf devoured after a pack member died"
                assert self.extra != self.victim and not in_pack(game, self.joined, self.extra)
            elif e.call == "accursed_wolf_father" and e.targets:
                assert e.targets == (self.victim,) and self.infections == 0, "infected twice or not the victim"
                self.infections += 1
            elif e.call == "white_werewolf":
                assert game.state.night % 2 == (0 if game.options.white_werewolf_nights == "even" else 1)
                assert all(in_pack(game, self.joined, t) and t != e.seat for t in e.targets)
                self.white_victim = e.targets[0] if e.targets else None
            elif e.call == "pied_piper":
                assert e.seat not in e.targets and not set(e.targets) & self.charmed, "charmed twice, or himself"
                assert len(e.targets) <= game.options.piper_charms_per_night  # none: nothing charmed
                self.charmed |= set(e.targets)
        elif isinstance(e, ev.JoinedPack):
            self._alive(e.seat, "joins the pack")
            assert e.seat not in self.joined and self.cards[e.seat - 1] not in PACK
            if e.reason == "infected":
                assert e.seat == self.victim, "infected, but not the pack's victim"
                self.infected = e.seat
            elif e.reason == "wild_child":
                assert self.model is not None and self.model not in self.alive, "the Wild Child turned, his model alive"
            else:
                assert e.reason == "wolf_hound" and (game.state.night == 1 or e.seat in self.taken_by)
            self.joined.add(e.seat)
        elif isinstance(e, ev.CardTaken):
            self.cards[e.servant - 1] = e.role
            self._alive(e.servant, "the Servant takes a card")
            # In love when she took it: a card taken on Day 0 may make her Cupid, who then picks herself.
            assert not self.lovers or e.servant not in self.lovers, "a Servant in love took a card"
            self.taken.add(e.seat)
            self.taken_by.add(e.servant)
            self.charmed.discard(e.servant)  # her own charm is removed (docs/rules-spec.md#role-devoted_servant)
            self.heals.pop(e.servant, None)  # her new card starts fresh (potions renewed)
            self.poisons.pop(e.servant, None)
            if e.role is Role.WILD_CHILD:
                self.model = None
            if e.role is Role.ACCURSED_WOLF_FATHER:  # one-use powers renewed: the infection too
                self.infections = 0
            if e.seat not in self.alive:  # at dawn (servant_scope=any_death): taken after his death, before
                self.hunter_due = self.hunter_due and e.role is not Role.HUNTER  # his reactions: no shot,
                self.revenge_due = self.revenge_due and e.role is not Role.ELDER  # no revenge
        elif isinstance(e, ev.DawnBroke):
            def saved(seat: int, kind: str) -> bool:
                """kind: the pack's victim, the Big Bad Wolf's, the White Werewolf's."""
                if kind == "white" and not game.options.white_werewolf_kill_blockable:
                    return False
                girl = game.acts_as(seat, Role.LITTLE_GIRL)  # or the Actor holding her card
                blocks = kind == "pack" or game.options.savior_blocks == "all_devouring"
                return (self.healed and self.saved == seat) or (
                    blocks and self.protected == seat and (not girl or game.options.savior_protects_little_girl))

            def spare_life(seat: int) -> bool:
                return (game.acts_as(seat, Role.ELDER) and seat not in self.powerless
                        and game.options.elder_lives - self.lives_lost.get(seat, 0) > 1)
            victim = None if self.victim == self.infected else self.victim
            devoured = [(seat, kind) for seat, kind in ((victim, "pack"), (self.extra, "bbw"), (self.white_victim, "white"))
                        if seat is not None]
            unsaved = [seat for seat, kind in devoured if not saved(seat, kind)]
            absorbed = next((seat for seat in unsaved if spare_life(seat)), None)
            assert self.absorbed == absorbed, "a spare life was lost where it should not, or not lost"
            if absorbed is not None:
                self.lives_lost[absorbed] = self.lives_lost.get(absorbed, 0) + 1
            dead = {self.poisoned} | {seat for seat in unsaved if seat != absorbed}
            # The Knight's diseased wolf (knight_rusty_sword) dies this night too, at dusk or dawn.
            diseased = set(game.marked("diseased"))
            expected = {p for p in dead if p is not None}
            assert expected <= set(e.deaths) and set(e.deaths) - expected <= diseased, "wrong night deaths"
            assert list(e.deaths) == sorted(e.deaths)
        elif isinstance(e, ev.PlayerDied):
            self._alive(e.seat, "dies again")
            self.alive.discard(e.seat)
            if in_pack(game, self.joined, e.seat):
                self.pack_died.add(e.seat)
            if game.state.roles[e.seat - 1] is Role.ANGEL and self.angel is None:
                last_day, last_night = (0, 1) if game.options.angel_opening == "day_first" else (1, 2)
                voted = e.cause is ev.Cause.VOTE and self.day is not None and self.day <= last_day
                devoured = e.cause in ev.DEVOURING and self.day is None and self.night <= last_night
                if voted or devoured:
                    self.angel = e.seat
            fires = game.options.hunter_shoots_on == "any_death" or e.cause in (
                ev.Cause.WOLVES, ev.Cause.BIG_BAD_WOLF, ev.Cause.VOTE, ev.Cause.WHITE_WEREWOLF)
            hunter = e.role is Role.HUNTER or game.acts_as(e.seat, Role.HUNTER)  # or the Actor with his card
            if hunter and fires and e.seat not in self.powerless and e.seat not in self.taken:
                self.hunter_due = True
            causes = {"vote_poison_shot": {ev.Cause.VOTE, ev.Cause.POISON, ev.Cause.HUNTER},
                      "vote_only": {ev.Cause.VOTE}, "none": set()}[game.options.elder_revenge_causes]
            # A taken Elder card left with the Servant: no revenge (docs/rules-spec.md#role-devoted_servant).
            elder = e.role is Role.ELDER or game.acts_as(e.seat, Role.ELDER)  # or the Actor with his card
            if elder and e.cause in causes and e.seat not in self.powerless and e.seat not in self.taken:
                self.revenge_due = True
        elif isinstance(e, ev.LifeLost):
            assert e.seat in (self.victim, self.extra, self.white_victim) and self.absorbed is None  # a devoured player
            self.absorbed = e.seat
        elif isinstance(e, ev.PowersLost):
            assert self.revenge_due, "powers lost without the Elder's revenge"
            self.revenge_due = False
            keeps = hooks.KEEPS_POWER
            village = {p for p in self.alive if team_of(game, self.joined, p).value == "village"
                       and keeps.get(game.state.roles[p - 1], False) is False}
            assert set(e.seats) >= village, f"the revenge spared village players: {sorted(village - set(e.seats))}"
            self.powerless |= set(e.seats)
        elif isinstance(e, ev.PowerLost):
            # The Fox's miss (docs/rules-spec.md#role-fox): his power is lost for good, like the Elder's revenge;
            # or an infected Piper or Actor with `piper_infected` / `actor_infected` = powerless.
            if e.reason == "infected":
                option = {Role.PIED_PIPER: game.options.piper_infected, Role.ACTOR: game.options.actor_infected}.get(e.role)
                assert option == "powerless" and e.seat == self.infected, f"power lost without an infection: {e}"
            else:
                assert e.role is Role.FOX and game.options.fox_loses_power_on_miss, f"power lost without a Fox's miss: {e}"
            assert e.seat not in self.powerless, "a powerless seat lost his power again"
            self.powerless.add(e.seat)
        elif isinstance(e, ev.HunterCalled):
            assert self.hunter_due, "the Hunter was called without a death that lets him shoot"
            self.hunter_due = False
        elif isinstance(e, ev.HunterShot):
            self._alive(e.target, "the Hunter's target")
        elif isinstance(e, ev.CaptainSucceeded):
            self._alive(e.successor, "the successor")
        elif isinstance(e, ev.CaptainElected):
            self._alive(e.seat, "the elected Captain")
        elif isinstance(e, ev.VoteOpened):
            assert set(e.candidates) <= self.alive and set(e.voters) <= self.alive
        elif isinstance(e, ev.VotesCast):
            for voter, target in e.votes:
                self._alive(voter, "a voter")
                self._alive(target, "a vote's target")
        elif isinstance(e, ev.TieToBreak):
            assert set(e.tied) <= self.alive
        elif isinstance(e, ev.PlayerEliminated):
            self._alive(e.seat, "the eliminated")
        elif isinstance(e, (ev.DayBegan, ev.DuskFell, ev.GameEnded)) and game.state.lovers:
            a, b = game.state.lovers
            assert (a in self.alive) == (b in self.alive), f"Lovers {a} and {b}: one died without the other"
        if isinstance(e, (ev.DayBegan, ev.DuskFell, ev.GameEnded)):
            assert not (self.hunter_due and self.alive), "the dead Hunter was never called to shoot"
            assert not self.revenge_due, "the Elder was killed by the village and took no revenge"
        # Day 0 has no morning check; with end_check=dawn a day's eliminations are not checked.
        if isinstance(e, ev.DayBegan) and e != ev.DayBegan(0) or (
                isinstance(e, ev.DuskFell) and game.options.end_check != "dawn"):
            held = win_conditions(game, self.alive, self.charmed, self.angel, self.joined)
            assert held == {}, f"the game goes on although {held}"
        elif isinstance(e, ev.GameEnded):
            held = win_conditions(game, self.alive, self.charmed, self.angel, self.joined)
            assert held, "the game ended with no outcome holding"
            first = next(iter(held.items()))
            assert first == (e.winner, e.winners), f"the first outcome that holds must win: {held}"


def _powerless_do_nothing(self: Checker, e: ev.Event) -> None:
    """A powerless role's power does nothing (docs/rules-spec.md#powers-lost): no potion, no
    sight, no night power, no shot, no pardon, no tie taken, no list; the answer is ignored."""
    lost = self.powerless
    if isinstance(e, ev.WitchActed):
        assert e.witch not in lost, "a powerless Witch poured a potion"
    elif isinstance(e, ev.SeerSaw):
        assert e.seer not in lost, "a powerless Seer saw a card"
    elif isinstance(e, ev.PowerUsed):
        assert e.seat not in lost, f"a powerless {e.call} used the power"
    elif isinstance(e, ev.HunterCalled):
        assert e.hunter not in lost, "a powerless Hunter shot"
    elif isinstance(e, ev.PlayerSpared):
        assert e.seat not in lost, "a powerless card spared its holder"
    elif isinstance(e, ev.TieVictim):
        assert e.seat not in lost, "a powerless Scapegoat took the tie"
    elif isinstance(e, ev.VotersCalled):
        assert e.seat not in lost, "a powerless Scapegoat named voters"
    elif isinstance(e, ev.PowerIgnored):
        assert e.seat in lost, "an answer was ignored although the power is not lost"


Checker.powerless_do_nothing = _powerless_do_nothing  # type: ignore[attr-defined]


# ---- a random legal game, step by step --------------------------------------------------


class Driver:
    """Plays one action at a time. Each choice is drawn from every seat (and None), so it may be
    illegal; the test decides legality from its own model (`Checker`), expects the engine to
    refuse exactly the illegal ones without changing anything, and retries until one is legal."""

    def __init__(self, game: Game, checker: Checker, data: st.DataObject) -> None:
        self.game, self.checker, self.data = game, checker, data

    def draw(self, strategy: st.SearchStrategy[Any]) -> Any:
        return self.data.draw(strategy)

    def seat(self) -> int | None:
        return self.draw(st.one_of(st.none(), st.integers(1, self.game.players)))

    def attempt(self, legal: bool, action: str, *args: Any) -> bool:
        game = self.game
        before, count = game.state.copy(), len(game.events)
        if legal:
            getattr(game, action)(*args)
            return True
        try:
            getattr(game, action)(*args)
        except RulesError:
            assert game.state == before and len(game.events) == count, f"refused {action}{args} changed the state"
            return False
        raise AssertionError(f"{action}{args} is illegal but was accepted")

    def until_legal(self, make: Any, *fallback: Any) -> None:
        """`make()` draws (legal, action, *args); illegal tries are checked; after three, `fallback`
        (an action and arguments the model knows are legal) is played."""
        for _ in range(3):
            legal, action, *args = make()
            if self.attempt(legal, action, *args):
                return
        self.attempt(True, *fallback)

    def move(self) -> None:
        game, s, alive = self.game, self.game.state, self.checker.alive
        if s.awaiting is Awaiting.VOTE:
            if game.sign_taken() and s.ballot_voters and self.draw(st.integers(0, 3)) == 0:
                # A voter's sign (the Stuttering Judge's `+`): counts only for a Judge with requests left.
                game.signal_second_vote(self.draw(st.sampled_from(s.ballot_voters)))
            def ballot() -> tuple[Any, ...]:
                votes = {v: self.draw(st.sampled_from((*s.candidates, None))) for v in s.ballot_voters}
                if self.draw(st.integers(0, 4)) == 4:  # now and then one stray vote
                    votes[self.draw(st.integers(1, game.players))] = self.seat()
                legal = all(v in s.ballot_voters and (t is None or t in s.candidates) for v, t in votes.items())
                legal = legal and set(s.ballot_voters) <= alive and set(s.candidates) <= alive
                return (legal, "cast_votes", votes, random.Random(self.draw(st.integers(0, 99))))
            self.until_legal(ballot, "cast_votes", {}, random.Random(0))
        elif s.awaiting is Awaiting.TIEBREAK:
            self.until_legal(lambda: (lambda t: (t is None or t in s.candidates, "break_tie", t))(self.seat()), "break_tie", None)
        elif s.awaiting is Awaiting.HUNTER:
            self.until_legal(lambda: (lambda t: (t is None or t in alive, "hunter_shoot", t))(self.seat()), "hunter_shoot", None)
        elif s.awaiting is Awaiting.WINDOW:
            def taker() -> tuple[Any, ...]:
                # Living, powered, not in love (docs/rules-spec.md#role-devoted_servant): the Elder's
                # revenge leaves her powerless, and then she takes nothing (#powers-lost).
                t = self.seat()
                lovers = s.lovers or ()
                ok = t is None or (t in alive and s.roles[t - 1] is Role.DEVOTED_SERVANT and t != s.awaiting_seat
                                   and t not in lovers and t not in self.checker.powerless)
                return (ok, "take_card", t)
            self.until_legal(taker, "take_card", None)
        elif s.awaiting is Awaiting.SUCCESSOR:
            self.until_legal(lambda: (lambda t: (t is None or t in alive, "name_successor", t))(self.seat()), "name_successor", None)
        elif s.awaiting is Awaiting.VOTERS:
            def voters() -> tuple[Any, ...]:
                if self.draw(st.integers(0, 3)) == 0:
                    return (True, "designate_voters", None)
                chosen = self.draw(st.lists(st.integers(1, game.players), max_size=4))
                return (set(chosen) <= alive, "designate_voters", chosen)
            self.until_legal(voters, "designate_voters", None)
        elif s.phase is Phase.SETUP and game.day_zero_due():
            game.open_day_zero()  # the Angel's Day 0
        elif s.phase in (Phase.SETUP, Phase.DUSK):
            game.begin_night()
        elif s.phase is Phase.DAY:
            if game.captain_election_due() and self.draw(st.booleans()):
                game.open_captain_election()
            else:
                game.open_vote()
        elif s.phase is Phase.NIGHT:
            self.night_move()

    def holder(self, role: Role) -> int | None:
        seats = [p for p in self.checker.alive if self.game.state.roles[p - 1] is role]
        return seats[0] if seats else None

    def night_move(self) -> None:
        game, s, alive = self.game, self.game.state, self.checker.alive
        first = s.night == 1
        calls: list[str] = []
        if first and s.step < Step.THIEF and self.holder(Role.THIEF):
            calls.append("thief")
        if first and s.step < Step.CUPID and self.holder(Role.CUPID):
            calls.append("cupid")
        if game.captain_election_due():
            calls.append("election")
        # The base calls (driven by their own actions above and below) and every other power of the
        # catalogue, in the merged night order.
        due: list[tuple[float, str]] = [(p.order * 10, f"power:{p.call}") for p in hooks.POWERS.values()
                                        if p.call not in BASE_CALLS and s.step < step_of(p.order) and self.holder(p.role)
                                        and p.called(game.options, s.night)]
        if s.step < Step.SEER and self.holder(Role.SEER):
            due.append((Step.SEER, "seer"))
        if s.step < Step.WOLVES and any(in_pack(game, self.checker.joined, p) for p in alive):
            due.append((Step.WOLVES, "wolves"))
        if s.step < Step.WITCH and self.holder(Role.WITCH):
            due.append((Step.WITCH, "witch"))
        calls += [name for _, name in sorted(due)]
        for call in calls:
            if not self.draw(st.integers(0, 9)):  # now and then a role gives no answer in time
                continue
            if call == "thief":
                both_wolves = all(r in PACK for r in s.extra)
                self.until_legal(lambda: (lambda c: (c in (1, 2) or (c == 0 and not both_wolves), "thief_choose", c))(
                    self.draw(st.integers(-1, 3))), "thief_choose", 1)
            elif call == "cupid":
                def lovers() -> tuple[Any, ...]:
                    a, b = self.draw(st.integers(1, game.players)), self.draw(st.integers(1, game.players))
                    return (a != b and a in alive and b in alive, "cupid_choose", a, b)
                self.until_legal(lovers, "cupid_choose", *sorted(alive)[:2])
            elif call == "election":
                game.open_captain_election()
            elif call.startswith("power:"):
                power = hooks.POWERS[call.removeprefix("power:")]
                holder = self.holder(power.role) or 0
                legal = power.targets(game, holder)
                count = power.count if power.count_of is None else power.count_of(game, holder)
                if len(legal) < count or count == 0:
                    continue

                def use(power: Power = power, legal: tuple[int, ...] = legal, count: int = count) -> tuple[Any, ...]:
                    chosen = tuple(self.draw(st.lists(st.integers(1, game.players), min_size=count,
                                                      max_size=count, unique=True)))
                    return (all(t in legal for t in chosen), "use_power", power.call, chosen)
                self.until_legal(use, "use_power", power.call, legal[:count])
            elif call == "seer":
                seer = self.holder(Role.SEER)
                if not alive - {seer}:
                    continue  # the Seer alone alive (a day's win waits for dawn, end_check=dawn): nobody to see
                self.until_legal(lambda: (lambda t: (t in alive and t != seer, "seer_inspect", t))(
                    self.draw(st.integers(1, game.players))), "seer_inspect", min(alive - {seer}))
            elif call == "wolves":
                no_kill = first and not game.options.first_night_kill
                self.until_legal(lambda: (lambda t: (
                    t is None or (not no_kill and t in alive and not in_pack(game, self.checker.joined, t)),
                    "wolves_choose", t))(self.seat()), "wolves_choose", None)
            elif call == "witch":
                def witch() -> tuple[Any, ...]:
                    heal, poison = self.draw(st.booleans()), self.seat()
                    c = self.checker
                    w = game.living_holder(Role.WITCH)
                    others = game.options.witch_sees == "all_devoured" and (c.extra is not None or (
                        c.white_victim is not None and game.options.white_werewolf_kill_blockable))
                    devoured = (c.victim is not None and c.victim != c.infected) or others
                    heal_ok = not heal or (c.heals.get(w or 0, 0) == 0 and devoured)
                    poison_ok = poison is None or (c.poisons.get(w or 0, 0) == 0 and poison in alive)
                    return (heal_ok and poison_ok, "witch_act", heal, poison)
                self.until_legal(witch, "witch_act", False, None)
            return
        game.dawn()


def legal_move(game: Game, checker: Checker, data: st.DataObject) -> None:
    Driver(game, checker, data).move()


BASE_CALLS = frozenset({"thief", "cupid", "seer", "witch"})  # thief_choose, cupid_choose, seer_inspect, witch_act
ACTIONS = ("begin_night", "thief_choose", "cupid_choose", "use_power", "seer_inspect", "wolves_choose", "witch_act", "dawn",
           "hunter_shoot", "name_successor", "open_captain_election", "open_vote", "cast_votes", "break_tie",
           "designate_voters", "take_card")


def any_move(game: Game, data: st.DataObject) -> tuple[str, tuple[Any, ...]]:
    """Any action with any arguments: often illegal, sometimes legal."""
    seat = st.one_of(st.none(), st.integers(-1, game.players + 2))
    action = data.draw(st.sampled_from(ACTIONS))
    if action in ("begin_night", "dawn", "open_captain_election", "open_vote"):
        args: tuple[Any, ...] = ()
    elif action == "thief_choose":
        args = (data.draw(st.integers(-1, 3)),)
    elif action == "cupid_choose":
        args = (data.draw(st.integers(-1, game.players + 2)), data.draw(st.integers(-1, game.players + 2)))
    elif action in ("seer_inspect",):
        args = (data.draw(st.integers(-1, game.players + 2)),)
    elif action == "use_power":
        args = (data.draw(st.sampled_from([*sorted(hooks.POWERS), "nobody's"])), data.draw(st.lists(st.integers(-1, game.players + 2), max_size=2)))
    elif action == "witch_act":
        args = (data.draw(st.booleans()), data.draw(seat))
    elif action == "designate_voters":
        args = (data.draw(st.one_of(st.none(), st.lists(st.integers(-1, game.players + 2), max_size=3))),)
    elif action == "cast_votes":
        args = (data.draw(st.dictionaries(st.integers(-1, game.players + 2), seat, max_size=4)),)
    else:
        args = (data.draw(seat),)
    return action, args


class GameMachine(RuleBasedStateMachine):
    """Random legal games, with random (mostly illegal) actions thrown in."""

    game: Game
    checker: Checker

    @initialize(setup=setups())
    def start(self, setup: Setup) -> None:
        self.game = setup.start()
        self.checker = Checker(self.game)

    @precondition(lambda self: self.game.outcome is None)
    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        legal_move(self.game, self.checker, data)

    @rule(data=st.data())
    def poke(self, data: st.DataObject) -> None:
        action, args = any_move(self.game, data)
        before, count = self.game.state.copy(), len(self.game.events)
        try:
            getattr(self.game, action)(*args)
        except RulesError:
            assert self.game.state == before, f"refused {action}{args} changed the state"
            assert len(self.game.events) == count

    @invariant()
    def rules_hold(self) -> None:
        if hasattr(self, "checker"):
            self.checker.check()

    def teardown(self) -> None:
        if hasattr(self, "game"):
            assert Game.replay(self.game.events).state == self.game.state


GameMachine.TestCase.settings = settings(
    max_examples=examples(120), stateful_step_count=120, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
test_random_legal_games_keep_the_rules = GameMachine.TestCase


@settings(max_examples=examples(150), deadline=None)
@given(setup=setups(max_players=18), data=st.data())
def test_every_legal_game_ends_and_exactly_one_outcome_holds(setup: Setup, data: st.DataObject) -> None:
    game = setup.start()
    checker = Checker(game)
    for _ in range(5000):
        if game.outcome is not None:
            break
        legal_move(game, checker, data)
        checker.check()
    assert game.outcome is not None, "a game drawn move by move did not end in 5000 moves"
    assert game.state.phase is Phase.OVER


# Found by a run with ten times the examples: the Devoted Servant takes
# Cupid's card on the Angel's Day 0, then as Cupid makes herself a Lover; the model read the
# Lovers of the game's end, not of the moment she took the card.
SERVANT_TAKES_CUPIDS_CARD_ON_DAY_ZERO = Setup(9, {
    Role.WEREWOLF: 1, Role.SEER: 1, Role.WITCH: 1, Role.HUNTER: 1, Role.CUPID: 1, Role.ANGEL: 1,
    Role.ABOMINABLE_SECTARIAN: 1, Role.DEVOTED_SERVANT: 1, Role.VILLAGER: 1}, Options(captain_election="never"), 41)


@settings(max_examples=examples(150), deadline=None)
@given(setup=setups(max_players=18))
@example(setup=SERVANT_TAKES_CUPIDS_CARD_ON_DAY_ZERO)
def test_every_game_ends_within_n_nights_with_block_votes(setup: Setup) -> None:
    game = setup.start()
    checker = Checker(game)
    rng = random.Random(setup.seed)
    policy = RandomPolicy()
    while game.outcome is None:
        # A card that spares the designated player (the Village Idiot) buys the village one day.
        # The Elder's spare lives buy a night each.
        spare = len(game.state.spared) + sum(game.state.lives_lost.values())
        assert game.state.night < setup.players + spare, f"no end after {game.state.night} nights"
        play_night(game, rng, policy)
        checker.check()
        if game.outcome is None:
            living, spared = len(game.living()), len(game.state.spared)
            play_day(game, rng, policy)
            checker.check()
            assert len(game.living()) < living or len(game.state.spared) > spared, "a day of block votes eliminated nobody"
    assert game.state.night <= setup.players + len(game.state.spared) + sum(game.state.lives_lost.values())


def test_the_checker_follows_the_foxs_miss() -> None:
    """The model knows a Fox loses his power on a miss (docs/rules-spec.md#role-fox): his next answer
    is ignored (PowerIgnored), and that is legal (the seed 1351...748 of the stateful test found it)."""
    game = new_game("villager werewolf seer villager fox villager villager villager", captain_election="never")
    checker = Checker(game)
    game.begin_night()
    game.use_power("fox", (7,))  # seats 6, 7, 8: no Werewolf
    game.wolves_choose(4)
    game.dawn()
    checker.check()
    assert 5 in checker.powerless
    game.open_vote()
    game.cast_votes({})
    game.begin_night()
    game.use_power("fox", (1,))  # next to the Werewolf, but his nose is gone
    assert isinstance(game.events[-1], ev.PowerIgnored)
    checker.check()


def test_the_checker_follows_the_infected_sectarian() -> None:
    """The model knows an infected Sectarian loses his goal
    (`sectarian_infected=powerless`, docs/rules.md "Abominable Sectarian"): with his other group
    dead he does not win; the pack does. The model once gave him the game, and the three
    Hypothesis tests that share it failed at random on a correct engine."""
    game = new_game("accursed_wolf_father abominable_sectarian werewolf villager villager villager",
                    sectarian_groups="AAABBB", captain_election="never")
    checker = Checker(game)
    game.begin_night()
    game.wolves_choose(2)
    game.use_power("accursed_wolf_father", (2,))  # the Sectarian joins the pack
    game.dawn()
    checker.check()
    assert 2 in checker.joined
    for eliminated, devoured in ((4, 5), (6, None)):
        game.open_vote()
        game.cast_votes({1: eliminated, 2: eliminated, 3: eliminated})
        checker.check()
        if devoured is not None:
            game.begin_night()
            game.wolves_choose(devoured)
            game.dawn()
            checker.check()
    assert game.outcome is not None and game.outcome.winner is Side.WEREWOLVES
    assert win_conditions(game, checker.alive, joined=checker.joined) == {Side.WEREWOLVES: (1, 2, 3)}


def test_a_captain_diseased_at_dusk_names_his_successor_at_dawn() -> None:
    """The Knight's diseased wolf is the Captain: he dies as Night 2 begins, and names his
    successor at dawn, when his death is told (naming him at dusk would tell the table). The model
    wanted a living Captain all night (found by a run with ten times the examples)."""
    game = new_game("villager knight_rusty_sword werewolf werewolf villager villager villager villager",
                    captain_election="day1")
    checker = Checker(game)
    game.begin_night()
    game.wolves_choose(2)
    game.dawn()
    game.open_captain_election()
    game.cast_votes({p: 3 for p in game.state.ballot_voters})
    game.open_vote()
    game.cast_votes({})
    checker.check()
    assert game.state.captain == 3 and game.marked("diseased") == (3,)
    game.begin_night()
    checker.check()
    assert not game.is_alive(3) and game.state.captain == 3
    game.wolves_choose(5)
    game.dawn()
    checker.check()
    assert game.state.awaiting is Awaiting.SUCCESSOR
    game.name_successor(6)
    checker.check()
    assert game.state.captain == 6


class Scripted:
    """Stands for Hypothesis's `data` in an explicit game: each draw is the next value given."""

    def __init__(self, *values: Any) -> None:
        self.values = list(values)

    def draw(self, strategy: st.SearchStrategy[Any]) -> Any:
        return self.values.pop(0)


def test_the_model_knows_a_servant_powerless_after_the_elders_revenge_takes_no_card() -> None:
    """The village votes out the Elder: every villager loses his power, the Devoted Servant too,
    and she takes nothing after that (docs/rules-spec.md#powers-lost, #role-devoted_servant).
    The model once let her claim a card then, so a correct engine's refusal failed the Hypothesis
    tests that share the model at random (seed 238640236578298413487896547013299010960)."""
    game = new_game("elder devoted_servant werewolf villager villager villager villager",
                    elder_revenge_causes="vote_only", captain_election="never")
    checker = Checker(game)
    game.begin_night()
    game.wolves_choose(None)
    game.dawn()
    game.open_vote()
    game.cast_votes({p: 1 for p in game.state.ballot_voters})  # the Elder
    game.take_card(None)
    checker.check()
    assert 2 in checker.powerless
    game.begin_night()
    game.wolves_choose(None)
    game.dawn()
    game.open_vote()
    game.cast_votes({p: 4 for p in game.state.ballot_voters})
    checker.check()
    assert game.state.awaiting is Awaiting.WINDOW and game.state.awaiting_seat == 4
    # The Servant's own seat, three times: the model must call her claim illegal (the engine
    # refuses it, nothing changes), then the Driver plays its fallback: nobody steps forward.
    Driver(game, checker, cast(st.DataObject, Scripted(2, 2, 2))).move()
    checker.check()
    assert not any(isinstance(e, ev.CardTaken) for e in game.events)
    assert game.state.roles[1] is Role.DEVOTED_SERVANT and not game.is_alive(4)
