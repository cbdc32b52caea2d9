"""A dart the cameras saw fall out of the board: no new dart, and the player is told
how to take it off if it should not score (the real kiosk, headless)."""

from __future__ import annotations

from pathlib import Path

from camera_kiosk_support import camera_kiosk
from kiosk_support import start_game

from kiosk.config import Config
from kiosk.domain.darts import Dart


def test_a_dart_that_fell_out_is_said_and_not_counted_again(tmp_path: Path) -> None:
    from kiosk.adapters.camera.scorer import CameraFellOut
    from kiosk.adapters.serial_board.protocol import Hit
    from kiosk.adapters.serial_board.reader import Status
    from kiosk.ui.inbox import DeviceEvent

    with camera_kiosk(tmp_path, Config(language="uk")) as (running, d):
        start_game(d, ("Anna", "Boris"))
        running.inbox.put(DeviceEvent(Status("connected", "cameras"), source="camera"))
        running.inbox.put(DeviceEvent(Hit(Dart.parse("T20")), source="camera"))
        running.inbox.put(DeviceEvent(CameraFellOut(), source="camera"))
        d.settle()
        assert "Дротик випав з мішені: вдруге не зараховано. / 6 — виправити його" in d.texts
        game = d.game().game
        assert game.stats("Anna").darts == 1 and game.marks("Anna", 20) == 3
        d.press("/6")  # the way the note gives: the darts to correct
        assert d.screen.name == "correct-dart", d.screen.name
