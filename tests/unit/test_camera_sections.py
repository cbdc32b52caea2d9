"""Cross-sections of a thin thing (``axis.section_edges``): the dart's axis and its
shadow's line are fitted on their midpoints, so the edges must be where the profile
crosses the level, to a fraction of a sample."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from kiosk.adapters.camera.axis import section_edges

OFFSETS = np.arange(-14.0, 14.0 + 1e-6, 0.5, dtype=np.float32)  # 57 samples, 0.5 px


def _bar(left: float, right: float, height: float = 100.0) -> np.ndarray:
    """A profile that ramps over one sample up to ``height`` between left and right."""
    x = OFFSETS.astype(np.float64)
    up = np.clip((x - left) / 0.5 + 0.5, 0, 1)
    down = np.clip((right - x) / 0.5 + 0.5, 0, 1)
    return (height * np.minimum(up, down)).astype(np.float32)


@given(st.floats(-9.0, 0.9), st.floats(1.0, 8.0))
def test_the_edges_of_a_bar_across_the_line_are_found_to_a_fraction_of_a_pixel(
    left: float, width: float
) -> None:
    right = min(left + width, 12.0)
    rows, lefts, rights, _, _ = section_edges(_bar(left, right)[None, :], 50.0, OFFSETS)
    if right < -3.0 or left > 3.0:
        return  # not within 3 px of the line: not this thing's section
    assert list(rows) == [0]
    assert abs(lefts[0] - left) < 0.05 and abs(rights[0] - right) < 0.05


def test_the_run_nearest_the_line_is_taken_and_other_things_in_the_window_left_out() -> None:
    prof = np.maximum(_bar(-9.0, -6.0), _bar(1.0, 3.0))  # a shadow left, the dart right
    rows, lefts, rights, _, _ = section_edges(prof[None, :], 50.0, OFFSETS)
    assert list(rows) == [0] and abs(lefts[0] - 1.0) < 0.05 and abs(rights[0] - 3.0) < 0.05


def test_sections_with_nothing_near_the_line_or_wider_than_the_window_are_dropped() -> None:
    prof = np.stack([
        _bar(-2.0, 2.0),  # kept
        _bar(6.0, 9.0),  # nothing within 3 px of the line
        np.full(len(OFFSETS), 100.0, np.float32),  # a flight: as wide as the window
        np.zeros(len(OFFSETS), np.float32),  # nothing at all
        _bar(-1.0, 1.5),  # kept
    ])  # fmt: skip
    rows, lefts, rights, lo, hi = section_edges(prof, 50.0, OFFSETS)
    assert list(rows) == [0, 4]
    assert np.allclose(lefts, [-2.0, -1.0], atol=0.05) and np.allclose(
        rights, [2.0, 1.5], atol=0.05
    )
    assert (OFFSETS[lo] >= lefts).all() and (OFFSETS[hi] <= rights).all()
