"""A camera's saved calibration checked from Settings, in the real app headless with a
rendered video standing in for the camera: its line shows the saved rings, wires and
numbers over the camera's picture; leaving changes nothing, Enter calibrates again."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from kiosk.adapters.camera.calibration import Calibration
from kiosk.adapters.camera.synthetic import Step, Video, render_turn
from kiosk.bootstrap import Options, Running, build
from kiosk.config import Config
from kiosk.domain import board
from kiosk.ui.driver import Driver
from kiosk.ui.screens import camera_check
from kiosk.ui.screens.board_picture import OVERLAY, number_places
from kiosk.ui.screens.camera_calibrate import TARGETS
from tests.e2e.calibrate_support import film
from tests.plain_user import plain_user

pytestmark = pytest.mark.timeout(90)

SAVED = "Camera 1: the calibration saved, over its picture now"
KEYS = "/ = yes, keep it   Enter = no, calibrate again   0 = new picture"


@contextmanager
def kiosk_with_camera(tmp_path: Path, frames: int = 30) -> Iterator[tuple[Running, Driver, Video]]:
    """The real app on the virtual board; its one camera a video of a still board
    (camera.avi), calibrated (camera.json); at the Settings screen."""
    video = render_turn(11, [Step("still", frames)], off_axis=20.0)
    film(video, tmp_path / "camera.avi")
    video.calibration.save(tmp_path / "camera.json")
    base = Config()
    camera = dataclasses.replace(base.camera, devices=(str(tmp_path / "camera.avi"),),
                                 calibrations=(str(tmp_path / "camera.json"),))  # fmt: skip
    options = Options(window=True, size=(1280, 720), virtual=True, env={}, data_dir=tmp_path / "d")
    running = build(options, dataclasses.replace(base, camera=camera))
    d = Driver(running)
    try:
        d.press("\n")  # attract -> main menu
        d.press("4")
        assert d.screen.name == "settings"
        yield running, d, video
    finally:
        running.close()


def file_as_it_is(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), path.stat().st_mtime_ns


def mark_the_points(d: Driver, video: Video) -> None:
    """The five points clicked where the camera sees them, on the calibration screen."""
    screen = d.screen
    for target in TARGETS:
        ((u, v),) = video.camera.project(np.array([[*target.board, 0.0]]))
        x, y = screen.image_to_screen((float(u), float(v)))  # type: ignore[attr-defined]
        d.click((round(x), round(y)))


def overlay_at(d: Driver, pt: tuple[float, float]) -> bool:
    """The overlay's colour on the screen at (or a pixel beside) a picture point."""
    x, y = d.screen.image_to_screen(pt)  # type: ignore[attr-defined]
    canvas = d.app.canvas
    return any(
        tuple(canvas.get_at((round(x) + dx, round(y) + dy)))[:3] == OVERLAY
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
    )


def test_a_cameras_line_shows_its_saved_calibration_and_leaving_changes_nothing(
    tmp_path: Path,
) -> None:
    saved = tmp_path / "camera.json"
    with kiosk_with_camera(tmp_path) as (_running, d, _video):
        before = file_as_it_is(saved)
        cal = Calibration.load(saved)
        for leave in ("/", ".", "cancel"):
            d.press("4")  # Calibrate camera 1: the calibration saved, not marking afresh
            assert d.screen.name == "camera-check", d.texts
            assert "Do the rings, wires and numbers match the board?" in d.texts
            assert SAVED in d.texts and KEYS in d.texts
            assert not any(t.startswith("1/5") for t in d.texts)  # no point to mark
            # The saved rings and wires lie where the calibration puts them over the
            # camera's picture, and its numbers with them (20 at the top).
            ring = [board.point_at(a, board.DOUBLE_OUTER) for a in range(0, 360, 45)]
            ring += [board.point_at(a, board.TREBLE_INNER) for a in range(10, 360, 45)]
            for x, y in cal.board_to_image(np.array(ring)):
                assert overlay_at(d, (float(x), float(y)))
            (_, twenty), *_ = number_places(cal)
            centre = d.screen.image_to_screen(twenty)  # type: ignore[attr-defined]
            assert d.rect_of("20").collidepoint(centre)
            d.screenshot(str(tmp_path / "check.png"))
            if leave == "cancel":
                d.key("cancel")  # Esc on a keyboard
            else:
                d.press(leave)
            assert d.screen.name == "settings"
            assert file_as_it_is(saved) == before
    assert file_as_it_is(saved) == before and not list(tmp_path.glob("camera.json.*"))


def test_enter_on_the_saved_calibration_goes_on_to_calibrate_again(tmp_path: Path) -> None:
    saved = tmp_path / "camera.json"
    with kiosk_with_camera(tmp_path) as (_running, d, video):
        before = file_as_it_is(saved)
        d.press("4")
        assert d.screen.name == "camera-check"
        d.look()  # (the saved calibration looked at first)
        d.press("\n")  # calibrate again: marking afresh, on the same picture
        assert d.screen.name == "camera-calibrate"
        assert any(t.startswith("1/5: Mark") for t in d.texts), d.texts
        assert d.screen.calibration is None  # type: ignore[attr-defined]
        d.press("/")  # nothing marked: quits at once, back to the settings
        assert d.screen.name == "settings" and file_as_it_is(saved) == before
        d.press("4")
        d.look()  # (the saved calibration looked at first)
        d.press("\n")
        mark_the_points(d, video)
        d.press("\n")  # save
        d.wait_for(lambda: d.screen.name == "settings", what="back to the settings")
        assert saved.read_bytes() != before[0]
        assert len(Calibration.load(saved).points) == 5


def test_a_saved_calibration_in_a_folder_the_kiosk_cannot_write_can_still_be_looked_at(
    tmp_path: Path,
) -> None:
    # Calibrations kept in a folder that is not the kiosk's to write (/etc, a
    # read-only card): looking at one needs no more than reading; calibrating again is
    # refused before any point is marked, since it could not be saved.
    saved = tmp_path / "camera.json"
    with kiosk_with_camera(tmp_path) as (_running, d, _video):
        before = file_as_it_is(saved)
        tmp_path.chmod(0o555)
        try:
            with plain_user():
                d.press("4")
                assert d.screen.name == "camera-check", d.texts
                assert SAVED in d.texts
                d.look()  # (the saved calibration looked at first)
                d.press("\n")  # calibrate again: it could not be saved
                assert d.screen.name == "camera-check"
                assert f"The calibration file cannot be written: {saved}" in d.texts, d.texts
                d.press("/")
                assert d.screen.name == "settings"
        finally:
            tmp_path.chmod(0o755)
        assert file_as_it_is(saved) == before


def test_a_saved_calibration_left_roots_by_sudo_cp_is_calibrated_again_and_replaced(
    tmp_path: Path,
) -> None:
    # The file root's 0644 (sudo cp) in the kiosk's own folder: the new calibration is
    # written beside it and renamed over it, so it is no reason to refuse.
    saved = tmp_path / "camera.json"
    with kiosk_with_camera(tmp_path) as (_running, d, video):
        before = file_as_it_is(saved)
        saved.chmod(0o444)
        with plain_user():
            d.press("4")
            d.look()  # (the saved calibration looked at first)
            d.press("\n")
            assert d.screen.name == "camera-calibrate", d.texts
            mark_the_points(d, video)
            d.press("\n")  # save
            d.wait_for(lambda: d.screen.name == "settings", what="back to the settings")
        assert saved.read_bytes() != before[0]


def test_0_takes_a_new_picture_after_the_camera_was_nudged(tmp_path: Path) -> None:
    # The owner checks, sees the rings off, nudges the camera: 0 shows where it looks
    # now without leaving the screen (the picture is a still, not the camera's stream).
    saved = tmp_path / "camera.json"
    with kiosk_with_camera(tmp_path) as (_running, d, _video):
        before = file_as_it_is(saved)
        d.press("4")
        assert d.screen.name == "camera-check" and KEYS in d.texts
        old = d.screen.view.image.astype(int)  # type: ignore[attr-defined]
        nudged = render_turn(11, [Step("still", 30)], off_axis=20.0,
                             turned_since_calibrated=(4.0, -3.0))  # fmt: skip
        film(nudged, tmp_path / "camera.avi")
        d.press("0")
        assert "Taking a new picture..." in d.texts, d.texts
        d.wait_for(lambda: "Taking a new picture..." not in d.texts, what="the new picture")
        new = d.screen.view.image.astype(int)  # type: ignore[attr-defined]
        shown = nudged.frames[-1].astype(int)
        assert np.abs(new - shown).mean() < np.abs(old - shown).mean() / 3
        assert d.screen.name == "camera-check" and file_as_it_is(saved) == before

        # The camera gone (unplugged, the file moved): the picture stays, and says so.
        (tmp_path / "camera.avi").unlink()
        d.press("0")
        d.wait_for(lambda: "Taking a new picture..." not in d.texts, what="the answer")
        assert "No picture from the camera" in d.texts, d.texts
        assert d.screen.view.image.astype(int).tolist() == new.tolist()  # type: ignore[attr-defined]

        # A camera that now gives another size of picture: the calibration is not for it.
        small = render_turn(11, [Step("still", 12)], off_axis=20.0, size=(640, 360))
        film(small, tmp_path / "camera.avi")
        d.press("0")
        d.wait_for(lambda: "Taking a new picture..." not in d.texts, what="the answer")
        assert "The camera now gives pictures of another size" in d.texts, d.texts
        d.press("/")
        assert d.screen.name == "settings" and file_as_it_is(saved) == before


def test_while_the_cameras_score_the_saved_calibration_is_shown_over_their_latest_picture(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(camera_check, "REFRESH_S", 0.2)
    with kiosk_with_camera(tmp_path, frames=300) as (running, d, _video):
        running.devices.switch("camera")
        d.wait_for(lambda: running.devices.camera_picture(0) is not None, timeout=30,
                   what="the camera's pictures")  # fmt: skip
        d.press("4")
        assert d.screen.name == "camera-check"
        first = d.screen.view.image  # type: ignore[attr-defined]
        d.wait_for(lambda: d.screen.view.image is not first, timeout=5, what="a newer picture")  # type: ignore[attr-defined]
        assert SAVED in d.texts
        assert "/ = yes, keep it   Enter = no, calibrate again" in d.texts  # no "0": live
        d.press("/")
        assert d.screen.name == "settings"


def test_a_saved_calibration_that_cannot_be_used_is_said_over_the_marking(tmp_path: Path) -> None:
    with kiosk_with_camera(tmp_path) as (_running, d, _video):
        (tmp_path / "camera.json").write_text("{not json")
        d.press("4")
        assert d.screen.name == "camera-calibrate"
        assert "The calibration saved cannot be used: mark the points again" in d.texts


def test_a_dart_that_lands_while_the_calibration_is_checked_mid_game_goes_to_the_game(
    tmp_path: Path,
) -> None:
    from kiosk_support import start_game

    with kiosk_with_camera(tmp_path) as (_running, d, _video):
        start_game(d, ("Anna", "Boris"))
        d.press("/")  # the game menu: its last item, Settings
        d.press("7")
        d.press("4")
        assert d.screen.name == "camera-check"
        d.throw("T20")  # as from a menu: the scoreboard comes back with the dart
        assert d.screen.name == "cricket"
        assert d.game().game.marks("Anna", 20) == 3


def test_a_dart_not_read_while_the_calibration_is_checked_is_asked_on_the_scoreboard(
    tmp_path: Path,
) -> None:
    # The check screen kept the cameras' "type it" to itself: the dart was never asked
    # for, and lost.
    from kiosk_support import start_game

    from kiosk.ui.screen import Notice

    said = "A dart was not read: type it on the keypad"
    with kiosk_with_camera(tmp_path) as (running, d, _video):
        start_game(d, ("Anna", "Boris"))
        d.press("/")
        d.press("7")
        d.press("4")
        assert d.screen.name == "camera-check"
        running.inbox.put(Notice(said, act=True))
        d.settle()
        assert d.screen.name == "cricket" and said in d.texts, d.texts
        d.press("3*20\n")
        assert d.game().game.marks("Anna", 20) == 3
