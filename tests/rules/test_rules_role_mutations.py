"""Mutations of the role code that once survived every test. Each test here fails
when its mutation is applied (the mutation is named in the test's name and docstring)."""

from __future__ import annotations

from narrator.roles import abominable_sectarian
from narrator.rules import Game, Team
from narrator.rules import events as ev
from narrator.rules import hooks
from rules_kit import block_vote, new_game, refused, votes


def _powers_lost(game: Game) -> tuple[int, ...]:
    return next(e.seats for e in game.events if isinstance(e, ev.PowersLost))


def _elder_voted_out(game: Game, elder: int) -> None:
    """Day: the village votes out the Elder, whose revenge takes the village's powers."""
    game.open_vote()
    block_vote(game, elder)
    assert not game.is_alive(elder)


def test_the_pipers_count_is_capped_to_the_players_left() -> None:
    """Mutation: the Pied Piper's count not capped to the players left to charm. With two charms a
    night and one uncharmed player left, he is asked for one (his prompt says one)."""
    game = new_game("pied_piper werewolf villager villager villager", captain_election="never")
    piper = hooks.POWERS["pied_piper"]
    assert piper.count_of is not None
    game.begin_night()
    game.wolves_choose(5)
    assert piper.count_of(game, 1) == 2
    game.use_power("pied_piper", (3, 4))
    game.dawn()
    assert piper.count_of(game, 1) == 1  # seat 2 only: charmed are 3 and 4, seat 5 is dead


def test_a_turned_wolfs_death_takes_the_big_bad_wolfs_power() -> None:
    """Mutation: the Big Bad Wolf keeps his power when a pack member who was not dealt a wolf card
    (infected, a turned Wild Child) dies. Seat 6, infected, is voted out: the Big Bad Wolf's
    extra victim is refused from then on."""
    game = new_game("big_bad_wolf accursed_wolf_father seer villager villager villager villager villager",
                    captain_election="never")
    game.begin_night()
    game.seer_inspect(4)
    game.wolves_choose(6)
    game.use_power("accursed_wolf_father", (6,))
    game.use_power("big_bad_wolf", (7,))
    game.dawn()
    assert game.is_pack(6)
    game.open_vote()
    game.cast_votes(votes("3>6 4>6 5>6"))
    assert not game.is_alive(6)
    game.begin_night()
    game.seer_inspect(5)
    game.wolves_choose(4)
    assert hooks.POWERS["big_bad_wolf"].targets(game, 1) == ()
    refused(game, "use_power", "big_bad_wolf", (5,), match="lost his power")


def test_the_servant_taking_the_witchs_card_gets_fresh_potions() -> None:
    """Mutation: the Devoted Servant who takes the Witch's card gets no fresh potions. The Witch
    used both; voted out, her card goes to the Servant, who heals the next night."""
    game = new_game("witch werewolf devoted_servant villager villager villager villager villager",
                    captain_election="never")
    game.begin_night()
    game.wolves_choose(4)
    game.witch_act(True, 5)
    game.dawn()
    game.open_vote()
    game.cast_votes(votes("2>1 3>1 4>1"))
    game.take_card(3)
    game.begin_night()
    game.wolves_choose(6)
    game.witch_act(True, 7)  # refused (no potion left) under the mutation
    game.dawn()
    assert game.is_alive(6) and not game.is_alive(7)


def test_the_judge_has_no_more_requests_than_the_option_gives() -> None:
    """Mutation: the Stuttering Judge with one extra request. judge_second_votes=1: his sign on
    Day 2 asks nothing, after the second vote of Day 1."""
    game = new_game("seer werewolf werewolf stuttering_judge villager villager villager villager",
                    captain_election="never", judge_second_votes=1)
    game.begin_night()
    game.seer_inspect(2)
    game.wolves_choose(5)
    game.dawn()
    game.open_vote()
    game.signal_second_vote(4)
    game.cast_votes(votes("1>6 4>6 7>6 8>6"))
    assert game.second_vote_due()
    game.open_vote()
    game.cast_votes(votes("1>7 4>7 8>7"))
    game.begin_night()
    game.seer_inspect(3)
    game.wolves_choose(8)
    game.dawn()
    game.open_vote()
    game.signal_second_vote(4)
    game.cast_votes(votes("1>2 4>2"))
    assert not game.second_vote_due()
    assert sum(isinstance(e, ev.SecondVoteAsked) for e in game.events) == 1


def test_a_powerless_judge_asks_no_second_vote() -> None:
    """Mutation: a powerless Stuttering Judge still asking for a second vote. The Elder's revenge
    takes his power on Day 1; his sign on Day 2 asks nothing."""
    game = new_game("elder werewolf werewolf stuttering_judge villager villager villager villager",
                    captain_election="never")
    game.begin_night()
    game.wolves_choose(5)
    game.dawn()
    _elder_voted_out(game, 1)
    assert 4 in _powers_lost(game)
    game.begin_night()
    game.wolves_choose(6)
    game.dawn()
    game.open_vote()
    game.signal_second_vote(4)
    game.cast_votes(votes("4>2 7>2 8>2"))
    assert not game.second_vote_due()
    assert not any(isinstance(e, ev.SecondVoteAsked) for e in game.events)


def test_the_sectarians_default_groups_put_the_odd_seat_in_group_a() -> None:
    """Mutation: the Sectarian's default groups off by one for an odd number of players. Without
    sectarian_groups the first half of the seats, rounded up, is group A (docs/rules.md)."""
    five = new_game("abominable_sectarian werewolf villager villager villager")
    assert abominable_sectarian.groups(five) == "AAABB"
    seven = new_game("abominable_sectarian werewolf villager villager villager villager villager")
    assert abominable_sectarian.groups(seven) == "AAAABBB"
    assert abominable_sectarian.groups(new_game("abominable_sectarian werewolf villager villager")) == "AABB"


def test_the_raven_mark_needs_a_living_raven_when_the_option_says_so() -> None:
    """Mutation: `raven_mark_needs_living_raven` ignored. The Raven marks seat 3 and is devoured:
    with the option his mark gives no votes, so one vote against seat 4 eliminates seat 4."""
    for needs, out in ((True, 4), (False, 3)):
        game = new_game("raven werewolf villager villager villager villager villager villager",
                        captain_election="never", raven_mark_needs_living_raven=needs)
        game.begin_night()
        game.wolves_choose(1)
        game.use_power("raven", (3,))
        game.dawn()
        assert not game.is_alive(1)
        game.open_vote()
        game.cast_votes(votes("2>4"))
        assert not game.is_alive(out), f"raven_mark_needs_living_raven={needs}"


def test_the_ravens_votes_count_in_the_first_vote_only() -> None:
    """Mutation: the Raven's +2 also counted in the Stuttering Judge's second vote."""
    game = new_game("raven werewolf werewolf stuttering_judge villager villager villager villager",
                    captain_election="never")
    game.begin_night()
    game.wolves_choose(8)
    game.use_power("raven", (5,))
    game.dawn()
    game.open_vote()
    game.signal_second_vote(4)
    game.cast_votes(votes("1>2 4>2 6>2 7>2"))  # 2 has 4 votes, 5 has the mark's 2
    first = [e for e in game.events if isinstance(e, ev.VotesCast)][-1]
    assert dict(first.counts)[5] == 2 and not game.is_alive(2)
    game.open_vote()
    game.cast_votes(votes("1>3 4>3"))
    second = [e for e in game.events if isinstance(e, ev.VotesCast)][-1]
    assert dict(second.counts)[5] == 0 and not game.is_alive(3)


def test_a_powerless_knight_diseases_nobody() -> None:
    """Mutation: a powerless Knight still diseasing. The Elder's revenge takes his power; devoured
    the next night, no wolf is diseased."""
    game = new_game("elder werewolf knight_rusty_sword werewolf villager villager villager villager",
                    captain_election="never")
    game.begin_night()
    game.wolves_choose(5)
    game.dawn()
    _elder_voted_out(game, 1)
    assert 3 in _powers_lost(game)
    game.begin_night()
    game.wolves_choose(3)
    game.dawn()
    assert not game.is_alive(3)
    assert game.marked("diseased") == ()


def test_a_powerless_wild_child_does_not_turn() -> None:
    """Mutation: a powerless Wild Child still turning. The Elder's revenge takes his power; his
    model devoured the next night, he stays in the village."""
    game = new_game("elder werewolf wild_child villager villager villager villager villager",
                    captain_election="never")
    game.begin_night()
    game.use_power("wild_child", (5,))
    game.wolves_choose(6)
    game.dawn()
    _elder_voted_out(game, 1)
    assert 3 in _powers_lost(game)
    game.begin_night()
    game.wolves_choose(5)
    game.dawn()
    assert not game.is_alive(5)
    assert not game.is_pack(3) and game.team_of(3) is Team.VILLAGE


def test_the_angel_is_a_loner_through_the_first_turn() -> None:
    """Mutation: the Angel becoming a Villager one day early. With Day 0 he plays alone on Day 0
    and Night 1 and is a Villager from Day 1; opening with a night, from Day 2."""
    for opening, first_day in (("day_first", 0), ("night_first", 1)):
        game = new_game("angel werewolf villager villager villager villager villager villager",
                        captain_election="never", angel_opening=opening)
        if game.day_zero_due():
            game.open_day_zero()
            game.open_vote()
            game.cast_votes({})
        else:
            game.begin_night()
            game.wolves_choose(3)
            game.dawn()
            game.open_vote()
            game.cast_votes({})
        assert game.state.day == first_day
        assert game.team_of(1) is not Team.VILLAGE, f"{opening}: a Villager on day {first_day}"
        game.begin_night()
        game.wolves_choose(4)
        game.dawn()
        assert game.state.day == first_day + 1
        assert game.team_of(1) is Team.VILLAGE, f"{opening}: still alone on day {first_day + 1}"
