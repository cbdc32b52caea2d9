"""``board-monitor`` and ``board-learn`` beside a running kiosk: the kiosk holds the
board (its port opened exclusively), and the tools say so and how to stop the kiosk,
not "no board found" (real ptys; the by-id folder is the test's own)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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


@contextmanager
def held_board(by_id: Path) -> Iterator[tuple[Path, BoardReader]]:
    """A board in ``by_id``, read by a kiosk's reader (which holds its port): its link
    and the reader."""
    with VirtualBoard(ping_interval=0.2) as board:
        board.start()
        link = by_id / "usb-Arduino_Uno_85734323-if00"
        link.symlink_to(board.path)
        events = Events()
        reader = BoardReader(str(link), events)
        reader.start()
        try:
            events.status("connected")
            yield link, reader
        finally:
            reader.stop()


@pytest.fixture
def kiosk_holds_the_board(by_id: Path) -> Iterator[Path]:
    """A board in ``by_id``, read by a kiosk's reader (which holds its port)."""
    with held_board(by_id) as (link, _reader):
        yield link


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


def test_waiting_for_a_board_the_kiosk_holds_says_why_then_connects_once_let_go(
    by_id: Path, tmp_path: Path
) -> None:
    # With --wait it waited with nothing said but "status lost": no word of the kiosk.
    with held_board(by_id) as (link, kiosk):
        out, err = tmp_path / "out.txt", tmp_path / "err.txt"
        with out.open("w") as o, err.open("w") as e:
            monitor = subprocess.Popen(
                [sys.executable, "-m", "kiosk", "board-monitor", "--wait", "--port", str(link)],
                stdout=o,
                stderr=e,
                stdin=subprocess.DEVNULL,
                env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
            )
        try:
            assert wait_for(lambda: "waiting for it" in err.read_text()), err.read_text()
            said = err.read_text()
            assert "in use" in said and STOP in said, said
            assert said.count("waiting for it") == 1  # once, not at every try
            kiosk.stop()  # the kiosk stopped: the monitor opens the board
            assert wait_for(lambda: "status connected" in out.read_text()), out.read_text()
        finally:
            monitor.terminate()
            monitor.wait(timeout=10)


def wait_for(condition: Callable[[], bool], timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()
