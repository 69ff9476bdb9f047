"""The Scapegoat (le Bouc Émissaire, Nouvelle Lune): never called (docs/rules-spec.md#role-scapegoat).

- When an elimination vote ends in a tie, the living, powered Scapegoat is eliminated instead of
  the tied players, whether or not he is among them; no revote (day step 4). With
  `scapegoat_vs_captain=captain_first` a living Captain who may break ties chooses first; the
  Scapegoat goes only if the Captain lets the moment pass or cannot choose.
- As his death reaction he names, in public, who may vote in the next day's elimination votes
  (any living players, none, or all); an unanswered prompt sets no restriction. If nobody he
  named is alive when the vote comes, there is no vote that day. Only a Scapegoat eliminated by
  a tie names voters.
- Powerless: the base tie rules apply and he names nobody.
"""

from __future__ import annotations

from typing import Literal

from narrator.roles.base import Card, Option, PanelLine, RoleModule
from narrator.rules import checks
from narrator.rules.events import Cause, NobodyEliminated, TieVictim, VotersCalled, VotersDesignated
from narrator.rules.roles import Role, Team
from narrator.rules.state import Awaiting
from narrator.rules.view import Answer, Chain, GameView, Hooks, Reaction, Settled, Tie


def tie(game: GameView, tie: Tie) -> Settled | None:
    """Day step 4: the living, powered Scapegoat is eliminated instead of the tied."""
    seat = game.living_holder(Role.SCAPEGOAT)
    if seat is None or not game.powered(seat):
        return None
    if tie.captain_can_break and game.options.scapegoat_vs_captain == "captain_first":
        return None
    return Settled(seat, instead=True)


def names_voters(game: GameView, seat: int, cause: Cause) -> Reaction | None:
    """Dawn step 6: the Scapegoat eliminated by a tie names who may vote the next day (awaited)."""
    s = game.state
    if cause is Cause.VOTE and s.tie_victim == seat and game.powered(seat) \
            and (not game.end_checked_now() or game.check_outcome() is None):
        return Reaction(waits=VotersCalled)
    return None


def announce(game: GameView, event: object) -> list[PanelLine]:
    if isinstance(event, TieVictim):
        return [("scapegoat.tie", {"seat": event.seat})]
    if isinstance(event, VotersDesignated):
        if event.voters is None:
            return [("scapegoat.voters_all", {})]
        if not event.voters:
            return [("scapegoat.voters_none", {})]
        return [("scapegoat.voters", {}), *(("scapegoat.voter", {"seat": p}) for p in event.voters)]
    if isinstance(event, NobodyEliminated) and event.reason == "no_voters":
        return [("scapegoat.no_voters", {})]
    return []


def designates(game: GameView, seat: int, choice: tuple[int, ...] | None) -> Reaction:
    """His list of the next day's voters: any living players, none, or all (None: no answer in
    time, no restriction)."""
    chosen: tuple[int, ...] | None = None
    if choice is not None:
        for voter in choice:
            checks.target(game, voter, "the Scapegoat")
        chosen = tuple(sorted(set(choice)))
    return Reaction(events=(VotersDesignated(seat, chosen, game.state.day + 1),))


def said(choice: tuple[int, ...] | None) -> str:
    listed = "nobody" if choice is not None and not choice else " ".join(map(repr, choice or ())) or "no answer"
    return f"the Scapegoat's voters ({listed})"


VsCaptain = Literal["scapegoat_first", "captain_first"]
OPTIONS = (
    Option("scapegoat_vs_captain", VsCaptain, "scapegoat_first"),
)


MODULE = RoleModule(
    Card(Role.SCAPEGOAT, Team.VILLAGE, moons=2, box="new_moon"),
    announce=announce,
    hooks=Hooks(
        ties=(tie,),
        chain=(Chain(5, names_voters, Role.SCAPEGOAT),),
        answers=(Answer(Awaiting.VOTERS, said, designates),),
    ),
    options=OPTIONS,
)
