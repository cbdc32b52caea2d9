"""Automatic calibration on rendered boards (``synthetic.py``): how close its homography
comes to the camera's true one, and that it refuses pictures without a whole board."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from kiosk.adapters.camera import synthetic
from kiosk.adapters.camera.autocal import auto_calibrate, known_points
from kiosk.adapters.camera.calibration import Calibration
from kiosk.adapters.camera.refit import homography_drift
from kiosk.adapters.camera.synth_dart import DartModel, random_dart
from kiosk.domain import board

# Measured over 12 seeds per angle (0-50 degrees): bull error <= 0.03 mm, worst
# double-ring wire crossing <= 0.19 mm. The bounds leave room, not slack for a bug:
# a segment is 18 degrees (53 mm at the double ring) wide.
BULL_MM = 0.25
WALL = (70, 96, 122)  # BGR, a brown wall as the renderer draws it
DOUBLE_MM = 0.5


def _scene(seed: int, angle: float) -> tuple[synthetic.Camera, np.ndarray]:
    rng = np.random.default_rng(seed)
    cam = synthetic.random_camera(rng, angle)
    return cam, synthetic.render(cam, synthetic.random_scene(rng), rng)


def _truth_image(cam: synthetic.Camera, pts: np.ndarray) -> np.ndarray:
    q = np.column_stack([pts, np.ones(len(pts))]) @ cam.board_to_image.T
    return np.asarray(q[:, :2] / q[:, 2:3])


def _errors(cal: Calibration, cam: synthetic.Camera) -> tuple[float, float]:
    pts = np.array(known_points())
    est = cal.image_to_board(_truth_image(cam, pts))
    err = np.linalg.norm(est - pts, axis=1)
    doubles = [i for i, (x, y) in enumerate(pts) if abs(np.hypot(x, y) - board.DOUBLE_OUTER) < 1]
    return float(err[0]), float(err[doubles].max())


# Boards whose numbers read clearly at every angle. (Seed 1's at 40 degrees no longer
# do, read once the rings are fitted finely: margin 0.16, and it asks for the 20 to be
# marked. Such refusals, measured: 1 in 60 boards at 40 degrees and 3 in 60 at 50,
# against 5 and 10 when the numbers were read off the rings' rough fit; none wrong.)
@pytest.mark.parametrize("angle", [0, 10, 20, 30, 40])
@pytest.mark.parametrize("seed", [3, 4])
def test_finds_the_board_to_a_fraction_of_a_millimetre_at_any_angle_up_to_40_degrees(
    angle: int, seed: int
) -> None:
    cam, img = _scene(100 * angle + seed, angle)
    res = auto_calibrate(img)
    assert res.ok, res.reason
    assert res.calibration is not None
    assert res.twenty_from == "numbers"
    bull, double = _errors(res.calibration, cam)
    assert bull < BULL_MM
    assert double < DOUBLE_MM
    assert 0.5 < res.confidence <= 1.0


@pytest.mark.parametrize("seed", [8, 9, 10])
def test_a_dart_in_the_board_never_gives_a_wrong_calibration(seed: int) -> None:
    # A flight can be red or green and break a ring: then it refuses (calibrate with
    # the darts out); when it does answer, the answer is right.
    rng = np.random.default_rng(seed)
    cam = synthetic.random_camera(rng, 25.0)
    scene = synthetic.random_scene(rng)
    img = synthetic.render(cam, scene, rng, (synthetic.random_dart(rng, (20.0, 110.0)),))
    res = auto_calibrate(img)
    if res.calibration is not None:
        assert _errors(res.calibration, cam)[1] < DOUBLE_MM
    else:
        assert res.reason


def test_darts_over_the_numbers_that_misread_them_do_not_give_a_wrong_calibration() -> None:
    # Three darts in; one over the numbers made them read one turn off (margin 0.18),
    # and with the rings now found under the darts, that gave a calibration 105 mm
    # off. The read rests on that one number (left out, another turn wins): no read.
    rng = np.random.default_rng(349)
    tips = [synthetic.sample_tip(rng) for _ in range(3)]
    throw = synthetic.render_grouped(349, tips, 3, off_axis=(15.0, 50.0))[2]
    res = auto_calibrate(throw.after[0])
    if res.homography is not None:
        truth = throw.calibrations[0].homography
        assert homography_drift(truth, res.homography, (1280, 720)) < 2.0, res.reason
    else:
        assert "segment is 20" in res.template


@pytest.mark.parametrize(("seed", "width"), [(8, 213), (5, 213), (6, 200)])
def test_a_board_too_small_to_read_along_rays_is_not_fitted_millimetres_off(seed, width) -> None:
    # A board about 80 px across (a small picture): its rings are not found whole, and
    # read along rays they were fitted 5-12 mm off. It is refused instead.
    cam, img = _scene(seed, 20.0)
    s = width / img.shape[1]
    small = cv2.resize(img, (width, round(img.shape[0] * s)), interpolation=cv2.INTER_AREA)
    res = auto_calibrate(small)
    if res.homography is not None:
        truth = np.linalg.inv(np.diag([s, s, 1.0]) @ cam.board_to_image)
        assert homography_drift(truth, res.homography, small.shape[1::-1]) < 2.0
    else:
        assert res.reason


def _dart_along_its_ring(rng: np.random.Generator, radius: float, deg: float) -> DartModel:
    """A dart in a ring at ``deg`` clockwise from 20, leaning along the ring: its barrel,
    shaft and flight hide a stretch of it."""
    a = math.radians(90.0 - deg)
    lean = math.radians(25.0)
    d = (-math.sin(a) * math.sin(lean), math.cos(a) * math.sin(lean), math.cos(lean))
    return replace(random_dart(rng, (radius * math.cos(a), radius * math.sin(a))), direction=d)


@pytest.mark.parametrize("seed", [1, 5, 7, 10])
def test_darts_over_the_double_and_treble_rings_do_not_hide_the_board(seed: int) -> None:
    # Three darts leaning along the double, treble and double rings break them: before,
    # no whole ring was found ("no double and treble rings found") on these seeds.
    rng = np.random.default_rng(900 + seed)
    cam = synthetic.random_camera(rng, float(rng.uniform(0, 45)))
    scene = synthetic.random_scene(rng)
    darts = tuple(_dart_along_its_ring(rng, r, deg + 40.0 * seed)
                  for r, deg in ((166.0, 0.0), (103.0, 130.0), (166.0, 250.0)))  # fmt: skip
    res = auto_calibrate(synthetic.render(cam, scene, rng, darts))
    assert res.calibration is not None, res.reason
    assert res.twenty_from == "numbers"
    bull, double = _errors(res.calibration, cam)
    assert bull < BULL_MM
    assert double < DOUBLE_MM


def _flights_over(
    img: np.ndarray, cam: synthetic.Camera, numbers: tuple[int, ...], hsv: tuple[int, int, int]
) -> None:
    """Saturated flights drawn over the ring of ``numbers``: of four hues (hue -1), or
    all of the one colour ``hsv`` (OpenCV's HSV)."""
    for k, n in enumerate(numbers):
        a = math.radians(90.0 - 18.0 * board.SEGMENTS.index(n))
        c = 197.0 * np.array([math.cos(a), math.sin(a)])
        out, side = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
        quad = np.array([c + 20 * out + 9 * side, c + 20 * out - 9 * side,
                         c - 20 * out - 5 * side, c - 20 * out + 5 * side])  # fmt: skip
        q = np.column_stack([quad, np.ones(4)]) @ cam.board_to_image.T
        pixel = np.uint8([[[45 * k if hsv[0] < 0 else hsv[0], hsv[1], hsv[2]]]])
        colour = tuple(int(v) for v in cv2.cvtColor(pixel, cv2.COLOR_HSV2BGR)[0, 0])
        cv2.fillConvexPoly(img, (q[:, :2] / q[:, 2:]).astype(np.int32), colour, cv2.LINE_AA)


@pytest.mark.parametrize(
    ("seed", "hsv"),
    [(0, (-1, 220, 200)), (8, (-1, 220, 200)), (10, (-1, 220, 200)), (1, (-1, 220, 200)),
     (2, (-1, 220, 200)), (0, (28, 220, 245)), (3, (28, 220, 245))],
)  # fmt: skip
def test_coloured_flights_over_the_numbers_are_not_read_as_their_ink(seed, hsv) -> None:
    # Flights over four one-digit numbers read as two-digit ones put 20 36 or 72 degrees
    # off on seeds 0, 8 and 10 (a calibration wrong by 105 mm and more), and refused it
    # on 1 and 2. The flights' colour is not the ring's black or white: left out. Four
    # yellow flights brighter than the numbers (the last two) must not pass for their
    # white: they were, and every such picture asked for the 20 to be marked.
    rng = np.random.default_rng(7000 + seed)
    cam = synthetic.random_camera(rng, 20.0)
    img = synthetic.render(cam, synthetic.random_scene(rng), rng)
    _flights_over(img, cam, (1, 5, 9, 3), hsv)
    res = auto_calibrate(img)
    assert res.calibration is not None, res.reason
    assert res.twenty_from == "numbers"
    assert _errors(res.calibration, cam)[1] < DOUBLE_MM


def test_without_readable_numbers_it_asks_for_the_20_and_a_hint_on_it_is_enough() -> None:
    cam, img = _scene(33, 30.0)
    # Paint out everything beyond the double ring: no numbers to read.
    h, w = img.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w]
    inv = np.linalg.inv(cam.board_to_image)
    q = np.column_stack([xs.ravel(), ys.ravel(), np.ones(xs.size)]) @ inv.T
    r = np.hypot(q[:, 0] / q[:, 2], q[:, 1] / q[:, 2]).reshape(h, w)
    img = img.copy()
    img[r > board.DOUBLE_OUTER + 3] = (25, 25, 25)
    refused = auto_calibrate(img)
    assert not refused.ok
    assert "20" in refused.reason
    on_twenty = _truth_image(cam, np.array([board.point_at(9.0, board.DOUBLE_OUTER)]))[0]
    res = auto_calibrate(img, twenty_hint=(float(on_twenty[0]), float(on_twenty[1])))
    assert res.calibration is not None, res.reason
    assert res.twenty_from == "hint"
    assert _errors(res.calibration, cam)[1] < DOUBLE_MM


def test_a_hint_the_numbers_contradict_is_refused_not_trusted() -> None:
    # A first mark on the wrong wire (18, two segments clockwise, has red rings like
    # 20) would turn every dart by two segments; the numbers, read clearly, say so.
    cam, img = _scene(4, 20.0)
    at_18 = _truth_image(cam, np.array([board.point_at(board.segment_centre_angle(18), 140.0)]))
    res = auto_calibrate(img, twenty_hint=(float(at_18[0, 0]), float(at_18[0, 1])))
    assert res.calibration is None
    assert "numbers put 20 elsewhere" in res.reason
    at_20 = _truth_image(cam, np.array([board.point_at(board.segment_centre_angle(20), 140.0)]))
    agreed = auto_calibrate(img, twenty_hint=(float(at_20[0, 0]), float(at_20[0, 1])))
    assert agreed.calibration is not None, agreed.reason
    x, y = agreed.calibration.image_to_board(at_20)[0]
    assert board.segment_at(float(x), float(y)) == 20


@pytest.mark.parametrize(("radius", "said"), [(5.0, "on the bull"), (300.0, "off the board")])
def test_a_hint_on_the_bull_or_off_the_board_is_refused(radius: float, said: str) -> None:
    cam, img = _scene(4, 20.0)
    pt = _truth_image(cam, np.array([board.point_at(board.segment_centre_angle(20), radius)]))
    res = auto_calibrate(img, twenty_hint=(float(pt[0, 0]), float(pt[0, 1])))
    assert res.calibration is None
    assert said in res.reason


@pytest.mark.parametrize(
    "picture",
    [
        np.full((720, 1280, 3), WALL, np.uint8),
        np.random.default_rng(3).integers(0, 256, (720, 1280, 3), dtype=np.uint8),
        np.zeros((10, 10, 3), np.uint8),
    ],
    ids=["bare wall", "noise", "tiny"],
)
def test_refuses_a_picture_with_no_board_and_says_why(picture: np.ndarray) -> None:
    res = auto_calibrate(picture)
    assert not res.ok
    assert res.calibration is None
    assert res.reason


def test_refuses_red_and_green_things_that_are_not_a_board() -> None:
    import cv2

    img = np.full((720, 1280, 3), WALL, np.uint8)
    cv2.circle(img, (400, 360), 200, (48, 36, 192), -1)
    cv2.circle(img, (900, 360), 150, (64, 138, 28), 25)
    cv2.circle(img, (900, 360), 60, (48, 36, 192), 12)
    assert not auto_calibrate(img).ok


def test_refuses_a_board_cut_off_by_the_edge_of_the_picture() -> None:
    _, img = _scene(9, 20.0)
    assert not auto_calibrate(np.ascontiguousarray(img[:, :560])).ok


@pytest.mark.parametrize("seed", [605, 609])
def test_a_board_cut_off_with_darts_in_is_refused_as_cut_off(seed: int) -> None:
    # The darts break the rings, so they are read along rays, which stop at the edge:
    # the piece of the ring in the picture was taken for the board, and the screen
    # asked for the 20 to be marked on a board it cannot all see.
    rng = np.random.default_rng(seed)
    cam = synthetic.random_camera(rng, 20.0)
    scene = synthetic.random_scene(rng)
    darts = tuple(random_dart(rng, synthetic.sample_tip(rng)) for _ in range(3))
    img = synthetic.render(cam, scene, rng, darts)
    edge = cam.board_to_image @ np.array([168.0, 0.0, 1.0])  # through the double ring
    res = auto_calibrate(np.ascontiguousarray(img[:, : int(edge[0] / edge[2])]))
    assert not res.ok
    assert "cut off by the edge" in res.reason


def test_its_calibration_saves_and_loads_like_a_hand_made_one(tmp_path: object) -> None:
    from pathlib import Path

    cam, img = _scene(21, 15.0)
    res = auto_calibrate(img)
    assert res.calibration is not None
    path = Path(str(tmp_path)) / "cal.json"
    res.calibration.save(path)
    back = Calibration.load(path)
    assert len(back.points) >= 20
    assert back.image_size == (img.shape[1], img.shape[0])
    assert _errors(back, cam)[1] < DOUBLE_MM


@pytest.mark.parametrize(
    ("size", "seed"), [((2560, 1440), 11), ((2880, 2160), 11), ((2160, 2880), 12)]
)
def test_a_photo_larger_than_video_is_found_and_calibrated_at_its_own_size(
    size: tuple[int, int], seed: int
) -> None:
    # A phone's photo (camera-calibrate --image), 16:9, 4:3 or upright: the rings'
    # search, tuned for video, found no rings in a board over about 900 px across; the
    # photo is searched scaled to fit 1920x1080, the calibration given back for the
    # photo's own pixels.
    rng = np.random.default_rng(seed)
    cam = synthetic.random_camera(rng, 30.0, size)
    image = synthetic.render(cam, synthetic.random_scene(rng), rng)
    hint = tuple(_truth_image(cam, np.array([[0.0, 140.0]]))[0])  # on the 20, as marked
    for twenty in (None, hint):
        found = auto_calibrate(image, twenty)
        assert found.calibration is not None, found.reason
        assert found.calibration.image_size == size
        bull, double = _errors(found.calibration, cam)  # (searched at fewer pixels: an
        assert bull < 2 * BULL_MM and double < 2 * DOUBLE_MM  # upright one at 810x1080)
