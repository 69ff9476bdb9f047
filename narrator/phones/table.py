"""`PhoneTable`: the screen and the keypad of a table whose players have phones (docs/phones.md).

It is the `Display` and the `Listener` the sequencer is given, wrapped around the table's own
(the shared screen, the keypad): everything still goes to them, so a seat without a phone plays as
before. Besides, through the `SeatChannels` port:
- every seat's phone holds its card from the start (press and hold to see it);
- at night the private panel goes to the phones of the seats of the role that is awake, only
  during its turn, with a button for each choice the prompt allows; every other phone shows the
  same neutral screen;
- nothing goes out except on the fixed schedule, day and night (`beat` seconds apart from the
  deal, to every phone, sealed to one length; the server keeps it in real time);
- by day a question put to one seat (a voter's vote, the Hunter's shot, the successor) goes to
  that seat's phone;
- a tap comes back as a `Heard` (source "phone") of the prompt it answers, only from a seat the
  prompt is put to; the sequencer journals it like a keypad answer, before the game moves on.
"""

from __future__ import annotations

import re
import threading
from typing import Any, Callable, Iterable, Mapping

from narrator.errors import UsageError
from narrator.packs import VoicePack
from narrator.phones.port import SeatChannels
from narrator.flow.secret_vote import PROMPT as SECRET
from narrator.ports import Clock, Cue, Display, Heard, Listener, PanelLines, Prompt, PublicBoard, SlotValue, Speaker
from narrator.roles import night_calls
from narrator.roles.designation import LINES as NOTICE_LINES
from narrator.rules.game import Game

# The phone's own words, in English: a voice pack's [phone] block says them in the table's language
# (`phone_labels`); the panel lines themselves come from the pack's [panel].
LABELS = {"title": "Narrator", "connecting": "Connecting…", "connected": "Connected", "reconnecting": "Reconnecting…",
          "dropped": "A message that did not open was dropped.", "hold": "Press and hold to see your card",
          "seat": "Seat {seat}", "sent": "Sent: {choice}",
          "refused_link": "This link is not one of this game's, or the game is over.",
          "refused_taken": "This seat already has a phone. Ask the laptop to confirm the move (at a pause, by day), "
                           "then reload this page.",
          "refused_other": "This seat is open on another page.", "night": "Eyes closed. Sleep.",
          "day": "Day. Listen to the narrator.", "vote": "Your turn to vote",
          "accuse": "Eyes closed: accuse one player",
          "elect": "Your turn to vote: who will be the {captain}?", "shot": "Choose a seat",
          "deal": "Press and hold your card to see it; let go to hide it.", "over": "The game is over.",
          "nobody": "Nobody", "yes": "Yes", "no": "No", "change": "Change (-)",
          "window": "A card may be taken now.", "claim": "I take the card",
          "charmed": "You are charmed by the Pied Piper.",
          "infected": "You were infected: you are a Werewolf now, and keep your card's power.",
          "votes": "Votes", "name": "Your name?", "name_ok": "OK",
          "dead": "You are dead: this phone now shows every card and the night's choices. Keep a straight face and say "
                  "nothing."}
_WORDS = {"nobody": "nobody", "yes": "yes", "no": "change"}  # a prompt's word -> its button's label


def phone_labels(pack: VoicePack) -> dict[str, str]:
    """The phone's words in the pack's language (English for any the pack lacks); the Captain's
    title in the pack's word for it (the Sheriff in English)."""
    labels = {key: pack.phone.get(key) or text for key, text in LABELS.items()}
    labels["elect"] = labels["elect"].replace("{captain}", pack.role_name("captain"))
    return labels


_CALLS = {call.name: call for call in night_calls()}
# The Devoted Servant's window (docs/rules.md): every living seat's phone shows the same one button,
# which claims for that seat; the keypad's `+` that follows is the phone's too.
_WINDOW = re.compile(r"^day\.(?:window|dawn_window\.\d+)$")
_VOTER = re.compile(r"^day\.(?:vote|second|election|captain)\.[a-z_]+\.(\d+)$")
_ELECTION = re.compile(r"^day\.(?:election|captain)\.")
# With a test's `hold`: how long (real seconds) to wait for a phone's tap before giving up.
HOLD_LIMIT = 60.0
HOLD_STEP = 0.2


class PhoneTable:
    """`Display` and `Listener` for a table with phones, around the table's own."""

    def __init__(self, phones: SeatChannels, display: Display, listener: Listener, pack: VoicePack, clock: Clock,
                 beat: float | None = 0.25, hold: Callable[[Prompt], bool] | None = None,
                 dead_view: bool = False) -> None:
        self.phones = phones
        self.display = display
        self.listener = listener
        self.pack = pack
        self.clock = clock
        self.beat = beat  # None: the server keeps the schedule (`PhoneServer(beat=...)`)
        self.hold = hold  # tests: the prompts a phone will answer (wait for its tap, in real time)
        self.game: Game | None = None
        self.ids: dict[int, int] = {}  # each seat's view number (its own: a view changes only its seat's)
        self.views: dict[int, dict[str, Any]] = {}
        self.night = False
        self.next_beat = 0.0
        self.awake: tuple[int, ...] = ()  # seats whose role's turn it is (the private panel)
        self.lines: list[str] = []
        self.note = ""
        self.asked: tuple[int, ...] = ()  # seats a day question is put to
        self.labels = phone_labels(pack)
        self.claimer: int | None = None  # the seat whose phone just claimed at the Servant's window
        # A charm or an infection told on the designated seat's own phone, under its card (docs/rules.md):
        # `pending` while the chooser's turn may still change it, `notices` once the turn is over.
        self.call = ""
        self.pending: dict[int, str] = {}
        self.notices: dict[int, str] = {}
        self.dead_view = dead_view  # a dead seat's phone shows what the narrator knows (narrator/phones/dead.py)
        self.seen: set[int] = set()  # seats whose phone showed its card at the deal (pressed, then let go)
        self.phones_only = False  # this night turn's panel is on the awake seats' phones alone

    def attach(self, game: Game) -> None:
        """The game's deal is known: every phone gets its card."""
        self.game = game
        self.next_beat = self.clock.now()
        for seat in range(1, game.players + 1):
            self._rest(seat)
        self._beats()  # the schedule's first beat: every phone its card

    def deal(self, game: Game) -> None:
        """The deal begins: every phone holds its seat's card from now on (press and hold to see it);
        a phone tells when its card was seen (its seat number, the view's one choice)."""
        if self.game is None:
            self.next_beat = self.clock.now()  # the schedule starts with the deal
        self.game = game
        for seat in range(1, game.players + 1):
            if seat not in self.seen:
                self._set(seat, {"mode": "deal", "lines": [self.labels["deal"]], "choices": [[seat, ""]], "note": ""})
        self._beats()

    def cards_seen(self, seats: Iterable[int], listener: Listener, deal_here: Callable[[int], None]) -> None:
        """The night waits until every phone in `seats` has shown its card (pressed, then let go). A
        seat whose phone is lost types its number on the keypad: its card is shown on the screen."""
        left = [seat for seat in sorted(seats) if seat not in self.seen]
        while left:
            self.display.show_private("deal.phones", {"seats": ", ".join(map(str, left))})
            heard = listener.listen(Prompt("deal.phones", tuple(left)))
            if heard is None and getattr(listener, "closed", False):
                raise UsageError("the input ended")
            if heard is not None and heard.source != "phone":
                if isinstance(heard.choice, int) and not isinstance(heard.choice, bool) and heard.choice in left:
                    self.display.clear_private()
                    deal_here(heard.choice)
                    self.seen.add(heard.choice)
                    self._rest(heard.choice)
                else:
                    self.display.feedback("input.refused", {"reason": str(heard.text or heard.choice)})
            left = [seat for seat in left if seat not in self.seen]
        self.display.clear_private()

    def over(self) -> None:
        """The game is over: every phone says so (its card stays; nothing is asked any more)."""
        self._to_day()
        self.asked = ()
        for seat in list(self.views):
            self._set(seat, {"mode": "over", "lines": [self.labels["over"]], "choices": [], "note": ""})

    def speaker(self, inner: Speaker) -> Speaker:
        """`inner`, telling the phones each line's phase as it is said: every phone goes to its night
        screen when night falls and to its day screen with the first line of the day."""
        return _PhaseSpeaker(inner, self)

    def said(self, cue: Cue) -> None:
        phase = cue.phase or ""
        if phase.startswith("night."):
            self._to_night()
        elif phase.startswith("day.") or phase == "game.over":
            self._to_day()

    # ---- Display -------------------------------------------------------------------------

    def board(self, state: PublicBoard) -> None:
        self.display.board(state)
        self._beats()
        self._for_the_dead()

    def show_private(self, key: str, slots: Mapping[str, SlotValue], more: PanelLines = ()) -> None:
        more = self._designated(more)
        if self._on_phones_only():
            # The awake seats all hold their panel on their phones: the laptop shows what it shows for a
            # turn nobody can answer, whatever this one holds (a victim, a look, an answer).
            self.display.show_private("night.closed", {})
        else:
            self.display.show_private(key, slots, more)
        self.lines = [self.pack.panel_text(k, s) for k, s in ((key, slots), *more)]
        self.note = ""  # the panel redrawn: an input's note belongs to the panel it answered
        self._beats()
        for seat in self.awake:
            self._panel(seat, self.lines, ())
        self._for_the_dead()

    def clear_private(self) -> None:
        self.display.clear_private()
        self.phones_only = False
        self._beats()
        told, self.pending = self.pending, {}
        self.notices.update(told)
        self.lines, self.note = [], ""
        awake, self.awake = self.awake, ()
        for seat in awake:
            self._rest(seat)
        for seat in told:  # its card now holds the notice (sent on the night's next beat, like any view)
            view = self.views.get(seat)
            if view is not None:
                self._set(seat, {k: v for k, v in view.items() if k not in ("id", "seat", "card", "night")})
        self._for_the_dead()

    def feedback(self, key: str, slots: Mapping[str, SlotValue]) -> None:
        if not self._on_phones_only():
            self.display.feedback(key, slots)
        # Keys typed early are a keypad's matter: a phone's panel has no buttons before it opens.
        self.note = "" if key == "input.too_early" else self.pack.panel_text(key, slots)
        for seat in self.awake if self.night else self.asked:
            view = self.views.get(seat)
            if view is not None:
                self._set(seat, {**view, "note": self.note})
        self._for_the_dead()

    # ---- Listener ------------------------------------------------------------------------

    def listen(self, prompt: Prompt) -> Heard | None:
        if prompt.name == "game.pause" and not self.night:
            return self._pause(prompt)
        claimer, self.claimer = self.claimer, None
        if claimer is not None and prompt.name.endswith(".claim") and _WINDOW.match(prompt.name[:-6]):
            # The claim came from that seat's own phone: it stands as typed seat then `+`.
            return Heard("yes", "phone", f"yes (phone {claimer})")
        self._phase(prompt)
        if prompt.night and prompt.name.startswith("night."):
            self.call = prompt.name.split(".")[1]
        seats = self.route(prompt)
        if self.night:
            if prompt.name.endswith(".early") or not self.awake:
                self.awake = seats  # the panel opens with the turn (show_private)
                self.phones_only = bool(seats) and set(seats) <= set(self.phones.joined())
            if not prompt.name.endswith(".early") and self.lines:
                # An answer given: the panel keeps `Change (-)` while `-` may take it back.
                for seat in self.awake:
                    self._panel(seat, self.lines, self._choices(prompt))
        elif not prompt.name.startswith(("game.", "deal.")):
            for seat in self.asked:
                if seat not in seats:
                    self._rest(seat)
            if seats != self.asked:
                self.note = ""  # "Accepted." was the last voter's
            self.asked = seats
            if _WINDOW.match(prompt.name):
                for seat in seats:
                    self._panel(seat, [self.labels["window"]], [[seat, self.labels["claim"]]])
            else:
                title = self.labels["accuse" if self._secret(prompt) else "elect" if _ELECTION.match(prompt.name)
                                    else "vote" if _VOTER.match(prompt.name) else "shot"]
                for seat in seats:
                    self._panel(seat, [title], self._choices(prompt))
        heard = self._wait(prompt, seats)
        if self._secret(prompt):
            # The secret accusation vote is taken from the voter's own phone only: a key typed or a
            # word said at the table is public (docs/rules-spec.md#secret-vote).
            while heard is not None and heard.source != "phone":
                heard = self._wait(prompt, seats)
        if _VOTER.match(prompt.name) and seats and seats[0] in self.phones.joined():
            # The Stuttering Judge's sign (`+` before a vote) from a voter with a phone: from that
            # phone only; a `+` typed on the keypad meanwhile is someone else's and counts for nothing.
            while heard is not None and heard.choice == "yes" and heard.source != "phone":
                heard = self._wait(prompt, seats)
        return heard

    def _on_phones_only(self) -> bool:
        return self.night and self.phones_only and bool(self.awake) and set(self.awake) <= set(self.phones.joined())

    def _secret(self, prompt: Prompt) -> bool:
        """A voter's turn of the secret accusation vote (docs/rules-spec.md#secret-vote)."""
        return self.game is not None and self.game.options.accusation_vote == "secret" and bool(SECRET.match(prompt.name))

    def _designated(self, more: PanelLines) -> PanelLines:
        """The chooser's notice lines ("tap seat 5 on the shoulder"): a designated seat with a phone
        is told on that phone instead (under its card, once the turn is over), so its line goes."""
        joined = set(self.phones.joined())
        kept: list[Any] = []
        self.pending = {}
        for line in more:
            seat = line[1].get("seat")
            if line[0] in NOTICE_LINES and isinstance(seat, int) and seat in joined:
                self.pending[seat] = "charmed" if self.call == "pied_piper" else "infected"
                continue
            kept.append(line)
        return tuple(kept)

    def _pause(self, prompt: Prompt) -> Heard | None:
        """The game paused by day (a public moment): a seat whose new phone asks to take over is
        named on the screen; its number typed on the keypad confirms the move (docs/phones.md).
        Never at night: nobody looks up or types a seat then."""
        asked = self.phones.moves_asked()
        for seat in asked:
            self.display.feedback("phones.move_asked", {"seat": seat})
        heard = self.listener.listen(prompt)
        if (heard is not None and isinstance(heard.choice, int) and not isinstance(heard.choice, bool)
                and heard.choice in asked):
            self.phones.allow_move(heard.choice)
            self.display.feedback("phones.move_allowed", {"seat": heard.choice})
            return None  # the pause goes on
        return heard

    def source(self) -> PhoneSource:
        """The phones as one more source of answers beside the keypad and the voice (for the
        table's `EitherListener`: the first answer wins, the others stop)."""
        return PhoneSource(self)

    def heard(self, prompt: Prompt, seats: tuple[int, ...]) -> Heard | None:
        """The first tap waiting that answers `prompt` (from a seat it is put to, on the view open);
        the others are dropped."""
        while True:
            answer = self.phones.take()
            if answer is None:
                return None
            open_now = answer.view == self.ids.get(answer.seat)
            if open_now and self.views.get(answer.seat, {}).get("mode") == "deal" and answer.choice == answer.seat:
                self.seen.add(answer.seat)  # its card was seen, whatever is asked now
                self._rest(answer.seat)
            if answer.seat in seats and open_now and prompt.allows(answer.choice):
                if _WINDOW.match(prompt.name):
                    if answer.choice != answer.seat:
                        continue  # a phone claims for its own seat only
                    self.claimer = answer.seat
                return Heard(answer.choice, "phone", f"{answer.choice} (phone {answer.seat})")
            # a tap on a view that is not open any more, or not this prompt's: nothing

    def _wait(self, prompt: Prompt, seats: tuple[int, ...]) -> Heard | None:
        while True:
            answer = self.heard(prompt, seats)
            if answer is not None:
                return answer
            if prompt.deadline is not None and self.clock.now() >= prompt.deadline:
                return None
            if self.hold is not None and seats and self.beat is not None and not prompt.idle:
                # The panel goes out on the next beat: the phone sees it then.
                self.clock.sleep_until(min(self.next_beat, prompt.deadline or self.next_beat))
                self._beats()
            if self.hold is not None and seats and self.hold(prompt):
                self._hold(prompt)
                continue
            heard = self.listener.listen(prompt)
            self._beats()
            return heard

    def _hold(self, prompt: Prompt) -> None:
        """Wait (real time) for the tap a test's phone is making. The schedule goes on meanwhile,
        one beat of the game's clock each `HOLD_STEP` real seconds: the page sends its tap with
        its answer to a beat."""
        waited = 0.0
        beating = self.beat is not None
        while not self.phones.wait(HOLD_STEP if beating else HOLD_LIMIT):
            waited += HOLD_STEP if beating else HOLD_LIMIT
            if waited >= HOLD_LIMIT:
                raise TimeoutError(f"no phone answered {prompt.name} within {HOLD_LIMIT} s")
            if beating:
                if prompt.deadline is not None and self.next_beat >= prompt.deadline:
                    return
                self.clock.sleep_until(self.next_beat)
                self._beats()

    # ---- inside --------------------------------------------------------------------------

    def _phase(self, prompt: Prompt) -> None:
        if prompt.name.startswith(("game.", "deal.")):
            return  # a pause keeps its phase; the deal's prompts are not the night's
        if prompt.night:
            self._to_night()
        else:
            self._to_day()

    def _to_night(self) -> None:
        if self.night:
            return
        self.night = True
        self.phones.night(True)
        for seat in self.views:
            self._rest(seat)

    def _to_day(self) -> None:
        if not self.night:
            return
        self._beats()
        self.night = False
        self.phones.night(False)
        self.awake = ()
        self.phones_only = False
        for seat in self.views:
            self._rest(seat)

    def _beats(self) -> None:
        """Every beat of the schedule up to now (each stamped with its own time), day and night."""
        if self.game is None or self.beat is None:
            return
        now = self.clock.now()
        while self.next_beat <= now:
            self.phones.beat(self.next_beat)
            self.next_beat += self.beat

    def route(self, prompt: Prompt) -> tuple[int, ...]:
        """The seats a prompt is put to (a phone answers only its own questions)."""
        game = self.game
        if game is None:
            return ()
        parts = prompt.name.split(".")
        if prompt.night and len(parts) >= 2 and parts[0] == "night" and parts[1] in _CALLS:
            call = _CALLS[parts[1]]
            if call.name == "werewolves":
                return tuple(seat for seat in game.living() if game.is_pack(seat))
            if not call.by_holder:
                return ()  # players other than the holder wake (the charmed): the keypad still
            holder = game.living_holder(call.role)
            return () if holder is None else (holder,)
        if prompt.night:
            return ()
        if prompt.name == "deal.phones":
            return prompt.seats  # the phones whose card is still to be seen
        voter = _VOTER.match(prompt.name)
        if voter is not None:
            return (int(voter.group(1)),)
        if _WINDOW.match(prompt.name):
            return tuple(game.living())
        if prompt.name in ("day.hunter", "day.successor") and game.state.awaiting_seat is not None:
            return (game.state.awaiting_seat,)
        return ()

    def _choices(self, prompt: Prompt) -> list[list[Any]]:
        choices: list[list[Any]] = [[seat, str(seat)] for seat in prompt.seats]
        # `-` is "no" where the prompt asks yes or no (the Witch's "Save the victim?"), else it takes back.
        asks_yes_no = not prompt.seats and "yes" in prompt.words
        choices += [[word, self.labels["no" if word == "no" and asks_yes_no else _WORDS[word]]]
                    for word in prompt.words if word in _WORDS]
        return choices

    def _card(self, seat: int) -> str:
        assert self.game is not None
        card = self.pack.role_name(self.game.role(seat).value)
        notice = self.notices.get(seat)
        return card if notice is None else f"{card}. {self.labels[notice]}"

    def _rest(self, seat: int) -> None:
        self._set(seat, {"mode": "rest", "lines": [self.labels["night" if self.night else "day"]], "choices": [],
                         "note": ""})

    def _panel(self, seat: int, lines: list[str], choices: Any) -> None:
        self._set(seat, {"mode": "panel", "lines": list(lines), "choices": list(choices), "note": self.note})

    def _for_the_dead(self) -> None:
        """With the view for the dead, every dead seat's phone follows what the narrator knows."""
        if self.dead_view and self.game is not None:
            from narrator.phones.dead import dead_asides

            cards, awake = dead_asides(self.game, self.pack, self.labels["dead"], self.call if self.night else "",
                                       self.lines if self.night else [])
            for seat in sorted(set(self.views) - set(self.game.living())):
                self.phones.aside(seat, "dead", cards)
                self.phones.aside(seat, "awake", awake)

    def _set(self, seat: int, view: Mapping[str, Any]) -> None:
        if self.game is None:
            return
        old = self.views.get(seat)
        new = {**view, "seat": seat, "card": self._card(seat), "night": self.night}
        if old is not None and {k: v for k, v in old.items() if k != "id"} == new:
            return
        self.ids[seat] = self.ids.get(seat, 0) + 1
        new["id"] = self.ids[seat]
        self.views[seat] = new
        self.phones.show(seat, new)



class _PhaseSpeaker:
    """A `Speaker` that tells the phones' table each line it says (`PhoneTable.said`)."""

    def __init__(self, inner: Speaker, table: PhoneTable) -> None:
        self.inner = inner
        self.table = table

    def say(self, cue: Cue, at: float | None = None) -> float:
        end = self.inner.say(cue, at)
        self.table.said(cue)
        return end

    def prepare(self, cues: Any) -> None:
        self.inner.prepare(cues)

    def close(self) -> None:
        self.inner.close()


class PhoneSource:
    """A `CancellableListener` (narrator/listening/table.py) over the phones: waits for a tap that
    answers the prompt, until its deadline on the table's clock or until `cancel` is set."""

    POLL = 0.02  # real seconds between looks at the cancel flag and the deadline

    def __init__(self, table: PhoneTable) -> None:
        self.table = table

    def listen(self, prompt: Prompt, cancel: threading.Event | None = None) -> Heard | None:
        seats = self.table.route(prompt)
        while True:
            heard = self.table.heard(prompt, seats)
            if heard is not None:
                return heard
            if cancel is not None and cancel.is_set():
                return None
            left = None if prompt.deadline is None else prompt.deadline - self.table.clock.now()
            if left is not None and left <= 0:
                return None
            self.table.phones.wait(self.POLL if left is None else min(self.POLL, left))
