"""The setup wizard of `narrator play`: short questions answered on a numeric keypad.

Every answer is digits, `+`, `-`, `*` and Enter (Enter keeps what is shown). A bad answer gets
one clear line and the same question again; nothing answered before is lost.
"""

from __future__ import annotations

import shutil
import sys
from typing import Callable, Iterable, Mapping, Protocol, TextIO, TypeVar

from narrator.errors import UsageError
from narrator.i18n import current_language, message_of, set_language, tr
from narrator.flow.timing import Timing
from narrator.listening.check import voice_mode_label
from narrator.names import clean_name
from narrator.roles import CARDS, night_calls, wizard_roles
from narrator.rules import Role, RulesError
from narrator.rules.composition import RECOMMENDED
from narrator.rules.options import CHOICES, NUMBERS, TEXTS, Options
from narrator.packs import VoicePack
from narrator.table.presets import Preset, presets
from narrator.table.config import (DEAL_MODES, INPUTS, TableConfig, deal_label, input_label, option_groups,
                                   option_text, specials_of, with_defaults)

T = TypeVar("T")

# The special roles in the order the wizard numbers them (Villagers fill the rest).
# From the role catalogue (narrator/roles), the roles for new players (one moon) first, then two
# and three moons (docs/rules-spec.md#moons), each level in the catalogue's order.
ROLE_MENU: tuple[Role, ...] = tuple(sorted(wizard_roles(), key=lambda r: CARDS[r].moons))
OPTION_MENU: tuple[str, ...] = tuple(f.name for f in Options.__dataclass_fields__.values())


def option_menu(deck: Mapping[Role, int]) -> tuple[str, ...]:
    """The rule options the wizard numbers for `deck`, in its order (grouped by role)."""
    return tuple(name for _, names in option_groups(deck) for name in names)


def timing_menu(deck: Iterable[Role]) -> tuple[str, ...]:
    """The turns the wizard lists: the calls of the roles in the deck (the Werewolves' always), in
    the night's order, then the day's times."""
    cards = set(deck)
    calls = [c.name for c in night_calls() if c.always or c.role in cards]
    return (*calls, "debate", "vote", "defence")


class Asker(Protocol):
    """Where the wizard asks and tells: a terminal, or a script in tests."""

    def ask(self, question: str) -> str:
        """One answer, without its newline. Raises EOFError when no more input can come."""
        ...

    def tell(self, text: str) -> None: ...


class LineAsker:
    """Questions printed, answers read a line at a time."""

    def __init__(self, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout,
                 read_line: Callable[[], str | None] | None = None) -> None:
        self.stdin = stdin
        self.stdout = stdout
        # The game's own line reader, so that no answer typed ahead is left in another buffer.
        self.read_line = read_line or stdin.readline

    def ask(self, question: str) -> str:
        self.stdout.write(f"{question} ")
        self.stdout.flush()
        line = self.read_line() or ""
        if line == "":
            raise EOFError
        return line.rstrip("\r\n")

    def tell(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()


def voice_check_question(wizard: Wizard) -> None:
    """A table that answers by voice may check its voices now (skippable): a few
    players each say three seat numbers; the score picks voice / yes_no / keypad (`voice_mode`).
    Asked only when the wizard was given a way to run the check (`voice_check`)."""
    if wizard.voice_check is None or wizard.config.inputs == "keypad":
        return
    if wizard._ask(tr("Voice check now (a few players each say three seat numbers)? 1 = yes, Enter = skip:"),
                   lambda a: _pick(a, ("check", "skip"), "skip")) == "check":
        wizard.config.voice_mode = wizard.voice_check(wizard.config)
        wizard.io.tell(tr("Voice mode: {mode} (narrator listen --check runs it again).",
                          mode=voice_mode_label(wizard.config.voice_mode)))


class Invalid(ValueError):
    """An answer the wizard refuses; the message is shown and the question asked again."""


class Wizard:
    # Runs the voice check for this config and returns the mode (see voice_check_question).
    voice_check: Callable[[TableConfig], str] | None = None
    # Told the table once its composition, rules and language are answered (or the last table is
    # offered): the questions after those change no line of the first night, so its lines can
    # render meanwhile (narrator/table/early.py). It prints nothing and must not wait.
    composed: Callable[[TableConfig], None] | None = None

    def __init__(self, asker: Asker, config: TableConfig, languages: list[str], pack: VoicePack | None = None,
                 advisor: Callable[[TableConfig], tuple[list[str], list[dict[str, int]]]] | None = None,
                 ask_phones: bool = True) -> None:
        self.io = asker
        self.config = with_defaults(config)
        self.languages = languages or ["en"]
        # The words of the questions: the language they are printed in (the command line's --lang, or
        # the table's remembered one), so role names match the sentences around them.
        chosen = current_language()
        shown = chosen if chosen != "en" and chosen in self.languages else self.config.language
        self.pack = pack if pack is not None else _pack(shown, self.languages)
        # The balance advisor: lines to show and the fair compositions offered (their special roles).
        self.advisor = advisor
        # The phones question: only where phones can be played (the full screen; the text screen has no panel).
        self.ask_phones = ask_phones
        self.width = shutil.get_terminal_size((100, 40)).columns  # the roles' columns fit it

    # ---- the questions ------------------------------------------------------------------

    def run(self, offer_last: bool = False) -> TableConfig:
        """Ask everything (or only confirm the last setup) and return the table's config."""
        try:
            if offer_last and self._keep_last():
                return self.config
            self.players()
            self.roles()
            self.options()
            self.language()
            self._composed()
            self.inputs()
            voice_check_question(self)
            self.timing()
            self.deal()
            self.names()
            if self.ask_phones:
                self.phones()
                self.tv()
        except EOFError:
            raise UsageError("setup stopped: the input ended before the last question") from None
        self.io.tell(tr("Ready: {summary}.", summary=self.config.describe(_pack(self.config.language, self.languages))))
        return self.config

    def _keep_last(self) -> bool:
        try:
            summary = self.config.describe(self.pack)
        except RulesError:
            return False
        self.io.tell(tr("Last table: {summary}.", summary=summary))
        self._warn_players(self.config.players)
        self._composed()
        # 1 is "change" (the first and only choice besides Enter's "keep").
        return self._ask(tr("Enter = play with it, 1 = change it:"), lambda a: _pick(a, ("change",), "keep")) == "keep"

    def _composed(self) -> None:
        if self.composed is not None:
            from copy import deepcopy

            self.composed(deepcopy(self.config))  # a copy: the answers still to come are not its business

    def players(self) -> None:
        def parse(answer: str) -> int:
            n = _number(answer, self.config.players)
            if not 4 <= n <= 30:
                raise Invalid(tr("{players} players: the game takes 4 to 30 players", players=n))
            return n

        n = self._ask(tr("How many players? (4 to 30) [{players}]:", players=self.config.players), parse)
        self._warn_players(n)
        if n != self.config.players:
            self.config.players = n
            self.config.roles = specials_of(n)

    def _warn_players(self, n: int) -> None:
        if n not in RECOMMENDED:
            self.io.tell(tr("! {players} players: the game is best with {low} to {high}; it can still be played",
                            players=n, low=RECOMMENDED.start, high=RECOMMENDED.stop - 1))

    def roles(self) -> None:
        while True:
            self.io.tell(self._roles_menu())
            offers = self._advice()
            question = tr("Enter = these roles; a role number then + or - (e.g. 3+):")
            if offers:
                question = tr("Enter = these roles; a role number then + or - (e.g. 3+); *1 to *{last} = that "
                              "fair composition:", last=len(offers))

            def parse(answer: str) -> tuple[Role, int] | int | None:
                text = answer.strip()
                if offers and text.startswith("*"):
                    return _index(text[1:], len(offers), "composition")
                return self._parse_role_change(answer)

            change = self._ask(question, parse)
            if change is None:
                return
            if isinstance(change, int):
                self.config.roles = dict(offers[change - 1])
                continue
            role, delta = change
            trial = dict(self.config.roles)
            trial[role.value] = max(0, trial.get(role.value, 0) + delta)
            if not trial[role.value]:
                del trial[role.value]
            try:
                TableConfig(self.config.players, trial, self.config.options).composition()
            except RulesError as exc:
                self.io.tell(f"! {message_of(exc)}")
                continue
            self.config.roles = trial

    def _advice(self) -> list[dict[str, int]]:
        """Show the balance advisor's estimate; return the fair compositions it offers (special roles)."""
        if self.advisor is None:
            return []
        lines, offers = self.advisor(self.config)
        for line in lines:
            self.io.tell(line)
        return offers

    def _roles_menu(self) -> str:
        """Every role the wizard numbers with its count, in columns that fit the terminal (a role's
        name is never cut at the edge), then the Villagers who fill the rest."""
        deck = self.config.composition()
        name = self.pack.role_name
        cells = [f"{i:>2} {name(r.value)} ×{deck.get(r, 0)}" for i, r in enumerate(ROLE_MENU, start=1)]
        width = max(len(cell) for cell in cells) + 3
        columns = max(1, (self.width - 2) // width)
        lines = [tr("Roles for {players} players:", players=self.config.players)]
        # The roles for new players (one moon) first, then two and three moons, each under its heading.
        for level in (1, 2, 3):
            mine = [cell for cell, r in zip(cells, ROLE_MENU) if CARDS[r].moons == level]
            rows = -(-len(mine) // columns)
            lines.append(" " + _moons(level))
            for row in range(rows):
                line = "".join(mine[i].ljust(width) for i in range(row, len(mine), rows))
                lines.append("  " + line.rstrip())
        lines.append(f"   {name(Role.VILLAGER.value)} ×{deck.get(Role.VILLAGER, 0)}")
        return "\n".join(lines)

    def _parse_role_change(self, answer: str) -> tuple[Role, int] | None:
        text = answer.strip().replace(" ", "")
        if not text:
            return None
        sign = text[-1] if text[-1] in "+-" else text[0] if text[0] in "+-" else ""
        digits = text.strip("+-")
        if not sign or not digits.isdigit() or not 1 <= int(digits) <= len(ROLE_MENU):
            raise Invalid(tr("{answer!r} is not a role change; type a number from 1 to {last} then + or -",
                             answer=answer.strip(), last=len(ROLE_MENU)))
        return ROLE_MENU[int(digits) - 1], 1 if sign == "+" else -1

    def options(self) -> None:
        while True:
            opts = self.config.rule_options().to_dict()
            menu: list[str] = []
            self.io.tell(tr("Rules:"))
            for role, names in option_groups(self.config.composition()):
                first = len(menu) + 1
                menu += names
                listing = ", ".join(f"{i} {option_text(self.pack, name, opts[name])}"
                                    for i, name in enumerate(names, start=first))
                title = tr("The game") if role is None else self.pack.role_name(role.value)
                self.io.tell(tr("  {title}: {listing}", title=title, listing=listing))

            # Presets (docs/rules-spec.md#presets): `*N` sets every option of preset N at once.
            shelf = self.presets()
            if shelf:
                self.io.tell(tr("Presets: {listing}", listing=", ".join(
                    f"*{i} {preset.name}" for i, preset in enumerate(shelf, start=1))))

            def parse(answer: str) -> str | int | None:
                text = answer.strip()
                if not text:
                    return None
                if shelf and text.startswith("*"):
                    return _index(text[1:], len(shelf), "preset")
                return menu[_index(answer, len(menu), "option") - 1]

            question = tr("Enter = these rules; an option's number changes it:")
            if shelf:
                question = tr("Enter = these rules; an option's number changes it; *1 to *{last} = that preset:",
                              last=len(shelf))
            name = self._ask(question, parse)
            if name is None:
                return
            if isinstance(name, int):
                chosen = {k: v for k, v in shelf[name - 1].options.items() if v != Options().to_dict()[k]}
                try:
                    TableConfig(self.config.players, self.config.roles, chosen).composition()
                except RulesError as exc:
                    self.io.tell(f"! {message_of(exc)}")
                    continue
                self.config.options = chosen
                continue
            if name in TEXTS:  # a text of its own (the Sectarian's groups, the Actor's cards): typed
                current = str(opts[name])
                value: object = self._ask(f"{name} [{current}]:", lambda a: a.strip() or current)
            else:
                value = _next_value(name, opts[name])
            trial = {**self.config.options, name: value}
            if value == Options().to_dict()[name]:
                del trial[name]
            try:
                TableConfig(self.config.players, self.config.roles, trial).composition()
            except RulesError as exc:
                self.io.tell(f"! {message_of(exc)}")
                continue
            self.config.options = trial

    def presets(self) -> list[Preset]:
        """The presets offered (the shipped ones and the table's own); a bad file is named, once."""
        try:
            return presets()
        except UsageError as exc:
            self.io.tell(f"! {message_of(exc)}")
            return presets(skip_bad=True)

    def language(self) -> None:
        listing = ", ".join(f"{i} {lang}" for i, lang in enumerate(self.languages, start=1))
        current = self.config.language if self.config.language in self.languages else self.languages[0]
        self.config.language = self._ask(
            tr("Language: {listing} [{current}]:", listing=listing, current=current),
            lambda a: _pick(a, tuple(self.languages), current)
        )
        set_language(self.config.language)  # every later question and line in the table's language
        self.pack = _pack(self.config.language, self.languages)  # and the pack's words (the turns' names)

    def inputs(self) -> None:
        listing = ", ".join(f"{i} {input_label(name)}" for i, name in enumerate(INPUTS, start=1))
        self.config.inputs = self._ask(
            tr("Answers by: {listing} [{current}]:", listing=listing, current=input_label(self.config.inputs)),
            lambda a: _pick(a, INPUTS, self.config.inputs)
        )

    def timing(self) -> None:
        while True:
            t = self.config.timings()
            menu = timing_menu(self.config.composition())
            listing = ", ".join(tr("{number} {turn} {seconds}s", number=i, turn=_turn_name(self.pack, name),
                                   seconds=f"{_seconds(t, name):g}")
                                for i, name in enumerate(menu, start=1))
            self.io.tell(tr("Turn lengths: {listing}", listing=listing))
            change = self._ask(tr("Enter = keep; a number, * and seconds (e.g. 4*30):"), self._parse_timing)
            if change is None:
                return
            self.config.timing[change[0]] = change[1]

    def _parse_timing(self, answer: str) -> tuple[str, float] | None:
        text = answer.strip()
        if not text:
            return None
        for sep in ("*", "=", " ", "/"):
            if sep in text:
                item, _, secs = text.partition(sep)
                break
        else:
            raise Invalid(tr("{answer!r}: type the item's number, *, then the seconds (e.g. 4*30)", answer=text))
        menu = timing_menu(self.config.composition())
        name = menu[_index(item, len(menu), "turn") - 1]
        try:
            seconds = float(secs.strip())
        except ValueError:
            raise Invalid(tr("{answer!r} is not a number of seconds", answer=secs.strip())) from None
        if not 1 <= seconds <= 3600:
            raise Invalid(tr("{seconds} seconds: give 1 to 3600", seconds=f"{seconds:g}"))
        return name, seconds

    def deal(self) -> None:
        listing = ", ".join(f"{i} {deal_label(m, long=True)}" for i, m in enumerate(DEAL_MODES, start=1))
        self.config.deal = self._ask(
            tr("Cards: {listing} [{current}]:", listing=listing, current=deal_label(self.config.deal)),
            lambda a: _pick(a, DEAL_MODES, self.config.deal)
        )

    # ---- asking until the answer is good ------------------------------------------------

    def names(self) -> None:
        """Optional: the players' names by seat (docs/names.md): said by day, shown on the board, the
        phones and the TV, kept in the history (Enter skips)."""
        kept = self.config.seat_names()
        shown = ", ".join(f"{k} {v}" for k, v in sorted(kept.items()))
        question = (tr("Seat names: {names}. Enter = keep them, 1 = name the seats again, 0 = no names:", names=shown)
                    if kept else tr("Name the seats (for the history)? Enter = no, 1 = yes:"))
        def parse(answer: str) -> str:
            text = answer.strip()
            choices = {"": "keep", "1": "name", **({"0": "none"} if kept else {})}
            if text not in choices:
                raise Invalid(tr("{answer!r}: press Enter, or 1, or 0", answer=text) if kept
                              else tr("{answer!r}: press Enter, or 1", answer=text))
            return choices[text]

        try:
            answer = self._ask(question, parse)
        except EOFError:
            return  # the input ended at this optional question: nothing changes
        if answer == "none":
            self.config.names = {}
        if answer != "name":
            return
        names: dict[str, str] = {}
        for seat in range(1, self.config.players + 1):
            name = clean_name(self.io.ask(tr("Seat {seat}'s name (Enter = none):", seat=seat)))
            if name:
                names[str(seat)] = name
        self.config.names = names

    def phones(self) -> None:
        """Optional: every player's phone as their private card and panel (docs/phones.md), like `--phones`."""
        current = tr("yes") if self.config.phones else tr("no")

        def parse(answer: str) -> bool:
            text = answer.strip()
            choices = {"": self.config.phones, "0": False, "1": True}
            if text not in choices:
                raise Invalid(tr("{answer!r}: press Enter to keep {current}, 0 for no, 1 for yes", answer=text,
                                 current=current))
            return choices[text]

        try:
            self.config.phones = self._ask(
                tr("Play with phones (each player's phone as their card and panel)? 0 = no, 1 = yes [{current}]:",
                   current=current), parse)
        except EOFError:
            return  # the input ended at this optional question: nothing changes

    def tv(self) -> None:
        """Optional: the board as a web page for a TV too (docs/tv.md), like `--screen`."""
        current = tr("yes") if self.config.tv else tr("no")

        def parse(answer: str) -> bool:
            text = answer.strip()
            choices = {"": self.config.tv, "0": False, "1": True}
            if text not in choices:
                raise Invalid(tr("{answer!r}: press Enter to keep {current}, 0 for no, 1 for yes", answer=text,
                                 current=current))
            return choices[text]

        try:
            self.config.tv = self._ask(tr("Show the board on a TV too (a web page on this laptop)? 0 = no, 1 = yes "
                                          "[{current}]:", current=current), parse)
        except EOFError:
            return  # the input ended at this optional question: nothing changes

    def _ask(self, question: str, parse: Callable[[str], T]) -> T:
        while True:
            answer = self.io.ask(question)
            try:
                return parse(answer)
            except Invalid as exc:
                self.io.tell(f"! {exc}")


def _moons(level: int) -> str:
    """The heading of the wizard's roles of one level (docs/rules-spec.md#moons)."""
    if level == 1:
        return tr("For new players (one moon):")
    if level == 2:
        return tr("Two moons:")
    return tr("Three moons:")


def _number(answer: str, default: int) -> int:
    text = answer.strip()
    if not text:
        return default
    if not text.isdigit():
        raise Invalid(tr("{answer!r} is not a number; type digits, then Enter", answer=text))
    return int(text)


def _index(answer: str, count: int, what: str) -> int:
    """The number typed, from 1 to `count`; `what` is asked for: a composition, option, turn or choice."""
    text = answer.strip()
    if not text.isdigit() or not 1 <= int(text) <= count:
        raise Invalid(_not_an_index(what, text, count))
    return int(text)


def _not_an_index(what: str, text: str, count: int) -> str:
    # One whole sentence for each thing asked (a translation agrees with its noun).
    if what == "composition":
        return tr("{answer!r} is not a fair composition; type a number from 1 to {last}", answer=text, last=count)
    if what == "option":
        return tr("{answer!r} is not an option; type a number from 1 to {last}", answer=text, last=count)
    if what == "preset":
        return tr("{answer!r} is not a preset; type * then a number from 1 to {last}", answer=text, last=count)
    if what == "turn":
        return tr("{answer!r} is not a turn; type a number from 1 to {last}", answer=text, last=count)
    return tr("{answer!r} is not a choice; type a number from 1 to {last}", answer=text, last=count)


def _pick(answer: str, choices: tuple[str, ...], default: str) -> str:
    if not answer.strip():
        return default
    if answer.strip() in choices:
        return answer.strip()
    return choices[_index(answer, len(choices), "choice") - 1]


def _next_value(name: str, value: object) -> object:
    if name in CHOICES:
        values = CHOICES[name]
        return values[(values.index(str(value)) + 1) % len(values)]
    if name in NUMBERS:
        span = NUMBERS[name]
        return span[(span.index(int(str(value))) + 1) % len(span)]
    return not value


def _seconds(t: Timing, name: str) -> float:
    return t.turn(name) if name in t.turns else float(getattr(t, name))


def _turn_name(pack: VoicePack, name: str) -> str:
    """A turn of the timing question by its name: a night call's from the pack, the day's times in words."""
    day = {"debate": tr("debate"), "vote": tr("vote"), "defence": tr("defence")}
    return day.get(name) or pack.call_name(name)


def _pack(language: str, languages: list[str]) -> VoicePack:
    """The voice pack whose words the questions use: the table's language, else English."""
    from narrator.packs import PackError, load_pack

    for lang in (language, "en", *languages):
        try:
            return load_pack(lang)
        except PackError:
            continue
    raise UsageError("no voice pack found; run from the repository, or set NARRATOR_VOICES")
