"""Voice packs: every line the game says, keyed, per language (`voices/<lang>/pack.toml`)."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import os
import re
import string
import sys
from dataclasses import dataclass, field
from pathlib import Path
from functools import lru_cache
from typing import Any, Callable, Iterable, Mapping, Sequence, cast

from narrator.errors import NarratorError, english, marked
from narrator.names import NO_PEOPLE, People
from narrator.ports import Cue, SlotValue
from narrator.rules.options import CHOICES, NUMBERS, TEXTS, Options
from narrator.rules.roles import Role
from narrator.spoken import (NUMBER_SLOTS, PLURAL_CATEGORIES, Counter, counter_after, list_separator, plural_category,
                             respeller, spelled)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


class PackError(NarratorError):
    """A voice pack that is missing, unreadable or incomplete."""


# Slots whose value is a role key, rendered with the pack's [roles] names.
ROLE_SLOTS = frozenset({"role", "role_a", "role_b"})
SIDE_SLOTS = frozenset({"side"})
# Slots whose value is a list of role keys joined by "," (a menu): shown "1 Villager, 2 Werewolf, ...".
MENU_SLOTS = frozenset({"cards"})
_SHOWN_SLOTS = ROLE_SLOTS | SIDE_SLOTS | MENU_SLOTS  # shown by their names in the pack


def packs_root() -> Path:
    """Where packs live: $NARRATOR_VOICES, the source checkout's voices/, or the installed copy."""
    env = os.environ.get("NARRATOR_VOICES")
    if env:
        return Path(env)
    checkout = Path(__file__).resolve().parent.parent / "voices"
    if checkout.is_dir():
        return checkout
    return Path(sys.prefix) / "share" / "narrator" / "voices"


def available_languages(root: Path | None = None) -> list[str]:
    base = root or packs_root()
    if not base.is_dir():
        return []
    return sorted(p.name for p in base.iterdir() if (p / "pack.toml").is_file())


def slots_of(template: str) -> frozenset[str]:
    """The named slots of a line: `"Seat {seat}."` → {"seat"}."""
    try:
        return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)
    except ValueError as exc:
        raise PackError("line {template!r} has a broken slot: {exc}", template=template, exc=exc) from None


@dataclass(frozen=True)
class VoicePack:
    language: str
    name: str
    voice: str
    rate: int
    volume: float
    roles: Mapping[str, str]
    sides: Mapping[str, str]
    numbers: Mapping[int, str]
    words: Mapping[str, tuple[str, ...]]
    lines: Mapping[str, tuple[str, ...]]
    panel: Mapping[str, tuple[str, ...]]
    path: Path
    # Every way to say each seat number (a [numbers] entry may be a list); `numbers` keeps the
    # first, which is the one the narrator speaks.
    number_variants: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    # The rules reference's texts (`narrator rules`): what each role and option does.
    rules: Mapping[str, str] = field(default_factory=dict)
    # How players say a seat to the microphone: "{seat}" stands for any way to say the number
    # ("seven", "number seven", "seat seven"; "칠 번"). From the pack's [listening] seat list.
    seat_forms: tuple[str, ...] = ("{seat}",)
    # Optional [pack] keys: the speech engine ("espeak", the default, or "piper") and the Piper
    # voice to use (default: the one `narrator voices fetch` installs for the language).
    engine: str = "espeak"
    piper_voice: str = ""
    # Entries still marked UNTRANSLATED (a pack made by `narrator voices new`), as "[section] key";
    # they load without the mark, in English, so a pack half done still plays.
    untranslated: tuple[str, ...] = ()
    # The phone page's own words (docs/phones.md): its buttons, status lines and rest screens.
    phone: Mapping[str, str] = field(default_factory=dict)
    # Words written right after a number slot that agree with the number ([counters]; narrator/spoken.py).
    counters: Mapping[str, Counter] = field(default_factory=dict)
    # What the voice reads instead of what is written, in spoken text only ([spoken]); and for one
    # engine only ([spoken.espeak]: espeak-ng's own phoneme input, "[[VbVr'ot;n;I]]", is its alone).
    respellings: Mapping[str, str] = field(default_factory=dict)
    engine_respellings: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # Phonemes espeak-ng must never give for a spoken line of this pack (a regular expression on
    # `espeak-ng -x` output) and why: the readings once heard wrong ([misreadings]; tests/speech/test_readback.py).
    misreadings: Mapping[str, str] = field(default_factory=dict)
    # A role's name after a count, by CLDR plural category ([plurals]: "2 Werwölfe"); else its [roles] name.
    plurals: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # How a line that names a seat reads when the seat has a name ([people]: "Seat {seat}" → "{seat}",
    # {seat} then standing for the name; "al número {seat}" → "a {seat}"). Empty: lines say numbers.
    people_phrases: Mapping[str, str] = field(default_factory=dict)
    # The table's names (narrator/names.py): said and shown by day instead of seat numbers (`with_people`).
    people: People = field(default=NO_PEOPLE, compare=False, repr=False)
    # The cues `check_lines` found a line for, with no seat named: each game checks the few hundred
    # it can say, mostly the same ones game after game (a copy of the pack starts with none).
    _checked: set[Cue] = field(default_factory=set, init=False, compare=False, repr=False)
    # The counter each literal text after a number slot starts with (`counter_after`), found once:
    # the history fills the same few templates for every death of every game.
    _after: dict[str, tuple[Counter, str] | None] = field(default_factory=dict, init=False, compare=False, repr=False)
    # Panel lines filled (`panel_text`), by key and slots.
    _panels: dict[tuple[Any, ...], str] = field(default_factory=dict, init=False, compare=False, repr=False)
    # Lines filled (`text`) with no names, by key, variant and slots.
    _texts: dict[tuple[Any, ...], str] = field(default_factory=dict, init=False, compare=False, repr=False)
    # Decks written as the history writes them (`deck_text`), in the pack's words: the history's list
    # and statistics name the same few compositions again and again.
    _decks: dict[str, str] = field(default_factory=dict, init=False, compare=False, repr=False)

    def with_people(self, people: People) -> VoicePack:
        """This pack naming the seats `people` names in its lines (by day, never at night)."""
        return dataclasses.replace(self, people=people)

    def check_lines(self, cues: Iterable[Cue]) -> None:
        """Every cue has its line in this pack, its slots filled: a `PackError` names the first
        that has not. A cue found good once, with no seat named, is not filled again: the pack's
        lines do not change, and with no names its text depends on the cue alone."""
        if self.people:
            for cue in cues:
                self.text(cue)
            return
        checked = self._checked
        for cue in cues:
            if cue not in checked:
                # Filled, not kept among the texts (`text`): most of the tens of thousands of lines
                # checked are never said, and would crowd out those that are.
                self._fill(self.template(cue.key), cue.slots, cue.key)
                checked.add(cue)

    def number_words(self, n: int) -> tuple[str, ...]:
        """Every way a player may say seat `n` (the spoken one first); () if the pack has none."""
        variants = self.number_variants.get(n)
        if variants:
            return variants
        word = self.numbers.get(n)
        return (word,) if word else ()

    def template(self, key: str, variant: int = 0) -> str:
        variants = self.lines.get(key)
        if variants is None:
            raise PackError("the {language} pack ({path}) has no line {key!r}; add it under [lines]",
                            language=self.language, path=self.path, key=key)
        return variants[variant % len(variants)]

    def text(self, cue: Cue, variant: int = 0) -> str:
        """The words of a cue in this language, as a screen shows them (numbers in digits; a named
        seat by its name, by day)."""
        if self.people:  # a named seat's text depends on the table's names and the cue's phase too
            return self._fill(self.template(cue.key, variant), cue.slots, cue.key, named=_names_anyone(cue))
        # Filled once for a key, variant and slots (and their types): with no names, the text is the
        # pack's and the slots' alone, and a game says the same few hundred lines over and over.
        return _kept(self._texts, (cue.key, variant, *cue.slots.items(), *map(type, cue.slots.values())),
                     lambda: self._fill(self.template(cue.key, variant), cue.slots, cue.key))

    def spoken(self, cue: Cue, variant: int = 0, engine: str | None = None) -> str:
        """The words of a cue as the voice is given them: numbers said in words, counters agreeing,
        the pack's respellings applied, those of `engine` ("espeak", "piper"; default: the pack's)
        too (docs/languages.md, "Shown and said")."""
        said = self._fill(self.template(cue.key, variant), cue.slots, cue.key, spoken=True, named=_names_anyone(cue))
        return self.respell(said, engine)

    def spoken_slot(self, name: str, value: SlotValue, engine: str | None = None) -> str:
        """How this language says one slot's value, alone (a line respells as a whole)."""
        return self.respell(self._said_slot(name, value), engine)

    def respell(self, text: str, engine: str | None = None) -> str:
        """`text` with the pack's respellings, and `engine`'s own, applied in one pass."""
        table = {**self.respellings, **self.engine_respellings.get(engine or self.engine, {})}
        return _respellers(tuple(table.items()))(text)

    def _said_slot(self, name: str, value: SlotValue) -> str:
        # The one place a slot's spoken form is chosen: a number in the pack's words, the rest as shown.
        if name in NUMBER_SLOTS and _is_number(value):
            return self.number_word(int(value))
        return self._shown_slot(name, value)

    def number_word(self, n: int) -> str:
        """`n` as the voice says it: the pack's own word (the first of [numbers]), else the
        language's words from a speller, else digits (a language no speller knows)."""
        own = self.numbers.get(n)
        return own if own else spelled(self.language, n) or str(n)

    def panel_text(self, key: str, slots: Mapping[str, SlotValue]) -> str:
        # Filled once for a key and its slots (and their types): a panel line names no one (`_fill` without `named`),
        # so its text is the pack's and the slots' alone; the history tells the same few lines for
        # every game it lists.
        return _kept(self._panels, (key, *slots.items(), *map(type, slots.values())),
                     lambda: self._fill(self._panel_template(key), slots, key))

    def _panel_template(self, key: str) -> str:
        variants = self.panel.get(key)
        if variants is None:
            raise PackError("the {language} pack ({path}) has no panel line {key!r}; add it under [panel]",
                            language=self.language, path=self.path, key=key)
        return variants[0]

    def role_name(self, role: str) -> str:
        return self.roles.get(role, role)

    def deck_text(self, composition: str | Mapping[str, int]) -> str:
        """A deck for a person: "3 Werewolf, 1 Seer, 8 Villager" in the pack's names, from counts
        by role key or a composition written `seer=1,villager=8,werewolf=3` (the history's)."""
        if isinstance(composition, str):
            return _kept(self._decks, composition, lambda: self._counts_text(_counts(composition)))
        return self._counts_text({str(getattr(k, "value", k)): int(v) for k, v in composition.items()})

    def _counts_text(self, counts: Mapping[str, int]) -> str:
        return list_separator(self.language).join(self.count_text(n, key) for key, n in counts.items())

    def count_text(self, n: int, role: str, sign: str = "") -> str:
        """`n` cards of a role: "2 Werwölfe", "5 Оборотней" (the name by the language's plural
        category; `sign` "+" writes "+2" and "-2", for a change)."""
        forms = self.plurals.get(role, {})
        name = forms.get(plural_category(self.language, abs(n))) or forms.get("other") or self.role_name(role)
        return f"{n:+d} {name}" if sign else f"{n} {name}"

    def call_name(self, call: str) -> str:
        """A night call's name for the table: `call.<call>` under [panel], else the role it is named after."""
        named = self.panel.get(f"call.{call}")
        return named[0] if named else self.role_name(call)

    def _shown_slot(self, name: str, value: SlotValue) -> str:
        if name in ROLE_SLOTS:
            return self.roles.get(str(value), str(value))
        if name in SIDE_SLOTS:
            return self.sides.get(str(value), str(value))
        if name in MENU_SLOTS:
            return list_separator(self.language).join(f"{n} {self.roles.get(r, r)}"
                                                      for n, r in enumerate(str(value).split(","), 1))
        return str(value)

    def _named(self, template: str, slots: Mapping[str, SlotValue]) -> tuple[str, frozenset[str]]:
        """The template naming the named seats its seat slots hold ("Seat {seat}, your vote?" →
        "{seat}, your vote?", the slot then said as the name), and those slots."""
        people = self.people
        named = frozenset(name for name in SEAT_SLOTS & set(slots)
                          if _is_number(slots[name]) and people.said(int(slots[name])))
        if not named or not self.people_phrases:
            return template, frozenset()
        table = {written.replace("{seat}", "{%s}" % slot): reads.replace("{seat}", "{%s}" % slot)
                 for written, reads in self.people_phrases.items() for slot in named}
        return _respellers(tuple(table.items()))(template), named

    def _person(self, seat: int, spoken: bool) -> str:
        """A named seat as a line gives it: its name ("Ann"), with its number beside a twin's ("Ann (6)")."""
        people = self.people
        name = people.name(seat) or str(seat)
        if not people.twin(seat):
            return name
        if not spoken:
            return people.shown(seat) or name
        return f"{name} ({self.number_word(seat)})"

    def _counter_after(self, text: str) -> tuple[Counter, str] | None:
        if text not in self._after:
            self._after[text] = counter_after(text, self.counters)
        return self._after[text]

    def _fill(self, template: str, slots: Mapping[str, SlotValue], key: str, spoken: bool = False,
              named: bool = False) -> str:
        """The template with its slots filled, as shown or (`spoken`) as said; a number slot
        followed by a counter word makes the word agree with it ([counters]); with `named`, a seat
        slot holding a named seat is its name (`_named`)."""
        people: frozenset[str] = frozenset()
        if named:
            template, people = self._named(template, slots)
        try:
            parts = _parsed(template)
        except ValueError as exc:
            raise PackError("line {template!r} has a broken slot: {exc}", template=template, exc=exc) from None
        out: list[str] = []
        skip = 0  # characters of the next literal text already said with a counter
        for i, (literal, name, spec, conversion) in enumerate(parts):
            out.append(literal[skip:])
            skip = 0
            if name is None:
                continue
            if name not in slots:
                raise PackError("line {key!r} of the {language} pack needs slot {exc}; the cue gave {given}",
                                key=key, language=self.language, exc=repr(name), given=dict(slots))
            value = slots[name]
            if name in people:
                out.append(self._person(int(value), spoken))
                continue
            after = (self._counter_after(parts[i + 1][0])
                     if name in NUMBER_SLOTS and i + 1 < len(parts) and _is_number(value) else None)
            if after is not None:
                counter, gap = after
                n = int(value)
                out.append(counter.said(self.language, n, self.number_word(n), gap) if spoken
                           else counter.shown(self.language, n, gap))
                skip = len(gap) + len(counter.word)
            elif spoken:
                out.append(self._said_slot(name, value))
            elif name in _SHOWN_SLOTS:
                out.append(self._shown_slot(name, value))
            else:
                out.append(format(value if conversion is None else _convert(value, conversion), spec or ""))
        return "".join(out)


@lru_cache(maxsize=4096)
def _parsed(template: str) -> tuple[tuple[str, str | None, str | None, str | None], ...]:
    """A template's pieces (literal text, slot, format spec, conversion), parsed once: a pack has a
    few hundred templates, filled again and again (the history tells every death of every game)."""
    return tuple(string.Formatter().parse(template))


def _names_anyone(cue: Cue) -> bool:
    """Whether a line may name a seat by its name: by day; never at night (docs/names.md)."""
    return not cue.phase.startswith("night")


def _is_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) or isinstance(value, str) and value.isdigit()


def _convert(value: object, conversion: str) -> object:
    return repr(value) if conversion == "r" else ascii(value) if conversion == "a" else str(value)


@lru_cache(maxsize=None)
def _respellers(respellings: tuple[tuple[str, str], ...]) -> Callable[[str], str]:
    return respeller(dict(respellings))


def _variants(raw: Any, where: str) -> tuple[str, ...]:
    if isinstance(raw, str):
        return (raw,)
    if isinstance(raw, list) and raw and all(isinstance(x, str) for x in raw):
        return tuple(raw)
    raise PackError("{where} must be a string or a list of strings, not {raw!r}", where=where, raw=raw)


def _texts(raw: Any, where: str) -> dict[str, str]:
    if not isinstance(raw, dict) or not all(isinstance(v, str) for v in raw.values()):
        raise PackError("{where} must be a table of texts, not {raw!r}", where=where, raw=raw)
    return {str(k): v for k, v in raw.items()}


def _counter(word: str, raw: Any, where: str) -> Counter:
    if not isinstance(raw, dict):
        raise PackError("{where} must be a table (its forms by plural category, and say), not {raw!r}", where=where, raw=raw)
    forms = _texts({k: v for k, v in raw.items() if k != "say"}, where)
    return Counter(word, forms, _texts(raw.get("say", {}), f"{where} say"))


# The sections a language writes for itself, with no English counterpart to translate: how the
# voice is to read the lines ([spoken], [counters]) and the plural forms of role names ([plurals]).
LANGUAGE_SECTIONS = ("counters", "spoken", "plurals", "misreadings", "people")

# The mark `narrator voices new` puts before every English text it copies into a new pack; the
# translator removes it with the English. The loader strips it (the line is spoken in English
# meanwhile) and `narrator voices check` names every line that still has it.
UNTRANSLATED = "[untranslated] "
# The sections whose values are texts to translate ([pack] holds settings, not texts).
TEXT_SECTIONS = ("roles", "sides", "numbers", "words", "listening", "lines", "panel", "rules")


def _unmark(raw: Any) -> tuple[Any, bool]:
    """A value without the UNTRANSLATED mark (a string, or each string of a list), and whether it had one."""
    if isinstance(raw, str) and raw.startswith(UNTRANSLATED):
        return raw[len(UNTRANSLATED):], True
    if isinstance(raw, list):
        pairs = [_unmark(x) for x in raw]
        return [x for x, _ in pairs], any(marked for _, marked in pairs)
    return raw, False


def _strip_marks(data: dict[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
    untranslated: list[str] = []
    out = dict(data)
    for section in TEXT_SECTIONS:
        table = data.get(section)
        if not isinstance(table, dict):
            continue
        clean: dict[str, Any] = {}
        for key, raw in table.items():
            clean[key], marked = _unmark(raw)
            if marked:
                untranslated.append(f"[{section}] {key}")
        out[section] = clean
    return out, tuple(untranslated)


def load_pack(language: str, root: Path | None = None) -> VoicePack:
    base = root or packs_root()
    path = base / language / "pack.toml"
    if not path.is_file():
        have = ", ".join(available_languages(base)) or "none"
        raise PackError("no voice pack for language {language!r} at {path}; packs here: {have}",
                        language=language, path=path, have=have)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PackError("voice pack {path} cannot be read: {exc}", path=path, exc=exc) from None
    return _pack_of(language, path, text)


@functools.lru_cache(maxsize=32)
def _pack_of(language: str, path: Path, text: str) -> VoicePack:
    """The pack that `text`, read from `path`, makes: parsed once for the same text. A game loads
    its pack several times (the game, its speaker, its screen), and parsing the TOML was most of
    what a headless game cost; the text is the key, so a pack file changed is read anew."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PackError("voice pack {path} cannot be read: {exc}", path=path, exc=exc) from None
    data, untranslated = _strip_marks(data)
    try:
        meta = data["pack"]
        number_variants = {int(k): _variants(v, f"{path} [numbers] {k}") for k, v in data.get("numbers", {}).items()}
        return VoicePack(
            language=str(meta.get("language", language)),
            name=str(meta.get("name", language)),
            voice=str(meta["voice"]),
            rate=int(meta.get("rate", 150)),
            volume=float(meta.get("volume", 1.0)),
            roles={str(k): str(v) for k, v in data.get("roles", {}).items()},
            sides={str(k): str(v) for k, v in data.get("sides", {}).items()},
            numbers={n: v[0] for n, v in number_variants.items()},
            words={str(k): _variants(v, f"{path} [words] {k}") for k, v in data.get("words", {}).items()},
            lines={str(k): _variants(v, f"{path} [lines] {k}") for k, v in data["lines"].items()},
            panel={str(k): _variants(v, f"{path} [panel] {k}") for k, v in data.get("panel", {}).items()},
            path=path,
            number_variants=number_variants,
            rules={str(k): str(v) for k, v in data.get("rules", {}).items()},
            seat_forms=_variants(data.get("listening", {}).get("seat", "{seat}"), f"{path} [listening] seat"),
            engine=str(meta.get("engine", "espeak")),
            piper_voice=str(meta.get("piper_voice", "")),
            untranslated=untranslated,
            phone={str(k): str(v) for k, v in data.get("phone", {}).items()},
            counters={str(w): _counter(str(w), t, f"{path} [counters] {w}") for w, t in data.get("counters", {}).items()},
            respellings=_texts({k: v for k, v in data.get("spoken", {}).items() if k not in ENGINES}, f"{path} [spoken]"),
            engine_respellings={e: _texts(t, f"{path} [spoken.{e}]") for e, t in data.get("spoken", {}).items()
                                if e in ENGINES},
            plurals={str(r): _texts(t, f"{path} [plurals] {r}") for r, t in data.get("plurals", {}).items()},
            misreadings=_texts(data.get("misreadings", {}), f"{path} [misreadings]"),
            people_phrases=_texts(data.get("people", {}), f"{path} [people]"),
        )
    except KeyError as exc:
        raise PackError("voice pack {path} has no {args!r} section or key", path=path, args=exc.args[0]) from None
    except (TypeError, ValueError) as exc:
        raise PackError("voice pack {path} has a bad value: {exc}", path=path, exc=exc) from None


REFERENCE_LANGUAGE = "en"
ENGINES = ("espeak", "piper")
SEAT_NUMBERS = range(1, 31)


class Text(str):
    """A printed text: its English words (the str), keeping its template and slots so that the
    command line prints it in the table's language (`narrator.i18n.tr`: this module is below
    narrator.i18n and never translates). A slot may hold a Text or an error: translated too."""

    template: str
    slots: dict[str, object]

    def __new__(cls, template: str, /, **slots: object) -> "Text":
        text = super().__new__(cls, english(template, slots))
        text.template, text.slots = template, dict(slots)
        return text


class Problem(Text):
    """A line of `narrator voices check`, and its kind for the pack's summary: "untranslated",
    "missing", "broken" (slots) or "other"."""

    kind: str

    def __new__(cls, kind: str, template: str, /, **slots: object) -> "Problem":
        problem = cast("Problem", super().__new__(cls, template, **slots))
        problem.kind = kind
        return problem



def _slot_problems(where: str, ref: Mapping[str, tuple[str, ...]], other: Mapping[str, tuple[str, ...]]) -> list[str]:
    problems: list[str] = []
    for key, ref_variants in ref.items():
        if key not in other:
            problems.append(Problem("missing", marked("{where}: missing key {key!r}"), where=where, key=key))
            continue
        want = slots_of(ref_variants[0])
        for i, template in enumerate(other[key]):
            try:
                have = slots_of(template)
            except PackError as exc:
                problems.append(Problem("broken", marked("{where}: key {key!r}: {error}"), where=where, key=key,
                                         error=_message(exc)))
                continue
            if have != want:
                missing = ", ".join(sorted(want - have))
                extra = ", ".join(sorted(have - want))
                details = [Text(marked("missing slots {slots}"), slots=f"{{{missing}}}") if missing else "",
                           Text(marked("unknown slots {slots}"), slots=f"{{{extra}}}") if extra else ""]
                detail = "; ".join(x for x in details if x)
                expected = str(sorted(want)) if want else Text(marked("no slots"))
                if len(other[key]) == 1:
                    text = Text(marked("{where}: key {key!r}: {detail} (expected {expected})"), where=where, key=key,
                              detail=detail, expected=expected)
                else:
                    text = Text(marked("{where}: key {key!r} variant {variant}: {detail} (expected {expected})"), where=where,
                              key=key, variant=i + 1, detail=detail, expected=expected)
                problems.append(Problem("broken", text))
    for key in other:
        if key not in ref:
            problems.append(Problem("other", marked("{where}: key {key!r} is not in the {reference} pack (a typo, or add it "
                                                "there too)"), where=where, key=key, reference=REFERENCE_LANGUAGE))
    return problems


def _names_problems(where: str, ref: Mapping[str, object], other: Mapping[str, object]) -> list[str]:
    problems: list[str] = [Problem("missing", marked("{where}: missing key {key!r}"), where=where, key=k)
                           for k in ref if k not in other]
    problems += [Problem("other", marked("{where}: key {key!r} is not in the {reference} pack"), where=where, key=k,
                          reference=REFERENCE_LANGUAGE) for k in other if k not in ref]
    problems += [Problem("other", marked("{where}: key {key!r} is empty"), where=where, key=k)
                 for k, v in other.items() if not str(v).strip()]
    return problems


def check_pack(pack: VoicePack, reference: VoicePack) -> list[str]:
    """Every way `pack` differs from `reference` in keys or slots, one readable line each."""
    name = f"{pack.language} ({pack.path})"
    problems: list[str] = []
    # Checking the reference against itself still catches variants whose slots differ.
    problems += _slot_problems(f"{name} [lines]", reference.lines, pack.lines)
    problems += _slot_problems(f"{name} [panel]", reference.panel, pack.panel)
    problems += _names_problems(f"{name} [roles]", reference.roles, pack.roles)
    problems += _names_problems(f"{name} [sides]", reference.sides, pack.sides)
    problems += _names_problems(f"{name} [words]", reference.words, pack.words)
    problems += _names_problems(f"{name} [rules]", reference.rules, pack.rules)
    problems += _names_problems(f"{name} [phone]", reference.phone, pack.phone)
    problems += _rules_problems(name, pack)
    problems += _language_problems(name, pack)
    problems += [Problem("untranslated", marked("{where} {entry}: untranslated (still marked {mark!r})"), where=name,
                                            entry=entry, mark=UNTRANSLATED.strip()) for entry in pack.untranslated]
    missing_numbers = [n for n in SEAT_NUMBERS if not pack.numbers.get(n, "").strip()]
    if missing_numbers:
        problems.append(Problem("missing", marked("{where} [numbers]: missing seat numbers {numbers}"), where=name,
                                 numbers=", ".join(map(str, missing_numbers))))
    seen: dict[str, int] = {}
    for n in SEAT_NUMBERS:
        word = pack.numbers.get(n, "").strip().lower()
        if word and word in seen:
            problems.append(Problem("other", marked("{where} [numbers]: {seat} and {other} are both {word!r} (the listener "
                                                "could not tell them apart)"), where=name, seat=n, other=seen[word],
                                                word=word))
        seen.setdefault(word, n)
    bad_forms = [f for f in pack.seat_forms if "{seat}" not in f]
    if bad_forms:
        problems.append(Problem("other", marked("{where} [listening] seat: {forms} must each hold {slot}"), where=name,
                                 forms=", ".join(repr(f) for f in bad_forms), slot="{seat}"))
    for key, variants in pack.words.items():
        if not all(v.strip() for v in variants):
            problems.append(Problem("other", marked("{where} [words]: key {key!r} has an empty word"), where=name, key=key))
    if pack.engine not in ENGINES:
        problems.append(Problem("other", marked("{where} [pack]: engine {engine!r} is not one of {engines}"), where=name,
                                 engine=pack.engine, engines=", ".join(ENGINES)))
    if not pack.voice.strip():
        problems.append(Problem("other", marked("{where} [pack]: voice is empty"), where=name))
    if not 80 <= pack.rate <= 400:
        problems.append(Problem("other", marked("{where} [pack]: rate {rate} is outside 80..400 words per minute"), where=name,
                                 rate=pack.rate))
    if not 0.0 < pack.volume <= 1.0:
        problems.append(Problem("other", marked("{where} [pack]: volume {volume} is outside (0, 1]"), where=name,
                                 volume=pack.volume))
    return problems


def _language_problems(name: str, pack: VoicePack) -> list[str]:
    """[counters] and [plurals] whose forms are not the language's plural categories, or lack one
    a count can take; respellings to nothing."""
    problems: list[str] = []
    wanted = integer_categories(pack.language)
    tables = [(f"[counters] {w!r}", c.forms) for w, c in pack.counters.items() if c.forms]
    tables += [(f"[plurals] {r}", forms) for r, forms in pack.plurals.items()]
    for where, forms in tables:
        unknown = sorted(set(forms) - set(PLURAL_CATEGORIES))
        missing = [c for c in wanted if c not in forms]
        if unknown or missing:
            problems.append(Problem("other", marked("{where} {table}: plural forms {have}, but {lang} counts with {want} "
                                                    "(CLDR's plural categories)"), where=name, table=where,
                                    have=", ".join(sorted(forms)), lang=pack.language, want=", ".join(wanted)))
    problems += [Problem("other", marked("{where} [plurals]: {role!r} is not a role of [roles]"), where=name, role=r)
                 for r in pack.plurals if r not in pack.roles]
    for pattern in pack.misreadings:
        try:
            re.compile(pattern)
        except re.error as exc:
            problems.append(Problem("other", marked("{where} [misreadings]: {pattern!r} is not a regular expression: {exc}"),
                                    where=name, pattern=pattern, exc=exc))
    problems += [Problem("other", marked("{where} [people]: {phrase!r} = {reads!r} must hold {slot} once on each side"),
                         where=name, phrase=k, reads=v, slot="{seat}")
                 for k, v in pack.people_phrases.items() if k.count("{seat}") != 1 or v.count("{seat}") != 1]
    every = [*pack.respellings.items(), *(kv for table in pack.engine_respellings.values() for kv in table.items())]
    problems += [Problem("other", marked("{where} [spoken]: {text!r} is respelled to nothing"), where=name, text=k)
                 for k, v in every if not k or not v.strip()]
    return problems


def integer_categories(language: str) -> list[str]:
    """The plural categories whole numbers fall in, in the language (CLDR): "ru": one, few, many."""
    found = {plural_category(language, n) for n in range(0, 1001)}
    return [c for c in PLURAL_CATEGORIES if c in found]


def _rules_problems(name: str, pack: VoicePack) -> list[str]:
    """[rules] keys the engine's roles and options need but the pack lacks (`narrator rules`)."""
    missing = missing_keys(pack)
    if not missing:
        return []
    return [Problem("missing", marked("{where} [rules]: no text for {keys} (every role and option of the engine needs one)"),
                     where=name, keys=", ".join(missing))]


def check_packs(root: Path | None = None, languages: list[str] | None = None) -> list[str]:
    """Problems across the packs under `root` (all of them by default); an empty list means all good.

    Shared by `narrator voices check` and the tests. The English pack is the reference for keys
    and slots, since the sequencer is written against it.
    """
    base = root or packs_root()
    langs = languages if languages is not None else available_languages(base)
    problems: list[str] = []
    try:
        reference = load_pack(REFERENCE_LANGUAGE, base)
    except PackError as exc:
        return [_message(exc)]
    if not langs:
        return [Problem("other", marked("no voice packs under {folder}"), folder=base)]
    for lang in langs:
        try:
            pack = load_pack(lang, base)
        except PackError as exc:
            problems.append(_message(exc))
            continue
        problems += check_pack(pack, reference)
        problems += catalogue_problems(lang, base)
    return problems


def summary(pack: VoicePack, problems: Sequence[str]) -> str:
    """One line for a pack: how many of its problems are untranslated, missing and slot-broken lines."""
    mine = [p for p in problems if p.startswith(f"{pack.language} (")]
    untranslated = sum(1 for p in mine if _kind(p) == "untranslated")
    missing = sum(1 for p in mine if _kind(p) == "missing")
    broken = sum(1 for p in mine if _kind(p) == "broken")
    other = len(mine) - untranslated - missing - broken
    if not mine:
        return Text(marked("{lang} ({name}): complete"), lang=pack.language, name=pack.name)
    if other:
        return Text(marked("{lang} ({name}): {untranslated} untranslated, {missing} missing, {broken} slot-broken, {other} other"),
                  lang=pack.language, name=pack.name, untranslated=untranslated, missing=missing, broken=broken,
                  other=other)
    return Text(marked("{lang} ({name}): {untranslated} untranslated, {missing} missing, {broken} slot-broken"),
              lang=pack.language, name=pack.name, untranslated=untranslated, missing=missing, broken=broken)


def _kind(problem: str) -> str:
    """A problem's kind: its own, or read from its English text (a problem written elsewhere)."""
    kind = getattr(problem, "kind", None)
    if isinstance(kind, str):
        return kind
    if problem.endswith(f"untranslated (still marked {UNTRANSLATED.strip()!r})"):
        return "untranslated"
    if ": missing key " in problem or "missing seat numbers" in problem or "[rules]: no text for" in problem:
        return "missing"
    if " slots {" in problem or "has a broken slot" in problem:
        return "broken"
    return "other"


def _message(exc: BaseException) -> str:
    """An error as a problem line, keeping its template and slots (a broken slot counts as slot-broken)."""
    kind = "broken" if "has a broken slot" in str(exc) else "other"
    template, slots = getattr(exc, "template", None), getattr(exc, "slots", None)
    if isinstance(template, str) and isinstance(slots, dict) and slots:
        return Problem(kind, template, **slots)
    return Problem(kind, str(exc))


def check_voice_ids(packs: list[VoicePack], installed: set[str]) -> list[str]:
    """Packs whose voice id is not among the installed espeak-ng ids (lower-case, with aliases)."""
    return [
        Problem("other", marked("{lang} ({path}): voice {voice!r} is not installed in espeak-ng (see {command}; set {key} to "
                 "one listed there)"), lang=p.language, path=p.path, voice=p.voice, command="'espeak-ng --voices'",
                 key="[pack].voice")
        for p in packs
        if p.voice.lower() not in installed
    ]


# ---- every line a game can say -------------------------------------------------------

SEAT_SLOTS = frozenset({"seat", "other"})
# Values the sequencer may put in the numeric slots (debate lengths, extra time, defence time).
DEFAULT_DOMAINS: Mapping[str, tuple[int, ...]] = {
    "minutes": tuple(range(1, 16)),
    "seconds": (10, 15, 20, 30, 45, 60, 90, 120),
}


def _kept(store: dict[Any, str], memo: Any, fill: Callable[[], str]) -> str:
    """`fill()`, kept in `store` under `memo` for the next time (a pack's lines, panels and decks are its
    data's and the slots' alone). A memo that cannot be hashed is filled each time; a full store starts over."""
    try:
        text = store.get(memo)
    except TypeError:  # a slot that cannot be hashed
        return fill()
    if text is None:
        text = fill()
        if len(store) >= 8192:
            store.clear()
        store[memo] = text
    return text


def _counts(composition: str) -> dict[str, int]:
    """A composition as the history writes it (`seer=1,villager=8,werewolf=3`), by role key."""
    counts: dict[str, int] = {}
    for part in composition.split(","):
        key, _, n = part.partition("=")
        if key.strip():
            counts[key.strip()] = int(n) if n.strip().isdigit() else 1
    return counts


def every_cue(
    pack: VoicePack,
    players: int,
    roles: Iterable[str] | None = None,
    domains: Mapping[str, Sequence[SlotValue]] | None = None,
) -> list[Cue]:
    """All spoken cues with every seat 1..players, every role in play, every side.

    Panel lines are shown, not spoken, so they are not included.
    """
    role_values = tuple(roles) if roles is not None else tuple(pack.roles)
    extra: dict[str, Sequence[SlotValue]] = dict(DEFAULT_DOMAINS)
    extra.update(domains or {})
    # Made once for a pack and a table: every game of a session (a simulation, a day of games)
    # asks again, and the list runs to tens of thousands of cues. The pack is kept with its cues,
    # so its id is not another pack's.
    key = (id(pack), players, role_values, tuple((k, tuple(v)) for k, v in extra.items()))
    made = _EVERY_CUE.get(key)
    if made is not None and made[0] is pack:
        return list(made[1])
    cues = _every_cue(pack, players, role_values, extra)
    if len(_EVERY_CUE) >= 32:
        _EVERY_CUE.clear()
    _EVERY_CUE[key] = (pack, tuple(cues))
    return cues


_EVERY_CUE: dict[tuple[Any, ...], tuple[VoicePack, tuple[Cue, ...]]] = {}


def _every_cue(pack: VoicePack, players: int, role_values: tuple[str, ...],
               extra: Mapping[str, Sequence[SlotValue]]) -> list[Cue]:
    seats = tuple(range(1, players + 1))
    cues: list[Cue] = []
    for key, variants in pack.lines.items():
        names = sorted(slots_of(variants[0]))
        choices: list[Sequence[SlotValue]] = []
        for name in names:
            if name in SEAT_SLOTS:
                choices.append(seats)
            elif name in ROLE_SLOTS:
                choices.append(role_values)
            elif name in SIDE_SLOTS:
                choices.append(tuple(pack.sides))
            elif name in extra:
                choices.append(tuple(extra[name]))
            else:
                choices.append(tuple(range(0, players + 1)))
        for combo in itertools.product(*choices):
            cues.append(Cue(key, dict(zip(names, combo))))
    return cues


def texts_of(pack: VoicePack, cues: Iterable[Cue], engine: str | None = None) -> list[str]:
    """The text of every variant of every cue, without duplicates, in order: as shown, or with an
    `engine` ("espeak", "piper") as that engine is given it (`VoicePack.spoken`)."""
    out: dict[str, None] = {}
    for cue in cues:
        for variant in range(len(pack.lines.get(cue.key, ("",)))):
            out[pack.text(cue, variant) if engine is None else pack.spoken(cue, variant, engine)] = None
    return list(out)


# ---- the [rules] texts: what every pack says about the engine's roles and options ------------
# `narrator rules` (narrator/reference.py) prints them; the check below names any that is missing.

LABELS: tuple[str, ...] = ("title", "intro", "roles", "team", "moons", "office", "options", "presets", "default",
                           "generated", "pending")
# Offices the reference describes besides the role cards (named in the pack's [roles]).
OFFICES: tuple[str, ...] = ("captain",)
def option_values(key: str) -> tuple[str, ...]:
    """The values an option takes, as typed after `--option key=`: the default first for yes/no
    and number options."""
    if key in CHOICES:
        return CHOICES[key]
    if key in TEXTS:
        return ()  # a text of its own (the Sectarian's groups, the Actor's cards): explained in option.<key>
    if key in NUMBERS:
        default = getattr(Options(), key)
        return (str(default), *(str(n) for n in NUMBERS[key] if n != default))
    default = getattr(Options(), key)
    return ("true", "false") if default else ("false", "true")


def default_value(key: str) -> str:
    value = getattr(Options(), key)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def required_keys() -> list[str]:
    """Every `[rules]` key a pack needs, derived from the engine's roles and options."""
    keys = list(LABELS)
    keys += [f"role.{role.value}" for role in Role]
    keys += [f"role.{office}" for office in OFFICES]
    for f in dataclasses.fields(Options):
        keys.append(f"option.{f.name}")
        keys += [f"value.{f.name}.{value}" for value in option_values(f.name)]
    # The shipped presets (narrator/presets/<name>.toml): what each is, in every language.
    keys += [f"preset.{path.stem}" for path in sorted((Path(__file__).resolve().parent / "presets").glob("*.toml"))]
    return keys


def missing_keys(pack: VoicePack) -> list[str]:
    return [key for key in required_keys() if not pack.rules.get(key, "").strip()]


# ---- the printed words' catalogues, voices/<lang>/messages.toml (narrator/i18n.py, narrator/messages.py)

MESSAGES = "messages.toml"
_PERCENT = re.compile(r"%\([a-z_]+\)[a-z]|%[a-z]")


def read_catalogue(path: Path) -> dict[str, str]:
    """The [messages] table of a catalogue file, as written (untranslated marks kept)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PackError("message catalogue {path} cannot be read: {exc}", path=path, exc=exc) from None
    return dict(_catalogue_of(path, text))  # a copy: the caller may change its own


@functools.lru_cache(maxsize=32)
def _catalogue_of(path: Path, text: str) -> dict[str, str]:
    """The catalogue that `text`, read from `path`, holds: parsed once for the same text. `voices
    check` reads each language's catalogue and the English one beside it, and the TOML parse was
    most of what it cost; the text is the key, so a catalogue changed is read anew."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PackError("message catalogue {path} cannot be read: {exc}", path=path, exc=exc) from None
    table = data.get("messages", {})
    if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
        raise PackError("message catalogue {path} must have a [messages] table of texts", path=path)
    return {str(k): v for k, v in table.items()}


def _format_slots(template: str) -> frozenset[str]:
    """The {slots} of a template, and its %-slots when it is one of argparse's ("%(prog)s", "%s")."""
    if "{" not in template and "%" in template:
        return frozenset(_PERCENT.findall(template))
    return slots_of(template)


def catalogue_problems(lang: str, root: Path | None = None) -> list[str]:
    """Untranslated, missing and slot-broken messages of `lang`'s catalogue, one line each.

    The lines read like the pack check's ("de (PATH) [messages]: missing key '...'"), so
    `narrator voices check` counts them in its summary. A language without a catalogue file has
    nothing to report here (`narrator voices fill LANG` starts one); English is the reference.
    """
    base = root or packs_root()
    reference_path = base / REFERENCE_LANGUAGE / MESSAGES
    path = base / lang / MESSAGES
    if lang == REFERENCE_LANGUAGE or not reference_path.is_file() or not path.is_file():
        return []
    where = f"{lang} ({path}) [messages]"
    try:
        reference = read_catalogue(reference_path)
        mine = read_catalogue(path)
    except PackError as exc:
        return [f"{where}: {exc}"]
    problems: list[str] = []
    for key in reference:
        if key not in mine:
            problems.append(f"{where}: missing key {key!r}")
            continue
        text = mine[key]
        if text.startswith(UNTRANSLATED):
            problems.append(f"{where} {key!r}: untranslated (still marked {UNTRANSLATED.strip()!r})")
            continue
        try:
            want, have = _format_slots(key), _format_slots(text)
        except PackError as exc:
            problems.append(f"{where}: key {key!r}: {exc}")
            continue
        if want != have:
            problems.append(f"{where}: key {key!r}: slots {{{', '.join(sorted(have))}}}, expected {sorted(want) or 'no slots'}")
    problems += [f"{where}: key {k!r} is not in the en catalogue (stale: remove it)" for k in mine if k not in reference]
    return problems
