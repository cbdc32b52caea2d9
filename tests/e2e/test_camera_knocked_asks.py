"""A camera knocked as a dart landed: the scorer cannot tell the dart from the swing
and counts neither; the player is asked on the scoreboard and types it (the real
kiosk, headless)."""

from __future__ import annotations

from pathlib import Path

from camera_kiosk_support import camera_kiosk
from kiosk_support import start_game

from kiosk.config import Config
from kiosk.domain.darts import Dart


def test_a_knocked_camera_asks_for_a_dart_it_could_not_count(tmp_path: Path) -> None:
    from kiosk.adapters.camera.scorer import CameraKnocked
    from kiosk.adapters.serial_board.protocol import Hit
    from kiosk.adapters.serial_board.reader import Status
    from kiosk.ui.inbox import DeviceEvent

    with camera_kiosk(tmp_path, Config()) as (running, d):
        start_game(d, ("Anna", "Boris"))
        running.inbox.put(DeviceEvent(Status("connected", "cameras"), source="camera"))
        running.inbox.put(DeviceEvent(Hit(Dart.parse("S19")), source="camera"))
        running.inbox.put(DeviceEvent(CameraKnocked((0,)), source="camera"))
        d.settle()
        assert "A camera was knocked: if a dart landed just then, type it" in d.texts
        d.press("3*20\n")
        game = d.game().game
        assert [str(x) for x in game.history] == ["S19", "T20"]
