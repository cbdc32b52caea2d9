"""Elo ratings: values computed by hand (E = 1 / (1 + 10^((Rb - Ra) / 400)), K = 32)."""

import pytest

from kiosk.domain.rating import START, Seat, against_par, by_placings, expected, two_player

# 1600 against 1400: E = 1 / (1 + 10^-0.5) = 0.7597469...; 32 * (1 - E) = 7.6880983...
E_1600_1400 = 0.7597469266


def test_everyone_starts_at_1500():
    assert START == 1500


def test_a_win_between_equals_moves_each_rating_16_points():
    assert two_player(1500, 1500, 1.0) == pytest.approx((1516.0, 1484.0))


def test_the_favourite_gains_little_for_a_win_and_loses_a_lot_for_a_loss():
    assert expected(1600, 1400) == pytest.approx(E_1600_1400)
    assert two_player(1600, 1400, 1.0) == pytest.approx((1607.6881, 1392.3119), abs=1e-4)
    assert two_player(1600, 1400, 0.0) == pytest.approx((1575.6881, 1424.3119), abs=1e-4)


def test_a_draw_pulls_the_ratings_together():
    assert two_player(1600, 1400, 0.5) == pytest.approx((1591.6881, 1408.3119), abs=1e-4)


def test_a_score_other_than_win_draw_loss_is_refused():
    with pytest.raises(ValueError):
        two_player(1500, 1500, 0.7)


def test_solo_qualification_is_played_against_a_par_of_1500():
    assert against_par(1500, won=True) == pytest.approx(1516.0)
    assert against_par(1500, won=False) == pytest.approx(1484.0)
    # E(1600, 1500) = 1 / (1 + 10^-0.25) = 0.640065; 32 * 0.359935 = 11.5179
    assert against_par(1600, won=True) == pytest.approx(1611.5179, abs=1e-4)


def test_two_players_by_placings_is_standard_elo():
    out = by_placings({"a": 1600.0, "b": 1400.0}, [Seat("a", 2), Seat("b", 1)])
    assert (out["a"], out["b"]) == pytest.approx(two_player(1600, 1400, 0.0))


def test_three_equal_players_move_by_16_0_and_minus_16():
    # First: (1 - .5) + (1 - .5) = 1 over 2 opponents -> 32 * 1/2 = +16; second: 0; last -16.
    out = by_placings({}, [Seat("a", 1), Seat("b", 2), Seat("c", 3)])
    assert out == pytest.approx({"a": 1516.0, "b": 1500.0, "c": 1484.0})


def test_four_players_with_a_shared_first_place():
    # a and b share 1st: each has 1 draw and 2 wins: (0 + .5 + .5) / 3 * 32 = +10.667.
    out = by_placings({}, [Seat("a", 1), Seat("b", 1), Seat("c", 3), Seat("d", 4)])
    assert out["a"] == pytest.approx(1500 + 32 / 3)
    assert out["d"] == pytest.approx(1500 - 16)
    assert sum(out.values()) == pytest.approx(4 * 1500)


def test_partners_are_never_rated_against_each_other():
    seats = [Seat("a1", 1, "A"), Seat("b1", 2, "B"), Seat("a2", 1, "A"), Seat("b2", 2, "B")]
    out = by_placings({"a1": 1600.0}, seats)
    # a1 meets b1 and b2 (both 1500): 32 * (1 - 0.640065) = 11.5179; a2 (1500): +16.
    assert out["a1"] == pytest.approx(1611.5179, abs=1e-4)
    assert out["a2"] == pytest.approx(1516.0)
    assert out["b1"] < 1500 and out["b2"] < 1500


def test_a_game_with_one_side_or_a_repeated_player_is_refused():
    with pytest.raises(ValueError):
        by_placings({}, [Seat("a", 1, "A"), Seat("b", 2, "A")])
    with pytest.raises(ValueError):
        by_placings({}, [Seat("a", 1), Seat("a", 2)])
