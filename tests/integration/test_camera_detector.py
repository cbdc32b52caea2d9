"""The per-camera state machine on rendered turns (30 fps, the board shaking after
each impact)."""

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.adapters.camera.detector import Bounce, DartSeen, Detector, Takeout, _grown
from kiosk.adapters.camera.fusion import fuse
from kiosk.adapters.camera.synthetic import SHAKE_FRAMES, Step, render_turn, sample_tip
from kiosk.domain.board import centre_of
from kiosk.domain.darts import Dart


def _run(video):
    det = Detector(video.calibration)
    return det, [(i, o) for i, f in enumerate(video.frames) for o in det.feed(f, i)]


@pytest.fixture(scope="module")
def turn():
    """Two darts (the second knocks the first over by 3 degrees), a bounce-out, a
    takeout by hand, then a dart on the empty board."""
    steps = [
        Step("still", 2), Step("throw", tip=(30.0, 60.0)), Step("still", 3),
        Step("throw", tip=(-50.0, -20.0), nudge=3.0), Step("still", 3),
        Step("bounce", tip=(80.0, 10.0)), Step("still", 3),
        Step("takeout"), Step("still", 3),
        Step("throw", tip=(-10.0, 120.0)), Step("still", 3),
    ]  # fmt: skip
    video = render_turn(5, steps, off_axis=30.0)
    return video, *_run(video)


def test_each_dart_is_reported_once_when_the_shake_has_settled(turn):
    video, det, seen = turn
    darts = [i for i, o in seen if isinstance(o, DartSeen)]
    thrown = [i for i, d in video.impacts if d is not None]
    assert darts == [k + SHAKE_FRAMES + det.params.settle_frames for k in thrown]


def test_a_dart_that_knocks_an_earlier_one_is_placed_not_the_earlier_one(turn):
    _, _, seen = turn
    e = [o for _, o in seen if isinstance(o, DartSeen)][1].estimate
    assert e is not None and e.line is not None
    # Its axis passes through the new dart's tip (one camera alone places the tip
    # along the axis less well: see test_camera_accuracy), far from the first dart.
    a, b, c = e.line
    assert abs(a * -50.0 + b * -20.0 - c) < 1.0
    assert np.hypot(e.board[0] + 50, e.board[1] + 20) < np.hypot(e.board[0] - 30, e.board[1] - 60)


def test_a_dart_that_bounces_out_is_reported_as_a_bounce(turn):
    video, _, seen = turn
    bounce_at = next(i for i, d in video.impacts if d is None)
    bounces = [i for i, o in seen if isinstance(o, Bounce)]
    assert len(bounces) == 1 and bounce_at < bounces[0] < bounce_at + 10


def test_a_hand_pulling_the_darts_is_a_takeout_and_the_next_dart_is_found(turn):
    video, det, seen = turn
    takeouts = [i for i, o in seen if isinstance(o, Takeout)]
    assert len(takeouts) == 1 and takeouts[0] >= video.takeouts[0]
    last = [o for _, o in seen if isinstance(o, DartSeen)][-1]
    assert last.estimate is not None
    assert np.hypot(last.estimate.board[0] + 10, last.estimate.board[1] - 120) < 3
    assert det.darts == 1


@pytest.mark.parametrize("seed", [5, 21])
def test_a_camera_started_with_darts_in_the_board_still_sees_the_takeouts(seed):
    # A kiosk restarted mid-turn (a power cut), a camera plugged back in, its
    # calibration saved mid-game: the first picture the detector gets has darts in
    # it. Their takeout, and every later one, must still pass the turn.
    tip = lambda code: centre_of(Dart.parse(code))  # noqa: E731
    before = [Step("still", 2), Step("throw", tip=tip("S17")), Step("still", 3),
              Step("throw", tip=tip("S3")), Step("still", 3)]  # fmt: skip
    after = [Step("throw", tip=tip("S11")), Step("still", 3), Step("takeout"),
             Step("still", 3), Step("throw", tip=tip("T20")), Step("still", 3),
             Step("takeout"), Step("still", 3)]  # fmt: skip
    video = render_turn(seed, before + after, off_axis=30.0)
    start = video.impacts[1][0] + SHAKE_FRAMES + 3  # S17 and S3 in, settled
    det = Detector(video.calibration)
    seen = [(i, o) for i, f in enumerate(video.frames) if i >= start for o in det.feed(f, i)]
    takeouts = [i for i, o in seen if isinstance(o, Takeout)]
    assert len(takeouts) == 2 and takeouts[0] >= video.takeouts[0], seen
    darts = [o for _, o in seen if isinstance(o, DartSeen)]
    assert [dart_of(o) for o in darts] == [Dart.parse("S11"), Dart.parse("T20")]


def dart_of(seen: DartSeen) -> Dart | None:
    fused = fuse([seen.estimate]) if seen.estimate is not None else None
    return None if fused is None else fused.dart


def test_a_still_board_reports_nothing():
    video = render_turn(9, [Step("still", 12)], off_axis=20.0)
    _, seen = _run(video)
    assert seen == []


# Turns where a dart seen large, with the long shadow of a low lamp, changes more of
# the frame than ``hand_frac`` (found by scanning rendered turns from seed 400,000:
# 2 of 60 were taken for a hand and the dart was lost without a word).
BIG_SHADOW = (400_010, 400_055)


@pytest.mark.parametrize("seed", BIG_SHADOW)
def test_a_dart_with_a_shadow_as_large_as_a_hand_is_still_a_dart(seed):
    rng = np.random.default_rng(seed)
    tip = sample_tip(rng)
    video = render_turn(seed, [Step("still", 5), Step("throw", tip=tip), Step("still", 12)],
                        off_axis=float(rng.uniform(0, 50)))  # fmt: skip
    det, seen = _run(video)
    assert det.peak > det.params.hand_frac  # as much change as a hand
    assert [type(o) for _, o in seen] == [DartSeen]
    e = seen[0][1].estimate
    assert e is not None and e.line is not None
    a, b, c = e.line
    assert abs(a * tip[0] + b * tip[1] - c) < 1.0  # its axis passes through the tip


def test_a_person_s_shadow_falling_on_the_board_is_no_dart():
    """Someone steps between the lamp and the board and stays: as much change as a
    hand, all of it shadow. No dart is reported (nobody is asked to type one)."""
    video = render_turn(7, [Step("still", 4)], off_axis=20.0)
    still = video.frames[0]
    shade = still.copy()
    h, w = shade.shape[:2]
    part = (slice(h // 3, 2 * h // 3), slice(w // 3, w // 2))  # 5.6 % of the frame
    shade[part] = (shade[part] * 0.6).astype(np.uint8)
    det = Detector(video.calibration)
    frames = [still] * 4 + [shade] * 6
    seen = [o for i, f in enumerate(frames) for o in det.feed(f, i)]
    assert not any(isinstance(o, DartSeen) for o in seen)


@pytest.mark.parametrize("size", [(30, 40), (60, 90), (120, 60)])
def test_a_small_shadow_that_stays_is_never_scored_as_a_dart(size):
    """A shadow the size of a dart that stays (a glass put down under the lamp, or a
    dart hidden behind another whose shadow alone is seen): its straight rim is no
    dart's barrel. At most the player is asked to type a dart (``DartSeen`` without
    an estimate); none is scored."""
    video = render_turn(7, [Step("still", 4)], off_axis=20.0)
    still = video.frames[0]
    shade = still.copy()
    h, w = shade.shape[:2]
    part = (slice(h // 2, h // 2 + size[0]), slice(w // 2, w // 2 + size[1]))
    shade[part] = (shade[part] * 0.6).astype(np.uint8)
    det = Detector(video.calibration)
    frames = [still] * 4 + [shade] * 10
    seen = [o for i, f in enumerate(frames) for o in det.feed(f, i)]
    assert all(isinstance(o, DartSeen) and o.estimate is None for o in seen)


def test_darts_are_placed_in_the_calibration_s_pixels_after_the_camera_was_knocked():
    # The first dart knocks the camera by a pixel and a bit, the hand pulling the
    # darts by two more: without lining the frames up, the later darts' change would
    # be every edge of the board, and their tips would be placed pixels off (the
    # calibration fits the first frame).
    tips = [(30.0, 60.0), (-50.0, -20.0), (-10.0, 120.0)]
    steps = [
        Step("still", 2), Step("throw", tip=tips[0], moved=(1.2, -0.8)), Step("still", 3),
        Step("throw", tip=tips[1]), Step("still", 3),
        Step("takeout", moved=(-2.0, 1.5)), Step("still", 3),
        Step("throw", tip=tips[2]), Step("still", 3),
    ]  # fmt: skip
    video = render_turn(5, steps, off_axis=30.0)
    det, seen = _run(video)
    darts = [o for _, o in seen if isinstance(o, DartSeen)]
    assert len(darts) == 3 and sum(isinstance(o, Takeout) for _, o in seen) == 1
    for o, (x, y) in zip(darts, tips, strict=True):
        assert o.estimate is not None and o.estimate.line is not None
        a, b, c = o.estimate.line
        assert abs(a * x + b * y - c) < 0.5  # its axis passes through its tip (mm)
    assert det.shift == pytest.approx((-0.8, 0.7), abs=0.1)


@pytest.mark.parametrize("knock", [3.0, 6.0, 12.0])
def test_a_dart_whose_impact_knocks_the_camera_a_few_pixels_is_still_found(knock):
    # The impact knocks the camera by more than a dart changes of the picture: the
    # change looks like a hand; lined up, the picture has the dart (it was lost unsaid).
    tips = [(0.0, 130.0), (60.0, 110.0), (-60.0, 110.0)]
    steps = [
        Step("still", 3), Step("throw", tip=tips[0]), Step("still", 3),
        Step("throw", tip=tips[1], moved=(knock, knock / 2)), Step("still", 3),
        Step("bounce", tip=(80.0, 10.0), moved=(-knock, 0.0)), Step("still", 3),
        Step("throw", tip=tips[2]), Step("still", 3),
    ]  # fmt: skip
    video = render_turn(9, steps, off_axis=30.0)
    _, seen = _run(video)
    # Placed: the three darts, and no dart made of the knocked bounce-out's edges (a
    # small knock leaves it "seen, not placed": the player is asked to type it).
    darts = [o for _, o in seen if isinstance(o, DartSeen) and o.estimate is not None]
    assert len(darts) == 3, [type(o).__name__ for _, o in seen]
    for o, (x, y) in zip(darts, tips, strict=True):
        assert o.estimate is not None and o.estimate.line is not None
        a, b, c = o.estimate.line
        assert abs(a * x + b * y - c) < 1.0  # its axis passes through its tip (mm)


def test_a_camera_moved_further_than_can_be_lined_up_gives_no_more_darts():
    # Moved 80 px (someone turned it): its darts would be placed 80 px off. It stops,
    # and says by how far it moved (the scorer reports it: "calibrate it again").
    steps = [Step("still", 3), Step("throw", tip=(30.0, 60.0)), Step("still", 3),
             Step("still", 4, moved=(80.0, 30.0)), Step("throw", tip=(-50.0, -20.0)),
             Step("still", 4)]  # fmt: skip
    video = render_turn(5, steps, off_axis=30.0)
    det, seen = _run(video)
    assert [type(o).__name__ for _, o in seen] == ["DartSeen"]
    assert det.moved_away == pytest.approx(np.hypot(80.0, 30.0), abs=2.0)


def test_a_person_in_front_of_the_board_is_not_taken_for_a_moved_camera():
    steps = [Step("still", 3), Step("takeout"), Step("still", 3),
             Step("throw", tip=(-50.0, -20.0)), Step("still", 4)]  # fmt: skip
    video = render_turn(5, steps, off_axis=30.0)
    det, seen = _run(video)
    assert det.moved_away == 0.0
    assert [type(o).__name__ for _, o in seen] == ["DartSeen"]


# Bar Cricket turns: three darts at one target, 6-8 mm apart (seeds never looked at
# before): in the picture the second and third cross the ones already in the board.
AIMS = ("T20", "T19", "T18", "T17", "T16", "T15", "DB", "T20")
GROUPED = tuple(zip(range(7_200_000, 7_200_008), AIMS, strict=True))
SPREAD_MM = ((0.0, 0.0), (6.0, 4.0), (-5.0, 6.0))


def test_darts_grouped_at_one_target_are_seen_and_placed_by_one_camera():  # 9 of 16 now
    # Change lying mostly where earlier darts are is left out as one of them knocked,
    # unless little is left (``tip.KNOWN_KEEP``): left out always, 5 of these 16 second
    # and third darts were placed right, the rest unseen or read from a sliver.
    exact = 0
    for seed, aim in GROUPED:
        ax, ay = centre_of(Dart.parse(aim))
        steps = [Step("still", 2)]
        for dx, dy in SPREAD_MM:
            steps += [Step("throw", tip=(ax + dx, ay + dy)), Step("still", 3)]
        video = render_turn(seed, steps, off_axis=30.0)
        for i, seen in _run(video)[1]:
            # The dart that landed last before the detector spoke of one.
            k, thrown = max((k, d) for k, (at, d) in enumerate(video.impacts) if at <= i)
            if isinstance(seen, DartSeen) and k > 0 and seen.estimate is not None:
                fused = fuse([seen.estimate])
                exact += fused is not None and fused.dart == thrown.dart
    assert exact >= 8, f"{exact}/16 exact"


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(-30, 670),
            st.integers(-30, 390),
            st.integers(-150, 150),
            st.integers(-150, 150),
            st.integers(1, 5),
        ),
        max_size=3,
    )
)
def test_darts_known_are_grown_as_the_whole_frame_would_be(
    strokes: list[tuple[int, int, int, int, int]],
) -> None:
    """Where the darts already in the board are, grown by what a nudge moves them, is
    worked around the dart only (18 ms saved per dart at 1280x720): it must be what
    growing the whole frame gives, at the frame's edges too."""
    mask = np.zeros((360, 640), np.uint8)
    for x, y, dx, dy, width in strokes:
        cv2.line(mask, (x, y), (x + dx, y + dy), 1, width)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (31, 31))
    whole = cv2.dilate(mask, kernel).astype(bool)
    assert (_grown(mask.astype(bool), kernel) == whole).all()


@pytest.mark.parametrize("seed", [3, 5, 9, 21, 40])
def test_a_dart_that_falls_out_is_said_and_is_no_new_dart(seed):
    # It stayed a while (scored), then tipped over and dropped out, no hand near it:
    # taken for a new dart, its tip was placed where it had been (S18, MISS, S4 for
    # a T20), and the player's next dart went to the next player.
    tip = lambda code: centre_of(Dart.parse(code))  # noqa: E731
    steps = [Step("still", 3), Step("throw", tip=tip("T20")), Step("still", 40),
             Step("fallout"), Step("still", 20), Step("throw", tip=tip("S19")),
             Step("still", 6), Step("takeout"), Step("still", 3)]  # fmt: skip
    video = render_turn(seed, steps, off_axis=35.0)
    _, seen = _run(video)
    kinds = [type(o).__name__ for _, o in seen]
    assert kinds == ["DartSeen", "FellOut", "DartSeen", "Takeout"], kinds
    darts = [dart_of(o) for _, o in seen if isinstance(o, DartSeen)]
    assert darts == [Dart.parse("T20"), Dart.parse("S19")]
