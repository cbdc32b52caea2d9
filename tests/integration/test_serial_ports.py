"""choose_port: configured, /dev/dartboard, or the by-id device that speaks the protocol;
and, on the virtual board, a board plugged in later (real ptys)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from serial_probes import count_probes

from kiosk import devices as devices_module
from kiosk.adapters.serial_board.ports import _greets, choose_port, plugged_in
from kiosk.adapters.serial_board.protocol import Hit
from kiosk.adapters.serial_board.reader import Status
from kiosk.adapters.serial_board.virtual import VirtualBoard
from kiosk.config import Config
from kiosk.devices import Devices
from kiosk.domain.darts import Dart
from kiosk.ui.inbox import Inbox


def test_a_configured_port_is_used_as_given(tmp_path: Path) -> None:
    assert choose_port("socket://pi:7000", fixed=tmp_path / "x") == "socket://pi:7000"


def test_the_fixed_udev_name_wins_when_nothing_is_configured(tmp_path: Path) -> None:
    with VirtualBoard(tmp_path / "dartboard") as vb:
        assert vb.link is not None
        assert choose_port(None, fixed=vb.link, by_id=tmp_path / "none") == str(vb.link)


def test_the_by_id_device_that_speaks_is_chosen_over_a_mute_one(tmp_path: Path) -> None:
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    with VirtualBoard(ping_interval=3600) as mute, VirtualBoard(ping_interval=0.2) as board:
        board.start()
        (by_id / "usb-AAA_gps-if00").symlink_to(mute.path)
        (by_id / "usb-ZZZ_dartboard-if00").symlink_to(board.path)
        found = choose_port(None, fixed=tmp_path / "no-fixed", by_id=by_id, timeout=1.0)
    assert found == str(by_id / "usb-ZZZ_dartboard-if00")


def test_a_hello_behind_bytes_left_from_the_reset_is_heard(tmp_path: Path) -> None:
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    with VirtualBoard(ping_interval=3600) as board:  # a board that never pings
        # Reset by the port's opening, it says HELLO once, behind its bootloader's bytes.
        board.hello = lambda: board.write(b"\xf0\x00\xfe\x1c" + b"HELLO board 1.0\r\n")
        threading.Thread(target=board.wait_for_reader, args=(5.0, 0.1), daemon=True).start()
        (by_id / "usb-dartboard").symlink_to(board.path)
        found = choose_port(None, fixed=tmp_path / "x", by_id=by_id, timeout=1.5)
    assert found == str(by_id / "usb-dartboard")


@pytest.mark.parametrize(
    ("line", "greets"),
    [(b"\xf0\x00\xfe HELLO board 1.0", True),
     (b"\xf0HELLO\tboard\t1.0", True),  # fields apart by tabs
     (b"\xf0HELLO board 1.0\x00", True),  # a C string's terminator
     (b"\x80\xffPING", True),
     (b"ERROR: bad\x01PING", False),  # text in front: some other device talking
     (b"$GPGGA,123\x07HELLO x y", False),
     (b"\xf0HELLO onlyname", False),  # no greeting behind the junk either
     (b"\xf0\xfeT20", False)],
)  # fmt: skip
def test_the_probe_hears_a_greeting_behind_junk_and_nothing_else(line: bytes, greets: bool) -> None:
    assert _greets(line) is greets


def test_no_board_anywhere_means_none(tmp_path: Path) -> None:
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    with VirtualBoard(ping_interval=3600) as mute:
        (by_id / "usb-mute").symlink_to(mute.path)
        assert choose_port(None, fixed=tmp_path / "x", by_id=by_id, timeout=0.5) is None
    assert choose_port(None, fixed=tmp_path / "x", by_id=tmp_path / "missing") is None


def test_a_device_looked_at_once_is_not_opened_again_until_it_is_replugged(
    tmp_path: Path,
) -> None:
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    seen: set[str] = set()
    with VirtualBoard(ping_interval=3600) as mute, VirtualBoard(ping_interval=0.2) as board:
        (by_id / "usb-gps").symlink_to(mute.path)
        assert plugged_in(seen, fixed=tmp_path / "x", by_id=by_id, timeout=0.5) is None
        assert seen == {str(by_id / "usb-gps")}
        # Looked at: not opened again (an Arduino resets on open), so no wait at all.
        start = time.monotonic()
        assert plugged_in(seen, fixed=tmp_path / "x", by_id=by_id, timeout=5.0) is None
        assert time.monotonic() - start < 2.0
        # Unplugged: forgotten, so plugged back it is looked at again.
        (by_id / "usb-gps").unlink()
        assert plugged_in(seen, fixed=tmp_path / "x", by_id=by_id) is None
        assert seen == set()
        board.start()
        (by_id / "usb-dartboard").symlink_to(board.path)
        found = plugged_in(seen, fixed=tmp_path / "x", by_id=by_id, timeout=2.0)
        assert found == str(by_id / "usb-dartboard")


@contextmanager
def on_the_virtual_board(by_id: Path, relook_s: float = 30.0) -> Iterator[tuple[Devices, Inbox]]:
    """Devices looking for a board in ``by_id`` (no /dev/dartboard), once they have
    fallen back to the virtual board."""
    inbox = Inbox()
    devices = Devices(Config(), inbox, source="auto", port=None)
    devices.fixed, devices.by_id = str(by_id.parent / "no-dartboard"), str(by_id)
    devices.relook_s = relook_s
    devices.start()
    try:
        _wait(lambda: devices.active == "virtual", "the virtual board")
        yield devices, inbox
    finally:
        devices.stop()


def test_on_the_virtual_board_a_board_plugged_in_takes_over(tmp_path: Path) -> None:
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    with on_the_virtual_board(by_id) as (devices, inbox):
        assert devices.virtual
        with VirtualBoard(ping_interval=0.2) as board:
            board.start()
            (by_id / "usb-dartboard").symlink_to(board.path)
            _wait(lambda: devices.active == "serial", "the board plugged in")
            assert not devices.virtual
            # Its port open (opening drops what the board said before, as on a real
            # port: under load the reader's thread opens it a while after the switch).
            port = str(by_id / "usb-dartboard")
            events: list[object] = []
            _wait(lambda: events.extend(i.event for i in inbox.wait(0.1)) or any(
                isinstance(e, Status) and e.state == "connected" and e.detail == port
                for e in events), "the board's port opened")  # fmt: skip
            board.send("T20")
            hits: list[object] = []
            _wait(lambda: hits.extend(i.event for i in inbox.wait(0.1)) or Hit(
                Dart.parse("T20")) in hits, "T20 from the board")  # fmt: skip


@pytest.mark.parametrize(
    ("starting_s", "relook_s"),
    [(60.0, 1000.0), (0.0, 3.0)],
    ids=["in the first minute: every pass", "later: every relook_s"],
)
def test_on_the_virtual_board_a_board_there_from_the_start_but_slow_to_speak_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, starting_s: float, relook_s: float
) -> None:
    monkeypatch.setattr(devices_module, "STARTING_S", starting_s)
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    with VirtualBoard(ping_interval=0.2) as board:  # plugged in, silent (still booting)
        (by_id / "usb-dartboard").symlink_to(board.path)
        with on_the_virtual_board(by_id, relook_s) as (devices, _inbox):
            board.start()  # it speaks now: looked at again, it takes over
            _wait(lambda: devices.active == "serial", "the board, looked at again")


def _wait(done: Callable[[], object], what: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_a_serial_board_that_is_not_there_is_one_warning_not_a_line_every_two_seconds(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="kiosk")
    inbox = Inbox()
    devices = Devices(Config(), inbox, source="serial", port=None)
    devices.fixed, devices.by_id = str(tmp_path / "no-dartboard"), str(tmp_path / "by-id")
    devices.start()
    try:
        _wait(lambda: any("no board found" in r.getMessage() for r in caplog.records), "it")
        time.sleep(2.5)  # past the next look for a board
    finally:
        devices.stop()
    problems = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage().split(" (")[0] for r in problems] == ["no board found"]
    assert not [r for r in caplog.records if r.levelno == logging.INFO and "no board" in r.msg]


def test_on_serial_with_no_port_a_mute_device_is_not_opened_every_few_seconds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A GPS in by-id, no board: it was opened (and reset) every 4.5 s for good; as on
    # "auto", it is looked at again only every relook_s now, and a board plugged in
    # is still found at once.
    monkeypatch.setattr(devices_module, "STARTING_S", 0.0)
    probed = count_probes(monkeypatch)
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    with VirtualBoard() as gps:  # plugged in, never speaks
        (by_id / "usb-gps").symlink_to(gps.path)
        inbox = Inbox()
        devices = Devices(Config(), inbox, source="serial", port=None)
        devices.fixed, devices.by_id = str(tmp_path / "no-dartboard"), str(by_id)
        devices.relook_s = 1000.0
        devices.start()
        try:
            time.sleep(9.0)  # two looks' worth at the old pace
            assert probed.count("usb-gps") == 1, probed
            with VirtualBoard(ping_interval=0.2) as board:
                board.start()
                (by_id / "usb-dartboard").symlink_to(board.path)
                _wait(lambda: devices.active == "serial", "the board plugged in")
            assert probed.count("usb-gps") == 1, probed
        finally:
            devices.stop()
