"""The settings screen in the real kiosk, headless: with cameras in the config it opens
the calibration screen on a picture from the camera, and comes back when done."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from kiosk_support import kiosk_on_board

from kiosk.adapters.camera.calibration import Calibration
from kiosk.config import CameraConfig, Config
from kiosk.ui.driver import Driver
from kiosk.ui.screens.camera_calibrate import TARGETS

SCALE, CENTRE = 1.1, (320.0, 240.0)  # the picture: the board seen straight on


def board_to_image(x: float, y: float) -> tuple[float, float]:
    return (CENTRE[0] + SCALE * x, CENTRE[1] - SCALE * y)


def camera_picture(path: Path) -> str:
    """A still "camera" (OpenCV opens a picture file as it opens a video)."""
    img = np.full((480, 640, 3), 40, np.uint8)
    cv2.circle(img, (320, 240), round(170 * SCALE), (220, 220, 220), 3)
    cv2.imwrite(str(path), img)
    return str(path)


def to_settings(d: Driver) -> None:
    d.press("\n")  # attract -> main menu
    d.press("4")
    assert d.screen.name == "settings"


def test_a_camera_is_calibrated_from_the_settings_screen(tmp_path: Path) -> None:
    out = tmp_path / "cam0.json"
    camera = CameraConfig(devices=(camera_picture(tmp_path / "cam.png"),), calibrations=(str(out),))
    with kiosk_on_board(tmp_path, config=Config(camera=camera)) as (d, _board):
        to_settings(d)
        assert "Calibrate camera 1" in d.texts
        d.press("4")
        assert d.screen.name == "camera-calibrate"
        screen = d.screen
        for target in TARGETS:
            x, y = screen.image_to_screen(board_to_image(*target.board))  # type: ignore[attr-defined]
            d.click((round(x), round(y)))
        assert "Do the rings and wires lie on the board?" in d.texts
        d.press("\n")  # save
        assert out.is_file()
        d.wait_for(lambda: d.screen.name == "settings", timeout=5, what="back to the settings")
        cal = Calibration.load(out)
        seen = cal.image_to_board(np.array([board_to_image(100.0, -50.0)]))[0]
        assert abs(seen[0] - 100.0) < 2.0 and abs(seen[1] + 50.0) < 2.0


def test_quitting_the_calibration_writes_nothing_and_comes_back(tmp_path: Path) -> None:
    out = tmp_path / "cam0.json"
    camera = CameraConfig(devices=(camera_picture(tmp_path / "cam.png"),), calibrations=(str(out),))
    with kiosk_on_board(tmp_path, config=Config(camera=camera)) as (d, _board):
        to_settings(d)
        d.press("4")
        assert d.screen.name == "camera-calibrate"
        d.press("/")
        d.wait_for(lambda: d.screen.name == "settings", what="back to the settings")
        assert not out.exists()


def test_a_camera_with_no_picture_or_no_file_is_refused_with_a_message(tmp_path: Path) -> None:
    camera = CameraConfig(
        devices=(str(tmp_path / "unplugged.png"), camera_picture(tmp_path / "cam.png")),
        calibrations=(str(tmp_path / "cam0.json"),),
    )
    with kiosk_on_board(tmp_path, config=Config(camera=camera)) as (d, _board):
        to_settings(d)
        d.press("4")
        assert d.screen.name == "settings"
        assert f"No picture from the camera: {tmp_path / 'unplugged.png'}" in d.texts
        d.press("5")  # camera 2: no calibration file named for it
        assert d.screen.name == "settings"
        assert "No calibration file for this camera in the config" in d.texts


def test_without_cameras_the_settings_offer_no_calibration(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path) as (d, _board):
        to_settings(d)
        assert not any(t.startswith("Calibrate camera") for t in d.texts)
        assert "Back" in d.texts
