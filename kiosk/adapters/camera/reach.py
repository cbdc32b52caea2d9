"""Where in a camera's picture a dart on or by the board can be seen at all: within
``REACH_MM`` of the bull. Change wholly outside it (a television on the wall, someone
passing behind, far off the board) is never taken for the dart (``tip``)."""

from __future__ import annotations

import cv2
import numpy as np

from kiosk.adapters.camera.calibration import Calibration

# A dart by the board's edge, its flight thrown out by a camera 50 degrees off, stays
# within about 450 mm of the bull.
REACH_MM = 500.0


def reach_mask(cal: Calibration, shape: tuple[int, ...]) -> np.ndarray | None:
    """Where in the picture a dart on or by the board can be seen: within ``REACH_MM``
    of the bull (bool, ``shape``); None when that circle does not map into the picture
    as one (the camera's horizon crosses it)."""
    key = (cal.homography.tobytes(), tuple(shape[:2]))
    if key in _REACH:
        return _REACH.get(key)  # (another camera's thread may clear it meanwhile)
    mask = disc_mask(cal, shape[0], shape[1], REACH_MM)
    if len(_REACH) > 8:  # (a few cameras, each recalibrated now and then)
        _REACH.clear()
    _REACH[key] = mask
    return mask


_REACH: dict[tuple[bytes, tuple[int, ...]], np.ndarray | None] = {}


def disc_mask(cal: Calibration, h: int, w: int, radius_mm: float) -> np.ndarray | None:
    """The picture's pixels (bool, ``h`` x ``w``) within ``radius_mm`` of the bull, or
    None when that circle does not map into the picture as one."""
    angles = np.radians(np.arange(0.0, 360.0, 2.0))
    ring = np.column_stack([radius_mm * np.sin(angles), radius_mm * np.cos(angles),
                            np.ones_like(angles)])  # fmt: skip
    q = ring @ np.linalg.inv(cal.homography).T  # board mm -> picture (homogeneous)
    if not np.all(q[:, 2] * np.sign(q[0, 2]) > 1e-9):
        return None
    pts = q[:, :2] / q[:, 2:3]
    if not np.all(np.isfinite(pts)) or np.abs(pts).max() > 1e6:
        return None
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 1)
    return mask.astype(bool)
