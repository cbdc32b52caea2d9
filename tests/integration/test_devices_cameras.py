"""Which cameras are not scoring, as ``Devices`` tells the screens (``CamerasDown``):
real rendered videos read by cv2, a camera file that is not there, a camera with no
calibration, a camera turned away after it started."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import cv2
import pytest

from kiosk.adapters.camera.synthetic import Step, render_turn
from kiosk.config import Config
from kiosk.devices import CamerasDown, Devices
from kiosk.domain.board import centre_of
from kiosk.domain.darts import Dart
from kiosk.ui.inbox import Inbox

pytestmark = pytest.mark.timeout(60)


def _video(path: Path, steps: list[Step]) -> Path:
    video = render_turn(3, steps, off_axis=20.0)
    h, w = video.frames[0].shape[:2]
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, (w, h))
    for f in video.frames:
        out.write(f)
    out.release()
    video.calibration.save(path.with_suffix(".json"))
    return path


def _down_events(devices: tuple[str, ...], calibrations: tuple[str, ...]) -> list[CamerasDown]:
    """Every ``CamerasDown`` the devices send until the videos have ended."""
    base = Config()
    camera = dataclasses.replace(base.camera, devices=devices, calibrations=calibrations)
    inbox = Inbox()
    dev = Devices(dataclasses.replace(base, camera=camera), inbox, source="camera", port=None)
    seen: list[CamerasDown] = []
    dev.start()
    try:
        end = time.monotonic() + 20
        while time.monotonic() < end:
            seen += [e.event for e in inbox.wait(0.2) if isinstance(e.event, CamerasDown)]
            if seen and len(seen[-1].cameras) == len(devices):
                break  # every camera down: the videos have ended
    finally:
        dev.stop()
    return seen


def test_unplugged_and_uncalibrated_cameras_are_named_with_what_to_do(tmp_path: Path) -> None:
    good = _video(tmp_path / "good.avi", [Step("still", 30)])
    devices = (str(good), str(tmp_path / "unplugged.avi"), str(good))
    calibrations = (str(good.with_suffix(".json")), str(good.with_suffix(".json")))
    seen = _down_events(devices, calibrations)
    # The third has no calibration: left out from the start; the second sends nothing.
    assert seen[0] == CamerasDown(((3, "calibrate"),))
    assert CamerasDown(((2, "no pictures"), (3, "calibrate"))) in seen


def test_a_camera_turned_away_is_named_to_calibrate_again(tmp_path: Path) -> None:
    good = _video(tmp_path / "good.avi", [Step("still", 40)])
    turned = _video(tmp_path / "turned.avi", [
        Step("still", 4), Step("still", 6, moved=(80.0, 30.0)),
        Step("throw", tip=centre_of(Dart.parse("S20"))), Step("still", 10),
    ])  # fmt: skip
    devices = (str(good), str(turned))
    seen = _down_events(devices, tuple(str(Path(d).with_suffix(".json")) for d in devices))
    assert CamerasDown(((2, "calibrate"),)) in seen, seen
