"""Calibrations marked by hand on the kiosk's screen (the four double-ring crossings
and the bull, ``camera_calibrate.TARGETS``): how often marks with some error are
refused, how often one mis-click is caught, and how far off the darts would be.

    python bench/camera_marks.py [--n 300] [--seed 760000]

Cameras drawn as the renderer draws them (``synthetic.random_camera``, 1280x720).
Every mark gets Gaussian error of ``sigma`` px; a mis-click moves one mark (any of the
5, in any direction) by 15, 30 or 60 px more. Prints per case: how often
``Calibration.from_points`` refuses the marks, and how far the accepted calibrations
put the board's points (the scoring area, up to the double ring) from the truth
(median and p95 of the worst point per calibration, mm): what a dart would be off.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _rendered
import numpy as np

from kiosk.adapters.camera import synthetic
from kiosk.adapters.camera.calibration import Calibration, CalibrationError, PointPair
from kiosk.domain import board
from kiosk.ui.screens.camera_calibrate import TARGETS

CASES = [(1.0, 0.0), (2.0, 0.0), (3.0, 0.0), (1.0, 15.0), (1.0, 30.0), (1.0, 60.0)]


def board_grid() -> np.ndarray:
    angles = np.radians(np.arange(0.0, 360.0, 6.0))
    radii = (board.OUTER_BULL, 60.0, board.TREBLE_OUTER, 140.0, board.DOUBLE_OUTER)
    return np.array([(r * np.cos(a), r * np.sin(a)) for r in radii for a in angles])


def main() -> int:
    a = _rendered.options(__doc__ or "", 300, 760_000)
    grid = board_grid()
    brd = np.array([t.board for t in TARGETS])
    print(f"{a.n} rendered cameras (seeds {a.seed}..), the kiosk's 5 marks\n")
    print("mark error  mis-click   refused   darts off (accepted): median  p95 mm")
    for sigma, miss in CASES:
        refused = 0
        off: list[float] = []
        for s in range(a.n):
            rng = np.random.default_rng(a.seed + s)
            cam = synthetic.random_camera(rng)
            true_img = cam.project(np.column_stack([brd, np.zeros(len(brd))]))
            marks = true_img + rng.normal(0.0, sigma, true_img.shape)
            if miss:
                k, turn = int(rng.integers(len(brd))), rng.uniform(0, 2 * np.pi)
                marks[k] += miss * np.array([np.cos(turn), np.sin(turn)])
            pts = [
                PointPair((float(x), float(y)), t.board)
                for (x, y), t in zip(marks, TARGETS, strict=True)
            ]
            try:
                cal = Calibration.from_points(cam.size, pts)
            except CalibrationError:
                refused += 1
                continue
            seen = cam.project(np.column_stack([grid, np.zeros(len(grid))]))
            placed = cal.image_to_board(seen)
            off.append(float(np.linalg.norm(placed - grid, axis=1).max()))
        med, p95 = (np.median(off), np.percentile(off, 95)) if off else (np.nan, np.nan)
        print(f"{sigma:6.0f} px  {miss:6.0f} px  {100 * refused / a.n:6.1f} %"
              f"   {med:27.1f}  {p95:4.1f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
