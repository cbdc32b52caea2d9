"""Shared set-up for the kiosk e2e tests: the real app headless, fed by a virtual board
over a real pty (the kiosk opens the board's symlink as it would /dev/dartboard)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from kiosk.adapters.serial_board.virtual import VirtualBoard
from kiosk.bootstrap import Options, build
from kiosk.config import Config
from kiosk.ui.driver import Driver


@contextmanager
def kiosk_on_board(
    tmp_path: Path, size: tuple[int, int] = (1280, 720)
) -> Iterator[tuple[Driver, VirtualBoard]]:
    board = VirtualBoard(tmp_path / "dartboard")
    board.start()
    running = build(Options(window=True, size=size, port=str(board.link), env={}), Config())
    d = Driver(running)
    try:
        d.wait_for(lambda: d.kiosk.board.state == "connected", what="the board connected")
        yield d, board
    finally:
        running.close()
        board.close()


@contextmanager
def kiosk_on_virtual_board(size: tuple[int, int] = (1280, 720)) -> Iterator[Driver]:
    running = build(Options(window=True, size=size, virtual=True, env={}), Config())
    d = Driver(running)
    try:
        d.wait_for(
            lambda: running.devices.virtual and d.kiosk.board.state == "connected",
            what="the virtual board",
        )
        yield d
    finally:
        running.close()


def send(d: Driver, board: VirtualBoard, lines: list[str]) -> None:
    """Board lines, each waited for until the kiosk has shown it."""
    for line in lines:
        before = d.app.frames
        seen = len(d.app.latencies)
        board.send(line)
        if line.startswith("BTN"):
            d.wait_for(lambda b=before: d.app.frames > b, what=f"a frame after {line}")
        else:
            d.wait_for(lambda s=seen: len(d.app.latencies) > s, what=f"{line} on screen")


def start_game(d: Driver, names: tuple[str, ...] = ("Anna", "Boris"), **options: object) -> None:
    from kiosk.ui.screens.cricket_menu import start_cricket
    from kiosk.ui.session import CricketSetup

    start_cricket(d.kiosk, CricketSetup(names=names, **options))  # type: ignore[arg-type]
    d.settle()
    assert d.screen.name == "cricket"


# Anna closes everything in six turns while Boris throws at nothing.
ANNA_WINS = [
    "T20",
    "T19",
    "T18",
    "S1",
    "S1",
    "S1",
    "T17",
    "T16",
    "T15",
    "S2",
    "S2",
    "S2",
    "DB",
    "SB",
    "S3",
]
