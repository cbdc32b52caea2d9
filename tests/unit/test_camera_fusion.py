import math
import warnings
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.adapters.camera.fusion import Estimate, fuse
from kiosk.domain.darts import Dart


def _line_through(x, y, angle_deg):
    """a x + b y = c through (x, y), along ``angle_deg``."""
    t = math.radians(angle_deg)
    a, b = -math.sin(t), math.cos(t)
    return (a, b, a * x + b * y)


def test_agreeing_tip_points_are_averaged_by_their_precision():
    f = fuse([Estimate(0, (10.0, 60.0), 1.0), Estimate(1, (12.0, 60.0), 3.0)])
    assert f is not None
    assert f.board == pytest.approx((11.5, 60.0))
    assert f.used == (0, 1)


def test_two_cameras_axis_lines_cross_at_the_tip_whatever_their_tip_points_say():
    # Both tip points are 3 mm off along their lines (a shadow in line with the dart);
    # the lines, precise across, cross at the true tip (0, 103): T20, not S20.
    ests = [
        Estimate(0, (3.0, 103.0), 1.0, _line_through(0.0, 103.0, 0.0), 100.0),
        Estimate(1, (0.0, 100.0), 1.0, _line_through(0.0, 103.0, 90.0), 100.0),
    ]
    f = fuse(ests)
    assert f is not None and f.lines == 2
    assert f.board == pytest.approx((0.0, 103.0), abs=0.2)
    assert f.dart == Dart.parse("T20")


def test_one_camera_takes_the_across_position_from_its_line_and_the_along_from_its_point():
    f = fuse([Estimate(0, (1.0, 50.0), 1.0, _line_through(0.0, 0.0, 90.0), 100.0)])
    assert f is not None
    assert f.board == pytest.approx((0.0, 50.0), abs=0.05)


def test_the_shadows_line_fixes_the_tip_along_a_cameras_line():
    # One camera looking nearly face-on: its tip point is 8 mm off along its line
    # (S20, the tip is in the treble). The lamp's shadow of the dart, a board line
    # through the tip at 60 degrees to it, puts the point back on the treble.
    line = _line_through(0.0, 103.0, 90.0)
    alone = fuse([Estimate(0, (0.0, 95.0), 1.0, line, 100.0)])
    assert alone is not None and alone.dart == Dart.parse("S20")
    shadow = _line_through(0.0, 103.0, 30.0)
    f = fuse([Estimate(0, (0.0, 95.0), 1.0, line, 100.0, shadow=shadow, shadow_weight=100.0)])
    assert f is not None and f.lines == 2
    assert f.board == pytest.approx((0.0, 103.0), abs=0.1)
    assert f.dart == Dart.parse("T20")


def test_one_camera_whose_tip_point_and_shadow_disagree_asks_the_player():
    # Alone, nothing says whether the point (S20) or the shadow (T20) is the blunder:
    # the shadow's crossing is scored and the point's dart named for the player.
    line = _line_through(0.0, 103.0, 90.0)
    shadow = _line_through(0.0, 103.0, 30.0)
    f = fuse([Estimate(0, (0.0, 80.0), 1.0, line, 100.0, shadow=shadow, shadow_weight=100.0)])
    assert f is not None and f.dart == Dart.parse("T20")
    assert f.doubt == Dart.parse("S20")


def test_a_blunder_the_other_cameras_outvote_raises_no_doubt():
    # Camera 0's point is 23 mm down its line (S20); cameras 1 and 2 agree on T20.
    ests = [
        Estimate(0, (0.0, 80.0), 1.0, _line_through(0.0, 103.0, 90.0), 100.0),
        Estimate(1, (0.0, 103.0), 1.0, _line_through(0.0, 103.0, 30.0), 100.0),
        Estimate(2, (0.0, 103.0), 1.0, _line_through(0.0, 103.0, 150.0), 100.0),
    ]
    f = fuse(ests)
    assert f is not None and f.dart == Dart.parse("T20")
    assert f.doubt is None


def test_one_camera_whose_other_reading_scores_another_dart_asks_the_player():
    # A vane seen edge-on may be the barrel: alone, the camera cannot tell.
    vane = Estimate(0, (30.0, 130.0), 1.0, _line_through(30.0, 130.0, 60.0), 100.0)
    same = Estimate(0, (0.4, 131.0), 1.0, _line_through(0.4, 131.0, 80.0), 100.0)
    first = Estimate(0, (0.0, 130.0), 1.0, _line_through(0.0, 130.0, 90.0), 100.0)
    sure = fuse([replace(first, alternatives=(same,))])
    doubtful = fuse([replace(first, alternatives=(same, vane))])
    assert sure is not None and sure.dart == Dart.parse("S20") and sure.doubt is None
    assert doubtful is not None and doubtful.dart == Dart.parse("S20")
    assert doubtful.doubt == Dart.parse("S1")


def test_a_shadow_line_parallel_to_the_cameras_line_still_gives_a_flagged_dart():
    # A lamp right behind the camera: shadow and axis are one line, the tip point is
    # an outlier of both; the dart is still scored, and the player asked to check.
    line = _line_through(0.0, 103.0, 90.0)
    est = Estimate(0, (30.0, 60.0), 1.0, line, 100.0, shadow=line, shadow_weight=100.0)
    f = fuse([est])
    assert f is not None
    assert f.doubt is not None


def test_a_camera_that_took_a_flight_for_the_tip_is_left_out():
    ests = [
        Estimate(0, (0.0, 103.0), 4.0, _line_through(0.0, 103.0, 20.0), 50.0),
        Estimate(1, (0.2, 103.1), 4.0, _line_through(0.0, 103.0, 130.0), 50.0),
        Estimate(2, (40.0, 60.0), 4.0, _line_through(40.0, 60.0, 75.0), 50.0),
    ]
    f = fuse(ests)
    assert f is not None
    assert f.dart == Dart.parse("T20")
    assert f.used == (0, 1)


def test_no_usable_estimate_fuses_to_nothing():
    assert fuse([]) is None
    assert fuse([Estimate(0, (float("nan"), 0.0), 1.0)]) is None
    assert fuse([Estimate(0, (0.0, 0.0), 0.0, (0.0, 0.0, 1.0), 1.0)]) is None


def _view(*centres):
    """A camera's dart pixels: 3 px discs at ``centres`` (identity homography: the
    image is the board in mm)."""
    g = np.stack(np.meshgrid(np.arange(-3.0, 3.1), np.arange(-3.0, 3.1)), -1).reshape(-1, 2)
    return (np.vstack([g + c for c in centres]), np.eye(3))


def test_the_tip_must_lie_on_the_dart_in_every_view_so_two_cameras_agreeing_off_it_lose():
    # Cameras 0 and 1 both took the end of a vane (40, 0) for the tip; camera 2 found
    # the tip (0, 0). Both points are on the dart as camera 0 and 1 see it (end-on,
    # flight over the tip), but (40, 0) is nowhere near the dart in camera 2's view.
    ests = [
        Estimate(0, (40.0, 0.0), 1.0, view=_view((0.0, 0.0), (40.0, 0.0))),
        Estimate(1, (40.5, 0.0), 1.0, view=_view((0.0, 0.0), (40.5, 0.0))),
        Estimate(2, (0.0, 0.0), 1.0, view=_view((0.0, 0.0))),
    ]
    f = fuse(ests)
    assert f is not None
    assert f.board == pytest.approx((0.0, 0.0), abs=0.1)
    assert f.used == (2,)


def test_a_cameras_second_reading_is_taken_when_only_it_agrees_with_the_others():
    second = Estimate(0, (0.3, 103.0), 4.0, _line_through(0.0, 103.0, 20.0), 50.0)
    ests = [
        Estimate(
            0, (40.0, 60.0), 4.0, _line_through(40.0, 60.0, 75.0), 50.0, alternatives=(second,)
        ),
        Estimate(1, (0.2, 103.1), 4.0, _line_through(0.0, 103.0, 130.0), 50.0),
        Estimate(2, (-0.1, 102.9), 4.0, _line_through(0.0, 103.0, 250.0), 50.0),
    ]
    f = fuse(ests)
    assert f is not None
    assert f.dart == Dart.parse("T20")
    assert f.used == (0, 1, 2)


def test_a_reading_without_a_line_does_not_win_by_having_nothing_to_disagree_with():
    # The tip is at (0, 103), T20. Camera 0's first reading puts it there, with a sharp
    # line through it; its other reading is a tip point alone at (0, 95), S20, where
    # camera 1's reading (a blunder: point and line) is too. Camera 2's line (x = 0)
    # passes both. Taking camera 0's other reading would drop its line from the cost,
    # and so the one thing that says the dart is not at (0, 95).
    lineless = Estimate(0, (0.0, 95.0), 1.0)
    ests = [
        Estimate(0, (0.0, 103.0), 1.0, _line_through(0.0, 103.0, 0.0), 100.0,
                 alternatives=(lineless,)),
        Estimate(1, (0.0, 95.0), 1.0, _line_through(0.0, 95.0, 45.0), 100.0),
        Estimate(2, (0.0, 103.0), 1.0, _line_through(0.0, 103.0, 90.0), 100.0),
    ]  # fmt: skip
    f = fuse(ests)
    assert f is not None
    assert f.dart == Dart.parse("T20")
    assert f.board == pytest.approx((0.0, 103.0), abs=0.2)


def test_a_camera_with_only_a_vague_point_does_not_stop_its_other_reading_being_tried():
    # Cameras 1 and 2 look from the same side: their lines are one line (x = 0) and
    # their tip points, 9 mm short (in the dart's shadow, off the dart they see), say
    # S20. Camera 0's first reading is a vague point that agrees with anything; its
    # second reading is a line across (y = 103) through the tip: T20, on the dart in
    # every view.
    along_x0 = _view(*[(0.0, 103.0 + 3 * k) for k in range(8)])
    second = Estimate(0, (0.1, 103.0), 1.0, _line_through(0.0, 103.0, 0.0), 100.0,
                      view=_view((0.0, 103.0), (3.0, 103.0), (6.0, 103.0)))  # fmt: skip
    ests = [
        Estimate(0, (0.0, 90.0), 1 / 25, alternatives=(second,), view=second.view),
        Estimate(1, (0.0, 94.0), 1 / 6.25, _line_through(0.0, 103.0, 90.0), 100.0, view=along_x0),
        Estimate(2, (0.0, 94.0), 1 / 6.25, _line_through(0.0, 103.0, 90.5), 100.0, view=along_x0),
    ]
    f = fuse(ests)
    assert f is not None
    assert f.dart == Dart.parse("T20")
    assert f.board == pytest.approx((0.0, 103.0), abs=0.2)


def test_three_views_of_the_one_shadow_are_one_line_not_a_crossing():
    # Three cameras see the same shadow, each line a fraction of a degree and a tenth
    # of a millimetre off; where two of them cross (mm away) is no fix along them. Only
    # vague tip points say where the tip is along the shadow: T20.
    def shadow(angle, miss):
        a, b, c = _line_through(0.0, 105.0, angle)
        return (a, b, c + miss)

    misses = (0.15, 0.0, -0.15)
    ests = [
        Estimate(k, (0.0, 105.0), 1 / 64, shadow=shadow(60.0 + 0.5 * k, m), shadow_weight=100.0)
        for k, m in enumerate(misses)
    ]
    f = fuse(ests)
    assert f is not None
    assert f.board == pytest.approx((0.0, 105.0), abs=0.5)
    assert f.dart == Dart.parse("T20")


def _three_lines(x, y, sigma_mm, miss_mm=(0.0, 0.0, 0.0)):
    """Three cameras' axis lines at 0, 60 and 120 degrees through (x, y), each
    ``sigma_mm`` precise, each shifted across itself by its ``miss_mm``."""
    out = []
    for cam, (ang, miss) in enumerate(zip((0.0, 60.0, 120.0), miss_mm, strict=True)):
        a, b, c = _line_through(x, y, ang)
        out.append(Estimate(cam, (x, y), 0.0, (a, b, c + miss), 1 / sigma_mm**2))
    return out


def test_a_point_well_inside_a_segment_is_sure():
    f = fuse(_three_lines(0.0, 130.0, 0.1))  # S20, 23 mm from the treble, 32 from the double
    assert f is not None and f.dart == Dart.parse("S20")
    assert f.doubt is None
    assert f.sigma_mm < 0.2


def test_a_point_a_fifth_of_a_millimetre_inside_the_treble_is_scored_and_flagged():
    # The treble's outer wire is at 107 mm: 0.2 mm away, with 0.1 mm lines, it could
    # be the single just outside. The dart counts as T20 and the other is named.
    f = fuse(_three_lines(0.0, 106.8, 0.1))
    assert f is not None and f.dart == Dart.parse("T20")
    assert f.doubt == Dart.parse("S20")


def test_cameras_that_disagree_more_than_their_precision_says_widen_the_doubt():
    # 1.5 mm inside the treble: three agreeing 0.3 mm lines are sure of T20; the same
    # lines missing each other by three times that are not.
    agree = fuse(_three_lines(0.0, 105.5, 0.3))
    disagree = fuse(_three_lines(0.0, 105.5, 0.3, miss_mm=(0.9, 0.9, 0.9)))
    assert agree is not None and agree.doubt is None
    assert disagree is not None and disagree.dart == Dart.parse("T20")
    assert disagree.doubt == Dart.parse("S20")
    assert disagree.used == (0, 1, 2)
    assert disagree.sigma_mm > 1.5 * agree.sigma_mm


def _estimate(camera, x, y, w, line, shadow):
    def as_line(spec):
        if spec is None:
            return None, 0.0
        angle, miss, weight = spec
        a, b, c = _line_through(x, y, angle)
        return (a, b, c + miss), weight

    (ln, lw), (sh, sw) = as_line(line), as_line(shadow)
    return Estimate(camera, (x, y), w, ln, lw, 1.0, shadow=sh, shadow_weight=sw)


_line_spec = st.none() | st.tuples(
    st.floats(0.0, 180.0), st.floats(-5.0, 5.0), st.floats(0.01, 400.0)
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(-200.0, 200.0),
            st.floats(-200.0, 200.0),
            st.floats(0.0, 100.0),
            _line_spec,
            _line_spec,
        ),
        min_size=1,
        max_size=3,
    )
)
def test_any_finite_estimates_fuse_to_a_point_or_nothing_never_an_error(specs):
    ests = [_estimate(k, *spec) for k, spec in enumerate(specs)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no division by zero or overflow on the way
        f = fuse(ests)
    assert f is None or all(map(math.isfinite, f.board))


def test_observations_that_swap_in_and_out_of_the_fit_do_not_crash_it():
    # Found by a random search: while the fit settles, one camera's shadow line leaves
    # the set it agrees with as another camera's line joins, and the two sets were
    # compared element by element, arrays and all (an error, not a dart).
    ests = [
        Estimate(0, (0.0577, 5.7361), 1, shadow=(-0.40023, -0.91642, -0.45642), shadow_weight=25),
        Estimate(1, (-7.5199, 3.5814), 1, (-0.88651, 0.46271, 7.02440), 1),
        Estimate(
            2,
            (0.9662, -1.9921),
            0.25,
            (-0.96172, 0.27403, -0.22606),
            25,
            shadow=(-0.98178, -0.19000, 3.68425),
            shadow_weight=25,
        ),
    ]
    f = fuse(ests)
    assert f is not None
    assert all(map(math.isfinite, f.board))


def test_a_view_with_no_pixels_is_no_view():
    est = Estimate(0, (0.0, 103.0), 4.0, _line_through(0.0, 103.0, 90.0), 100.0,
                   view=(np.zeros((0, 2)), np.eye(3)))  # fmt: skip
    f = fuse([est])
    assert f is not None and f.dart == Dart.parse("T20")


def _face_on_with_a_flights_shadow(before_tip):
    # Three cameras nearly face-on: their axis lines through the tip (0, 103), T20,
    # cross at a degree or two; their tip points agree. Each also found one shadow
    # line, the same for all three, that passes 8 mm from the tip: a flight's vane's
    # shadow, cast beside it.
    wrong_shadow = _line_through(0.0, 95.0, 30.0)
    return [
        Estimate(k, (0.0, 103.0), 1.0, _line_through(0.0, 103.0, 89.0 + k), 10.0,
                 shadow=wrong_shadow, shadow_weight=100.0, shadow_before_tip=before_tip)
        for k in range(3)
    ]  # fmt: skip


def test_a_shadow_that_meets_its_dart_before_the_tip_is_left_out_when_other_cameras_see_it():
    trusted = fuse(_face_on_with_a_flights_shadow(before_tip=False))
    assert trusted is not None and trusted.dart != Dart.parse("T20")
    f = fuse(_face_on_with_a_flights_shadow(before_tip=True))
    assert f is not None and f.dart == Dart.parse("T20")
    assert f.board == pytest.approx((0.0, 103.0), abs=0.5)


def test_one_camera_keeps_a_shadow_that_meets_its_dart_before_the_tip():
    # Alone, its shadow is its only second line, and it is more often the tip that went
    # on too far than the shadow that is another's: the shadow still fixes the tip.
    line = _line_through(0.0, 103.0, 90.0)
    shadow = _line_through(0.0, 103.0, 30.0)
    est = Estimate(0, (0.0, 95.0), 1.0, line, 100.0, shadow=shadow, shadow_weight=100.0,
                   shadow_before_tip=True)  # fmt: skip
    f = fuse([est])
    assert f is not None and f.dart == Dart.parse("T20")
