"""Scoring accuracy on seeded rendered throws (3 cameras each; each camera also alone).

Seeds 7,000,000 and up were not looked at while the detector (or the doubt flag) was
tuned. The floors
below are what the detector reaches on them with a little margin, not the issue's
target (>= 99.5 %): ``bench/camera.py`` prints the full figures.
"""

import numpy as np
import pytest

from kiosk.adapters.camera.fusion import estimate_from, fuse
from kiosk.adapters.camera.synthetic import render_grouped, render_throw
from kiosk.adapters.camera.tip import find_tip
from kiosk.domain.board import centre_of
from kiosk.domain.darts import Dart

SEEDS = range(7_000_000, 7_000_030)


@pytest.fixture(scope="module")
def scored():
    """Per throw: the truth, each camera's own result, and the fused result."""
    out = []
    for seed in SEEDS:
        th = render_throw(seed, 3, near_wire=seed % 5 == 0)
        ests = []
        alone = []
        for c in range(3):
            f = find_tip(th.before[c], th.after[c], th.calibrations[c])
            if f is None:
                alone.append(None)
                continue
            e = estimate_from(f, th.calibrations[c], c)
            ests.append(e)
            alone.append(fuse([e]))
        out.append((th, alone, fuse(ests)))
    return out


def _fused(th):
    """The throw scored by all its cameras, as ``camera-score`` does."""
    ests = []
    for c in range(len(th.cameras)):
        f = find_tip(th.before[c], th.after[c], th.calibrations[c])
        if f is not None:
            ests.append(estimate_from(f, th.calibrations[c], c))
    return fuse(ests)


def _err(th, fused):
    return float(np.hypot(fused.board[0] - th.dart.tip[0], fused.board[1] - th.dart.tip[1]))


def test_three_cameras_score_at_least_29_of_30_throws_to_the_exact_segment(scored):
    exact = sum(f is not None and f.dart == th.truth for th, _, f in scored)
    assert exact >= 29, f"{exact}/30 exact"


def test_three_cameras_place_the_tip_within_a_fifth_of_a_millimetre_on_the_median(scored):
    errs = [_err(th, f) for th, _, f in scored if f is not None]
    assert len(errs) == len(scored)
    assert float(np.median(errs)) < 0.2


def test_three_cameras_flag_their_doubtful_darts_and_leave_almost_none_wrong_unflagged(scored):
    # A flagged dart counts, and the kiosk asks the player to check it (``Fused.doubt``):
    # a wrong dart without a flag is the one nobody is asked about. A fifth of these
    # throws land within a millimetre of a wire on purpose; flagging them all would be
    # no help, so the flags are bounded too.
    flagged = sum(f is not None and f.doubt is not None for _, _, f in scored)
    silent = sum(f is not None and f.doubt is None and f.dart != th.truth for th, _, f in scored)
    assert silent <= 1, f"{silent}/30 wrong without a flag"
    assert flagged <= 6, f"{flagged}/30 flagged"


# Throws within a millimetre of a wire that the cameras score wrong but flag (found by
# scanning seeds 7,000,030..7,000,829: 5 of 800 are wrong, all flagged, 4 of them with
# the right dart as the other, 7,000,650 with a third; if the detector gets these
# right, pick others).
WRONG_BUT_FLAGGED = (7_000_088, 7_000_153, 7_000_315)


def test_a_flagged_dart_that_is_wrong_names_the_right_one_as_the_other():
    for seed in WRONG_BUT_FLAGGED:
        th = render_throw(seed, 3, near_wire=True)
        fused = _fused(th)
        assert fused is not None and fused.dart != th.truth, f"seed {seed}: now exact"
        assert fused.doubt == th.truth


def test_one_camera_alone_scores_at_least_78_of_90_views_to_the_exact_segment(scored):
    # One camera has two lines when the lamp casts a clear shadow (``shadow``).
    exact = sum(f is not None and f.dart == th.truth for th, alone, _ in scored for f in alone)
    assert exact >= 78, f"{exact}/90 exact"


def test_one_camera_alone_asks_the_player_rather_than_score_wrong(scored):
    # Alone, a camera cannot outvote its own blunders (a shadow, a vane, the wrong end
    # of a dart seen face-on); when its readings disagree it asks.
    views = [(th, f) for th, alone, _ in scored for f in alone if f is not None]
    silent = sum(f.doubt is None and f.dart != th.truth for th, f in views)
    flagged = sum(f.doubt is not None for _, f in views)
    assert silent <= 1, f"{silent}/{len(views)} wrong without a flag"
    assert flagged <= 30, f"{flagged}/{len(views)} flagged"


# Seen within 10 degrees of face-on, the tip's end of the dart is a guess (a dart
# leaning any way can point anywhere in the image); these were guessed wrong, the tip
# put 40-60 mm away at the flight's end, and the other first axes missed it too
# (found on tuning seeds). Seed 300301's camera 2 reads its tip first now: its dark
# flight no longer passes for a coloured one (``axis.COLOUR_MIN_CHROMA``).
FACE_ON_WRONG_END = ((300360, 2, True), (300569, 2, False))


@pytest.mark.parametrize(("seed", "camera", "near_wire"), FACE_ON_WRONG_END)
def test_seen_face_on_the_dart_the_other_way_round_is_one_of_the_readings(seed, camera, near_wire):
    th = render_throw(seed, 3, near_wire=near_wire, off_axis=(0.0, 15.0))
    cal = th.calibrations[camera]
    f = find_tip(th.before[camera], th.after[camera], cal)
    assert f is not None

    def off_mm(reading):
        ((x, y),) = cal.image_to_board(np.array(reading.image, np.float64))
        return float(np.hypot(x - th.dart.tip[0], y - th.dart.tip[1]))

    assert off_mm(f) > 20.0, f"seed {seed}: the first reading is right now"
    assert min(off_mm(a) for a in f.alternatives) < 1.5


# Tuning throws seen nearly face-on whose first reading ran along a coloured vane seen
# edge-on (the longest thin strip of change) and put the tip at the vane's end, 15 to
# 60 px from the true tip; the line from the flight's centre through the grey barrel
# finds it (``tip._flight_to_grey``).
VANE_TAKEN_FOR_BARREL = ((400023, 0), (400036, 0), (400091, 1), (400116, 2))


@pytest.mark.parametrize(("seed", "camera"), VANE_TAKEN_FOR_BARREL)
def test_seen_nearly_end_on_a_coloured_vane_is_not_taken_for_the_barrel(seed, camera):
    th = render_throw(seed, 3, off_axis=(0.0, 15.0))
    cal = th.calibrations[camera]
    f = find_tip(th.before[camera], th.after[camera], cal)
    assert f is not None
    ((x, y),) = cal.image_to_board(np.array(f.image, np.float64))
    assert float(np.hypot(x - th.dart.tip[0], y - th.dart.tip[1])) < 1.0


def test_specks_in_line_with_the_dart_past_its_flight_are_not_its_tip():
    # Held-out near-wire seed 7,000,154, camera 0: specks of change lie on the dart's
    # line 60 px past its flight; taken for the dart's far end, the tip was put there,
    # 157 mm off.
    th = render_throw(7_000_154, 3, near_wire=True)
    cal = th.calibrations[0]
    f = find_tip(th.before[0], th.after[0], cal)
    assert f is not None
    ((x, y),) = cal.image_to_board(np.array(f.image, np.float64))
    assert float(np.hypot(x - th.dart.tip[0], y - th.dart.tip[1])) < 1.0


def test_a_barrel_that_passes_for_shadow_in_part_is_still_the_dart():
    # Tuning seed 410,587, camera 2: a grey barrel over a cream segment is darker with
    # its colour kept, so most of it passed for shadow and the rest, ragged and
    # bordered by that "shadow", was dropped as a shadow's rim; only the flight was
    # left, and the tip was put 77 mm off (now 2.4 mm: face-on, one camera places the
    # tip along the dart less well).
    th = render_throw(410_587, 3, off_axis=(0.0, 50.0))
    cal = th.calibrations[2]
    f = find_tip(th.before[2], th.after[2], cal)
    assert f is not None
    ((x, y),) = cal.image_to_board(np.array(f.image, np.float64))
    assert float(np.hypot(x - th.dart.tip[0], y - th.dart.tip[1])) < 4.0


@pytest.mark.parametrize(
    ("seed", "off_axis", "camera"),
    [(310661, (0.0, 15.0), 0), (300074, (30.0, 50.0), 2), (300095, (30.0, 50.0), 1),
     (300350, (30.0, 50.0), 1)],
)  # fmt: skip
def test_a_steel_point_cut_off_from_the_barrel_is_followed_to_its_end(seed, off_axis, camera):
    # Tuning throws where the steel point, a thin piece of its own beside its shadow,
    # was left out of the dart as a shadow's rim, and the tip was put at the barrel's
    # end 7 to 23 mm short.
    th = render_throw(seed, 3, off_axis=off_axis)
    cal = th.calibrations[camera]
    f = find_tip(th.before[camera], th.after[camera], cal)
    assert f is not None
    ((x, y),) = cal.image_to_board(np.array(f.image, np.float64))
    assert float(np.hypot(x - th.dart.tip[0], y - th.dart.tip[1])) < 1.0


@pytest.mark.parametrize("camera", [0, 1, 2])
def test_the_darts_shadow_in_line_with_it_over_a_black_segment_is_not_its_point(camera):
    # A tuning throw seen nearly face-on: the lamp lays the dart's shadow in line with
    # it over a black segment, where it passes for a thin dark line on the axis; a
    # steel point is lighter than black, so that line is not the point. Each camera
    # put the tip 5-9 mm along the shadow (three cameras agreeing on S18, not T18).
    th = render_throw(330444, 3, off_axis=(0.0, 15.0))
    cal = th.calibrations[camera]
    f = find_tip(th.before[camera], th.after[camera], cal)
    assert f is not None
    ((x, y),) = cal.image_to_board(np.array(f.image, np.float64))
    assert float(np.hypot(x - th.dart.tip[0], y - th.dart.tip[1])) < 1.5


def test_a_pair_of_identical_frames_has_no_dart(scored):
    th = scored[0][0]
    assert find_tip(th.before[0], th.before[0], th.calibrations[0]) is None


def test_seen_face_on_each_camera_finds_the_point_s_end_within_a_pixel_on_the_median():
    # A face-on rig's cameras see the dart lean the same way: their lines are nearly
    # parallel, and where the tip lies along them rests on each camera's end of the
    # point (about 1.5 px per mm; a throw near a wire needs tenths of a mm). The end is
    # taken from the difference without the 3x3 mean (``Change.sharp_score``): with
    # it, a point a pixel wide at its end was spread over its neighbours (median 1.14
    # px off on these throws, 0.90 px now).
    off = []
    for seed in range(7_100_000, 7_100_060):
        th = render_throw(seed, 3, near_wire=True, off_axis=(0.0, 15.0))
        for c in range(3):
            f = find_tip(th.before[c], th.after[c], th.calibrations[c])
            assert f is not None
            p = th.cameras[c].board_to_image @ np.array([*th.dart.tip, 1.0])
            off.append(abs(float((np.array(f.image) - p[:2] / p[2]) @ np.array(f.axis))))
    assert float(np.median(off)) < 1.0


def test_seen_face_on_cameras_at_1080p_place_the_dart_closer_than_at_720p():
    # Why the kiosk asks cameras for 1920x1080 (``capture.CAPTURE_SIZE``): a face-on
    # rig's tips rest on each camera's end of the point, found to a fraction of a
    # pixel, and a pixel is 2/3 of a millimetre at 720p, under half at 1080p. On these
    # 30 near-wire throws the fused point's median error goes 0.24 -> 0.16 mm.
    medians = []
    for size in ((1280, 720), (1920, 1080)):
        errs = []
        for seed in range(7_200_000, 7_200_030):
            th = render_throw(seed, 3, near_wire=True, off_axis=(0.0, 15.0), size=size)
            ests = []
            for c in range(3):
                f = find_tip(th.before[c], th.after[c], th.calibrations[c])
                assert f is not None
                ests.append(estimate_from(f, th.calibrations[c], c))
            fused = fuse(ests)
            assert fused is not None
            errs.append(_err(th, fused))
        medians.append(float(np.median(errs)))
    assert medians[1] < 0.8 * medians[0]


# Turns of three darts at one target, a few mm apart (seeds never looked at before):
# the second and third land by the ones already in the board, and can hide behind them
# or hide them in a view. ``bench/camera_turns.py`` prints the full figures.
AIMS = ("T20", "T19", "T18", "T17", "T16", "T15", "DB", "T20")
GROUPED = tuple(zip(range(7_100_000, 7_100_008), AIMS, strict=True))
SPREAD_MM = ((0.0, 0.0), (6.0, 4.0), (-5.0, 6.0))


def test_darts_grouped_by_earlier_ones_score_at_least_14_of_16_with_cameras_mounted_off_axis():
    exact = 0
    for seed, aim in GROUPED:
        ax, ay = centre_of(Dart.parse(aim))
        throws = render_grouped(seed, [(ax + dx, ay + dy) for dx, dy in SPREAD_MM], 3,
                                off_axis=(15.0, 50.0))  # fmt: skip
        for th in throws[1:]:
            fused = _fused(th)
            exact += fused is not None and fused.dart == th.truth
    assert exact >= 14, f"{exact}/16 exact"
