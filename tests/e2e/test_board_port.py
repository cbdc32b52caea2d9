"""A board's port the kiosk cannot open, for good: the banner says what to mend.

"Board disconnected: reconnecting..." is right for a board unplugged (it comes back);
for a port set to something that is no serial port (a typo: a file, /dev/zero) or one
the kiosk's user may not open (not in the dialout group), reconnecting never mends it
and the banner says what will. The kiosk still plays: darts can be typed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from kiosk.adapters.serial_board.virtual import VirtualBoard
from kiosk.bootstrap import Options, build
from kiosk.config import Config
from kiosk.ui.driver import Driver
from tests.plain_user import plain_user

NOT_A_PORT = (
    "The board's port is not a serial port: check port in the settings file. Darts can be typed."
)
NO_PERMISSION = "No permission to open the board's port: add the kiosk's user to the dialout group. Darts can be typed."  # noqa: E501


@contextmanager
def _kiosk_on_port(tmp_path: Path, port: str) -> Iterator[Driver]:
    options = Options(window=True, port=port, env={}, data_dir=tmp_path / "data")
    running = build(options, Config())
    try:
        yield Driver(running)
    finally:
        running.close()


def test_a_port_that_is_no_serial_port_says_to_check_the_setting(tmp_path: Path) -> None:
    typo = tmp_path / "ttyUSB0.txt"
    typo.write_text("not a device\n")
    with _kiosk_on_port(tmp_path, str(typo)) as d:
        d.wait_for(lambda: d.kiosk.board.lost, what="the port refused")
        d.settle()
        assert NOT_A_PORT in d.texts, d.texts
        d.press("\n")  # Cricket, typed darts: the kiosk plays on
        assert NOT_A_PORT in d.texts


def test_a_port_the_kiosk_may_not_open_says_to_add_the_user_to_dialout(tmp_path: Path) -> None:
    with VirtualBoard(tmp_path / "dartboard") as board:
        board.start()
        os.chmod(board.path, 0o600)
        os.chown(board.path, 4242, 4242)  # another user's, as root's tty is to the kiosk
        try:
            with plain_user(), _kiosk_on_port(tmp_path, str(board.link)) as d:
                d.wait_for(lambda: d.kiosk.board.lost, what="the port refused")
                d.settle()
                assert NO_PERMISSION in d.texts, d.texts
        finally:
            os.chown(board.path, os.getuid(), os.getgid())
