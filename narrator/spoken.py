"""How a language says what a line holds: number words, the word after a number, and respellings.

A pack's line is shown on screens as written, with numbers in digits ("Seat 4."), and said by
the voice from its *spoken* text (docs/languages.md, "Shown and said"):

- a number slot (`NUMBER_SLOTS`) is said with the pack's own number words where it has them
  (`[numbers]`, the first form), else with the language's words from a number speller
  (num2words; Mandarin: cn2an, which num2words lacks), never as digits;
- a word written right after a number slot that the pack lists under `[counters]` agrees with
  the number: its form by the language's plural category (CLDR, through Babel: "2 минуты",
  "5 минут") on screen and in speech, and in speech only the sound changes or the number's own
  form before it (Japanese さん ふん → さんぷん, Mandarin 二 分钟 → 两分钟, Korean 이 표 → 두 표,
  Russian два минуты → две минуты);
- `[spoken]` respellings turn what is written into what the voice must read, in the spoken text
  only: a stress mark ("Оборотни" → "Оборо́тни"), a reading (警长 → 警zhang3), a particle said
  otherwise than written (Japanese は → わ).

Everything here is pure: the same line and slots give the same text, whatever the game's state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Mapping

if TYPE_CHECKING:
    from babel.plural import PluralRule

# Slots that hold a number said aloud: seats, minutes, seconds, counts.
NUMBER_SLOTS = frozenset({"seat", "other", "minutes", "seconds", "count"})
# CLDR's plural categories (https://cldr.unicode.org: "Language Plural Rules").
PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")
# The number speller's name for a pack's language, where it differs (the pt pack is Brazilian).
_SPELLER_LANGUAGE = {"pt": "pt_BR"}


def locale_of(language: str) -> str:
    """A pack's language tag as Babel and CLDR name it: "pt-br" → "pt_BR"; unknown → "en"."""
    from babel import Locale, UnknownLocaleError

    try:
        return str(Locale.parse(language.replace("-", "_")))
    except (UnknownLocaleError, ValueError):
        return "en"


@lru_cache(maxsize=None)
def _plural_rule(language: str) -> PluralRule:
    """The language's CLDR plural rule, parsed once: a pack check asks it for a thousand numbers,
    and parsing the locale for each of them was half the time `narrator voices check` took."""
    from babel import Locale

    return Locale.parse(locale_of(language)).plural_form


@lru_cache(maxsize=None)
def plural_categories(language: str) -> tuple[str, ...]:
    """The plural categories the language's CLDR rules use ("de": one, other; "ru": one, few, many, other)."""
    tags = _plural_rule(language).tags
    return tuple(c for c in PLURAL_CATEGORIES if c in tags or c == "other")


@lru_cache(maxsize=None)
def plural_category(language: str, n: int) -> str:
    """The CLDR plural category of `n` in the language: "ru", 2 → "few"; 5 → "many"."""
    return str(_plural_rule(language)(n))


@lru_cache(maxsize=4096)
def spelled(language: str, n: int) -> str | None:
    """`n` in the language's words from a speller, or None where none knows the language."""
    if language.split("-")[0] == "zh":
        import cn2an  # type: ignore[import-untyped]  # num2words has no Mandarin

        return str(cn2an.an2cn(n))
    from num2words import CONVERTER_CLASSES, num2words  # type: ignore[import-untyped]

    lang = _SPELLER_LANGUAGE.get(language, language.replace("-", "_"))
    if lang not in CONVERTER_CLASSES:
        lang = lang.split("_")[0]
        if lang not in CONVERTER_CLASSES:
            return None
    if lang == "ja":  # the ja voice reads kana only: the reading, not the kanji
        return str(num2words(n, lang="ja", reading=True))
    return str(num2words(n, lang=lang))


@dataclass(frozen=True)
class Counter:
    """A word written right after a number slot that agrees with the number (`[counters]`).

    `forms`: the word by CLDR plural category, shown and said ("минута", "минуты", "минут").
    `say`: in speech, what the number's last part and the word become together, by the ending of
    the number's spoken word ("さん" → "さんぷん": 13 is じゅうさんぷん) or by the whole number
    written in digits ("2" → "两分钟"; 12 keeps 十二 分钟). The longest ending that fits wins.
    """

    word: str
    forms: Mapping[str, str] = field(default_factory=dict)
    say: Mapping[str, str] = field(default_factory=dict)

    def form(self, language: str, n: int) -> str:
        return self.forms.get(plural_category(language, n)) or self.forms.get("other") or self.word

    def shown(self, language: str, n: int, gap: str) -> str:
        return f"{n}{gap}{self.form(language, n)}"

    def said(self, language: str, n: int, number: str, gap: str) -> str:
        whole = self.say.get(str(n))
        if whole is not None:
            return whole
        for ending in sorted((e for e in self.say if not e.isdigit()), key=len, reverse=True):
            if number.endswith(ending):
                return number[: len(number) - len(ending)] + self.say[ending]
        return f"{number}{gap}{self.form(language, n)}"


def counter_after(text: str, counters: Mapping[str, Counter]) -> tuple[Counter, str] | None:
    """The counter `text` starts with (after its blank, returned too), the longest that fits."""
    stripped = text.lstrip(" \u00a0")
    gap = text[: len(text) - len(stripped)]
    best = max((w for w in counters if stripped.startswith(w)), key=len, default=None)
    return (counters[best], gap) if best is not None else None


def respeller(respellings: Mapping[str, str]) -> Callable[[str], str]:
    """A function that applies `[spoken]` respellings in one pass, the longest written form first
    (so one respelling's output is never respelled again)."""
    if not respellings:
        return lambda text: text
    pattern = re.compile("|".join(re.escape(k) for k in sorted(respellings, key=len, reverse=True)))
    return lambda text: pattern.sub(lambda m: respellings[m.group(0)], text)


@lru_cache(maxsize=64)  # the history's list writes a deck a game, each with its separator
def list_separator(language: str) -> str:
    """What stands between two items of a list in the language (CLDR): ", "; Japanese and Chinese "、"."""
    from babel import Locale

    middle = str(Locale.parse(locale_of(language)).list_patterns["standard"]["middle"])
    return middle.replace("{0}", "").replace("{1}", "")


def format_number(language: str, n: float, decimals: int | None = None) -> str:
    """A number as the language writes it (CLDR, through Babel): "1.000" in German, "1 000" in Russian."""
    from babel.numbers import format_decimal

    pattern = None if decimals is None else "#,##0" + ("." + "0" * decimals if decimals else "")
    return str(format_decimal(n, format=pattern, locale=locale_of(language)))


def format_percent(language: str, x: float, decimals: int = 0) -> str:
    """A share as the language writes a percentage (CLDR): "45%" in English, "45 %" in German."""
    from babel import Locale
    from babel.numbers import format_percent as babel_percent

    pattern = Locale.parse(locale_of(language)).percent_formats[None].pattern
    if decimals:
        pattern = pattern.replace("0%", "0." + "0" * decimals + "%").replace("0\u00a0%", "0." + "0" * decimals + "\u00a0%")
    return str(babel_percent(x, format=pattern, locale=locale_of(language)))
