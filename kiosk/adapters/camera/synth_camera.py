"""Pinhole cameras around a board, for rendered views: where they stand, which way they
look, and the calibration a careful user would click for them."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from kiosk.adapters.camera.calibration import Calibration, PointPair
from kiosk.domain import board

FRAME_SIZE = (1280, 720)


@dataclass(frozen=True)
class Camera:
    """Pinhole camera in board mm: image point ~ K (R X + t)."""

    K: np.ndarray
    R: np.ndarray
    t: np.ndarray
    size: tuple[int, int]
    off_axis_deg: float

    def project(self, pts: np.ndarray) -> np.ndarray:
        cam = np.asarray(pts, np.float64).reshape(-1, 3) @ self.R.T + self.t
        uvw = cam @ self.K.T
        return np.asarray(uvw[:, :2] / uvw[:, 2:3])

    def depth(self, pts: np.ndarray) -> np.ndarray:
        cam = np.asarray(pts, np.float64).reshape(-1, 3) @ self.R.T + self.t
        return np.asarray(cam[:, 2])

    @property
    def board_to_image(self) -> np.ndarray:
        return np.asarray(self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], self.t]))

    def turned(self, pan_deg: float, tilt_deg: float, roll_deg: float = 0.0) -> Camera:
        """The same camera turned about its lens: ``pan_deg`` about its image's
        vertical, ``tilt_deg`` about its horizontal, ``roll_deg`` about its line of
        sight (a knocked mount)."""
        a, b, c = math.radians(pan_deg), math.radians(tilt_deg), math.radians(roll_deg)
        pan = np.array([[math.cos(a), 0, math.sin(a)], [0, 1, 0], [-math.sin(a), 0, math.cos(a)]])
        tilt = np.array([[1, 0, 0], [0, math.cos(b), -math.sin(b)], [0, math.sin(b), math.cos(b)]])
        roll = np.array([[math.cos(c), -math.sin(c), 0], [math.sin(c), math.cos(c), 0], [0, 0, 1]])
        turn = roll @ tilt @ pan
        return replace(self, R=turn @ self.R, t=turn @ self.t)

    def shaken(self, dx: float, dy: float) -> Camera:
        """The same camera nudged by (dx, dy) pixels (the board shaking after impact)."""
        K = self.K.copy()
        K[0, 2] += dx
        K[1, 2] += dy
        return replace(self, K=K)

    def calibration(self, rng: np.random.Generator, click_px: float = 0.3) -> Calibration:
        """What a careful calibration would give: the bull and the wire crossings of the
        double and treble rings, each marked with ``click_px`` of error."""
        brd = [(0.0, 0.0)]
        for i in range(20):
            a = i * board.SEGMENT_DEGREES + board.SEGMENT_DEGREES / 2
            brd += [board.point_at(a, board.DOUBLE_OUTER), board.point_at(a, board.TREBLE_OUTER)]
        b3 = np.array([[x, y, 0.0] for x, y in brd])
        img = self.project(b3) + rng.normal(0.0, click_px, (len(brd), 2))
        w, h = self.size
        pts = [
            PointPair((float(u), float(v)), p)
            for (u, v), p in zip(img, brd, strict=True)
            if 0 <= u <= w and 0 <= v <= h
        ]
        return Calibration.from_points(self.size, pts)


def random_camera(
    rng: np.random.Generator,
    off_axis_deg: float | None = None,
    size: tuple[int, int] = FRAME_SIZE,
    azimuth_deg: float | None = None,
) -> Camera:
    """A camera looking at the board from ``off_axis_deg`` (0-50 if None) off its
    normal, from any side, rolled at random, 55-75 degrees field of view, placed so the
    board fills 55-100% of the frame's height."""
    theta = math.radians(rng.uniform(0.0, 50.0) if off_axis_deg is None else off_axis_deg)
    phi = math.radians(rng.uniform(0.0, 360.0) if azimuth_deg is None else azimuth_deg)
    hfov = math.radians(rng.uniform(55.0, 75.0))
    roll = rng.uniform(-math.pi, math.pi)
    w, h = size
    f = w / 2 / math.tan(hfov / 2)
    K = np.array([[f, 0, (w - 1) / 2], [0, f, (h - 1) / 2], [0, 0, 1.0]])
    target = np.array([rng.normal(0, 8), rng.normal(0, 8), 0.0])
    away = np.array(
        [math.sin(theta) * math.cos(phi), math.sin(theta) * math.sin(phi), math.cos(theta)]
    )
    z_c = -away
    ref = np.array([0.0, 1.0, 0.0])
    y_c = -(ref - (ref @ z_c) * z_c)
    y_c /= np.linalg.norm(y_c)
    x_c = np.cross(y_c, z_c)
    cr, sr = math.cos(roll), math.sin(roll)
    x_c, y_c = cr * x_c + sr * y_c, -sr * x_c + cr * y_c
    R = np.vstack([x_c, y_c, z_c])
    rim = np.array([[*board.point_at(a, 185.0), 0.0] for a in range(0, 360, 10)])
    fill = rng.uniform(0.55, 1.0)
    d = 200.0
    while True:
        cam = Camera(K, R, -R @ (target + d * away), size, math.degrees(theta))
        p = cam.project(rim)
        span_ok = np.ptp(p[:, 1]) <= h * fill and np.ptp(p[:, 0]) <= w * 0.98
        inside = (p.min(axis=0) >= 0).all() and (p.max(axis=0) <= (w - 1, h - 1)).all()
        if span_ok and inside and (cam.depth(rim) > 50).all():
            return cam
        d *= 1.04
