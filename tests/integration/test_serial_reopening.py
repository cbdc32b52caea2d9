"""The board reader opening its port again: a board that stays silent (powered off,
its lead in), a port that goes away while it is being set up (a replug)."""

from __future__ import annotations

import logging
import time

import pytest
from test_serial_reader import open_reader
from test_serial_support import Events

from kiosk.adapters.serial_board.protocol import Hit
from kiosk.adapters.serial_board.reader import BoardReader
from kiosk.adapters.serial_board.virtual import VirtualBoard
from kiosk.domain.darts import Dart


def test_a_board_that_stays_silent_is_reopened_without_filling_the_log(
    board: VirtualBoard, caplog: pytest.LogCaptureFixture
) -> None:
    # Powered off with its USB lead in: "board still silent; reopening" and "opened"
    # were logged every 3 s for good (2,400 lines an hour in the journal).
    caplog.set_level(logging.INFO, logger="kiosk")
    reader, events = open_reader(board.link, ping_timeout=0.3)  # type: ignore[arg-type]
    events.next(lambda e: type(e).__name__ == "Ping")
    board.pause_pings()
    events.status("lost")
    time.sleep(3.0)  # reopened about ten times
    board.resume_pings()
    events.status("connected")
    reader.stop()
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    assert sum("still silent" in m for m in said) == 1, said
    assert sum(m.startswith("opened") for m in said) <= 3, said


def test_a_port_that_goes_away_while_it_is_set_up_is_tried_again(
    board: VirtualBoard, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # A replug at the wrong moment: pyserial opened the pty, then setting it up failed
    # with termios's own error, which killed the reader's thread ("board reader
    # crashed"): the board was lost until the kiosk was restarted.
    import termios

    import serial

    real = serial.serial_for_url
    failures = [termios.error(5, "Input/output error")]

    def flaky(*args: object, **kwargs: object) -> object:
        if failures:
            raise failures.pop()
        return real(*args, **kwargs)

    monkeypatch.setattr(serial, "serial_for_url", flaky)
    events = Events()
    reader = BoardReader(str(board.link), events, retry_interval=0.1)
    reader.start()
    events.status("lost")
    events.status("connected")
    board.send("T20")
    events.next(lambda e: e == Hit(Dart(20, 3)))
    reader.stop()
    assert not any("crashed" in r.getMessage() for r in caplog.records)
