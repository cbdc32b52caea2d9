"""Past where the walk along a dart's axis lost its point (``point_end.opaque_point``):
the steel point is opaque, so over a board of another colour it keeps its own colour,
while a shadow takes the board's."""

from __future__ import annotations

import numpy as np

from kiosk.adapters.camera.change import Change
from kiosk.adapters.camera.point_end import opaque_point

BLACK = (20, 22, 25)
CREAM = (150, 180, 195)
STEEL = (90, 97, 97)  # a grey point: over cream, about as dark as a deep shadow
H, W = 40, 100
CENTRE = np.array([10.0, 20.0])
AXIS = np.array([-1.0, 0.0])  # from the tip towards the flight: the tip is at larger x
WALK_END = -40.0  # the walk lost the point where it left the black segment (x = 50)


def _x(s: float) -> float:
    return float(CENTRE[0] - s)


def _board() -> np.ndarray:
    before = np.zeros((H, W, 3), np.uint8)
    before[:, :50] = BLACK
    before[:, 50:] = CREAM
    return before


def _change(before: np.ndarray) -> Change:
    empty = np.zeros((H, W), bool)
    return Change(np.zeros((H, W), np.float32), empty, empty, 14.0, before=before)


def _with_point(before: np.ndarray, end_x: int) -> np.ndarray:
    after = before.copy()
    after[18:23, 0:end_x] = STEEL
    return after


def test_the_point_over_cream_beside_its_own_shadow_is_followed_to_its_end():
    before = _board()
    after = _with_point(before, 57)
    # Its shadow alongside on the cream, as dark as the point: one wide darkening.
    after[23:28, 50:57] = (np.array(CREAM) * 0.55).astype(np.uint8)
    s = opaque_point(_change(before), after, CENTRE, AXIS, WALK_END)
    assert abs(_x(s) - 56.5) <= 0.6  # the last pixel of the point, x = 56


def test_a_darkening_of_the_boards_colour_past_the_points_end_is_not_followed():
    before = _board()
    after = _with_point(before, 52)
    # A shadow in line with the dart past its end: cream, darker.
    after[18:23, 52:80] = (np.array(CREAM) * 0.7).astype(np.uint8)
    s = opaque_point(_change(before), after, CENTRE, AXIS, WALK_END)
    assert _x(s) <= 52.0


def test_over_a_board_of_the_points_own_colour_nothing_is_claimed():
    before = _board()
    before[:, 50:] = STEEL  # a wire, or a board as grey as the point
    after = _with_point(before, 70)
    s = opaque_point(_change(before), after, CENTRE, AXIS, WALK_END)
    assert s == WALK_END


def test_the_point_is_followed_no_further_than_a_few_millimetres():
    before = _board()
    after = _with_point(before, 99)
    s = opaque_point(_change(before), after, CENTRE, AXIS, WALK_END)
    assert _x(s) <= 50.0 + 10.0
