"""A kiosk closed lets go of its files (headless): the fonts it loaded, each holding its
file open, went only when the garbage collector came by. In one process that builds
kiosk after kiosk (the test suite, a supervisor restarting the app), they gathered past
1,024 open files, and then select() refused the board's port: "board reader crashed"."""

from __future__ import annotations

import os
from pathlib import Path

from kiosk_support import kiosk_on_board, send, start_game


def font_files_open() -> int:
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            count += os.readlink(f"/proc/self/fd/{fd}").endswith(".ttf")
        except OSError:
            continue
    return count


def test_a_closed_kiosk_holds_no_font_file_open(tmp_path: Path) -> None:
    before = font_files_open()
    for size in ((800, 480), (1280, 720), (1920, 1080)):
        folder = tmp_path / f"{size[0]}"
        folder.mkdir()
        with kiosk_on_board(folder, size) as (d, board):
            start_game(d, ("Anna", "Boris", "Cleo"))
            send(d, board, ["T20", "S19"])
            assert font_files_open() > before  # (it does load them)
    assert font_files_open() == before
