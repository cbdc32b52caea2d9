"""A camera moved while the kiosk was off: its first picture is checked against its
calibration (``recheck``). Rendered views of a camera turned about its lens after it
was calibrated; the real scorer on a rendered video."""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from kiosk.adapters.camera import refit, synthetic
from kiosk.adapters.camera.recheck import SURE_FIT, UNSURE_FIT, drift_mm, recheck
from kiosk.adapters.camera.scorer import CameraScorer, CameraStatus
from kiosk.adapters.camera.synth_dart import random_dart
from kiosk.adapters.camera.synthetic import Step, render_turn
from kiosk.domain.board import centre_of, dart_at
from kiosk.domain.darts import Dart

pytestmark = pytest.mark.timeout(120)


def _views(seed: int, turn: tuple[float, float], darts: int = 0):
    """A calibration, and a picture of the board by the same camera turned ``turn``
    (pan, tilt degrees) since, with ``darts`` darts in the board; and the calibration a
    careful user would click now."""
    rng = np.random.default_rng(seed)
    cam = synthetic.random_camera(rng, rng.uniform(10.0, 45.0))
    cal = cam.calibration(rng)
    scene = synthetic.random_scene(rng)
    ds = tuple(random_dart(rng, synthetic.sample_tip(rng, False)) for _ in range(darts))
    now = cam.turned(*turn)
    return cal, synthetic.render(now, scene, rng, ds), now.calibration(rng, click_px=0.0)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_camera_that_has_not_moved_is_left_alone(seed: int) -> None:
    cal, frame, _ = _views(seed, (0.0, 0.0), darts=3)
    r = recheck(frame, cal)
    assert r.verdict == "same" and r.drift_mm < 1.0 and r.calibration is None


@pytest.mark.parametrize(
    ("seed", "turn"), [(1, (0.3, 0.0)), (2, (1.0, 0.0)), (3, (0.5, -0.7)), (2, (4.0, 0.0))]
)
def test_a_camera_knocked_is_fitted_to_the_board_again(seed, turn) -> None:
    cal, frame, now = _views(seed, turn, darts=1)
    r = recheck(frame, cal)
    assert r.verdict == "refitted" and r.calibration is not None
    assert r.drift_mm == pytest.approx(drift_mm(cal, now), abs=0.5)  # how far it had moved
    assert r.drift_mm > 3.0  # far enough to score many darts wrong
    assert drift_mm(now, r.calibration) < 0.6  # the refit is as good as clicking again


@pytest.mark.parametrize(
    ("seed", "turn"), [(100, (0.6, 0.3)), (135, (0.6, 0.3)), (4, (2.0, -1.0)), (31, (2.0, -1.0))]
)
def test_a_camera_knocked_is_fitted_again_with_darts_over_its_rings(seed, turn) -> None:
    # Three darts in the board: the rings' fit lines up less well than the check acts
    # on alone, and the camera, 7-55 mm off, scored every dart that far off until the
    # darts were pulled.
    cal, frame, now = _views(seed, turn, darts=3)
    fit = refit.refit(frame, cal.homography)
    assert UNSURE_FIT <= fit.confidence < SURE_FIT  # (the case: a fit not sure alone)
    r = recheck(frame, cal)
    assert r.verdict == "refitted" and r.calibration is not None, r
    assert r.drift_mm == pytest.approx(drift_mm(cal, now), abs=1.0) and r.drift_mm > 7.0
    assert drift_mm(now, r.calibration) < 1.0


@pytest.mark.parametrize("seed", [100, 118, 155])
def test_a_camera_in_place_with_darts_over_its_rings_keeps_its_calibration(seed) -> None:
    cal, frame, _ = _views(seed, (0.0, 0.0), darts=3)
    fit = refit.refit(frame, cal.homography)
    assert UNSURE_FIT <= fit.confidence < SURE_FIT
    r = recheck(frame, cal)
    assert r.verdict == "unknown" and r.calibration is None, r


@pytest.mark.parametrize(("seed", "verdict"), [(2, "refitted"), (5, "refitted"), (1, "refitted")])
def test_a_camera_rolled_with_darts_in_is_fitted_again_or_said_moved(seed, verdict) -> None:
    # Turned 10 degrees about its line of sight, three darts in the board: the rings
    # were not found again from scratch, and the camera went on scoring every dart
    # 30-45 mm off, unchecked. Now a roll is looked for; where the numbers confirm it,
    # the camera is fitted again, else it is called moved (calibrate it again). (Seed 1
    # was "moved" until flights over the numbers were left out of their ink.)
    cal, frame, now = _views(seed, (0.0, 0.0, 10.0), darts=3)
    r = recheck(frame, cal)
    assert r.verdict == verdict, r
    if verdict == "refitted":
        assert r.calibration is not None and drift_mm(now, r.calibration) < 0.6
        assert r.drift_mm == pytest.approx(drift_mm(cal, now), abs=1.0)
    else:
        assert r.drift_mm >= 10.0


@pytest.mark.parametrize(
    ("roll", "verdict"),
    [(20.0, "refitted"), (30.0, "moved"), (34.0, "moved"), (36.0, "moved"), (72.0, "moved")],
)
def test_a_camera_rolled_far_is_never_fitted_36_degrees_off(roll, verdict) -> None:
    # The rings repeat every 36 degrees: rolled 30, they line up as well 6 degrees
    # from before; the numbers (or the size of the turn) tell it is not a knock, and
    # it must be calibrated again. A roll the numbers confirm is followed (20 degrees).
    video = render_turn(12, [Step("still", 1)], off_axis=20.0,
                        turned_since_calibrated=(0.0, 0.0, roll))  # fmt: skip
    r = recheck(video.frames[0], video.calibration)
    assert r.verdict == verdict and r.drift_mm >= 10.0, r
    if verdict == "refitted":
        truth = video.camera.calibration(np.random.default_rng(0), click_px=0.0)
        assert r.calibration is not None and drift_mm(truth, r.calibration) < 0.6
    else:
        assert r.calibration is None


@pytest.mark.parametrize(("seed", "dart", "camera"), [(302, 2, 0), (305, 2, 2), (307, 0, 1)])
def test_darts_over_the_numbers_do_not_pass_for_a_camera_turned(seed, dart, camera) -> None:
    # Pictures with darts in the board whose numbers read as if 20 were elsewhere, the
    # rings where the calibration puts them: "moved, calibrate it again" took a camera
    # that had not moved out of the game (7 of 144 such pictures).
    rng = np.random.default_rng(seed)
    tips = [synthetic.sample_tip(rng) for _ in range(3)]
    throw = synthetic.render_grouped(seed, tips, 3, off_axis=(15.0, 50.0))[dart]
    r = recheck(throw.after[camera], throw.calibrations[camera])
    # ("numbers": read as if 20 were elsewhere, checked again later; since flights over
    # the numbers are left out of their ink, two of these read right: "same")
    assert r.verdict in ("numbers", "same", "unknown") and r.calibration is None, r
    assert r.verdict == "unknown" or r.drift_mm < 2.0, r


def _verdicts(checks, frame, n: int) -> list[str]:
    """Asked for a check, the verdicts of the first ``n`` that end (``Checks.poll``, on
    a still picture, as the camera's frames would call it)."""
    checks.ask(wait=True)
    seen: list[str] = []
    while len(seen) < n:
        r = checks.poll(frame, None, still=True)  # type: ignore[arg-type]
        if r is not None:
            seen.append(r.verdict)
    return seen


def test_a_fit_made_with_darts_in_is_checked_again_once_they_are_pulled(monkeypatch) -> None:
    # Fitted again from rings half hidden by darts (a fit not sure alone: such fits of
    # cameras that had not moved lay up to 5 mm off), the camera is checked again; with
    # the darts pulled, a sure fit confirms it and the checks stop.
    from concurrent.futures import ThreadPoolExecutor

    from kiosk.adapters.camera import recheck as module

    monkeypatch.setattr(module, "RECHECK_EVERY_S", 0.0)
    cal, with_darts, now = _views(100, (0.6, 0.3), darts=3)
    _, pulled, _ = _views(100, (0.6, 0.3), darts=0)  # (the same camera and board)
    with ThreadPoolExecutor(1) as pool:
        checks = module.Checks(pool)
        checks.ask(wait=True)
        first = checks.poll(with_darts, cal, still=True)
        assert first is not None and first.verdict == "refitted" and not first.sure
        assert first.calibration is not None and checks.again
        second = None
        while second is None:
            second = checks.poll(pulled, first.calibration, still=True)
        assert second.verdict == "same" and second.sure and not checks.again
    assert drift_mm(now, first.calibration) < 1.0


def test_numbers_alone_are_checked_again_and_are_a_move_only_when_they_stay_so(
    monkeypatch,
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from kiosk.adapters.camera import recheck as module

    said = iter(["numbers", "numbers", "same"])
    monkeypatch.setattr(module, "recheck", lambda f, c: module.Recheck(next(said), 0.5))
    monkeypatch.setattr(module, "RECHECK_EVERY_S", 0.0)
    frame = np.zeros((8, 8, 3), np.uint8)  # (the checks are stood in for)
    with ThreadPoolExecutor(1) as pool:
        checks = module.Checks(pool)
        seen = _verdicts(checks, frame, 3)
        assert seen == ["numbers", "numbers", "same"]  # the darts pulled: in place
        assert not checks.again
        monkeypatch.setattr(module, "recheck", lambda f, c: module.Recheck("numbers", 0.5))
        seen = _verdicts(checks, frame, module.RECHECK_TRIES)
        assert seen == ["numbers"] * (module.RECHECK_TRIES - 1) + ["moved"]
        assert not checks.again


def test_a_blank_picture_says_no_rings_were_found_and_is_not_taken_for_a_roll() -> None:
    # A lens cap, a dark room: every roll lines up alike, and the search for one took
    # the first, whose fit then failed and said so in OpenCV's words in the log.
    video = render_turn(3, [Step("still", 1)], off_axis=20.0)
    r = recheck(np.full_like(video.frames[0], 128), video.calibration)
    assert r.verdict == "unseen", r
    assert r.detail.startswith("no red and green board rings in the picture"), r.detail


def test_a_hand_in_front_of_the_board_does_not_pass_for_a_move() -> None:
    video = render_turn(4, [Step("still", 1), Step("throw", tip=(30.0, 60.0)), Step("still", 2),
                            Step("takeout")])  # fmt: skip
    for frame in video.frames[12::4]:  # the hand reaches in, pulls, goes
        r = recheck(frame, video.calibration)
        assert r.verdict in ("same", "unknown"), r


def _write_video(path: Path, frames: list[np.ndarray]) -> None:
    h, w = frames[0].shape[:2]
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, (w, h))
    for f in frames:
        out.write(f)
    out.release()


def _score(tmp_path: Path, video: synthetic.Video) -> list[object]:
    _write_video(tmp_path / "turn.avi", video.frames)
    events: list[object] = []
    done = threading.Event()

    def sink(e: object) -> None:
        events.append(e)
        if type(e).__name__ == "Hit" or getattr(e, "state", "") == "lost":
            done.set()

    s = CameraScorer([str(tmp_path / "turn.avi")], [video.calibration], sink, retry_interval=60)
    s.start()
    done.wait(30)
    s.stop()
    return events


def test_the_scorer_places_darts_right_from_a_camera_moved_since_it_was_calibrated(
    tmp_path: Path,
) -> None:
    tip = centre_of(Dart.parse("T20"))
    steps = [Step("still", 4), Step("throw", tip=tip), Step("still", 6)]
    video = render_turn(11, steps, off_axis=20.0, turned_since_calibrated=(0.0, 0.8))
    # The calibration as it was places the dart's point in another segment ...
    ((x, y),) = video.calibration.image_to_board(video.camera.project(np.array([[*tip, 0.0]])))
    assert dart_at(float(x), float(y)) != Dart.parse("T20")
    # ... the scorer sees the camera moved, fits it again and scores it right.
    hits = [e for e in _score(tmp_path, video) if type(e).__name__ == "Hit"]
    assert [str(h.dart) for h in hits] == ["T20"]


def test_the_scorer_reports_a_camera_turned_too_far_since_it_was_calibrated(
    tmp_path: Path,
) -> None:
    steps = [Step("still", 4), Step("throw", tip=(0.0, 60.0)), Step("still", 6)]
    video = render_turn(11, steps, off_axis=20.0, turned_since_calibrated=(0.0, 0.0, 25.0))
    events = _score(tmp_path, video)
    lost = [e for e in events if isinstance(e, CameraStatus) and e.state == "lost"]
    assert lost and lost[0].calibrate and "calibrate it again" in lost[0].detail
    assert not any(type(e).__name__ == "Hit" for e in events)


def test_a_check_that_fails_keeps_the_camera_scoring(tmp_path: Path, monkeypatch) -> None:
    def broken(frame: np.ndarray, cal: object) -> None:
        raise np.linalg.LinAlgError("singular matrix")  # e.g. a degenerate ellipse fit

    monkeypatch.setattr("kiosk.adapters.camera.recheck.recheck", broken)
    steps = [Step("still", 4), Step("throw", tip=(0.0, 60.0)), Step("still", 6)]
    events = _score(tmp_path, render_turn(11, steps, off_axis=20.0))
    assert [str(e.dart) for e in events if type(e).__name__ == "Hit"] == ["S20"]  # type: ignore[attr-defined]


def test_a_check_that_could_not_tell_is_tried_again_once_the_picture_is_still(
    tmp_path: Path, monkeypatch
) -> None:
    # A camera warming up gives black pictures first; it was turned since its
    # calibration: the check on the first picture cannot tell, the next one fits it.
    monkeypatch.setattr("kiosk.adapters.camera.recheck.RECHECK_EVERY_S", 0.3)
    tip = centre_of(Dart.parse("T20"))
    # (3 s of still board: the check again has time to run before the dart on a loaded
    # machine; with 1.5 s it sometimes had not, and the dart was read turned)
    steps = [Step("still", 90), Step("throw", tip=tip), Step("still", 30)]
    video = render_turn(11, steps, off_axis=20.0, turned_since_calibrated=(0.0, 0.8))
    frames = [np.zeros_like(video.frames[0])] * 5 + video.frames
    _write_video(tmp_path / "turn.avi", frames)
    events: list[object] = []
    s = CameraScorer([str(tmp_path / "turn.avi")], [video.calibration], events.append,
                     realtime=True, retry_interval=60)  # fmt: skip
    s.start()
    deadline = threading.Event()
    for _ in range(100):
        if any(type(e).__name__ == "Hit" for e in events):
            break
        deadline.wait(0.1)
    s.stop()
    assert [str(e.dart) for e in events if type(e).__name__ == "Hit"] == ["T20"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("picture", ["black", "grey", "wall"])
def test_a_picture_with_no_board_where_the_calibration_puts_it_is_unseen(picture) -> None:
    video = render_turn(3, [Step("still", 1)], off_axis=20.0)
    frame = video.frames[0]
    blank = {"black": np.zeros_like(frame), "grey": np.full_like(frame, 128),
             "wall": np.broadcast_to(frame[0, 0], frame.shape).copy()}[picture]  # fmt: skip
    assert recheck(blank, video.calibration).verdict == "unseen"
    assert recheck(frame, video.calibration).verdict == "same"  # (the board: not unseen)


def test_a_camera_that_stays_unseen_is_said_blind_and_looked_at_again(monkeypatch) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from kiosk.adapters.camera import recheck as module

    monkeypatch.setattr(module, "recheck", lambda f, c: module.Recheck("unseen", float("nan")))
    monkeypatch.setattr(module, "RECHECK_EVERY_S", 0.0)
    frame = np.zeros((8, 8, 3), np.uint8)  # (the checks are stood in for)
    with ThreadPoolExecutor(1) as pool:
        checks = module.Checks(pool)
        seen = _verdicts(checks, frame, module.RECHECK_TRIES)
        assert seen == ["unseen"] * (module.RECHECK_TRIES - 1) + ["blind"]
        assert checks.again  # every BLIND_RECHECK_S from now on: it may be uncovered


def test_the_scorer_says_a_camera_that_does_not_see_the_board_and_when_it_does_again(
    tmp_path: Path, monkeypatch
) -> None:
    # A camera covered, turned away or in the dark was shown as scoring while every
    # dart was missed. (Rendered: 2 s of a grey picture, then the board.)
    from kiosk.adapters.camera import recheck as module
    from kiosk.adapters.camera.scorer import NOT_IN_VIEW

    monkeypatch.setattr(module, "RECHECK_EVERY_S", 0.1)
    monkeypatch.setattr(module, "RECHECK_TRIES", 2)
    monkeypatch.setattr(module, "BLIND_RECHECK_S", 0.3)
    video = render_turn(11, [Step("still", 150)], off_axis=20.0)
    frames = [np.full_like(video.frames[0], 128)] * 60 + video.frames
    _write_video(tmp_path / "turn.avi", frames)
    events: list[object] = []
    s = CameraScorer([str(tmp_path / "turn.avi")], [video.calibration], events.append,
                     realtime=True, retry_interval=60)  # fmt: skip
    s.start()
    wait = threading.Event()
    for _ in range(100):
        said = [(e.state, e.detail) for e in events if isinstance(e, CameraStatus)]
        if ("connected", "sees the board again") in said:
            break
        wait.wait(0.1)
    s.stop()
    said = [(e.state, e.detail) for e in events if isinstance(e, CameraStatus)]
    lost = [d for st, d in said if st == "lost"]
    assert lost and lost[0].startswith(NOT_IN_VIEW), said
    assert said[-1] == ("connected", "sees the board again"), said
    assert not any(type(e).__name__ == "Hit" for e in events)
