"""A board swapped for a spare while the kiosk runs: the spare has another serial
number, so another /dev/serial/by-id name, and the kiosk finds it as it found the
first, without a restart (real ptys; the by-id folder is the test's own)."""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from serial_probes import count_probes

from kiosk.adapters.serial_board.protocol import Hit
from kiosk.adapters.serial_board.reader import Status
from kiosk.adapters.serial_board.virtual import VirtualBoard
from kiosk.config import Config
from kiosk.devices import Devices
from kiosk.domain.darts import Dart
from kiosk.ui.inbox import Inbox

OLD = "usb-Arduino__www.arduino.cc__0043_75833353035351F02181-if00"
SPARE = "usb-Arduino__www.arduino.cc__0043_95736323632351E0C1A2-if00"


class Seen:
    """What the devices put in the inbox, waited for."""

    def __init__(self, inbox: Inbox) -> None:
        self.inbox = inbox
        self.events: list[object] = []

    def wait(self, pred: Callable[[object], bool], what: str, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        start = len(self.events)
        while not any(pred(e) for e in self.events[start:]):
            assert time.monotonic() < deadline, f"not seen: {what}; got {self.events[-10:]}"
            self.events.extend(i.event for i in self.inbox.wait(0.1))

    def connected(self, port: Path, timeout: float = 20.0) -> None:
        self.wait(lambda e: e == Status("connected", str(port)), f"connected on {port}", timeout)


@contextmanager
def kiosk_reading(by_id: Path, source: str = "auto", port: str = "") -> Iterator[Devices]:
    config = Config()
    config = dataclasses.replace(config, input=dataclasses.replace(config.input, port=port))
    devices = Devices(config, Inbox(), source=source, port=None)
    devices.fixed, devices.by_id = str(by_id.parent / "no-dartboard"), str(by_id)
    devices.replaced_after_s = 1.0  # (10 s in the kiosk)
    devices.start()
    try:
        yield devices
    finally:
        devices.stop()


@pytest.mark.parametrize("source", ["auto", "serial"])
def test_a_board_swapped_for_a_spare_is_read_without_a_restart(
    tmp_path: Path, source: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="kiosk")
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    with VirtualBoard(by_id / OLD, ping_interval=0.2) as old:
        old.start()
        with kiosk_reading(by_id, source) as devices:
            seen = Seen(devices.inbox)
            seen.connected(by_id / OLD)
            old.close()  # broken: unplugged, its by-id name gone with it
            seen.wait(lambda e: isinstance(e, Status) and e.state == "lost", "the board lost")
            with VirtualBoard(by_id / SPARE, ping_interval=0.2) as spare:
                spare.start()  # the spare, plugged in: another serial number
                seen.connected(by_id / SPARE)
                spare.send("T20")
                seen.wait(lambda e: e == Hit(Dart(20, 3)), "T20 from the spare")
    said = [r.getMessage() for r in caplog.records]
    assert any(OLD in m and SPARE in m for m in said), said


def test_a_spare_plugged_in_all_along_is_read_once_the_board_has_gone(tmp_path: Path) -> None:
    # The spare left in another USB port: once the board has been gone for the time
    # (1 s here, 10 s in the kiosk), it is read, as at the start. It was read only
    # relook_s (30 s) later, the devices there when the board went being skipped.
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    with (
        VirtualBoard(by_id / f"1-{OLD}", ping_interval=0.2) as old,
        VirtualBoard(by_id / f"2-{SPARE}", ping_interval=0.2) as spare,
    ):
        old.start()
        spare.start()
        with kiosk_reading(by_id) as devices:
            seen = Seen(devices.inbox)
            seen.connected(by_id / f"1-{OLD}")
            old.close()
            seen.connected(by_id / f"2-{SPARE}", timeout=12.0)


def test_a_board_replugged_under_its_own_name_is_not_replaced_by_another(
    tmp_path: Path,
) -> None:
    # The board unplugged a moment (a loose lead pushed back) while another board is
    # plugged in meanwhile: back within the time, it is read again, not the other one.
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    with VirtualBoard(by_id / f"1-{OLD}", ping_interval=0.2) as old:
        old.start()
        with kiosk_reading(by_id) as devices:
            devices.replaced_after_s = 5.0
            seen = Seen(devices.inbox)
            seen.connected(by_id / f"1-{OLD}")
            replug = threading.Thread(target=old.replug, kwargs={"gap": 3.0})
            replug.start()  # seen gone (looked at every 2 s), back before 5 s
            time.sleep(0.3)
            with VirtualBoard(by_id / f"2-{SPARE}", ping_interval=0.2) as spare:
                spare.start()
                replug.join()
                seen.connected(by_id / f"1-{OLD}")
                time.sleep(4.0)  # (past the 5 s since it went)
                seen.events.extend(i.event for i in devices.inbox.wait(0.1))
    spare_read = Status("connected", str(by_id / f"2-{SPARE}"))
    assert spare_read not in seen.events, seen.events


@pytest.mark.parametrize("source", ["auto", "serial"])
def test_a_port_set_in_the_settings_is_kept_when_the_board_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str
) -> None:
    # The owner named the port: the kiosk waits for that one to come back, and never
    # opens another device (which may be anything: a GPS, a printer).
    probed = count_probes(monkeypatch)
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    with VirtualBoard(by_id / OLD, ping_interval=0.2) as old:
        old.start()
        with kiosk_reading(by_id, source, port=str(by_id / OLD)) as devices:
            seen = Seen(devices.inbox)
            seen.connected(by_id / OLD)
            old.close()
            with VirtualBoard(by_id / SPARE, ping_interval=0.2) as spare:
                spare.start()
                time.sleep(8.0)  # long past the time it takes a spare to be found
                seen.events.extend(i.event for i in devices.inbox.wait(0.1))
    assert Status("connected", str(by_id / SPARE)) not in seen.events
    assert SPARE not in probed
