"""Dealing the cards at the table: the program deals on the private panel, seat by seat (mode a)."""

from __future__ import annotations

from narrator.errors import NarratorError, UsageError
from narrator.ports import Display, Listener, Prompt
from narrator.rules import Deal

# A seat has this long to press its number, then the panel asks again (nothing is lost).
DEAL_WAIT = 600.0


def deal_on_screen(deal: Deal, display: Display, listener: Listener) -> None:
    """Seat by seat: the seat presses its number, sees its card, presses Enter to hide it.

    Only the seat whose turn it is can open the panel: any other number is refused, so a
    neighbour's slip never shows a card that is not theirs.
    """
    try:
        _deal(deal, display, listener)
    except NarratorError as exc:
        display.clear_private()  # never leave a card on the screen, whatever stopped the deal
        raise UsageError(f"the deal stopped: {exc}; start again with 'narrator play'") from None


def _deal(deal: Deal, display: Display, listener: Listener) -> None:
    for seat in range(1, len(deal.seats) + 1):
        display.show_private("deal.next", {"seat": seat})
        while True:
            heard = listener.listen(Prompt("deal.seat", (seat,)))
            if heard is None:
                _check_open(listener)
                continue
            if heard.choice == seat:
                break
            display.feedback("input.refused", {"reason": f"it is seat {seat}'s turn, not {heard.text or heard.choice}"})
        display.show_private("deal.card", {"seat": seat, "role": deal.seats[seat - 1].value})
        while listener.listen(Prompt("deal.hide", words=("enter",))) is None:
            _check_open(listener)
        display.clear_private()


def _check_open(listener: Listener) -> None:
    if getattr(listener, "closed", False):
        raise UsageError("the input ended")
