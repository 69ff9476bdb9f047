"""The rule options of docs/rules.md#rule-options, their defaults, and how to read them from text.

The game's own options are declared here; each role's are declared in its module
(`RoleModule.options`, narrator/roles/<role>.py) and written below as typed fields by
`python scripts/options.py` (tests/rules/test_rules_options.py fails when they differ), so that
mypy checks every `options.<key>` and every word compared with one. A word option is a `Literal`
of its words, in the order the wizard and docs/rules.md list them.
"""

from __future__ import annotations

import dataclasses
import operator
import typing
from dataclasses import dataclass, fields
from typing import Any, Callable, Literal, Mapping

from narrator.rules.errors import OptionError


@dataclass(frozen=True, slots=True)
class Options:
    """Every option key of docs/rules.md#rule-options with its default (the French 2009 rules)."""

    # ---- the game's own options ----
    captain_election: Literal["day1", "never", "night1_end"] = "day1"
    captain_powers: Literal["both", "double_vote_only", "tiebreak_only"] = "both"
    lovers_team_if_both_wolves: bool = False
    first_night_kill: bool = True
    reveal_role_on_death: bool = True
    vote_procedure: Literal["plurality", "runoff", "accusation"] = "plurality"
    wolves_win_at_parity: bool = False
    # Telling a charmed (or infected) player he was designated (narrator/roles/designation.py).
    designation_notice: Literal["tap_by_chooser", "helper_touch"] = "tap_by_chooser"
    # When the end is checked (docs/rules-spec.md#end): every morning and after every elimination,
    # or only at the start of each day, as the Italian rule book has it.
    end_check: Literal["morning_and_vote", "dawn"] = "morning_and_vote"
    # The Italian rule book's two-player game (docs/rules-spec.md#last-two): a single vote, and the
    # lower of the two eliminated at a dawn with no death.
    two_player_end: bool = False
    # Possible roles beyond the dealt ones (docs/rules-spec.md#set-aside): this many special cards of
    # the composition are set aside unseen at the program's deal, replaced by Villagers, and still
    # called every night.
    possible_beyond_dealt: int = 0
    # The accusation vote with eyes closed, each voter on their own phone (docs/rules-spec.md#secret-vote):
    # `secret` needs a phone on every seat (refused before the game otherwise); `secret_with_phones`
    # is secret when the table plays with phones and open otherwise (the wherewolf preset's).
    accusation_vote: Literal["open", "secret", "secret_with_phones"] = "open"
    # ---- the roles' options, from their modules: written by `python scripts/options.py` ----
    # narrator/roles/seer.py
    seer_sees: Literal["role", "team"] = "role"
    # narrator/roles/witch.py
    witch_sees_victim_after_heal: bool = False
    witch_sees: Literal["all_devoured", "pack_victim_only"] = "all_devoured"
    # narrator/roles/hunter.py
    hunter_shoots_on: Literal["any_death", "wolves_or_vote"] = "any_death"
    # narrator/roles/thief.py
    thief_extra_cards: Literal["villagers", "from_deck"] = "villagers"
    # narrator/roles/savior.py
    savior_same_target_twice: bool = False
    savior_protects_little_girl: bool = False
    savior_blocks: Literal["all_devouring", "pack_only"] = "all_devouring"
    # narrator/roles/raven.py
    raven_mark_votes: int = 2
    raven_mark_needs_living_raven: bool = False
    # narrator/roles/village_idiot.py
    idiot_captain_office: Literal["lost", "successor"] = "lost"
    # narrator/roles/pied_piper.py
    piper_charms_per_night: int = 2
    piper_infected: Literal["powerless", "keeps_power"] = "powerless"
    piper_elder_revenge: bool = False
    charmed_public: bool = False
    # narrator/roles/white_werewolf.py
    white_werewolf_nights: Literal["even", "odd"] = "even"
    white_werewolf_kill_blockable: bool = True
    # narrator/roles/two_sisters.py
    siblings_wake: Literal["every_other_night", "first_night_only", "every_night"] = "every_other_night"
    # narrator/roles/fox.py
    fox_loses_power_on_miss: bool = True
    # narrator/roles/bear_tamer.py
    bear_growls_if_infected: bool = True
    # narrator/roles/knight_rusty_sword.py
    knight_disease_victim: Literal["guilty", "nearest_pack_member"] = "guilty"
    knight_disease_timing: Literal["next_dusk", "next_dawn"] = "next_dusk"
    # narrator/roles/stuttering_judge.py
    judge_second_votes: int = 1
    judge_request_survives_death: bool = True
    judge_signal: Literal["sign_during_vote", "night_arm"] = "sign_during_vote"
    # narrator/roles/elder.py
    elder_lives: int = 2
    elder_revenge_causes: Literal["vote_poison_shot", "vote_only", "none"] = "vote_poison_shot"
    elder_revenge_announced: bool = True
    idiot_dies_with_elder: bool = True
    # narrator/roles/scapegoat.py
    scapegoat_vs_captain: Literal["scapegoat_first", "captain_first"] = "scapegoat_first"
    # narrator/roles/angel.py
    angel_opening: Literal["day_first", "night_first"] = "day_first"
    angel_vote_tie: Literal["base", "random_among_tied"] = "base"
    # narrator/roles/abominable_sectarian.py
    sectarian_groups: str = ""
    sectarian_infected: Literal["powerless", "keeps_goal"] = "powerless"
    # narrator/roles/actor.py
    actor_cards: str = "seer,witch,hunter,little_girl,savior,elder,scapegoat,village_idiot,fox,bear_tamer,stuttering_judge,knight_rusty_sword,raven"
    actor_infected: Literal["powerless", "keeps_power"] = "powerless"
    # narrator/roles/wild_child.py
    wild_child_transformation_public: bool = False
    # narrator/roles/wolf_hound.py
    wolf_hound_timeout: Literal["villager", "random"] = "villager"
    wolf_hound_choice_public: bool = False
    # narrator/roles/big_bad_wolf.py
    bbw_loses_power_on_wolf_death: bool = True
    # narrator/roles/devoted_servant.py
    servant_scope: Literal["vote_only", "any_death"] = "vote_only"
    # ---- end of the roles' options ----

    def __post_init__(self) -> None:
        # Checked once for each set of values (and their types: True is not 1 here), while the
        # catalogue's tables stay as they were: a game, its journal and its resume make the same
        # options again and again, and the check costs far more than the look-up.
        values = _VALUES(self)
        key: tuple[Any, ...] | None = (values, tuple(map(type, values)), len(NUMBERS), len(TEXTS))
        try:
            if key in _CHECKED:
                return
        except TypeError:  # a value that cannot be hashed: refused below
            key = None
        self._check()
        if key is not None:
            if len(_CHECKED) >= 4096:
                _CHECKED.clear()
            _CHECKED.add(key)

    def _check(self) -> None:
        for name, kind in KINDS.items():
            value = getattr(self, name)
            if kind == "word":
                if value not in CHOICES[name]:
                    allowed = ", ".join(CHOICES[name])
                    raise OptionError("option {name} cannot be {value!r}; choose one of: {allowed}",
                                      name=name, value=value, allowed=allowed)
            elif kind == "text":
                if not isinstance(value, str):
                    raise OptionError("option {name} cannot be {value!r}; give a text", name=name, value=value)
                check = TEXTS.get(name)
                problem = check(name, value) if check is not None else None
                if problem is not None:
                    raise problem
            elif kind == "number":
                span = NUMBERS.get(name, range(0))
                if isinstance(value, bool) or not isinstance(value, int) or value not in span:
                    low, high = (span[0], span[-1]) if span else (value, value)
                    raise OptionError("option {name} cannot be {value!r}; give a whole number from {low} to {high}",
                                      name=name, value=value, low=low, high=high)
            elif not isinstance(value, bool):
                raise OptionError("option {name} takes true or false, not {value!r}", name=name, value=value)

    @property
    def captain_double_vote(self) -> bool:
        return self.captain_powers in ("both", "double_vote_only")

    @property
    def captain_breaks_ties(self) -> bool:
        return self.captain_powers in ("both", "tiebreak_only")

    def to_dict(self) -> dict[str, str | bool | int]:
        # Every value is a str, bool or int (`__post_init__`): nothing to copy deeply, as
        # `dataclasses.asdict` would; in field order, as `KINDS` is.
        return {name: getattr(self, name) for name in KINDS}

    def with_values(self, values: Mapping[str, Any]) -> Options:
        """A copy with `values` set; values may be text (`"true"`) as typed on a command line."""
        changes: dict[str, Any] = {}
        for key, raw in values.items():
            name = key.strip().replace("-", "_")
            if name not in KINDS:
                raise OptionError("unknown option {key!r}; known options: {known}",
                                  key=key, known=", ".join(sorted(KINDS)))
            changes[name] = _coerce(name, raw)
        return dataclasses.replace(self, **changes)

    @classmethod
    def parse(cls, pairs: list[str] | tuple[str, ...]) -> Options:
        """Read `KEY=VALUE` strings, as given to `--option`."""
        values: dict[str, str] = {}
        for pair in pairs:
            key, sep, value = pair.partition("=")
            if not sep or not key.strip():
                raise OptionError("option {pair!r} is not KEY=VALUE, e.g. vote_procedure=runoff", pair=pair)
            values[key.strip()] = value.strip()
        return cls().with_values(values)


def _kind(hint: Any) -> str:
    if typing.get_origin(hint) is Literal:
        return "word"
    return {bool: "bool", int: "number", str: "text"}[hint]


_HINTS = typing.get_type_hints(Options)
# Each option's kind: a word (a `Literal`), a whole number, a text of its own, or true or false.
KINDS: dict[str, str] = {f.name: _kind(_HINTS[f.name]) for f in fields(Options)}
_VALUES = operator.attrgetter(*KINDS)
# The sets of values (with their types and the sizes of the tables below) found right (`__post_init__`).
_CHECKED: set[tuple[Any, ...]] = set()
# Allowed values of the options that take a word, in their declared order; booleans are listed apart.
CHOICES: dict[str, tuple[str, ...]] = {name: typing.get_args(_HINTS[name])
                                       for name, kind in KINDS.items() if kind == "word"}
# Options that take a whole number, with their allowed range (the default is the field's); filled by
# the catalogue from each role's `Option.span` as it loads.
NUMBERS: dict[str, range] = {"possible_beyond_dealt": range(0, 3)}
# Options that take a text of their own (a seat map, a list of cards), with its check and how a
# typed text is read; filled by the catalogue from each role's `Option` as it loads.
TEXTS: dict[str, Callable[[str, str], OptionError | None]] = {}
READERS: dict[str, Callable[[str], str]] = {}


def _coerce(name: str, raw: Any) -> Any:
    kind = KINDS[name]
    if kind == "text":
        if isinstance(raw, str):
            read = READERS.get(name)
            return read(raw) if read is not None else raw.strip()
        return raw
    if kind == "word":
        return raw.strip().lower() if isinstance(raw, str) else raw
    if kind == "number":
        if isinstance(raw, str) and raw.strip().isdigit():
            return int(raw.strip())
        return raw  # checked, and refused quoting it, by Options
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str):
        low = raw.strip().lower()
        if low in ("true", "yes", "1", "on"):
            return True
        if low in ("false", "no", "0", "off"):
            return False
    raise OptionError("option {name} takes true or false, not {raw!r}", name=name, raw=raw)
