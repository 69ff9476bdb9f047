"""Dealing at the table: on the private panel (mode a), or a silent roll call for physical cards (mode b)."""

from __future__ import annotations

from typing import Collection, Mapping

from narrator.errors import NarratorError, UsageError
from narrator.flow.timing import Timing
from narrator.ports import Clock, Cue, Display, Listener, Prompt, Speaker
from narrator.rules import Deal, Game, Options, Role, RulesError
from narrator.rules.composition import deck_of


def reminder(role: Role, options: Options) -> str:
    """The pack key of the card's one-line reminder of its power and keys (`reminder.<role>`; the
    Stuttering Judge's keys follow option `judge_signal`)."""
    if role is Role.STUTTERING_JUDGE and options.judge_signal == "night_arm":
        return "reminder.stuttering_judge_night_arm"
    return f"reminder.{role.value}"


def deal_on_screen(deal: Deal, display: Display, listener: Listener, options: Options | None = None,
                   on_phones: Collection[int] = ()) -> None:
    """Seat by seat: the seat presses its number, sees its card, presses Enter to hide it.

    Only the seat whose turn it is can open the panel: any other number is refused, so a
    neighbour's slip never shows a card that is not theirs. The seats in `on_phones` hold their
    card on their own phone (docs/phones.md): the screen skips them.
    """
    try:
        _deal(deal, display, listener, options or Options(), frozenset(on_phones))
    except NarratorError as exc:
        display.clear_private()  # never leave a card on the screen, whatever stopped the deal
        raise UsageError("the deal stopped: {exc}; start again with 'narrator play'", exc=exc) from None


def _deal(deal: Deal, display: Display, listener: Listener, options: Options, on_phones: frozenset[int]) -> None:
    for seat in range(1, len(deal.seats) + 1):
        if seat in on_phones:
            continue
        display.show_private("deal.next", {"seat": seat})
        while True:
            heard = listener.listen(Prompt("deal.seat", (seat,)))
            if heard is None:
                _check_open(listener)
                continue
            if heard.choice == seat:
                break
            display.feedback("input.refused", {"reason": str(heard.text or heard.choice)})
        role = deal.seats[seat - 1]
        # The card, and a one-line reminder of its power and its keys (before any of them is needed).
        display.show_private("deal.card", {"seat": seat, "role": role.value}, ((reminder(role, options), {}),))
        while listener.listen(Prompt("deal.hide", words=("enter",))) is None:
            _check_open(listener)
        display.clear_private()


def _check_open(listener: Listener) -> None:
    if getattr(listener, "closed", False):
        raise UsageError("the input ended")


# ---- mode (b): physical cards ----------------------------------------------------------

def _roll_order() -> tuple[Role, ...]:
    """The roll call's order, from the role catalogue: the night's order, then the roles with no
    call of their own (every card but the Villager, who fills the deck)."""
    from narrator.roles import CARDS, night_calls

    order: list[Role] = []
    for c in night_calls():
        if c.role in CARDS and c.role is not Role.VILLAGER and c.role not in order:
            order.append(c.role)
    order += [r for r in CARDS if r not in order and r is not Role.VILLAGER]
    return tuple(order)


ROLL_ORDER: tuple[Role, ...] = _roll_order()


def middle_menu(deck: Mapping[Role, int]) -> tuple[Role, ...]:
    """The Thief's menu for a card in the middle (the `deal.thief_middle` panel line): every card of
    the announced deck but his own, extension roles too, in the catalogue's order."""
    from narrator.roles import CARDS

    return tuple(r for r in CARDS if deck.get(r) and r is not Role.THIEF)


class RollCallMismatch(NarratorError):
    """The seats given do not add up to the announced deck (said aloud only as 'once more')."""


def roll_turn(role: Role, wanted: int, options: Options, timing: Timing) -> float:
    """A role's turn in the roll call: from the announced deck only (its number of cards), never from
    what is typed. The Thief with cards from the deck also gives the two middle cards: his night turn."""
    if role is Role.THIEF and options.thief_extra_cards == "from_deck":
        return timing.turn("thief")
    return timing.roll_call + timing.roll_call_card * (wanted - 1)


def roll_call(
    players: int,
    deck: Mapping[Role, int],
    options: Options,
    speaker: Speaker,
    listener: Listener,
    display: Display,
    clock: Clock,
    timing: Timing,
    attempts: int = 3,
) -> Deal:
    """Deal mode (b): each role of the announced deck wakes in turn and types its seat, silently.

    The rules engine needs the whole deal before the first night (the Seer may look at a
    Werewolf before the Werewolves are called), so the seats are learnt in a roll call before
    the game. Every role called gets the same lines and a turn fixed by the announced deck
    (`roll_turn`), whatever is typed; seats nobody claims are Villagers; each role's panel shows
    the seats it has noted and how many remain.

    When the claims do not add up, a second pass calls again only the roles that gave fewer seats
    than they hold cards (each role's own count, nothing another role typed), keeping every seat
    already noted; when every role gave all its seats and they still do not add up (two roles on
    one seat), the roles that gave that seat are called again from nothing (and if the seats still
    do not add up, every role). Either way the pass is the same whatever the hidden cards are
    (README, "The deal")."""

    def say(cue: Cue) -> None:
        clock.sleep_until(speaker.say(cue))

    say(Cue("deal.roll_call", phase="deal.roll_call"))
    called = [role for role in ROLL_ORDER if deck.get(role)]
    claims: dict[Role, list[int]] = {}
    middle: list[Role] = []
    from_deck = options.thief_extra_cards == "from_deck"
    again = "deal.roll_call_again"  # what the next pass opens with: everyone again, or the missing seats
    for attempt in range(attempts):
        if attempt:
            say(Cue(again, phase="deal.roll_call"))
        for role in called:
            say(Cue("deal.seat_wake", {"role": role.value}, phase="deal.roll_call"))
            deadline = clock.now() + roll_turn(role, deck[role], options, timing)
            # The Thief with cards from the deck goes on to the middle cards once his seat is given.
            middle_next = role is Role.THIEF and from_deck
            seats = _seats_of(role, deck[role], players, listener, display, options, deadline,
                              stop_when_full=middle_next,
                              noted=claims.get(role, []))
            claims[role] = seats
            if middle_next and seats and len(middle) < 2:
                middle = _middle_cards(middle_menu(deck), listener, display, deadline)
            clock.sleep_until(deadline)
            display.clear_private()
            say(Cue("deal.roll_sleep", phase="deal.roll_call"))
            clock.sleep_until(clock.now() + timing.gap)
        try:
            deal = deal_from_claims(players, deck, claims, middle, options)
        except RollCallMismatch:
            short = [r for r in ROLL_ORDER if deck.get(r) and (
                len(claims.get(r, [])) < deck[r] or (r is Role.THIEF and from_deck and len(middle) < 2))]
            doubled = _doubled(claims)
            if short:
                called, again = short, "deal.roll_call_missing"  # the others keep their seats
            elif doubled and again != "deal.roll_call_twice":
                # Two roles on one seat (a role that missed its turn typed its seat in the next one):
                # those two give their seats again from nothing; the others keep theirs.
                called, again = doubled, "deal.roll_call_twice"
                for role in doubled:
                    claims[role] = []
                if Role.THIEF in doubled:
                    middle = []
            else:
                called, again = [r for r in ROLL_ORDER if deck.get(r)], "deal.roll_call_again"
                claims, middle = {}, []
            continue
        say(Cue("deal.roll_call_done", phase="deal.roll_call"))
        return deal
    raise UsageError(
        "the seats given in {attempts} roll calls did not add up to the announced cards; check the cards and start "
        "again with 'narrator play'", attempts=attempts
    )


def _doubled(claims: Mapping[Role, list[int]]) -> list[Role]:
    """The roles that gave a seat another role gave too, in the roll call's order (from what was
    typed only: the same whatever the cards are)."""
    owners: dict[int, set[Role]] = {}
    for role, seats in claims.items():
        for seat in seats:
            owners.setdefault(seat, set()).add(role)
    clashing = {role for roles in owners.values() if len(roles) > 1 for role in roles}
    return [role for role in ROLL_ORDER if role in clashing]


def _panel(role: Role, wanted: int, seats: list[int], display: Display, options: Options) -> None:
    """The role's panel: what to type, then every seat it has noted and how many remain."""
    if not seats:
        progress: tuple[str, dict[str, int | str]] = ("deal.noted_none", {"count": wanted})
    elif len(seats) < wanted:
        progress = ("deal.noted_some", {"seats": ", ".join(map(str, seats)), "left": wanted - len(seats),
                                        "count": wanted})
    else:
        progress = ("deal.noted_all", {"seats": ", ".join(map(str, seats)), "count": wanted})
    display.show_private("deal.seats_prompt" if wanted > 1 else "deal.seat_prompt", {},
                         (progress, (reminder(role, options), {})))


def _seats_of(role: Role, wanted: int, players: int, listener: Listener, display: Display, options: Options,
              deadline: float, stop_when_full: bool = False, noted: list[int] | None = None) -> list[int]:
    """One role's seats, answered on its private panel as they are typed, until its turn ends.

    `noted`: the seats it gave in an earlier pass (kept; the panel shows them).
    A seat beyond the role's number of cards is not taken, with the reason (a seat another role
    already gave is answered like any other: refusing it would tell which seats hold those cards);
    `-` takes back the last seat noted; `+` says all are in.
    The turn lasts its full time whatever is typed (the caller waits for the deadline).
    """
    seats: list[int] = list(noted or [])
    _panel(role, wanted, seats, display, options)
    while not (stop_when_full and len(seats) >= wanted):
        heard = listener.listen(Prompt(f"night.{role.value}.seat", tuple(range(1, players + 1)), ("yes", "no"),
                                       night=True, deadline=deadline))
        if heard is None:
            break
        choice = heard.choice
        if choice == "yes":
            break
        if choice == "no":
            if seats:
                taken = seats.pop()
                _panel(role, wanted, seats, display, options)  # the panel first: redrawing it clears the feedback
                display.feedback("deal.seat_removed", {"seat": taken})
            else:
                display.feedback("input.nothing_to_undo", {})
            continue
        if not isinstance(choice, int) or not 1 <= choice <= players or choice in seats:
            display.feedback("input.refused", {"reason": str(heard.text or choice)})
        # A seat another role has already given is NOT refused here: saying so would let any
        # role probe which seats hold the cards called before it. Two roles on one seat make the
        # roll call fail to add up, and it is called again, the same for everyone.
        elif len(seats) >= wanted:
            display.feedback("deal.seats_full", {"seat": choice, "count": wanted})
        else:
            seats.append(choice)
            _panel(role, wanted, seats, display, options)
            display.feedback("deal.seat_noted", {"seat": choice})
    return seats


def _middle_cards(menu: tuple[Role, ...], listener: Listener, display: Display, deadline: float) -> list[Role]:
    cards: list[Role] = []
    for card in (1, 2):
        display.show_private("deal.thief_middle", {"seat": card, "cards": ",".join(r.value for r in menu)})
        while True:
            heard = listener.listen(Prompt("night.thief.middle", tuple(range(1, len(menu) + 1)), night=True,
                                           deadline=deadline))
            if heard is None:
                return cards
            if isinstance(heard.choice, int) and 1 <= heard.choice <= len(menu):
                cards.append(menu[heard.choice - 1])
                break
            display.feedback("input.refused", {"reason": str(heard.text or heard.choice)})
    return cards


def deal_from_claims(
    players: int, deck: Mapping[Role, int], claims: Mapping[Role, list[int]], middle: list[Role], options: Options
) -> Deal:
    """The deal the claims describe, checked against the announced deck; unclaimed seats are Villagers."""
    seats = [Role.VILLAGER] * players
    for role, claimed in claims.items():
        for seat in claimed:
            if seats[seat - 1] is not Role.VILLAGER:
                raise RollCallMismatch("seat {seat} claimed by {value} and {value2}",
                                       seat=seat, value=seats[seat - 1].value, value2=role.value)
            seats[seat - 1] = role
    thief = Role.THIEF in seats
    if options.thief_extra_cards == "from_deck" and deck.get(Role.THIEF):
        if not thief or len(middle) != 2:
            raise RollCallMismatch("the Thief and the two cards in the middle are needed")
        extra: tuple[Role, ...] = tuple(middle)
        counted = deck_of(tuple(seats), extra)
    else:
        extra = (Role.VILLAGER, Role.VILLAGER) if thief else ()
        counted = deck_of(tuple(seats))
    if {r: n for r, n in counted.items() if n} != {r: n for r, n in deck.items() if n}:
        raise RollCallMismatch("claimed {claimed}, announced {announced}", claimed=dict(counted), announced=dict(deck))
    deal = Deal(tuple(seats), extra)
    try:
        Game.start(deal, options)
    except RulesError as exc:
        raise RollCallMismatch(exc.template, **exc.slots) from None
    return deal
