"""The sub-pixel end of a dart's point along its axis (``point_end.refine``): where the
difference drops to half its level just inside the point, close to where the walk
along the axis last saw the dart."""

from __future__ import annotations

import numpy as np

from kiosk.adapters.camera.point_end import refine

CENTRE = np.array([50.0, 20.0])
AXIS = np.array([1.0, 0.0])  # from the tip towards the flight: the point is at x < 50


def _point(end_x: int) -> np.ndarray:
    diff = np.zeros((40, 80), np.float32)
    diff[19:22, end_x:50] = 40.0  # the point, 3 px wide, ending at end_x
    return diff


def test_the_end_of_a_clean_point_is_where_its_difference_halves():
    s = refine(_point(30), CENTRE, AXIS, s_end=-20.0, band=1.5)
    assert abs(s - (-20.5)) < 0.3  # the pixel at x = 30 covers 29.5..30.5


def test_faint_change_past_where_the_dart_was_last_seen_does_not_carry_the_end_along():
    # Beyond the point's end, a faint trail above half the point's level (the rim of
    # its shadow, JPEG ringing): the end stays within a couple of pixels of the walk's
    # (the trail reaches 6 px further).
    diff = _point(30)
    diff[19:22, 24:30] = 25.0
    s = refine(diff, CENTRE, AXIS, s_end=-20.0, band=1.5)
    assert s >= -22.5
