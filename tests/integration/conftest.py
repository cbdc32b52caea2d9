"""Fixtures shared by the integration tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.adapters.serial_board.virtual import VirtualBoard


@pytest.fixture
def board(tmp_path: Path) -> Iterator[VirtualBoard]:
    """A virtual board on a real pty, linked at ``tmp_path / "dartboard"``, pinging."""
    vb = VirtualBoard(tmp_path / "dartboard", ping_interval=0.2)
    vb.start()
    yield vb
    vb.close()
