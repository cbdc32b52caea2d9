"""Board geometry: (x, y) mm -> the dart a tip there scores (WDF/BDO sizes).

Expected values come from the regulation figures typed in here, not from board.py's
constants, so a wrong constant fails a test.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.domain import board
from kiosk.domain.board import dart_at
from kiosk.domain.darts import Dart

# Clockwise from 12 o'clock; 20 at the top; each 18 degrees wide.
CLOCKWISE = [20, 1, 18, 4, 13, 6, 10, 15, 2, 17, 3, 19, 7, 16, 8, 11, 14, 9, 12, 5]
INNER_BULL, OUTER_BULL = 6.35, 15.9
TREBLE = (99.0, 107.0)
DOUBLE = (162.0, 170.0)
EPS = 0.05  # mm


def at(angle_deg: float, r_mm: float) -> Dart:
    """The dart at clockwise angle ``angle_deg`` from 12 o'clock, ``r_mm`` from the centre."""
    a = math.radians(angle_deg)
    return dart_at(r_mm * math.sin(a), r_mm * math.cos(a))


def centre_angle(number: int) -> float:
    return CLOCKWISE.index(number) * 18.0


@pytest.mark.parametrize("number", CLOCKWISE)
@pytest.mark.parametrize(
    ("ring", "radius"),
    [
        ("S", (OUTER_BULL + TREBLE[0]) / 2),  # inner single
        ("T", sum(TREBLE) / 2),
        ("S", (TREBLE[1] + DOUBLE[0]) / 2),  # outer single
        ("D", sum(DOUBLE) / 2),
    ],
    ids=["inner single", "treble", "outer single", "double"],
)
def test_the_middle_of_every_segment_scores_that_segment(
    number: int, ring: str, radius: float
) -> None:
    assert str(at(centre_angle(number), radius)) == f"{ring}{number}"


def test_the_centre_is_the_inner_bull() -> None:
    assert dart_at(0.0, 0.0) == Dart.parse("DB")


# (radius just inside, expected ring; radius just outside, expected ring)
RING_EDGES = [
    (INNER_BULL, "DB", "SB"),
    (OUTER_BULL, "SB", "S"),
    (TREBLE[0], "S", "T"),
    (TREBLE[1], "T", "S"),
    (DOUBLE[0], "S", "D"),
    (DOUBLE[1], "D", "MISS"),
]


def _name(ring: str, number: int) -> str:
    return ring if ring in ("DB", "SB", "MISS") else f"{ring}{number}"


@pytest.mark.parametrize("number", CLOCKWISE)
@pytest.mark.parametrize(("edge", "inside", "outside"), RING_EDGES, ids=lambda v: str(v))
def test_a_tip_005_mm_either_side_of_a_ring_edge_scores_the_ring_it_is_in(
    number: int, edge: float, inside: str, outside: str
) -> None:
    angle = centre_angle(number)
    assert str(at(angle, edge - EPS)) == _name(inside, number)
    assert str(at(angle, edge + EPS)) == _name(outside, number)


@pytest.mark.parametrize("index", range(20))
@pytest.mark.parametrize("radius", [50.0, sum(TREBLE) / 2, 130.0, sum(DOUBLE) / 2])
def test_a_tip_either_side_of_every_wire_scores_the_segment_it_is_in(
    index: int, radius: float
) -> None:
    wire = index * 18.0 + 9.0  # between CLOCKWISE[index] and the next clockwise
    offset = math.degrees(EPS / radius)  # 0.05 mm along the arc
    before, after = at(wire - offset, radius), at(wire + offset, radius)
    assert before.number == CLOCKWISE[index]
    assert after.number == CLOCKWISE[(index + 1) % 20]
    assert before.multiplier == after.multiplier


@pytest.mark.parametrize(
    ("x", "y", "expected"),
    [(50.0, 50.0, "S4"), (50.0, -50.0, "S2"), (-50.0, -50.0, "S16"), (-50.0, 50.0, "S12")],
)
def test_a_tip_exactly_on_a_wire_goes_to_the_segment_clockwise_of_it(
    x: float, y: float, expected: str
) -> None:
    # The wires at 45, 135, 225 and 315 degrees, where the angle is exact in floats.
    assert str(dart_at(x, y)) == expected


@pytest.mark.parametrize(
    ("x", "y"),
    [
        (0.0, DOUBLE[1] + EPS),
        (0.0, -(DOUBLE[1] + EPS)),
        (DOUBLE[1] + EPS, 0.0),
        (150.0, 150.0),
        (1e9, -1e9),
        (math.nan, 0.0),
        (0.0, math.inf),
        (-math.inf, math.nan),
    ],
)
def test_outside_the_double_ring_or_not_a_number_is_a_miss(x: float, y: float) -> None:
    assert dart_at(x, y) == Dart.MISS


@pytest.mark.parametrize(
    ("radius", "expected"),
    [(INNER_BULL, "DB"), (OUTER_BULL, "SB"), (TREBLE[1], "T20"), (DOUBLE[1], "D20")],
)
def test_a_tip_exactly_on_a_ring_edge_belongs_to_the_inner_ring(
    radius: float, expected: str
) -> None:
    assert str(dart_at(0.0, radius)) == expected


@pytest.mark.parametrize(("radius", "expected"), [(TREBLE[0], "S20"), (DOUBLE[0], "S20")])
def test_a_tip_exactly_on_the_inner_edge_of_treble_or_double_is_a_single(
    radius: float, expected: str
) -> None:
    assert str(dart_at(0.0, radius)) == expected


# -- how far a tip is from the nearest wire -----------------------------------------------


@pytest.mark.parametrize(
    ("point", "distance"),
    [
        ((0.0, 170.0), 0.0),  # on the outer double wire, in the middle of 20
        ((0.0, 100.0), 1.0),  # 1 mm outside the inner treble wire
        ((0.0, 0.0), 6.35),  # the centre: the inner bull's wire all round
        (board.point_at(9.0, 50.0), 0.0),  # on the divider between 20 and 1
        (board.point_at(9.0, 14.0), 1.9),  # short of where the dividers start
        (board.point_at(9.0, 175.0), 5.0),  # beyond where they end
    ],
)
def test_wire_distance_at_known_points(point: tuple[float, float], distance: float) -> None:
    assert board.wire_distance(*point) == pytest.approx(distance, abs=1e-9)


@given(
    st.floats(-180, 180),
    st.floats(-180, 180),
    st.floats(0, 360),
    st.floats(0, 0.999),
)
def test_no_tip_closer_than_the_wire_distance_scores_differently(
    x: float, y: float, angle: float, fraction: float
) -> None:
    """Within ``wire_distance`` of a tip there is no wire, so every point there scores
    what the tip scores: the distance is how far a camera's estimate may be off."""
    d = board.wire_distance(x, y) * fraction
    qx, qy = board.point_at(angle, d)
    assert board.dart_at(x + qx, y + qy) == board.dart_at(x, y)


@pytest.mark.parametrize("k", range(20))
@pytest.mark.parametrize("radius", [30.0, 103.0, 130.0, 166.0])
def test_a_tip_on_any_wire_computed_in_floats_goes_clockwise(k: int, radius: float) -> None:
    # The wire between CLOCKWISE[k] and CLOCKWISE[k + 1], reached through sin and
    # cos: the float point lands a hair either side, and must still count as on it.
    clockwise = CLOCKWISE[(k + 1) % 20]
    assert at(9.0 + 18.0 * k, radius).number == clockwise


@pytest.mark.parametrize("k", range(40))
@pytest.mark.parametrize(
    ("radius", "ring"),
    [
        (INNER_BULL, "DB"),
        (OUTER_BULL, "SB"),
        (TREBLE[0], "S"),
        (TREBLE[1], "T"),
        (DOUBLE[0], "S"),
        (DOUBLE[1], "D"),
    ],
)
def test_a_tip_on_any_ring_edge_computed_in_floats_belongs_to_the_inner_ring(
    k: int, radius: float, ring: str
) -> None:
    angle = 4.5 + 9.0 * k  # halfway between a wire and a segment's middle, all round
    dart = at(angle, radius)
    assert str(dart).startswith(ring) and (ring in ("DB", "SB") or not dart.is_miss)


@pytest.mark.parametrize("x", [-1e-300, -5e-324, -1e-17])
def test_a_hair_left_of_twelve_oclock_is_angle_0_not_360(x: float) -> None:
    angle = board.angle_of(x, 100.0)
    assert 0.0 <= angle < 360.0
    assert dart_at(x, 100.0) == dart_at(0.0, 100.0)


@given(
    st.floats(min_value=-200, max_value=200, allow_nan=False),
    st.floats(min_value=-200, max_value=200, allow_nan=False),
)
def test_every_angle_is_from_0_up_to_not_including_360(x: float, y: float) -> None:
    assert 0.0 <= board.angle_of(x, y) < 360.0
