"""choose_port: configured, /dev/dartboard, or the by-id device that speaks the protocol."""

from __future__ import annotations

from pathlib import Path

from kiosk.adapters.serial_board.ports import choose_port
from kiosk.adapters.serial_board.virtual import VirtualBoard


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


def test_no_board_anywhere_means_none(tmp_path: Path) -> None:
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    with VirtualBoard(ping_interval=3600) as mute:
        (by_id / "usb-mute").symlink_to(mute.path)
        assert choose_port(None, fixed=tmp_path / "x", by_id=by_id, timeout=0.5) is None
    assert choose_port(None, fixed=tmp_path / "x", by_id=tmp_path / "missing") is None
