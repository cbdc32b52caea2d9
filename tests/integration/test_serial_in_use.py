"""``board-monitor`` and ``board-learn`` beside a running kiosk: the kiosk holds the
board (its port opened exclusively), and the tools say so and how to stop the kiosk,
not "no board found" (real ptys; the by-id folder is the test's own)."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_serial_support import Events

from kiosk.adapters.serial_board import ports
from kiosk.adapters.serial_board.reader import BoardReader
from kiosk.adapters.serial_board.virtual import VirtualBoard
from kiosk.cli import main

STOP = "sudo systemctl stop darts-kiosk"


@pytest.fixture
def by_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder the tools look for boards in (and no /dev/dartboard)."""
    folder = tmp_path / "by-id"
    folder.mkdir()
    monkeypatch.setattr(ports, "FIXED", str(tmp_path / "no-dartboard"))
    monkeypatch.setattr(ports, "BY_ID", str(folder))
    monkeypatch.setattr(sys, "stdin", io.StringIO())  # (board-learn reads typed commands)
    return folder


@pytest.fixture
def kiosk_holds_the_board(by_id: Path) -> Iterator[Path]:
    """A board in ``by_id``, read by a kiosk's reader (which holds its port)."""
    with VirtualBoard(ping_interval=0.2) as board:
        board.start()
        link = by_id / "usb-Arduino_Uno_85734323-if00"
        link.symlink_to(board.path)
        events = Events()
        reader = BoardReader(str(link), events)
        reader.start()
        try:
            events.status("connected")
            yield link
        finally:
            reader.stop()


def tool_args(tool: str, tmp_path: Path) -> list[str]:
    return [tool, "--out", str(tmp_path / "map.json")] if tool == "board-learn" else [tool]


@pytest.mark.parametrize("tool", ["board-monitor", "board-learn"])
def test_with_the_kiosk_running_the_tool_says_the_board_is_in_use_not_missing(
    tool: str,
    tmp_path: Path,
    kiosk_holds_the_board: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(tool_args(tool, tmp_path))
    err = capsys.readouterr().err
    assert code == 1
    assert "no board found" not in err, err
    assert str(kiosk_holds_the_board) in err and "in use" in err, err
    assert STOP in err, err
    assert not (tmp_path / "map.json").exists()


@pytest.mark.parametrize("tool", ["board-monitor", "board-learn"])
def test_a_port_given_that_the_kiosk_holds_says_how_to_stop_the_kiosk(
    tool: str,
    tmp_path: Path,
    kiosk_holds_the_board: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main([*tool_args(tool, tmp_path), "--port", str(kiosk_holds_the_board)])
    err = capsys.readouterr().err
    assert code == 1
    assert "in use" in err and STOP in err, err


def test_with_no_board_at_all_it_is_still_no_board_found(
    by_id: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with VirtualBoard(ping_interval=3600) as mute:  # a GPS, say: free, but no board
        (by_id / "usb-gps").symlink_to(mute.path)
        assert main(["board-monitor"]) == 1
    err = capsys.readouterr().err
    assert "no board found" in err and STOP not in err, err
