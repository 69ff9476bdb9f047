"""The rule options of docs/rules.md#rule-options, their defaults, and how to read them from text."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from typing import Any, Callable, Mapping

from narrator.rules.errors import OptionError

# Allowed values of the options that take a word; booleans are listed apart.
CHOICES: dict[str, tuple[str, ...]] = {
    "seer_sees": ("role", "team"),
    "hunter_shoots_on": ("any_death", "wolves_or_vote"),
    "thief_extra_cards": ("villagers", "from_deck"),
    "captain_election": ("day1", "never", "night1_end"),
    "captain_powers": ("both", "double_vote_only", "tiebreak_only"),
    "vote_procedure": ("plurality", "runoff", "accusation"),
    "savior_blocks": ("all_devouring", "pack_only"),
    "idiot_captain_office": ("lost", "successor"),
    # The Witch in the extensions: which devoured players she is shown (docs/rules-spec.md).
    "witch_sees": ("all_devoured", "pack_victim_only"),
    # The Pied Piper, the White Werewolf, and telling a designated player.
    "piper_infected": ("powerless", "keeps_power"),
    "designation_notice": ("tap_by_chooser", "helper_touch"),
    "white_werewolf_nights": ("even", "odd"),
    # Personnages (perso-a): the village's cards.
    "siblings_wake": ("every_other_night", "first_night_only", "every_night"),
    "knight_disease_victim": ("guilty", "nearest_pack_member"),
    "knight_disease_timing": ("next_dusk", "next_dawn"),
    "judge_signal": ("sign_during_vote", "night_arm"),
    "elder_revenge_causes": ("vote_poison_shot", "vote_only", "none"),
    "scapegoat_vs_captain": ("scapegoat_first", "captain_first"),
    "angel_opening": ("day_first", "night_first"),
    "angel_vote_tie": ("base", "random_among_tied"),
    "sectarian_infected": ("powerless", "keeps_goal"),
    "actor_infected": ("powerless", "keeps_power"),
    # Personnages (perso-b): the Wolf-Hound.
    "wolf_hound_timeout": ("villager", "random"),
    # The Devoted Servant: whose card she may take (the vote's eliminated, or also the dawn's dead).
    "servant_scope": ("vote_only", "any_death"),
}

# Options that take a whole number, with their allowed range (the default is the field's).
NUMBERS: dict[str, range] = {"raven_mark_votes": range(1, 6), "piper_charms_per_night": range(1, 6),
                             "elder_lives": range(1, 6), "judge_second_votes": range(1, 6)}


def _groups(name: str, text: str) -> OptionError | None:
    if all(c in "ABab" for c in text):
        return None
    return OptionError("option {name} cannot be {value!r}; give one letter A or B a seat, in seat order, e.g. AAAABBBB",
                       name=name, value=text)


# The Actor's default cards (docs/rules-spec.md#role-actor), some of them played by later roles.
ACTOR_CARDS = ("seer", "witch", "hunter", "little_girl", "savior", "elder", "scapegoat", "village_idiot", "fox",
               "bear_tamer", "stuttering_judge", "knight_rusty_sword", "raven")


def _words(name: str, text: str) -> OptionError | None:
    """Role keys separated by commas (which of them may be the Actor's is checked at the start)."""
    from narrator.rules.roles import Role  # roles.py does not read the options: no cycle

    known = {r.value for r in Role} | set(ACTOR_CARDS)
    wrong = [w.strip() for w in text.split(",") if w.strip() and w.strip() not in known]
    if not wrong:
        return None
    return OptionError("option {name} cannot be {value!r}; {wrong!r} is not a role; give role keys separated by commas, "
                       "e.g. seer,witch,hunter", name=name, value=text, wrong=wrong[0])


# Options that take a text of their own (a seat map, a list of cards), with its check.
TEXTS: dict[str, Callable[[str, str], OptionError | None]] = {"sectarian_groups": _groups, "actor_cards": _words}


@dataclass(frozen=True, slots=True)
class Options:
    """Every option key of docs/rules.md#rule-options with its default (the French 2009 rules)."""

    seer_sees: str = "role"
    witch_sees_victim_after_heal: bool = False
    # Which devoured players she is shown and may heal (one potion): every devouring of the night
    # that can be stopped (the pack's, the Big Bad Wolf's, the White Werewolf's) or the pack's only.
    witch_sees: str = "all_devoured"
    hunter_shoots_on: str = "any_death"
    thief_extra_cards: str = "villagers"
    captain_election: str = "day1"
    captain_powers: str = "both"
    lovers_team_if_both_wolves: bool = False
    first_night_kill: bool = True
    reveal_role_on_death: bool = True
    vote_procedure: str = "plurality"
    wolves_win_at_parity: bool = False
    # The Savior (docs/rules-spec.md, narrator/roles/savior.py).
    savior_same_target_twice: bool = False
    savior_protects_little_girl: bool = False
    savior_blocks: str = "all_devouring"
    # The Raven (narrator/roles/raven.py).
    raven_mark_votes: int = 2
    raven_mark_needs_living_raven: bool = False
    # The Village Idiot (narrator/roles/village_idiot.py).
    idiot_captain_office: str = "lost"
    # The Pied Piper (narrator/roles/pied_piper.py).
    piper_charms_per_night: int = 2
    piper_infected: str = "powerless"
    piper_elder_revenge: bool = False  # the Elder's revenge takes his power too (roles/elder.py reads his card)
    charmed_public: bool = False
    # Telling a charmed (or infected) player he was designated (narrator/roles/designation.py).
    designation_notice: str = "tap_by_chooser"
    # The White Werewolf (narrator/roles/white_werewolf.py).
    white_werewolf_nights: str = "even"
    white_werewolf_kill_blockable: bool = True
    # The Two Sisters and the Three Brothers (narrator/roles/two_sisters.py, three_brothers.py).
    siblings_wake: str = "every_other_night"
    # The Fox (narrator/roles/fox.py).
    fox_loses_power_on_miss: bool = True
    # The Bear Tamer (narrator/roles/bear_tamer.py).
    bear_growls_if_infected: bool = True
    # The Knight with the Rusty Sword (narrator/roles/knight_rusty_sword.py).
    knight_disease_victim: str = "guilty"
    knight_disease_timing: str = "next_dusk"
    # The Stuttering Judge (narrator/roles/stuttering_judge.py).
    judge_second_votes: int = 1
    judge_request_survives_death: bool = True
    judge_signal: str = "sign_during_vote"
    # The Elder (narrator/roles/elder.py).
    elder_lives: int = 2
    elder_revenge_causes: str = "vote_poison_shot"
    elder_revenge_announced: bool = True
    idiot_dies_with_elder: bool = True
    # The Scapegoat (narrator/roles/scapegoat.py).
    scapegoat_vs_captain: str = "scapegoat_first"
    # The Angel (narrator/roles/angel.py).
    angel_opening: str = "day_first"
    angel_vote_tie: str = "base"
    # The Abominable Sectarian (narrator/roles/abominable_sectarian.py): one letter A or B a seat
    # ("": the first half of the seats is group A, the rest group B).
    sectarian_groups: str = ""
    sectarian_infected: str = "powerless"
    # The Actor (narrator/roles/actor.py): role keys, the first three not in play are laid.
    actor_cards: str = ",".join(ACTOR_CARDS)
    actor_infected: str = "powerless"
    # The Wild Child (narrator/roles/wild_child.py).
    wild_child_transformation_public: bool = False
    # The Wolf-Hound (narrator/roles/wolf_hound.py).
    wolf_hound_timeout: str = "villager"
    wolf_hound_choice_public: bool = False
    # The Big Bad Wolf (narrator/roles/big_bad_wolf.py).
    bbw_loses_power_on_wolf_death: bool = True
    # The Devoted Servant (narrator/roles/devoted_servant.py): `any_death` also opens her window
    # at dawn, before each night death's card is shown.
    servant_scope: str = "vote_only"

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in CHOICES:
                if value not in CHOICES[f.name]:
                    allowed = ", ".join(CHOICES[f.name])
                    raise OptionError("option {name} cannot be {value!r}; choose one of: {allowed}",
                                      name=f.name, value=value, allowed=allowed)
            elif f.name in TEXTS:
                if not isinstance(value, str):
                    raise OptionError("option {name} cannot be {value!r}; give a text", name=f.name, value=value)
                problem = TEXTS[f.name](f.name, value)
                if problem is not None:
                    raise problem
            elif f.name in NUMBERS:
                span = NUMBERS[f.name]
                if isinstance(value, bool) or not isinstance(value, int) or value not in span:
                    raise OptionError("option {name} cannot be {value!r}; give a whole number from {low} to {high}",
                                      name=f.name, value=value, low=span[0], high=span[-1])
            elif not isinstance(value, bool):
                raise OptionError("option {name} takes true or false, not {value!r}", name=f.name, value=value)

    @property
    def captain_double_vote(self) -> bool:
        return self.captain_powers in ("both", "double_vote_only")

    @property
    def captain_breaks_ties(self) -> bool:
        return self.captain_powers in ("both", "tiebreak_only")

    def to_dict(self) -> dict[str, str | bool | int]:
        return dataclasses.asdict(self)

    def with_values(self, values: Mapping[str, Any]) -> Options:
        """A copy with `values` set; values may be text (`"true"`) as typed on a command line."""
        known = {f.name for f in fields(self)}
        changes: dict[str, Any] = {}
        for key, raw in values.items():
            name = key.strip().replace("-", "_")
            if name not in known:
                raise OptionError("unknown option {key!r}; known options: {known}", key=key, known=', '.join(sorted(known)))
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


def _coerce(name: str, raw: Any) -> Any:
    if name in TEXTS:
        if name == "sectarian_groups" and isinstance(raw, str):
            return raw.replace(" ", "").replace(",", "")
        return raw.strip() if isinstance(raw, str) else raw
    if name in CHOICES:
        return raw.strip().lower() if isinstance(raw, str) else raw
    if name in NUMBERS:
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
