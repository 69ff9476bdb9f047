"""SETUP.toml and SCRIPT.toml: a game's table and its players' answers, for headless play."""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from narrator.errors import UsageError, marked
from narrator.flow.timing import Timing
from narrator.ports import Heard, Prompt
from narrator.rules import Deal, Game, Options, Role, RulesError
from narrator.rules import hooks

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


@dataclass(frozen=True)
class Setup:
    players: int
    language: str
    deal: Deal
    possible: frozenset[Role] | None
    options: Options
    timing: Timing
    speech_scale: float = 1.0  # fake speaker only: scales the estimated length of each line

    def to_record(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "language": self.language,
            "roles": [r.value for r in self.deal.seats],
            "extra": [r.value for r in self.deal.extra],
            "possible": None if self.possible is None else sorted(r.value for r in self.possible),
            "options": self.options.to_dict(),
            "timing": {**{k: v for k, v in self.timing.turns.items()}, **_timing_scalars(self.timing)},
            "speech_scale": self.speech_scale,
        }

    @classmethod
    def from_record(cls, data: Mapping[str, Any]) -> Setup:
        return cls(
            players=int(data["players"]),
            language=str(data["language"]),
            deal=Deal(tuple(Role(r) for r in data["roles"]), tuple(Role(r) for r in data["extra"])),
            possible=None if data["possible"] is None else frozenset(Role(r) for r in data["possible"]),
            options=Options().with_values(data["options"]),
            timing=Timing().with_values(data["timing"]),
            speech_scale=float(data.get("speech_scale", 1.0)),
        )


def _timing_scalars(t: Timing) -> dict[str, float]:
    return {
        "gap": t.gap, "settle": t.settle, "suspense": t.suspense, "debate": t.debate, "more_time": t.more_time,
        "defence": t.defence, "vote": t.vote, "chain": t.chain,
    }


# A whole sentence for each file and each way it fails, so each language words it its own way.
_UNREADABLE = {
    ("setup", "missing"): marked("setup file {path!r} does not exist"),
    ("setup", "unreadable"): marked("setup file {path!r} cannot be read: {exc}"),
    ("setup", "toml"): marked("setup file {path!r} is not valid TOML: {exc}"),
    ("script", "missing"): marked("script file {path!r} does not exist"),
    ("script", "unreadable"): marked("script file {path!r} cannot be read: {exc}"),
    ("script", "toml"): marked("script file {path!r} is not valid TOML: {exc}"),
}


def read_toml(path: Path, what: str) -> dict[str, Any]:
    """The TOML file `path`, a "setup" or a "script" file."""
    try:
        data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
        return data
    except FileNotFoundError:
        raise UsageError(_UNREADABLE[what, "missing"], path=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(_UNREADABLE[what, "unreadable"], path=str(path), exc=exc) from None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(_UNREADABLE[what, "toml"], path=str(path), exc=exc) from None


def _check_keys(data: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise UsageError("{where}: unknown key {unknown!r}; allowed keys: {allowed}",
                         where=where, unknown=unknown[0], allowed=', '.join(sorted(allowed)))


def _role(value: Any, where: str) -> Role:
    if not isinstance(value, str):
        raise UsageError("{where}: {value!r} is not a role name", where=where, value=value)
    try:
        return Role.parse(value)
    except RulesError as exc:
        raise UsageError("{where}: {exc}", where=where, exc=exc) from None


def _seat(value: Any, players: int, where: str, zero: bool = False) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not ((zero and value == 0) or 1 <= value <= players):
        low = 0 if zero else 1
        raise UsageError("{where}: seat {value!r} is out of range; seats are {low} to {players}",
                         where=where, value=value, low=low, players=players)
    return value


def parse_setup(data: Mapping[str, Any], where: str) -> Setup:
    _check_keys(data, {"players", "language", "roles", "possible", "extra", "options", "timing", "speech_scale"}, where)
    players = data.get("players")
    if isinstance(players, bool) or not isinstance(players, int) or not 4 <= players <= 30:
        raise UsageError("{where}: players = {players!r}; give a number from 4 to 30", where=where, players=players)
    raw_roles = data.get("roles", {})
    if not isinstance(raw_roles, dict):
        raise UsageError('{where}: roles must be a table like {{ 1 = "seer", 2 = "werewolf" }}', where=where)
    seats = [Role.VILLAGER] * players
    for key, value in raw_roles.items():
        seat = _seat(key, players, f"{where} [roles]")
        seats[seat - 1] = _role(value, f"{where} [roles] {key}")
    extra_raw = data.get("extra")
    if Role.THIEF in seats:
        extra = tuple(_role(v, f"{where} extra") for v in (extra_raw or ["villager", "villager"]))
        if len(extra) != 2:
            raise UsageError("{where}: extra must name the Thief's two cards, got {count}", where=where, count=len(extra))
    elif extra_raw:
        raise UsageError("{where}: extra cards are for a Thief, and no seat holds the Thief", where=where)
    else:
        extra = ()
    possible = None
    if "possible" in data:
        if not isinstance(data["possible"], list):
            raise UsageError("{where}: possible must be a list of role names", where=where)
        possible = frozenset(_role(v, f"{where} possible") for v in data["possible"]) | frozenset(seats) | frozenset(extra)
    try:
        options = Options().with_values(data.get("options", {}))
    except RulesError as exc:
        raise UsageError("{where} [options]: {exc}", where=where, exc=exc) from None
    timing = Timing().with_values(data.get("timing", {}), f"{where} [timing]")
    scale = data.get("speech_scale", 1.0)
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or scale < 0:
        raise UsageError("{where}: speech_scale = {scale!r} must be a number, 0 or more", where=where, scale=scale)
    language = data.get("language", "en")
    if not isinstance(language, str):
        raise UsageError('{where}: language = {language!r} must be a language code like "en"', where=where, language=language)
    setup = Setup(players, language, Deal(tuple(seats), extra), possible, options, timing, float(scale))
    try:
        Game.start(setup.deal, setup.options, setup.possible)
    except RulesError as exc:
        raise UsageError("{where}: this table cannot be played: {exc}", where=where, exc=exc) from None
    return setup


@dataclass(frozen=True)
class Script:
    """What each role answers, by night and by day (not by prompt order)."""

    nights: tuple[dict[str, Any], ...] = ()
    days: tuple[dict[str, Any], ...] = ()
    answer_delay: float = 2.0
    day_zero: dict[str, Any] | None = None  # the Day 0 opening (the Angel), when the game has one

    def to_record(self) -> dict[str, Any]:
        record = {
            "nights": [_jsonable(n) for n in self.nights],
            "days": [_jsonable(d) for d in self.days],
            "answer_delay": self.answer_delay,
        }
        if self.day_zero is not None:
            record["day_zero"] = _jsonable(self.day_zero)
        return record

    @classmethod
    def from_record(cls, data: Mapping[str, Any]) -> Script:
        zero = data.get("day_zero")
        return cls(
            tuple(_intkeys(n) for n in data["nights"]),
            tuple(_intkeys(d) for d in data["days"]),
            float(data["answer_delay"]),
            None if zero is None else _intkeys(zero),
        )

    # ---- answering ----------------------------------------------------------------------

    def answer(self, prompt: Prompt) -> Heard | None:
        name = prompt.name
        if name.startswith("night."):
            return self._night(prompt, name.removeprefix("night."))
        return self._day(prompt, name.removeprefix("day."))

    def _night(self, prompt: Prompt, call: str) -> Heard | None:
        entry = _nth(self.nights, prompt.number)
        role = call.split(".")[0]
        if role in entry.get("late", []):
            return None
        if call == "thief" and "thief" in entry:
            return _heard(entry["thief"])
        if call == "cupid" and "cupid" in entry:
            first, second = entry["cupid"]
            return _heard(first if first in prompt.seats else second)
        if call in ("seer", "werewolves") and call in entry:
            return _heard(entry[call])
        if call in POWER_KEYS and call in entry:
            # A catalogue power (narrator/roles): a seat, or a list of seats answered in turn.
            wanted = entry[call] if isinstance(entry[call], list) else [entry[call]]
            if not prompt.seats and "yes" in prompt.words:  # a yes/no power (the infection, the Judge's arm): 1 yes, 0 no
                return Heard("yes" if wanted[-1] else "no", "script", str(wanted[-1]))
            return next((_heard(s) for s in wanted if s in prompt.seats or (s == 0 and "nobody" in prompt.words)), None)
        witch = entry.get("witch", {})
        if call == "witch.heal" and "heal" in witch:
            heal = witch["heal"]
            if prompt.seats:  # several devoured (witch_sees=all_devoured): the seat she saves, 0 for nobody
                if isinstance(heal, bool):  # `true` names nobody: no answer; `false`: nobody
                    return None if heal else _heard(0)
                return _heard(heal)
            return Heard("yes" if heal else "no", "script")  # one devoured: a seat number means yes
        if call == "witch.poison" and "poison" in witch:
            return _heard(witch["poison"])
        return None

    def _day(self, prompt: Prompt, name: str) -> Heard | None:
        if prompt.number == 0:  # Day 0 (the Angel's opening)
            entry = self.day_zero or {}
        else:
            entry = _nth(self.days, prompt.number)
        if name == "debate":
            return Heard("vote_now", "script") if entry.get("vote_now") else None
        if name in ("window", "window.claim"):  # the Devoted Servant's window: `window = 4`, seat 4 steps forward
            if "window" not in entry:
                return None
            return _heard(entry["window"]) if name == "window" else Heard("yes", "script", "+")
        if name.startswith("dawn_window."):  # at dawn (servant_scope=any_death): `dawn_window = { 3 = 4 }`
            parts = name.split(".")
            claimer = entry.get("dawn_window", {}).get(int(parts[1]))
            if claimer is None:
                return None
            return _heard(claimer) if len(parts) == 2 else Heard("yes", "script", "+")
        if name in ("hunter", "successor", "tiebreak"):
            return _heard(entry[name]) if name in entry else None
        if name == "scapegoat":  # the dead Scapegoat's list: each seat in turn, then + (0: nobody)
            if "scapegoat" not in entry:
                return None
            wanted = entry["scapegoat"]
            if wanted == [0] and "nobody" in prompt.words:
                return Heard("nobody", "script", "0")
            seat = next((p for p in wanted if p in prompt.seats), None)
            return _heard(seat) if seat is not None else Heard("yes", "script", "+")
        parts = name.split(".")  # captain.<ballot>.<voter> or vote.<ballot>.<voter>
        if len(parts) != 3:
            return None
        phase, ballot, voter_text = parts
        voter = int(voter_text)
        if "yes" in prompt.words and voter in entry.get("sign", []):
            return Heard("yes", "script")  # the Stuttering Judge's sign (`+`) before his vote
        if phase == "second":  # the second vote the Judge asked for
            target = entry.get("second_votes", {}).get(voter, entry.get("second"))
        elif phase == "captain":
            first = entry.get("captain_votes", {}).get(voter, entry.get("captain"))
            later = entry.get("captain_revote", {}).get(voter, first)
            target = first if ballot == "captain" else later
        else:
            first = entry.get("votes", {}).get(voter, entry.get("eliminate"))
            later = entry.get("revote", {}).get(voter, first)
            target = first if ballot in ("vote", "accusation") else later
        if target is None:
            return None
        if target != 0 and target not in prompt.seats:
            return Heard("nobody", "script")  # the script's choice is not a candidate in this round
        return _heard(target)


def _heard(value: Any) -> Heard:
    return Heard("nobody" if value == 0 else int(value), "script", str(value))


def _nth(entries: tuple[dict[str, Any], ...], number: int) -> dict[str, Any]:
    index = max(number, 1) - 1
    return entries[index] if index < len(entries) else {}


def _jsonable(d: Mapping[str, Any]) -> dict[str, Any]:
    return {k: ({str(a): b for a, b in v.items()} if isinstance(v, dict) and k != "witch" else v) for k, v in d.items()}


def _intkeys(d: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        if isinstance(v, dict) and k != "witch":
            out[k] = {int(a): b for a, b in v.items()}
        else:
            out[k] = v
    return out


# The catalogue's powers answer with seats (savior = 3): a role added needs no change here. The base
# game's have keys of their own shape (thief = card, cupid = [a, b], witch = {heal, poison}).
POWER_KEYS = set(hooks.POWERS) - {"thief", "cupid", "seer", "witch"}
NIGHT_KEYS = {"thief", "cupid", "seer", "werewolves", "witch", "late", *POWER_KEYS}
DAY_KEYS = {
    "captain", "captain_votes", "captain_revote", "votes", "eliminate", "revote",
    "hunter", "successor", "tiebreak", "vote_now", "scapegoat", "window", "sign", "second", "second_votes",
    "dawn_window",
}
LATE_ROLES = {"thief", "cupid", "seer", "werewolves", "witch", *POWER_KEYS}


def parse_script(data: Mapping[str, Any], players: int, where: str) -> Script:
    _check_keys(data, {"nights", "days", "day_zero", "answer_delay"}, where)
    nights: list[dict[str, Any]] = []
    for i, night in enumerate(_tables(data.get("nights", []), f"{where} [[nights]]"), start=1):
        at = f"{where} night {i}"
        _check_keys(night, NIGHT_KEYS, at)
        out: dict[str, Any] = {}
        if "thief" in night:
            card = night["thief"]
            if card not in (0, 1, 2) or isinstance(card, bool):
                raise UsageError("{at}: thief = {card!r}; give 1 or 2 (take that card) or 0 (keep)", at=at, card=card)
            out["thief"] = card
        if "cupid" in night:
            pair = night["cupid"]
            if not isinstance(pair, list) or len(pair) != 2:
                raise UsageError("{at}: cupid = {pair!r}; give two seats like [3, 5]", at=at, pair=pair)
            out["cupid"] = [_seat(p, players, f"{at} cupid") for p in pair]
        for key in ("seer",):
            if key in night:
                out[key] = _seat(night[key], players, f"{at} {key}")
        for key in sorted(POWER_KEYS & set(night)):
            value = night[key]
            seats = value if isinstance(value, list) else [value]
            chosen = [_seat(v, players, f"{at} {key}", zero=True) for v in seats]
            out[key] = chosen if isinstance(value, list) else chosen[0]
        if "werewolves" in night:
            out["werewolves"] = _seat(night["werewolves"], players, f"{at} werewolves", zero=True)
        if "witch" in night:
            witch = night["witch"]
            if not isinstance(witch, dict):
                raise UsageError("{at}: witch must be a table like {{ heal = true, poison = 0 }}", at=at)
            _check_keys(witch, {"heal", "poison"}, f"{at} witch")
            w: dict[str, Any] = {}
            if "heal" in witch:
                if isinstance(witch["heal"], bool):
                    w["heal"] = witch["heal"]
                elif isinstance(witch["heal"], int):  # whom, when several are devoured (witch_sees)
                    w["heal"] = _seat(witch["heal"], players, f"{at} witch heal", zero=True)
                else:
                    raise UsageError("{at}: witch heal = {witch!r}; give true or false, or the seat she saves",
                                     at=at, witch=witch['heal'])
            if "poison" in witch:
                w["poison"] = _seat(witch["poison"], players, f"{at} witch poison", zero=True)
            out["witch"] = w
        if "late" in night:
            late = night["late"]
            if not isinstance(late, list) or any(r not in LATE_ROLES for r in late):
                raise UsageError("{at}: late = {late!r}; list roles among {late_roles}",
                                 at=at, late=late, late_roles=', '.join(sorted(LATE_ROLES)))
            out["late"] = list(late)
        nights.append(out)
    days: list[dict[str, Any]] = []
    zero = data.get("day_zero")
    if zero is not None and not isinstance(zero, Mapping):
        raise UsageError("{where}: day_zero must be a table like a day's", where=where)
    tables = ([zero] if zero is not None else []) + list(_tables(data.get("days", []), f"{where} [[days]]"))
    for i, day in enumerate(tables, start=0 if zero is not None else 1):
        at = f"{where} day {i}"
        _check_keys(day, DAY_KEYS, at)
        out = {}
        for key in ("captain", "eliminate", "hunter", "successor", "tiebreak", "second"):
            if key in day:
                out[key] = _seat(day[key], players, f"{at} {key}", zero=key in ("eliminate", "second"))
        if "window" in day:  # the seat that steps forward in the vote's window (types its seat, then +)
            claim = day["window"]
            if isinstance(claim, bool):
                raise UsageError("{at}: window = {claim}; give the seat that steps forward (types its own seat, then "
                                 "+), like window = 4; leave it out for nobody", at=at, claim=str(claim).lower())
            out["window"] = _seat(claim, players, f"{at} window")
        if "dawn_window" in day:  # at dawn: the night death's seat = the seat that steps forward for his card
            claims = day["dawn_window"]
            if not isinstance(claims, dict):
                raise UsageError("{at}: dawn_window = {claims!r}; give each night death's seat and the seat that steps "
                                 "forward for his card, like dawn_window = {{ 3 = 4 }}", at=at, claims=claims)
            out["dawn_window"] = {_seat(d, players, f"{at} dawn_window"): _seat(c, players, f"{at} dawn_window")
                                  for d, c in claims.items()}
        if "sign" in day:
            signs = day["sign"]
            if not isinstance(signs, list):
                raise UsageError("{at}: sign = {signs!r}; list the seats that press + before their first vote, like [4]",
                                 at=at, signs=signs)
            out["sign"] = [_seat(v, players, f"{at} sign") for v in signs]
        for key in ("captain_votes", "captain_revote", "votes", "revote", "second_votes"):
            if key in day:
                table = day[key]
                if not isinstance(table, dict):
                    raise UsageError("{at}: {key} must be a table of voter = seat", at=at, key=key)
                out[key] = {
                    _seat(v, players, f"{at} {key} voter"): _seat(t, players, f"{at} {key}", zero=True)
                    for v, t in table.items()
                }
        if "scapegoat" in day:
            listed = day["scapegoat"] if isinstance(day["scapegoat"], list) else [day["scapegoat"]]
            out["scapegoat"] = [_seat(p, players, f"{at} scapegoat", zero=True) for p in listed]
        for flag in ("vote_now",):
            if flag in day:
                out[flag] = bool(day[flag])
        days.append(out)
    delay = data.get("answer_delay", 2.0)
    if isinstance(delay, bool) or not isinstance(delay, (int, float)) or delay < 0:
        raise UsageError("{where}: answer_delay = {delay!r} must be seconds, 0 or more", where=where, delay=delay)
    if zero is not None:
        return Script(tuple(nights), tuple(days[1:]), float(delay), days[0])
    return Script(tuple(nights), tuple(days), float(delay))


def _tables(value: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise UsageError("{where} must be an array of tables", where=where)
    return value


def load_setup(path: Path) -> Setup:
    return parse_setup(read_toml(path, "setup"), str(path))


def load_script(path: Path, players: int) -> Script:
    return parse_script(read_toml(path, "script"), players, str(path))


# ---- what the command lines share (narrator play, play --text, history) ------------------------


def warn_players(players: int, out: Any = None) -> None:
    """The game is best with 8 to 18 players (docs/rules-spec.md#players); outside that, one warning line
    (never a stop): on `out` (the table's screen in text mode), else on stderr (headless: stdout is the result)."""
    import sys

    from narrator.i18n import tr
    from narrator.rules.composition import RECOMMENDED

    if players not in RECOMMENDED:
        stream = out or sys.stderr
        stream.write("narrator: " + tr("warning: {players} players: the game is best with {low} to {high}",
                                       players=players, low=RECOMMENDED.start, high=RECOMMENDED.stop - 1) + "\n")
        stream.flush()


def games_folder() -> Path:
    import os

    from platformdirs import user_data_dir

    base = os.environ.get("NARRATOR_DATA") or user_data_dir("narrator")
    return Path(base) / "games"


# Journals are named game-YYYYmmdd-HHMMSS.jsonl; a game started in the same second as another gets
# -2, -3, ... (the first number free). Their order is (second, number), never the names' order:
# "-2" sorts before ".jsonl" and "-10" before "-2".
_JOURNAL_NAME = re.compile(r"game-(\d{8}-\d{6})(?:-(\d+))?")


def journal_order(path: Path) -> tuple[str, int, str]:
    """Sort key of a journal: the second its name gives and its number within that second; a name
    of another form goes by when the file was last written."""
    import time

    m = _JOURNAL_NAME.fullmatch(path.stem)
    if m:
        return m.group(1), int(m.group(2) or 1), path.name
    try:
        written = path.stat().st_mtime
    except OSError:
        written = 0.0
    return time.strftime("%Y%m%d-%H%M%S", time.localtime(written)), 0, path.name


def game_journals(folder: Path, pattern: str = "game-*.jsonl") -> list[Path]:
    """The journals of `folder`, oldest first."""
    return sorted(folder.glob(pattern), key=journal_order) if folder.is_dir() else []


def new_journal_path(folder: Path, now: float | None = None) -> Path:
    """A new journal's name: the second it starts, and a number after any journal of that second."""
    import time

    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if now is None else now))
    path = folder / f"game-{stamp}.jsonl"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"game-{stamp}-{n}.jsonl"
    return path


def setup_from_args(args: argparse.Namespace) -> Setup:
    """The setup `narrator play --text` and `narrator play` build from the command line."""
    import random

    from narrator.rules import complete, deal, default_deck, parse_roles
    from narrator.rules.composition import set_aside

    if args.setup is not None:
        return load_setup(args.setup)
    options = Options.parse(args.option)
    deck = complete(args.players, parse_roles(args.roles) if args.roles else default_deck(args.players), options)
    rng = random.Random(args.seed)
    dealt = set_aside(deck, options.possible_beyond_dealt, rng)  # docs/rules-spec.md#set-aside
    possible = frozenset(deck) if dealt != deck else None
    return Setup(args.players, args.lang, deal(args.players, dealt, rng, options), possible, options, Timing())
