"""Which cameras are not scoring, as ``Devices`` tells the screens (``CamerasDown``):
real rendered videos read by cv2, a camera file that is not there, a camera with no
calibration, a camera turned away after it started; and what the log tells the installer
of a camera mounted face-on."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import pytest

from kiosk.adapters.camera.synthetic import Step, render_turn
from kiosk.adapters.serial_board.protocol import Hit
from kiosk.adapters.serial_board.reader import Status
from kiosk.adapters.serial_board.virtual import VirtualBoard
from kiosk.config import Config
from kiosk.devices import NO_CALIBRATED_CAMERA, CamerasDown, Devices
from kiosk.domain.board import centre_of
from kiosk.domain.darts import Dart
from kiosk.ui.inbox import Inbox

pytestmark = pytest.mark.timeout(60)


def _video(
    path: Path, steps: list[Step], off_axis: float = 20.0, size: tuple[int, int] = (1280, 720)
) -> Path:
    video = render_turn(3, steps, off_axis=off_axis, size=size)
    h, w = video.frames[0].shape[:2]
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, (w, h))
    for f in video.frames:
        out.write(f)
    out.release()
    video.calibration.save(path.with_suffix(".json"))
    return path


def _devices(
    devices: tuple[str, ...],
    calibrations: tuple[str, ...],
    source: str = "camera",
    port: str | None = None,
) -> tuple[Devices, Inbox]:
    """The kiosk's devices on these cameras (not started), and the inbox they post to."""
    base = Config()
    camera = dataclasses.replace(base.camera, devices=devices, calibrations=calibrations)
    inbox = Inbox()
    dev = Devices(dataclasses.replace(base, camera=camera), inbox, source=source, port=port)
    return dev, inbox


def _down_events(devices: tuple[str, ...], calibrations: tuple[str, ...]) -> list[CamerasDown]:
    """Every ``CamerasDown`` the devices send until the videos have ended."""
    dev, inbox = _devices(devices, calibrations)
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


def test_cameras_not_found_and_uncalibrated_are_named_with_what_to_do(tmp_path: Path) -> None:
    good = _video(tmp_path / "good.avi", [Step("still", 30)])
    devices = (str(good), "/dev/video97", str(good))  # (no /dev/video97: not plugged in)
    calibrations = (str(good.with_suffix(".json")), str(good.with_suffix(".json")))
    seen = _down_events(devices, calibrations)
    # The third has no calibration: left out from the start, never calibrated (not
    # "again"); the second sends nothing.
    assert seen[0] == CamerasDown(((3, "not calibrated"),))
    assert CamerasDown(((2, "not found"), (3, "not calibrated"))) in seen


def test_a_camera_file_not_there_or_not_a_video_is_named_so_in_the_log_and_to_the_screens(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    good = _video(tmp_path / "good.avi", [Step("still", 30)])
    notes = tmp_path / "notes.txt"
    notes.write_text("not a video\n")
    devices = (str(good), str(tmp_path / "gone.avi"), str(notes))
    with caplog.at_level("WARNING", logger="kiosk"):
        seen = _down_events(devices, (str(good.with_suffix(".json")),) * 3)
    assert any({(2, "file not found"), (3, "not a video")} <= set(e.cameras) for e in seen), seen
    assert f"camera 2 lost: file not found: {tmp_path / 'gone.avi'}" in caplog.text
    assert f"camera 3 lost: not a video OpenCV can read: {notes}" in caplog.text


def test_a_calibration_file_not_there_yet_is_not_calibrated_and_a_broken_one_is_again(
    tmp_path: Path,
) -> None:
    good = _video(tmp_path / "good.avi", [Step("still", 30)])
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    devices = (str(good), str(good), str(good))
    calibrations = (str(good.with_suffix(".json")), str(tmp_path / "none.json"), str(broken))
    seen = _down_events(devices, calibrations)
    assert seen[0] == CamerasDown(((2, "not calibrated"), (3, "calibrate")))


def test_a_camera_turned_away_is_named_to_calibrate_again(tmp_path: Path) -> None:
    good = _video(tmp_path / "good.avi", [Step("still", 40)])
    turned = _video(tmp_path / "turned.avi", [
        Step("still", 4), Step("still", 6, moved=(80.0, 30.0)),
        Step("throw", tip=centre_of(Dart.parse("S20"))), Step("still", 10),
    ])  # fmt: skip
    devices = (str(good), str(turned))
    seen = _down_events(devices, tuple(str(Path(d).with_suffix(".json")) for d in devices))
    # (On a loaded machine the first video can end, "no pictures", before the second
    # camera's check has said so: the order of the two is not the point.)
    assert any((2, "calibrate") in e.cameras for e in seen), seen
    assert not any((1, "calibrate") in e.cameras for e in seen), seen


def _log_for(
    tmp_path: Path, off_axis: float, caplog: pytest.LogCaptureFixture,
    size: tuple[int, int] = (1280, 720),
) -> str:  # fmt: skip
    path = _video(tmp_path / f"cam{off_axis:g}.avi", [Step("still", 4)], off_axis, size)
    dev, _ = _devices((str(path),), (str(path.with_suffix(".json")),))
    with caplog.at_level("WARNING", logger="kiosk"):
        dev.start()
        dev.stop()
    return caplog.text


def test_a_camera_mounted_face_on_at_720p_is_told_both_what_costs_it_darts(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    text = _log_for(tmp_path, 5.0, caplog)
    assert "nearly face-on" in text
    assert "15 deg or more to the side" in text
    assert "calibrated at 1280x720" in text and "1920x1080" in text


def test_a_camera_mounted_face_on_at_1080p_is_told_only_to_move(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    text = _log_for(tmp_path, 5.0, caplog, size=(1920, 1080))
    assert "nearly face-on" in text and "calibrated at" not in text


def test_a_camera_mounted_to_the_side_gets_no_face_on_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    assert "face-on" not in _log_for(tmp_path, 30.0, caplog)


def test_a_single_camera_that_never_gives_pictures_is_the_board_lost(tmp_path: Path) -> None:
    good = _video(tmp_path / "good.avi", [Step("still", 4)])
    dev, inbox = _devices((str(tmp_path / "video9.avi"),), (str(good.with_suffix(".json")),))
    statuses: list[Status] = []
    dev.start()
    try:
        end = time.monotonic() + 10
        while time.monotonic() < end and not statuses:
            statuses += [e.event for e in inbox.wait(0.2) if isinstance(e.event, Status)]
    finally:
        dev.stop()
    # Not "the other cameras go on" (there are none): the game waits, darts are typed.
    assert statuses[:1] == [Status("lost", "cameras")], statuses


def test_the_log_names_a_camera_by_its_number_on_screen(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The second camera in the config, the first left out (no calibration): its
    lines in the log say "camera 2", as the screen does, not the scorer's index."""
    good = _video(tmp_path / "good.avi", [Step("still", 30)])
    devices = (str(tmp_path / "first.avi"), str(good))
    dev, _ = _devices(devices, ("", str(good.with_suffix(".json"))))
    with caplog.at_level("INFO", logger="kiosk"):
        dev.start()
        try:
            end = time.monotonic() + 20
            while time.monotonic() < end and "is where it was calibrated" not in caplog.text:
                time.sleep(0.1)
        finally:
            dev.stop()
    assert "camera 2 is where it was calibrated" in caplog.text, caplog.text
    assert "camera 2 connected" in caplog.text
    assert "camera 0 " not in caplog.text
    assert "first.avi has no calibration file" in caplog.text  # (an empty entry: none)


def _auto(
    tmp_path: Path, calibrated: bool, port: str | None = None
) -> tuple[Devices, list[object], Callable[[Callable[[], bool], str], None]]:
    """``input = "auto"`` devices on one camera (a still video), no board plugged in
    (an empty by-id folder, no fixed link), not started; the events they sent, and
    ``until(done, what)``, which gathers them until ``done()`` (15 s at most)."""
    good = _video(tmp_path / "good.avi", [Step("still", 30)])
    cals = (str(good.with_suffix(".json")),) if calibrated else ()
    dev, inbox = _devices((str(good),), cals, "auto", port)
    (tmp_path / "by-id").mkdir()
    dev.fixed, dev.by_id = str(tmp_path / "no-dartboard"), str(tmp_path / "by-id")
    events: list[object] = []

    def until(done: Callable[[], bool], what: str) -> None:
        end = time.monotonic() + 15
        while not done():
            assert time.monotonic() < end, f"timed out waiting for {what}: {events}"
            events.extend(i.event for i in inbox.wait(0.1))

    return dev, events, until


@pytest.mark.parametrize("calibrated", [True, False], ids=["cameras scoring", "none calibrated"])
def test_on_the_cameras_a_board_plugged_in_takes_over(tmp_path: Path, calibrated: bool) -> None:
    """``input = "auto"`` found no board at the start and went to the cameras (or, none
    calibrated yet, to typed darts): the board, mended or plugged back in, scores
    again as soon as it is plugged in, and no camera is named as not scoring after."""
    dev, events, until = _auto(tmp_path, calibrated)
    by_id = Path(dev.by_id)
    dev.start()
    try:
        if calibrated:
            until(lambda: dev.active == "camera", "the cameras")
        else:
            until(lambda: any(isinstance(e, Status) and NO_CALIBRATED_CAMERA in e.detail
                              for e in events), "no calibrated camera")  # fmt: skip
        with VirtualBoard(ping_interval=0.2) as board:
            board.start()
            port = by_id / "usb-dartboard"
            port.symlink_to(board.path)
            until(lambda: dev.active == "serial", "the board plugged in")
            until(lambda: Status("connected", str(port)) in events, "the board's port opened")
            board.send("T20")
            until(lambda: Hit(Dart.parse("T20")) in events, "T20 from the board")
    finally:
        dev.stop()
    down = [e for e in events if isinstance(e, CamerasDown)]
    assert down[-1:] in ([], [CamerasDown(())]), down


def test_auto_with_a_port_set_that_is_not_there_scores_with_the_cameras(tmp_path: Path) -> None:
    """``input = "auto"`` with ``port`` set to a board that is unplugged at the start:
    the cameras score (they used to wait for the port for ever, "reconnecting"), and the
    board takes over when its port appears."""
    port = tmp_path / "ttyDARTS"
    dev, events, until = _auto(tmp_path, True, str(port))
    dev.start()
    try:
        until(lambda: dev.active == "camera", "the cameras")
        with VirtualBoard(ping_interval=0.2) as board:
            board.start()
            port.symlink_to(board.path)
            until(lambda: dev.active == "serial", "the board plugged in")
            until(lambda: Status("connected", str(port)) in events, "the board's port opened")
            board.send("D19")
            until(lambda: Hit(Dart.parse("D19")) in events, "D19 from the board")
    finally:
        dev.stop()


def test_on_auto_cameras_listed_from_settings_take_over_from_the_virtual_board(
    tmp_path: Path,
) -> None:
    """``input = "auto"`` found no board and no camera at the start: the virtual board.
    Cameras listed then (Settings -> Find cameras) are used once one is calibrated, not
    only after the kiosk is started again; until then the virtual board stays."""
    dev, _events, until = _auto(tmp_path, calibrated=True)
    good = dev.config.camera
    dev.config = dataclasses.replace(dev.config, camera=Config().camera)  # none listed yet
    dev.start()
    try:
        until(lambda: dev.active == "virtual", "the virtual board")
        dev.use_cameras(list(good.devices), [str(tmp_path / "not-yet.json")])
        time.sleep(0.5)
        assert dev.active == "virtual"
        dev.use_cameras(list(good.devices), list(good.calibrations))  # (calibrated)
        until(lambda: dev.active == "camera", "the cameras")
    finally:
        dev.stop()
