"""A camera whose checks find no board in its view (covered, turned away, in the dark)
is named on the screen, not shown as scoring (the real kiosk, headless)."""

from __future__ import annotations

from pathlib import Path

from kiosk_support import kiosk_on_board, start_game

from kiosk.adapters.camera.scorer import NOT_IN_VIEW, CameraStatus
from kiosk.config import Config
from kiosk.devices import Devices
from kiosk.ui.inbox import Inbox


def test_the_devices_name_a_camera_that_does_not_see_the_board() -> None:
    inbox = Inbox()
    devices = Devices(Config(), inbox, source="camera", port=None)
    devices._camera_numbers = [1, 2]  # (two cameras scoring)
    devices._camera_event(CameraStatus(0, "connected", "cam1"))
    devices._camera_event(CameraStatus(1, "lost", f"{NOT_IN_VIEW}: check it"))
    events = [item.event for item in inbox.wait(0.1)]
    down = [e for e in events if type(e).__name__ == "CamerasDown"]
    assert down and down[-1].cameras == ((2, "board not seen"),), events


def test_the_banner_says_which_camera_does_not_see_the_board(tmp_path: Path) -> None:
    with kiosk_on_board(tmp_path, config=Config(language="uk")) as (d, _board):
        start_game(d, ("Anna", "Boris"))
        d.kiosk.set_cameras_down(((1, "board not seen"),))
        d.kiosk.set_board("lost", "cameras")
        d.settle()
        said = "камера 1 (не бачить мішені: перевірте її)"
        assert said in " ".join(d.texts), d.texts
        assert not any("під'єднуємо" in t for t in d.texts), d.texts  # (not "reconnecting")


def test_the_banner_names_a_camera_file_not_there_in_the_kiosks_language(tmp_path: Path) -> None:
    import dataclasses

    base = Config(language="uk")
    camera = dataclasses.replace(base.camera, devices=("/dev/video0", "/srv/rig2.avi"))
    with kiosk_on_board(tmp_path, config=dataclasses.replace(base, camera=camera)) as (d, _):
        start_game(d, ("Anna", "Boris"))
        d.kiosk.set_cameras_down(((2, "file not found"),))
        d.settle()
        said = "Не рахує: камера 2 (файл не знайдено: /srv/rig2.avi)."  # noqa: RUF001
        assert said in " ".join(d.texts), d.texts
