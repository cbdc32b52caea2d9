"""Fixtures the calibration tests share (the screen's and the command's)."""

from __future__ import annotations

import numpy as np
import pytest
from calibrate_support import rendered

from kiosk.adapters.camera import synthetic


@pytest.fixture(scope="module")
def camera() -> tuple[synthetic.Camera, np.ndarray]:
    """A rendered camera 30 degrees off the board's axis, and its picture."""
    return rendered(5, 30.0)


@pytest.fixture(scope="module")
def face_on() -> np.ndarray:
    """A picture from a camera 5 degrees off the board's axis."""
    return rendered(6, 5.0)[1]
