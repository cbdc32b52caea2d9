"""``virtual-board`` and ``board-monitor`` as real processes talking over a pty."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest
from test_serial_support import Events

from kiosk.adapters.serial_board.protocol import Button, Hit
from kiosk.adapters.serial_board.reader import BoardReader
from kiosk.domain.darts import Dart

ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}


class Proc:
    """A ``darts-kiosk`` subprocess whose stdout lines can be waited for."""

    def __init__(self, *args: str, stdin: bool = False) -> None:
        self.p = subprocess.Popen(
            [sys.executable, "-m", "kiosk", *args],
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=ENV,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        assert self.p.stdout is not None
        threading.Thread(target=self._pump, args=(self.p.stdout,), daemon=True).start()

    def _pump(self, out: IO[str]) -> None:
        for line in out:
            self.lines.put(line.rstrip("\n"))

    def next_line(self, timeout: float = 10.0) -> str:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no output in {timeout} s; so far {self.seen}") from None
        self.seen.append(line)
        return line

    def until(self, wanted: str, timeout: float = 10.0) -> None:
        while self.next_line(timeout) != wanted:
            pass

    def say(self, text: str) -> None:
        assert self.p.stdin is not None
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()

    def stop(self) -> str:
        if self.p.poll() is None:
            self.p.terminate()
        try:
            self.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
        assert self.p.stderr is not None
        return self.p.stderr.read()


@pytest.fixture
def procs() -> Iterator[list[Proc]]:
    started: list[Proc] = []
    yield started
    for p in started:
        p.stop()


GAME = ["T20", "SB", "MISS", "BTN NEXT", "xyz", "DB", "125", "S5i", "BTN UNDO"]
SHOWN = [
    "hit T20",
    "hit SB",
    "miss",
    "button NEXT",
    "unknown 'xyz'",
    "hit DB",
    "hit SB",
    "hit S5i",
    "button UNDO",
]


def test_board_monitor_shows_every_event_of_a_game_on_the_virtual_board(
    tmp_path: Path, procs: list[Proc]
) -> None:
    link = tmp_path / "dartboard"
    board = Proc("virtual-board", "--link", str(link), stdin=True)
    procs.append(board)
    assert board.next_line().startswith("/dev/pts/")
    monitor = Proc("board-monitor", "--port", str(link))
    procs.append(monitor)
    monitor.until("status connected")
    for line in GAME:
        board.say(line)
    shown = [monitor.next_line() for _ in SHOWN]
    assert shown == SHOWN
    board.say("replug")  # the USB cable pulled and put back
    monitor.until("status lost")
    monitor.until("status connected")
    board.say("T19")
    line = monitor.next_line()
    while line.startswith("hello "):  # the board's HELLO after reset, if caught
        line = monitor.next_line()
    assert line == "hit T19"
    assert "ping" not in monitor.seen


def test_a_reader_that_opens_the_virtual_board_late_still_hears_its_hello(
    tmp_path: Path, procs: list[Proc]
) -> None:
    # Nothing to send yet (stdin open, empty): the HELLO said on start went to nobody,
    # so the board says it again to the first reader, as an Arduino does on open.
    link = tmp_path / "dartboard"
    board = Proc("virtual-board", "--link", str(link), stdin=True)
    procs.append(board)
    board.next_line()
    monitor = Proc("board-monitor", "--port", str(link), "--verbose")  # shows HELLO
    procs.append(monitor)
    seen = [monitor.next_line() for _ in range(4)]  # connected, then 1 PING a second
    assert any(line.startswith("hello virtual-board ") for line in seen), seen


def test_board_monitor_verbose_shows_pings(tmp_path: Path, procs: list[Proc]) -> None:
    link = tmp_path / "dartboard"
    board = Proc("virtual-board", "--link", str(link), stdin=True)
    procs.append(board)
    board.next_line()
    monitor = Proc("board-monitor", "--port", str(link), "--verbose")
    procs.append(monitor)
    monitor.until("ping", timeout=15)


def test_virtual_board_plays_a_script_and_keeps_pinging(tmp_path: Path, procs: list[Proc]) -> None:
    script = tmp_path / "game.txt"
    script.write_text("# a short leg\nsleep 1.0\nT20\n\nsleep 0.2\nD16\nBTN NEXT\n")
    board = Proc("virtual-board", "--script", str(script))
    procs.append(board)
    path = board.next_line()
    events = Events()
    reader = BoardReader(path, events, ping_timeout=2.5)
    reader.start()
    try:
        events.status("connected")
        events.next(lambda e: e == Hit(Dart(20, 3)), timeout=5)
        events.next(lambda e: e == Hit(Dart(16, 2)))
        events.next(lambda e: e == Button("NEXT"))
        events.next(lambda e: type(e).__name__ == "Ping", timeout=3)  # still alive after
    finally:
        reader.stop()
    assert board.p.poll() is None, "a scripted board keeps running until killed"
    board.stop()
    assert board.p.returncode == 0


def test_virtual_board_exits_at_the_end_of_stdin(procs: list[Proc]) -> None:
    board = Proc("virtual-board", stdin=True)
    procs.append(board)
    board.next_line()
    assert board.p.stdin is not None
    board.p.stdin.close()
    assert board.p.wait(timeout=10) == 0


def test_board_monitor_without_a_board_says_so(tmp_path: Path) -> None:
    missing = tmp_path / "nothing"
    monitor = Proc("board-monitor", "--port", str(missing))
    assert monitor.next_line() == "status lost"
    monitor.stop()


def test_virtual_board_will_not_replace_a_real_file(tmp_path: Path) -> None:
    real = tmp_path / "important"
    real.write_text("keep me")
    board = Proc("virtual-board", "--link", str(real))
    assert board.p.wait(timeout=10) == 1
    assert "not replaced" in board.stop()
    assert real.read_text() == "keep me"


def test_the_monitor_says_a_board_at_the_wrong_speed_without_verbose() -> None:
    # It printed a bare "status lost" while the board plainly sent bytes: the reason
    # (the kiosk's banner: "check its speed") came only with -v.
    from kiosk.adapters.serial_board.reader import UNREADABLE, Status
    from kiosk.commands.board_monitor import line_for

    wrong = f"{UNREADABLE}: 300 bytes in 3 s and no line the kiosk knows; is it at 115200 baud?"
    assert line_for(Status("lost", wrong), verbose=False) == f"status lost ({wrong})"
    assert line_for(Status("lost", "no line for 3 s"), verbose=False) == "status lost"
    assert (
        line_for(Status("lost", "no line for 3 s"), verbose=True) == "status lost (no line for 3 s)"
    )


def test_board_monitor_with_a_map_with_a_typo_shows_the_rest_mapped_and_names_the_typo(
    tmp_path: Path, procs: list[Proc]
) -> None:
    # One bad entry made the monitor refuse the whole map (exit 1): the kiosk uses the
    # rest, so the monitor shows what the kiosk would score.
    board_map = tmp_path / "map.json"
    board_map.write_text('{"version": 1, "contacts": {"4,9": "T20", "5,5": "T21"}}')
    link = tmp_path / "dartboard"
    board = Proc("virtual-board", "--link", str(link), stdin=True)
    procs.append(board)
    board.next_line()
    monitor = Proc("board-monitor", "--port", str(link), "--map", str(board_map))
    procs.append(monitor)
    monitor.until("status connected")
    board.say("RAW 4 9")
    board.say("RAW 5 5")
    assert [monitor.next_line(), monitor.next_line()] == ["hit T20", "raw 5 5"]
    err = monitor.stop()
    assert "contact '5,5' left out" in err and "'T21' is not a segment" in err, err
