"""The calibration screen in the real app, headless: clicks and keypad presses at the
true image points of the known board points (the renderer's ground truth) give a
calibration file that ``Calibration.load`` reads back and that matches the camera."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pygame
import pytest

from kiosk.adapters.camera import synthetic
from kiosk.adapters.camera.calibration import Calibration
from kiosk.adapters.keypad import KeyAction
from kiosk.commands._camera_calibrate import Session, open_session
from kiosk.domain import board
from kiosk.ui.screen import Click
from kiosk.ui.screens.camera_calibrate import TARGETS

ROOT = Path(__file__).resolve().parents[2]
CHECK = np.array([[0.0, 0.0], [100.0, 50.0], [-120.0, -90.0], [0.0, 165.0], [-150.0, 60.0]])


@pytest.fixture(scope="module")
def camera() -> tuple[synthetic.Camera, np.ndarray]:
    rng = np.random.default_rng(5)
    cam = synthetic.random_camera(rng, 30.0)
    return cam, synthetic.render(cam, synthetic.random_scene(rng), rng)


@pytest.fixture(scope="module")
def face_on() -> np.ndarray:
    """A picture from a camera 5 degrees off the board's axis."""
    rng = np.random.default_rng(6)
    cam = synthetic.random_camera(rng, 5.0)
    return synthetic.render(cam, synthetic.random_scene(rng), rng)


def _truth(cam: synthetic.Camera, b: tuple[float, float]) -> tuple[float, float]:
    q = cam.board_to_image @ np.array([b[0], b[1], 1.0])
    return (float(q[0] / q[2]), float(q[1] / q[2]))


def _error_mm(cal: Calibration, cam: synthetic.Camera) -> float:
    img = np.array([_truth(cam, (float(x), float(y))) for x, y in CHECK])
    return float(np.linalg.norm(cal.image_to_board(img) - CHECK, axis=1).max())


@pytest.fixture
def session(camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path) -> Iterator[Session]:
    s = open_session(camera[1], tmp_path / "cal.json", size=(1280, 720))
    yield s
    s.close()


def _put(s: Session, *events: object) -> None:
    for e in events:
        s.inbox.put(e, source="keypad")
    s.app.step(0)
    while s.screen.busy:  # a check said on screen first runs on the next step
        s.app.step(0)


def _click(s: Session, pt: tuple[float, float]) -> None:
    x, y = s.screen.image_to_screen(pt)
    _put(s, Click((round(x), round(y))))


def test_clicking_the_five_points_shows_the_board_and_enter_saves_a_calibration_that_fits(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    cam, _ = camera
    assert "20/1" in " ".join(session.app.texts)
    for t in TARGETS:
        _click(session, _truth(cam, t.board))
    assert session.screen.reviewing
    assert "Do the rings and wires lie on the board?" in session.app.texts
    assert not (tmp_path / "cal.json").exists()  # nothing is saved before Enter
    _put(session, KeyAction("enter"))
    assert session.screen.saved
    assert "Calibration saved" in session.app.texts
    assert not any("Enter = save" in t for t in session.app.texts)  # done: no keys offered
    cal = Calibration.load(tmp_path / "cal.json")
    assert len(cal.points) == 5
    # A click lands on a whole screen pixel (1.2 picture pixels here): about 0.5 mm.
    assert _error_mm(cal, cam) < 1.5


def test_start_again_and_quit_ask_once_before_throwing_marks_away(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    """- and / sit beside the keys that move the crosshair: one slip used to throw away
    the points marked so far (or a calibration shown, not saved). The first press asks."""
    cam, _ = camera
    screen = session.screen
    for t in TARGETS[:3]:
        _click(session, _truth(cam, t.board))
    _put(session, KeyAction("undo", "-"))
    assert len(screen.marks) == 3
    assert "- again to start again: the points marked go" in session.app.texts
    _put(session, KeyAction("cancel", "/"))  # another key: the question goes, / asks its own
    assert not screen.finished and len(screen.marks) == 3
    assert "/ again to quit: nothing is saved" in session.app.texts
    _click(session, _truth(cam, TARGETS[3].board))  # marking on: the questions go
    _put(session, KeyAction("undo", "-"), KeyAction("undo", "-"))
    assert screen.marks == []
    for t in TARGETS:
        _click(session, _truth(cam, t.board))
    assert screen.reviewing
    review = "Check the rings and wires. Enter = save, . = back, - = start again"
    _put(session, KeyAction("undo", "-"), KeyAction("cancel", "/"), KeyAction("digit", "8"))
    assert review in session.app.texts, session.app.texts  # what to do is back, not blank
    _put(session, KeyAction("cancel", "/"))
    assert not screen.finished
    _put(session, KeyAction("cancel", "/"))
    assert screen.finished and not (tmp_path / "cal.json").exists()


def test_the_keypad_alone_marks_the_points_with_the_crosshair(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    cam, _ = camera
    screen = session.screen
    presses = 0
    for n, t in enumerate(TARGETS):
        tx, ty = _truth(cam, t.board)
        if n == 4:  # the bull: the crosshair already waits where the wires' diagonals cross
            assert math.dist(screen.cursor, (tx, ty)) < 3.0, (screen.cursor, (tx, ty))
        for step in screen.steps:  # large, coarse, fine
            while screen.step != step:
                _put(session, KeyAction("times", "*"))
                presses += 1
            cx, cy = screen.cursor
            nx, ny = round((tx - cx) / step), round((ty - cy) / step)
            keys = ["6" if nx > 0 else "4"] * abs(nx) + ["2" if ny > 0 else "8"] * abs(ny)
            _put(session, *(KeyAction("digit", k) for k in keys))
            presses += len(keys)
        _put(session, KeyAction("digit", "5"))
    assert screen.reviewing
    # Five points in well under a hundred presses (8-pixel steps alone took 230-300).
    assert presses < 100, presses
    _put(session, KeyAction("enter"))
    assert _error_mm(Calibration.load(tmp_path / "cal.json"), cam) < 1.0


def test_a_wrong_click_is_taken_back_with_the_point_key(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    cam, _ = camera
    _click(session, _truth(cam, TARGETS[0].board))
    _click(session, (30.0, 30.0))  # a slip, far from the 6/10 wire
    _put(session, KeyAction("back", "."))
    assert len(session.screen.marks) == 1
    for t in TARGETS[1:]:
        _click(session, _truth(cam, t.board))
    _put(session, KeyAction("enter"))
    assert _error_mm(Calibration.load(tmp_path / "cal.json"), cam) < 1.5


def test_points_that_cannot_be_a_board_are_refused_on_screen_and_nothing_is_saved(
    session: Session, tmp_path: Path
) -> None:
    for i in range(len(TARGETS)):
        _click(session, (400.0 + 40 * i, 300.0))  # five points on one line
    assert not session.screen.reviewing
    assert session.screen.error
    assert any("do not fit a board" in t for t in session.app.texts)
    _put(session, KeyAction("enter"))
    assert not (tmp_path / "cal.json").exists()


@pytest.mark.parametrize(
    ("order", "why"),
    [
        ((1, 2, 3, 0, 4), "The board's numbers put 20 elsewhere"),  # begun at the 6/10 wire
        ((0, 3, 2, 1, 4), "These points go round the wrong way"),  # anticlockwise
    ],
)
def test_points_marked_turned_or_mirrored_are_refused_and_can_be_put_right(
    session: Session,
    camera: tuple[synthetic.Camera, np.ndarray],
    tmp_path: Path,
    order: tuple[int, ...],
    why: str,
) -> None:
    # The rings and wires drawn back would lie on the board all the same: only where
    # 20 is (or the way round) tells, and every dart would score wrong.
    cam, _ = camera
    for i in order:
        _click(session, _truth(cam, TARGETS[i].board))
    screen = session.screen
    assert not screen.reviewing and screen.error
    assert "These points cannot be used" in session.app.texts
    assert any(t.startswith(why) for t in session.app.texts), session.app.texts
    _put(session, KeyAction("enter"))
    assert not (tmp_path / "cal.json").exists()
    _put(session, KeyAction("undo", "-"))  # start again, the right way round
    for t in TARGETS:
        _click(session, _truth(cam, t.board))
    assert screen.reviewing
    _put(session, KeyAction("enter"))
    assert _error_mm(Calibration.load(tmp_path / "cal.json"), cam) < 1.5


def test_the_auto_key_shows_the_automatic_calibration_for_confirmation(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    cam, _ = camera
    _put(session, KeyAction("digit", "0"))
    assert session.screen.reviewing
    assert any("Auto calibration" in t for t in session.app.texts)
    assert not any("face-on" in t for t in session.app.texts)  # 30 degrees off: fine
    _put(session, KeyAction("enter"))
    assert _error_mm(Calibration.load(tmp_path / "cal.json"), cam) < 0.5


def test_the_command_s_auto_shows_its_result_on_the_first_frame_not_the_first_prompt(
    session: Session,
) -> None:
    # ``camera-calibrate --auto`` (the window) runs it before any key: what the owner
    # sees must be the calibration to check, or a "mark here" Enter saves it unseen.
    session.screen.run_auto()
    session.app.step(0)
    assert "Do the rings and wires lie on the board?" in session.app.texts, session.app.texts
    assert any("Auto calibration" in t for t in session.app.texts)


def test_the_automatic_calibration_s_reasons_are_shown_in_the_kiosk_s_language(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    blank = np.full_like(camera[1], 90)  # no board at all: refused
    for image, said in (
        (camera[1], "мішень знайдена (20 за числами)"),
        (blank, "немає червоно-зелених"),
    ):
        s = open_session(image, tmp_path / "cal.json", size=(1280, 720))
        try:
            s.kiosk.set_language("uk")
            _put(s, KeyAction("digit", "0"))
            assert any(said in t for t in s.app.texts), s.app.texts
            assert not any("board" in t for t in s.app.texts), s.app.texts
        finally:
            s.close()


def test_a_camera_nearly_face_on_is_told_to_move_before_it_is_saved(
    face_on: np.ndarray, tmp_path: Path
) -> None:
    s = open_session(face_on, tmp_path / "cal.json", size=(1280, 720))
    try:
        _put(s, KeyAction("digit", "0"))
        assert s.screen.reviewing
        advice = [t for t in s.app.texts if "nearly face-on" in t]
        assert advice and "15°" in advice[0], s.app.texts
        assert "at 1920x1080 than at 1280x720" in advice[0]  # (a 720p picture)
        _put(s, KeyAction("enter"))  # it can still be saved: it scores, only less well
        assert Calibration.load(tmp_path / "cal.json").face_on
    finally:
        s.close()


def test_the_command_says_when_a_camera_is_nearly_face_on_and_gives_small_pictures(
    face_on: np.ndarray, tmp_path: Path
) -> None:
    pic = tmp_path / "board.png"
    cv2.imwrite(str(pic), face_on)  # 1280x720: face-on, it places darts better at 1080p
    done = _cli("--image", str(pic), "--out", str(tmp_path / "cal.json"), "--auto", "--yes")
    assert done.returncode == 0, done.stderr
    assert "nearly face-on" in done.stdout
    assert "calibrated at 1280x720" in done.stdout and "1920x1080" in done.stdout


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    cmd = [sys.executable, "-m", "kiosk", "camera-calibrate", *args]
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def test_the_command_calibrates_a_picture_headless_with_auto_yes(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    cam, image = camera
    pic = tmp_path / "board.png"
    cv2.imwrite(str(pic), image)
    out = tmp_path / "cal.json"
    done = _cli("--image", str(pic), "--out", str(out), "--auto", "--yes")
    assert done.returncode == 0, done.stderr
    assert "saved" in done.stdout
    assert "face-on" not in done.stdout  # 30 degrees off the board's axis
    assert _error_mm(Calibration.load(out), cam) < 0.5


def test_the_command_writes_nothing_for_a_picture_without_a_board(tmp_path: Path) -> None:
    pic = tmp_path / "wall.png"
    cv2.imwrite(str(pic), np.full((480, 640, 3), (70, 96, 122), np.uint8))
    out = tmp_path / "cal.json"
    done = _cli("--image", str(pic), "--out", str(out), "--auto", "--yes")
    assert done.returncode == 1
    assert "not calibrated" in done.stdout
    assert not out.exists()


def test_the_command_takes_its_picture_from_a_video_file_as_a_camera(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    cam, image = camera
    video = tmp_path / "cam.avi"
    h, w = image.shape[:2]
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 10, (w, h))
    for _ in range(3):
        writer.write(image)
    writer.release()
    out = tmp_path / "cal.json"
    done = _cli("--camera", str(video), "--out", str(out), "--auto", "--yes")
    assert done.returncode == 0, done.stdout + done.stderr
    assert _error_mm(Calibration.load(out), cam) < 1.0


def test_the_command_refuses_what_it_cannot_use_before_anything_is_marked(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    _, image = camera
    pic = tmp_path / "board.png"
    cv2.imwrite(str(pic), image)
    out = str(tmp_path / "cal.json")
    both = _cli("--image", str(pic), "--camera", "/dev/video0", "--out", out)
    assert both.returncode == 2 and "not both" in both.stderr
    outside = _cli("--image", str(pic), "--out", out, "--auto", "--yes", "--twenty-at", "9999,9999")
    assert outside.returncode == 2 and "not in the 1280x720 picture" in outside.stderr
    missing = _cli("--image", str(tmp_path / "nope.png"), "--out", out)
    assert missing.returncode == 2 and missing.stderr.strip().endswith("nope.png: no such file")
    assert "WARN" not in missing.stderr  # (OpenCV's own line, before ours)
    folder = _cli("--image", str(tmp_path), "--out", out)
    assert folder.returncode == 2 and folder.stderr.strip().endswith(f"{tmp_path}: not a file")
    assert not (tmp_path / "cal.json").exists()


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_the_command_s_window_speaks_the_language_of_the_kiosk_s_settings(
    camera: tuple[synthetic.Camera, np.ndarray],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    language: str,
) -> None:
    # The window was English whatever the kiosk spoke (Settings() built without it).
    import argparse

    from kiosk import config as kiosk_config
    from kiosk.commands import _camera_calibrate as impl
    from kiosk.commands.camera_calibrate import add_arguments
    from kiosk.ui import i18n
    from kiosk.ui.app import App

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))  # no user settings file
    monkeypatch.setattr(kiosk_config, "SYSTEM_CONFIG", tmp_path / "none.toml")
    settings = tmp_path / "kiosk.toml"
    settings.write_text(f'language = "{language}"\n')
    pic = tmp_path / "board.png"
    cv2.imwrite(str(pic), camera[1])
    shown: list[str] = []

    def one_frame(app: App, until: object = None, timeout: float | None = None) -> bool:
        app.step(0)
        shown.extend(app.texts)
        return False  # closed at once, as if the window were shut: nothing saved

    monkeypatch.setattr(App, "run", one_frame)
    monkeypatch.setattr(impl, "no_display", lambda: None)  # (headless on purpose, any driver)
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    out = tmp_path / "c.json"
    args = parser.parse_args(["--image", str(pic), "--out", str(out), "--config", str(settings)])
    assert impl.run(args) == 1 and not out.exists()  # not saved
    t = i18n.load(language, ROOT / "kiosk" / "assets" / "locale").gettext
    title = f"1/{len(TARGETS)}: {t('Mark')} {t(TARGETS[0].label)}"
    assert t("Mark") != "Mark" and title in shown, shown


def test_a_camera_or_video_that_is_not_there_is_named_not_taken_for_a_busy_camera(
    tmp_path: Path,
) -> None:
    # It said "no picture from the camera (unplugged? or busy: a running kiosk holds its
    # cameras ...)" for a device name mistyped and for a video file that is not there.
    out = tmp_path / "cal.json"
    for source, said in (("/dev/video987", "no such camera (cameras here: "),
                         ("987", "no such camera (cameras here: "),
                         (str(tmp_path / "nope.avi"), "no such file")):  # fmt: skip
        done = _cli("--camera", source, "--out", str(out), "--auto", "--yes")
        assert done.returncode == 2
        assert done.stderr.startswith(f"camera-calibrate: {source}: {said}"), done.stderr
        assert "busy" not in done.stderr and "WARN" not in done.stderr
    # Said before "no display" too: over SSH, the mistyped name is what to put right.
    cmd = [sys.executable, "-m", "kiosk", "camera-calibrate", "--camera", "/dev/video987",
           "--out", str(out)]  # fmt: skip
    done = subprocess.run(cmd, cwd=ROOT, env=_no_screen("x11"), capture_output=True, text=True,
                          timeout=30)  # fmt: skip
    assert done.returncode == 2 and "no such camera" in done.stderr, done.stderr
    assert "display" not in done.stderr
    # A file that is there but no video: named as such, without FFmpeg's own lines.
    notes = tmp_path / "notes.jpg"
    notes.write_text("hello\n")
    done = _cli("--camera", str(notes), "--out", str(out), "--auto", "--yes")
    assert done.returncode == 2
    assert done.stderr == (f"camera-calibrate: {notes}: not a video OpenCV can read (a still "
                           "picture goes with --image)\n")  # fmt: skip
    assert not out.exists()


def test_the_command_refuses_to_write_the_calibration_over_its_own_picture(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    # --out board.png with --image board.png wrote the JSON over the picture.
    pic = tmp_path / "board.png"
    cv2.imwrite(str(pic), camera[1])
    before = pic.read_bytes()
    for args in (("--image", str(pic), "--out", str(pic)),
                 ("--image", str(pic), "--out", str(tmp_path / "." / "board.png")),
                 ("--camera", str(pic), "--out", str(pic))):  # fmt: skip
        done = _cli(*args, "--auto", "--yes")
        assert done.returncode == 2 and done.stdout == ""
        assert f"--out {args[3]} is the picture to calibrate from: it would be written over" in (
            done.stderr
        )
        assert pic.read_bytes() == before


def test_the_command_refuses_to_write_the_calibration_over_another_picture(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    # Two cameras' pictures side by side: --out cam1.jpg (for cam1.json) wrote the JSON
    # over camera 1's picture. A calibration there is written over, as it should be.
    pic, other = tmp_path / "cam0.png", tmp_path / "cam1.jpg"
    cv2.imwrite(str(pic), camera[1])
    cv2.imwrite(str(other), camera[1])
    before = other.read_bytes()
    done = _cli("--image", str(pic), "--out", str(other), "--auto", "--yes")
    assert done.returncode == 2 and done.stdout == ""
    said = f"--out {other} is a picture (JPEG), not a calibration: it would be written over"
    assert said in done.stderr, done.stderr
    assert other.read_bytes() == before
    cal = tmp_path / "cam0.json"
    cal.write_text("{}")  # an old, broken calibration: calibrating again mends it
    done = _cli("--image", str(pic), "--out", str(cal), "--auto", "--yes")
    assert done.returncode == 0, done.stderr
    assert json.loads(cal.read_text())["points"]


def _numbers_hidden(cam: synthetic.Camera, image: np.ndarray) -> np.ndarray:
    """The picture with the number ring painted dark: which segment is 20 cannot be read."""
    hidden = image.copy()
    rings = [np.array([_truth(cam, (r * math.cos(a), r * math.sin(a)))
                       for a in np.linspace(0, 2 * math.pi, 200)], np.int32)
             for r in (240.0, 172.0)]  # fmt: skip
    mask = np.zeros(hidden.shape[:2], np.uint8)
    cv2.fillPoly(mask, [rings[0]], 255)
    cv2.fillPoly(mask, [rings[1]], 0)
    hidden[mask > 0] = (20, 20, 20)
    return hidden


def test_a_headless_calibration_that_cannot_tell_the_20_says_to_give_twenty_at(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    # The numbers hidden (a dark surround): "mark the 20 by hand", which --yes has no
    # window for, was all it said; --twenty-at is how it is done headless.
    cam, image = camera
    hidden = _numbers_hidden(cam, image)
    pic, out = tmp_path / "board.png", tmp_path / "cal.json"
    cv2.imwrite(str(pic), hidden)
    done = _cli("--image", str(pic), "--out", str(out), "--auto", "--yes")
    assert done.returncode == 1 and not out.exists()
    assert done.stdout.splitlines() == [
        "not calibrated: cannot tell which segment is 20 from the numbers; mark the 20 by hand",
        "give --twenty-at X,Y: a point of the picture (pixels) on the 20 segment, and it is "
        "found from there; or leave out --yes to mark the points in the window",
    ]
    x, y = _truth(cam, (0.0, 140.0))  # as it says: a point on the 20
    done = _cli("--image", str(pic), "--out", str(out), "--auto", "--yes",
                "--twenty-at", f"{x:.0f},{y:.0f}")  # fmt: skip
    assert done.returncode == 0, done.stdout
    assert _error_mm(Calibration.load(out), cam) < 1.0


def _no_screen(driver: str | None) -> dict[str, str]:
    """An environment with no X or Wayland display, and ``driver`` asked of SDL."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}  # fmt: skip
    return dict(env, SDL_AUDIODRIVER="dummy", **({"SDL_VIDEODRIVER": driver} if driver else {}))


@pytest.mark.parametrize("driver", ["x11", None], ids=["asked-for", "none-asked"])
def test_the_window_with_no_display_to_show_it_is_refused_not_left_waiting_unseen(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path, driver: str | None
) -> None:
    # With no screen, SDL fell back to a driver that shows nothing, and the window
    # waited for keys nobody could press (or, with a driver asked for, a traceback).
    env = _no_screen(driver)
    if driver is None:
        probe = ("import os, pygame; pygame.display.init(); "
                 "print(pygame.display.get_driver())")  # fmt: skip
        picked = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                                text=True, timeout=30).stdout.split()[-1:]  # fmt: skip
        if picked != ["offscreen"]:
            pytest.skip(f"SDL opens a screen here without a display: {picked}")
    pic, out = tmp_path / "board.png", tmp_path / "cal.json"
    cv2.imwrite(str(pic), camera[1])
    cmd = [sys.executable, "-m", "kiosk", "camera-calibrate", "--image", str(pic), "--out",
           str(out)]  # fmt: skip
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and not out.exists()
    said = "camera-calibrate: no display to show the calibration window on ("
    assert any(line.startswith(said) for line in done.stderr.splitlines()), done.stderr
    assert "--auto --yes" in done.stderr and "Traceback" not in done.stderr


def test_marks_on_the_double_ring_s_inner_edge_are_put_right_by_the_rings(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    # The inner edge taken for the outer one: a board 6 % small, darts on the double
    # ring scored as singles. The rings, fitted from the marks, are shown instead.
    cam, _ = camera
    for t in TARGETS:
        x, y = t.board
        inner = board.DOUBLE_INNER / board.DOUBLE_OUTER
        _click(session, _truth(cam, (x * inner, y * inner)))
    assert session.screen.reviewing
    assert any("mm off: put right by the board's rings" in t for t in session.app.texts), (
        session.app.texts
    )
    _put(session, KeyAction("enter"))
    assert _error_mm(Calibration.load(tmp_path / "cal.json"), cam) < 1.0


def test_auto_without_readable_numbers_says_how_to_mark_the_20_and_that_way_works(
    camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    cam, image = camera
    s = open_session(_numbers_hidden(cam, image), tmp_path / "cal.json", size=(1280, 720))
    try:
        _put(s, KeyAction("digit", "0"))
        assert not s.screen.reviewing
        assert any("Mark the first point (the 20/1 wire), then press 0." in t
                   for t in s.app.texts), s.app.texts  # fmt: skip
        _click(s, _truth(cam, TARGETS[0].board))
        _put(s, KeyAction("digit", "0"))
        assert s.screen.reviewing, s.app.texts
        _put(s, KeyAction("enter"))
        assert _error_mm(Calibration.load(tmp_path / "cal.json"), cam) < 1.0
    finally:
        s.close()


def test_a_first_mark_on_the_wrong_wire_is_not_trusted_by_auto_when_the_numbers_say_so(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    cam, _ = camera
    _click(session, _truth(cam, TARGETS[1].board))  # the 6/10 wire taken for the 20/1
    _put(session, KeyAction("digit", "0"))
    assert not session.screen.reviewing
    assert any("numbers put 20 elsewhere" in t for t in session.app.texts), session.app.texts
    _put(session, KeyAction("enter"))
    assert not (tmp_path / "cal.json").exists()


def test_true_marks_refused_for_darts_over_the_numbers_say_to_pull_them(tmp_path: Path) -> None:
    # A picture with darts in the board whose numbers read as if 20 were elsewhere
    # (tests/integration/test_camera_recheck.py): the marks, where they belong, are
    # refused; the refusal says what to try besides marking again.
    rng = np.random.default_rng(302)
    tips = [synthetic.sample_tip(rng) for _ in range(3)]
    throw = synthetic.render_grouped(302, tips, 3, off_axis=(15.0, 50.0))[2]
    cam = throw.cameras[0]
    s = open_session(throw.after[0], tmp_path / "cal.json", size=(1280, 720))
    try:
        for t in TARGETS:
            _click(s, _truth(cam, t.board))
        assert not s.screen.reviewing and s.screen.error
        said = " ".join(s.app.texts)  # (on two lines)
        assert "darts over the numbers? pull them out first" in said, said
    finally:
        s.close()


@pytest.mark.parametrize(
    ("off", "shift"),
    [
        (1, (0.0, -25.0)),  # the five points disagree: refused before the rings were asked
        (4, (-15.0, 10.0)),  # ... the bull
        (2, (0.0, -25.0)),  # the five agree well enough; the rings say which is off
    ],
)
def test_one_mark_off_is_named_and_the_rings_fit_is_shown_to_save(
    session: Session,
    camera: tuple[synthetic.Camera, np.ndarray],
    tmp_path: Path,
    off: int,
    shift: tuple[float, float],
) -> None:
    # One slip of the hand among five marks: which one cannot be told from the points
    # alone, but the board's rings, fitted from all five, tell, and put it right.
    cam, _ = camera
    for i, t in enumerate(TARGETS):
        dx, dy = shift if i == off else (0.0, 0.0)
        _click(session, _truth(cam, (t.board[0] + dx, t.board[1] + dy)))
    assert session.screen.reviewing and not session.screen.error
    mm = round(math.hypot(*shift))
    said = f"Mark {off + 1} was {mm} mm off: put right by the board's rings."
    assert any(t.startswith(said) for t in session.app.texts), session.app.texts
    _put(session, KeyAction("enter"))
    assert _error_mm(Calibration.load(tmp_path / "cal.json"), cam) < 1.0


def test_a_check_that_takes_a_while_is_said_on_screen_before_it_runs(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray]
) -> None:
    # The marks checked against the rings, or the automatic calibration, take a second
    # or more (longer on a Pi): the screen says what it is doing rather than freeze.
    cam, _ = camera
    for t in TARGETS[:-1]:
        _click(session, _truth(cam, t.board))
    x, y = session.screen.image_to_screen(_truth(cam, TARGETS[-1].board))
    session.inbox.put(Click((round(x), round(y))), source="mouse")
    session.app.step(0)
    assert "Checking the marks against the board's rings..." in session.app.texts
    assert not session.screen.reviewing
    session.app.step(0)
    assert (
        session.screen.reviewing and "Do the rings and wires lie on the board?" in session.app.texts
    )
    _put(session, KeyAction("undo", "-"), KeyAction("undo", "-"))  # start again
    session.inbox.put(KeyAction("digit", "0"), source="keypad")
    session.app.step(0)
    assert "Looking for the board..." in session.app.texts and not session.screen.reviewing
    session.app.step(0)
    assert session.screen.reviewing


def test_the_magnifier_shows_the_crosshair_s_surroundings_and_a_click_in_it_marks_what_it_shows(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray]
) -> None:
    # A wire meeting the double ring's edge is a pixel or two on the screen: the
    # magnifier, away from the crosshair, is where the fine steps are aimed, and a click
    # in it marks the point shown under the click, not what the box covers.
    cam, image = camera
    screen = session.screen
    aim = _truth(cam, TARGETS[0].board)
    _put(session, KeyAction("digit", "8"))  # (the crosshair moved: drawn again)
    screen.cursor = aim
    screen.dirty = True
    session.app.step(0)
    box = screen.view.zoom_box
    assert box.w > 0.3 * screen.view.rect.h
    assert not box.collidepoint(screen.image_to_screen(aim))  # it hides not the crosshair
    # What the box shows is the picture round the crosshair, magnified.
    shown = pygame.surfarray.array3d(session.app.canvas.subsurface(box.inflate(-8, -8)))
    x, y = round(aim[0]), round(aim[1])
    round_it = image[y - 10 : y + 10, x - 10 : x + 10, ::-1].reshape(-1, 3).mean(axis=0)
    assert np.abs(shown.reshape(-1, 3).mean(axis=0) - round_it).max() < 60
    cx, cy = box.center
    _put(session, Click((cx + 12, cy)))  # a little right of the crosshair, in the box
    marked = screen.marks[0]
    assert abs(marked[1] - aim[1]) < 1.0 and 0.5 < marked[0] - aim[0] < 6.0


def test_enter_pressed_twice_neither_marks_a_point_nor_saves_a_review_unseen(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray], tmp_path: Path
) -> None:
    # Enter from the check screen ("Enter = no, calibrate again") pressed twice marked a
    # point at the picture's centre; Enter pressed while the marks were checked saved
    # them before the rings drawn back were ever seen.
    cam, _ = camera
    screen = session.screen
    _put(session, KeyAction("enter"))
    assert screen.marks == [] and "5 marks the point" in session.app.texts
    for t in TARGETS[:-1]:
        _click(session, _truth(cam, t.board))
    x, y = screen.image_to_screen(_truth(cam, TARGETS[-1].board))
    session.inbox.put(Click((round(x), round(y))), source="mouse")
    session.app.step(0)  # "Checking the marks..." on screen
    assert screen.busy
    _put(session, KeyAction("enter"))  # meanwhile
    assert screen.reviewing and not (tmp_path / "cal.json").exists()
    _put(session, KeyAction("enter"))  # seen, then saved
    assert (tmp_path / "cal.json").exists()


def test_quit_asks_first_also_after_marks_are_refused(session: Session, tmp_path: Path) -> None:
    # - after a refusal starts again at once (what the refusal asks for); / would throw
    # away five marks, four of them perhaps right: it asks, as it does otherwise.
    for i in range(len(TARGETS)):
        _click(session, (400.0 + 40 * i, 300.0))  # five points on one line: refused
    assert session.screen.error
    _put(session, KeyAction("cancel", "/"))
    assert not session.screen.finished
    assert "/ again to quit: nothing is saved" in session.app.texts
    _put(session, KeyAction("undo", "-"))
    assert session.screen.marks == []


def test_auto_refusing_mark_1_as_the_20_says_to_take_it_back_and_mark_the_20_first(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray]
) -> None:
    # The hint is mark 1 whatever is marked after it: "mark a point on the 20 segment"
    # led to a second mark there, and the same refusal.
    cam, _ = camera
    _click(session, _truth(cam, TARGETS[1].board))  # the 6/10 wire taken for the 20/1
    _put(session, KeyAction("digit", "0"))
    said = ("Auto calibration: the board's numbers put 20 elsewhere than mark 1: . = take "
            "the marks back, then mark the 20/1 wire first and press 0")  # fmt: skip
    assert said in session.app.texts, session.app.texts


def test_the_magnifier_stays_in_its_corner_while_the_crosshair_is_aimed_past_the_middle(
    session: Session, camera: tuple[synthetic.Camera, np.ndarray]
) -> None:
    # The 6/10 wire sits at the bull's height on a level camera: a fine step across the
    # picture's middle moved the box to the other corner, just as it was being watched.
    screen = session.screen
    w, h = screen.image_size
    for y in (h / 2 - 3, h / 2 + 3):
        screen.cursor = (w * 0.75, y)
        screen.dirty = True
        session.app.step(0)
        if y < h / 2:
            box = screen.view.zoom_box.copy()
    assert screen.view.zoom_box == box
    screen.cursor = screen.screen_to_image(box.center)  # the crosshair under the box
    screen.dirty = True
    session.app.step(0)
    assert screen.view.zoom_box != box  # ... it makes way
    assert not screen.view.zoom_box.collidepoint(screen.image_to_screen(screen.cursor))
