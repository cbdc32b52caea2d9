"""Settings -> Find cameras, in the real app headless: the USB cameras plugged in (udev's
/dev/v4l links, here in a folder of the test's own, pointing at rendered videos that
stand in for the cameras) are shown with a picture each, and Enter lists them in the
settings file, so the owner sets the cameras up with the keypad."""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from kiosk.adapters.camera.synthetic import Step, render_turn
from kiosk.bootstrap import Options, build
from kiosk.config import Config, load_config
from kiosk.ui.driver import Driver
from kiosk.ui.screens.menu import MenuScreen
from tests.e2e.calibrate_support import film

pytestmark = pytest.mark.timeout(90)

SETTINGS = 'language = "en"\n\n[sound]\nvolume = 40\n'


def plug(tmp_path: Path, name: str, seed: int, *, by_path: str = "") -> Path:
    """A camera plugged in: a rendered video of the board, linked as udev links a USB
    camera's picture node (and its metadata node, which gives no picture)."""
    video = tmp_path / f"{name}.avi"
    film(render_turn(seed, [Step("still", 12)], off_axis=25.0, size=(640, 360)), video)
    meta = tmp_path / f"{name}.meta"
    meta.write_bytes(b"\0" * 64)
    by_id = tmp_path / "v4l" / "by-id"
    by_id.mkdir(parents=True, exist_ok=True)
    (by_id / f"usb-Acme_{name}_0001-video-index0").symlink_to(video)
    (by_id / f"usb-Acme_{name}_0001-video-index1").symlink_to(meta)
    if by_path:
        folder = tmp_path / "v4l" / "by-path"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"platform-xhci-usb-0:{by_path}:1.0-video-index0").symlink_to(video)
    return by_id / f"usb-Acme_{name}_0001-video-index0"


@contextmanager
def settings_screen(tmp_path: Path, config: Config | None = None) -> Iterator[Driver]:
    """The real app on the virtual board at the Settings screen, saving to its own
    settings file, looking for cameras in the test's /dev/v4l."""
    settings = tmp_path / "kiosk.toml"
    if not settings.exists():
        settings.write_text(SETTINGS, encoding="utf-8")
    options = Options(window=True, size=(1280, 720), virtual=True, env={},
                      data_dir=tmp_path / "d", settings_file=settings)  # fmt: skip
    running = build(options, config or load_config(search_paths=[settings]))
    running.devices.v4l = tmp_path / "v4l"
    d = Driver(running)
    try:
        d.press("\n")  # attract -> main menu
        d.press("4")
        assert d.screen.name == "settings"
        yield d
    finally:
        running.close()


def labels(d: Driver) -> list[str]:
    assert isinstance(d.screen, MenuScreen)
    return [item.label for item in d.screen.items()]


def find_cameras(d: Driver) -> None:
    d.press(str(labels(d).index("Find cameras") + 1))
    assert d.screen.name == "camera-find"
    d.wait_for(lambda: getattr(d.screen, "found", None) is not None, 20, "cameras found")
    d.look()


def test_the_cameras_plugged_in_are_found_and_listed_in_the_settings_file(tmp_path: Path) -> None:
    first = plug(tmp_path, "CamA", 1)
    second = plug(tmp_path, "CamB", 2)
    with settings_screen(tmp_path) as d:
        assert not any(label.startswith("Calibrate camera") for label in labels(d))
        find_cameras(d)
        screen = d.screen
        found = screen.found  # type: ignore[attr-defined]
        assert [f.camera.device for f in found] == [str(first), str(second)]  # no metadata node
        assert all(f.picture is not None and f.listed is None for f in found)
        d.screenshot(str(tmp_path / "found.png"))
        d.press("\n")
        assert "Saved" in screen.message  # type: ignore[attr-defined]
        d.wait_screen("settings")
        # Settings now has a line to calibrate each, and cameras to choose as the input.
        assert [x for x in labels(d) if x.startswith("Calibrate")] == [
            "Calibrate camera 1",
            "Calibrate camera 2",
        ]
        assert any(v == "camera" for v, _ in d.screen.sources())  # type: ignore[attr-defined]
    written = tomllib.loads((tmp_path / "kiosk.toml").read_text(encoding="utf-8"))
    assert written["sound"] == {"volume": 40}  # the rest of the file is kept
    # The next start reads them, each with a calibration file of its own in the data folder.
    camera = load_config(search_paths=[tmp_path / "kiosk.toml"]).camera
    assert camera.devices == (str(first), str(second))
    assert camera.calibrations == (str(tmp_path / "d" / "cam-usb-Acme_CamA_0001.json"),
                                   str(tmp_path / "d" / "cam-usb-Acme_CamB_0001.json"))  # fmt: skip


def test_found_again_a_listed_camera_keeps_its_name_and_calibration(tmp_path: Path) -> None:
    first = plug(tmp_path, "CamA", 1)
    second = plug(tmp_path, "CamB", 2)
    # Listed by hand before: the first by its node, with a calibration of its own; and
    # one that is not plugged in now.
    (tmp_path / "kiosk.toml").write_text(
        SETTINGS + f'\n[camera]\ndevices = ["{os.path.realpath(first)}", "/dev/video9"]\n'
        f'calibrations = ["{tmp_path}/mine.json", "{tmp_path}/gone.json"]\n',
        encoding="utf-8",
    )
    with settings_screen(tmp_path) as d:
        find_cameras(d)
        screen = d.screen
        assert [f.listed for f in screen.found] == [0, None]  # type: ignore[attr-defined]
        assert screen.missing == ["/dev/video9"]  # type: ignore[attr-defined]
        d.press("\n")
        d.wait_screen("settings")
    camera = load_config(search_paths=[tmp_path / "kiosk.toml"]).camera
    assert camera.devices == (os.path.realpath(first), str(second))
    assert camera.calibrations == (f"{tmp_path}/mine.json",
                                   str(tmp_path / "d" / "cam-usb-Acme_CamB_0001.json"))  # fmt: skip


def test_with_no_camera_plugged_in_nothing_is_saved_and_0_looks_again(tmp_path: Path) -> None:
    (tmp_path / "v4l" / "by-id").mkdir(parents=True)
    with settings_screen(tmp_path) as d:
        find_cameras(d)
        screen = d.screen
        assert screen.found == []  # type: ignore[attr-defined]
        d.press("\n")
        assert "No camera" in screen.message  # type: ignore[attr-defined]
        assert d.screen is screen
        plug(tmp_path, "CamA", 1)  # plugged in now
        d.press("0")
        d.wait_for(lambda: screen.found is not None, 20, "cameras found")  # type: ignore[attr-defined]
        assert len(screen.found) == 1  # type: ignore[attr-defined]
        d.press("/")
        assert d.screen.name == "settings"
    assert (tmp_path / "kiosk.toml").read_text(encoding="utf-8") == SETTINGS


def test_a_camera_that_gives_no_picture_is_said_and_left_out(tmp_path: Path) -> None:
    plug(tmp_path, "CamA", 1)
    broken = tmp_path / "v4l" / "by-id" / "usb-Acme_Busy_0001-video-index0"
    broken.symlink_to(tmp_path / "CamA.meta")  # opens as no video
    with settings_screen(tmp_path) as d:
        find_cameras(d)
        found = d.screen.found  # type: ignore[attr-defined]
        assert [f.picture is None for f in found] == [False, True]
        d.press("\n")
        d.wait_screen("settings")
    camera = load_config(search_paths=[tmp_path / "kiosk.toml"]).camera
    assert [Path(x).name for x in camera.devices] == ["usb-Acme_CamA_0001-video-index0"]


def test_the_found_cameras_score_at_once_when_they_are_the_input(tmp_path: Path) -> None:
    """Input set to cameras with none listed: the board banner says so; once found, the
    kiosk asks for each camera to be calibrated."""
    plug(tmp_path, "CamA", 1)
    base = load_config(search_paths=[])
    config = dataclasses.replace(base, input=dataclasses.replace(base.input, source="camera"))
    (tmp_path / "kiosk.toml").write_text(SETTINGS, encoding="utf-8")
    with settings_screen(tmp_path, config) as d:
        d.running.devices.switch("camera")
        d.wait_for(lambda: "no camera" in d.kiosk.board.detail, 10, "no camera said")
        find_cameras(d)
        d.press("\n")
        d.wait_for(lambda: "no calibrated camera" in d.kiosk.board.detail, 10, "calibrate said")
