"""The end check as one table (hooks.WINS), pack membership, and the designation notice's API."""

from __future__ import annotations

import pytest

from narrator.roles.designation import notice_lines
from narrator.rules import Options, Side, Team
from narrator.rules import hooks
from narrator.rules.hooks import Win
from narrator.roles import seer

from rules_kit import new_game


def test_the_end_check_is_one_table_in_the_order_of_the_rules() -> None:
    ranks = [(w.rank, w.side) for w in hooks.WINS]
    assert ranks == sorted(ranks, key=lambda r: r[0])
    order = [side for _, side in ranks]
    # docs/rules-spec.md#end: nobody, (angel), lovers, Piper, White Werewolf,
    # (sectarian), village, werewolves.
    for before, after in [(Side.NOBODY, Side.LOVERS), (Side.LOVERS, Side.PIED_PIPER),
                          (Side.PIED_PIPER, Side.WHITE_WEREWOLF), (Side.WHITE_WEREWOLF, Side.VILLAGE),
                          (Side.VILLAGE, Side.WEREWOLVES)]:
        assert order.index(before) < order.index(after)


def test_a_rank_is_taken_once() -> None:
    with pytest.raises(ValueError, match="rank 4"):
        hooks.add_win(Win(4, Side.VILLAGE, lambda game: None))


def test_a_loners_row_is_checked_only_when_he_is_possible() -> None:
    plain = new_game("werewolf seer villager villager villager")
    assert Side.PIED_PIPER not in {w.side for w in plain.hooks.wins}
    loners = new_game("werewolf pied_piper white_werewolf villager villager")
    assert {Side.PIED_PIPER, Side.WHITE_WEREWOLF} <= {w.side for w in loners.hooks.wins}


def test_the_white_werewolf_is_a_pack_member_and_the_piper_is_not() -> None:
    game = new_game("werewolf white_werewolf pied_piper seer villager", seer_sees="team")
    assert game.is_pack(1) and game.is_pack(2) and not game.is_pack(3)
    assert game.living_wolves() == (1, 2)
    game.begin_night()
    assert game.wolf_targets() == (3, 4, 5)
    assert game.seer_inspect(2) is Team.WOLVES
    assert seer.seen(game, 3) is Team.PIED_PIPER  # "not a Werewolf" on the Seer's panel


def test_notice_lines_follow_the_option() -> None:
    assert notice_lines(Options(), (3, 5)) == [("designation.tap", {"seat": 3}), ("designation.tap", {"seat": 5})]
    helper = Options(designation_notice="helper_touch")
    assert notice_lines(helper, (4,)) == [("designation.helper", {"seat": 4})]


def test_the_white_werewolf_is_a_wolf_card_for_the_composition_warning() -> None:
    from narrator.rules import Role, validate

    warned = validate(8, {Role.WEREWOLF: 3, Role.WHITE_WEREWOLF: 1, Role.VILLAGER: 4}, Options())
    assert "4 Werewolves for 8 players: the village can hardly win" in warned
