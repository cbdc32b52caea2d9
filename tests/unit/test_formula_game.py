"""Formula darts games: the seeds' worked examples, solo and duel endings, undo."""

from __future__ import annotations

import dataclasses

import pytest

from kiosk.domain.formula import FormulaError
from kiosk.domain.formula.game import (
    AlreadyAnswered,
    FormulaGame,
    GameError,
    GameOver,
    NothingToUndo,
    Termination,
    UnknownPlayer,
    auto_move,
)
from kiosk.domain.formula.rules import CLASSIC, DISTANCE, Rules, rules_by_name


def test_classic_points_follow_seed_000() -> None:
    assert CLASSIC.points(123) == 77
    assert CLASSIC.points(300) == 150
    assert CLASSIC.points(23) == 23
    assert CLASSIC.points(100) == 150
    assert CLASSIC.points(-5) == -5  # a negative result gives negative points


def test_distance_points_follow_seed_001() -> None:
    assert DISTANCE.points(110) == 90
    assert DISTANCE.points(100) == 150
    assert DISTANCE.points(-5) == -5


def test_overshooting_zero_bounces_back() -> None:
    assert CLASSIC.next_score(34, 39) == 5


def test_rule_sets_have_the_seed_parameters_and_variants() -> None:
    assert (CLASSIC.start, CLASSIC.goal, CLASSIC.bonus) == (501, 100, 50)
    assert (CLASSIC.max_rounds, CLASSIC.time_limit, CLASSIC.min_rounds) == (7, 120, 4)
    longer = dataclasses.replace(DISTANCE, max_rounds=10)
    assert longer.max_rounds == 10 and longer.points(110) == 90
    assert rules_by_name("Classic") is CLASSIC and rules_by_name("distance") is DISTANCE
    with pytest.raises(ValueError):
        rules_by_name("cricket")


def test_seed_000_rounds_one_to_three() -> None:
    g = FormulaGame(["Ann"], rules=CLASSIC, mode="training", digits=[3489, 3001, 1231])
    assert (g.round, g.digits) == (1, 3489)
    assert g.submit("Ann", "34+89") == 77
    assert g.score("Ann") == 424
    assert g.submit("Ann", "300*1") == 150
    assert g.score("Ann") == 274
    assert g.digits == 1231
    assert g.submit("Ann", "1+23-1") == 23
    assert g.score("Ann") == 251  # the seed's "241" is a typo
    assert [r.digits for r in g.history[:3]] == [3489, 3001, 1231]
    assert g.history[2].move("Ann").score == 251  # type: ignore[union-attr]


def test_seed_001_example() -> None:
    g = FormulaGame(["Ann"], rules=DISTANCE, digits=[2578])
    assert g.submit("Ann", "pow(2,5)+78") == 90
    assert g.score("Ann") == 411


def test_a_refused_formula_changes_nothing_and_can_be_fixed() -> None:
    g = FormulaGame(["Ann"], digits=[3489, 3001])
    with pytest.raises(FormulaError):
        g.submit("Ann", "34+8")
    assert (g.round, g.score("Ann"), g.waiting_for) == (1, 501, ("Ann",))
    assert g.submit("Ann", "34+89") == 77


def test_solo_win_at_zero_in_min_rounds_is_perfect() -> None:
    rules = dataclasses.replace(CLASSIC, start=300)  # min_rounds 2
    g = FormulaGame(["Ann"], rules=rules, digits=[3001, 3001])
    g.submit("Ann", "300*1")
    assert g.outcome() is None
    g.submit("Ann", "300*1")
    out = g.outcome()
    assert out is not None and out.winner == "Ann" and out.perfect
    assert out.termination is Termination.ZERO


def test_solo_timeout_is_a_loss() -> None:
    g = FormulaGame(["Ann"], digits=[3489])
    g.timeout("Ann")
    out = g.outcome()
    assert out is not None and out.winner is None and out.termination is Termination.TIMEOUT
    with pytest.raises(GameOver):
        g.submit("Ann", "34+89")


def test_a_player_alone_who_ends_the_game_loses_it_and_no_round_is_made_up() -> None:
    g = FormulaGame(["Ann"], digits=[3001, 9839])
    g.submit("Ann", "300*1")  # round 2 (9839) is next, not yet answered
    out = g.concede("Ann")
    assert g.outcome() == out and out.winner is None and not out.perfect
    assert out.termination is Termination.CONCEDED
    assert [len(r.moves) for r in g.history] == [1, 0] and g.score("Ann") == 351
    with pytest.raises(GameOver):
        g.submit("Ann", "9+8+3+9")
    assert g.pop() is None  # the concede made no move
    assert g.outcome() is None and g.submit("Ann", "98+3-9") == 92


def test_a_duel_is_not_conceded() -> None:
    g = FormulaGame(["Ann", "Bob"], mode="duel", digits=[3001])
    with pytest.raises(GameError):
        g.concede("Ann")
    assert g.outcome() is None


def test_solo_loses_after_max_rounds_without_zero() -> None:
    g = FormulaGame(["Ann"], rules=dataclasses.replace(CLASSIC, max_rounds=2), seed=5)
    g.submit("Ann", _sum_formula(g.digits))
    g.submit("Ann", _sum_formula(g.digits))
    out = g.outcome()
    assert out is not None and out.winner is None and out.termination is Termination.MAX_ROUNDS


def test_duel_timeout_plays_the_automatic_move() -> None:
    g = FormulaGame(["Ann", "Bob"], rules=CLASSIC, mode="duel", digits=[4589, 4505])
    g.submit("Ann", "45+89")
    move = g.timeout("Bob")
    assert move.auto and move.formula == "45+89" and move.result == 134
    assert g.score("Bob") == g.score("Ann") == 501 - 66
    assert g.round == 2
    g.timeout("Ann")
    assert g.history[1].move("Ann").result == 50  # type: ignore[union-attr]


def test_auto_move_splits_the_number_in_two() -> None:
    assert auto_move(4589) == ("45+89", 134)
    assert auto_move(4505).result == 50


def test_duel_waits_for_both_players_each_round() -> None:
    g = FormulaGame(["Ann", "Bob"], digits=[3489, 3001])
    assert g.waiting_for == ("Ann", "Bob")
    g.submit("Bob", "34+89")
    assert g.waiting_for == ("Ann",) and g.round == 1
    with pytest.raises(AlreadyAnswered):
        g.submit("Bob", "34+89")
    with pytest.raises(UnknownPlayer):
        g.submit("Eve", "34+89")
    g.submit("Ann", "3*4+89")
    assert g.round == 2 and g.digits == 3001


def _duel_to_the_end(rules: Rules) -> FormulaGame:
    g = FormulaGame(["Ann", "Bob"], rules=rules, seed=3)
    while g.outcome() is None:
        for p in g.players:
            g.timeout(p)
    return g


def test_duel_after_max_rounds_classic_is_a_draw_and_distance_both_lose() -> None:
    # auto moves never bring 501 to exactly 0 with these numbers
    classic = _duel_to_the_end(CLASSIC).outcome()
    distance = _duel_to_the_end(DISTANCE).outcome()
    assert classic is not None and classic.winner is None
    assert classic.termination is Termination.DRAW
    assert distance is not None and distance.winner is None
    assert distance.termination is Termination.BOTH_LOSE and "both lose" in distance.reason


def test_duel_both_at_zero_is_a_draw_and_one_at_zero_wins() -> None:
    rules = dataclasses.replace(CLASSIC, start=150)
    g = FormulaGame(["Ann", "Bob"], rules=rules, digits=[3001])
    g.submit("Ann", "300*1")
    assert g.outcome() is None  # decided only at the end of the round
    g.submit("Bob", "300*1")
    out = g.outcome()
    assert out is not None and out.winner is None and out.termination is Termination.BOTH_ZERO
    g.pop()
    g.submit("Bob", "3+0+0+1")
    out = g.outcome()
    assert out is not None and out.winner == "Ann" and out.perfect


def test_pop_restores_the_exact_state_across_rounds() -> None:
    g = FormulaGame(["Ann"], digits=[3489, 3001, 1231])
    g.submit("Ann", "34+89")
    g.submit("Ann", "300*1")
    before = (g.round, g.digits, g.score("Ann"), g.history, g.waiting_for)
    g.submit("Ann", "1+23-1")
    undone = g.pop()
    assert undone is not None and undone.formula == "1+23-1"
    assert (g.round, g.digits, g.score("Ann"), g.history, g.waiting_for) == before
    g.pop()
    g.pop()
    assert (g.round, g.score("Ann")) == (1, 501)
    with pytest.raises(NothingToUndo):
        g.pop()
    with pytest.raises(IndexError):  # as python-chess's Board.pop() on no moves
        g.pop()


def test_seeded_games_draw_the_same_numbers_even_after_undo() -> None:
    a = FormulaGame(["Ann"], seed=42)
    b = FormulaGame(["Ann"], seed=42)
    assert a.digits == b.digits and 1000 <= a.digits <= 9999
    a.submit("Ann", _sum_formula(a.digits))
    second = a.digits
    a.pop()
    a.submit("Ann", _sum_formula(a.digits))
    assert a.digits == second


def test_mode_must_match_the_number_of_players() -> None:
    with pytest.raises(ValueError):
        FormulaGame(["Ann"], mode="duel")
    with pytest.raises(ValueError):
        FormulaGame(["Ann", "Bob"], mode="training")
    with pytest.raises(ValueError):
        FormulaGame(["Ann", "Ann"])


def _sum_formula(digits: int) -> str:
    """1+2+3+4 style: always valid (single digits never have a leading zero)."""
    return "+".join(str(digits))


@pytest.mark.parametrize(
    "rules", [CLASSIC, DISTANCE, dataclasses.replace(CLASSIC, bonus=0, goal=60)]
)
def test_can_finish_matches_a_search_over_the_points_results_can_earn(rules: Rules) -> None:
    # The points any whole result can earn (results from -300 to 2000 cover every kind),
    # then every score that comes to exactly 0 in n rounds, by brute force.
    points = {rules.points(r) for r in range(-300, 2000)}
    reach = {0}
    for rounds in range(1, 5):
        reach = {x for x in range(900) if any(abs(x - p) in reach for p in points)}
        for score in range(900):
            assert rules.can_finish(score, rounds) == (score in reach), (score, rounds)
    assert not CLASSIC.can_finish(424, 3)  # 424 > 399 and not 450: seed 000 after round 1
    assert not CLASSIC.can_finish(100, 1)  # 100 points earn 150: it bounces to 50
