"""What lens distortion, which the calibration does not model (a homography per
camera), costs: rendered three-camera throws whose pictures are bent by a barrel
distortion, calibrated on the bent pictures as a person would click them.

    python bench/camera_distortion.py [--n 100] [--jobs 2] [--seed 760000]

Distortion: the division model about the picture's centre, p_undistorted = c +
(p - c) / (1 + lam r^2), r in half picture widths; lam -0.03 bends the middle of a
side edge 3 % inwards, -0.06 about 6 % (a strong wide-angle webcam). Calibrations:
"many" clicks every known point in view (the bull and the double and treble rings'
wire crossings, as the automatic calibration gives them), "five" only the five the
calibration screen asks for. Cameras 15-50 degrees off the board's axis, tips
anywhere on the board. Prints exact segments and the tip error (median, p90).
"""

from __future__ import annotations

import math
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _rendered
import cv2
import numpy as np

from kiosk.adapters.camera import synthetic
from kiosk.adapters.camera.autocal import known_points
from kiosk.adapters.camera.calibration import Calibration, PointPair
from kiosk.adapters.camera.fusion import estimate_from, fuse
from kiosk.adapters.camera.tip import find_tip

LAMS = (0.0, -0.03, -0.06)
FIVE = (0, 1, 11, 21, 31)  # known_points(): the bull, the double ring at 20/1, 6/10, 3/19, 11/14


def _bend(img: np.ndarray, lam: float) -> np.ndarray:
    h, w = img.shape[:2]
    cx, cy, s = (w - 1) / 2, (h - 1) / 2, w / 2
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    dx, dy = (xs - cx) / s, (ys - cy) / s
    k = 1.0 / (1.0 + lam * (dx * dx + dy * dy))
    mx, my = (cx + dx * k * s).astype(np.float32), (cy + dy * k * s).astype(np.float32)
    return np.asarray(cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE))


def _bend_points(pts: np.ndarray, size: tuple[int, int], lam: float) -> np.ndarray:
    """Where the undistorted points ``pts`` lie in the bent picture."""
    if lam == 0.0:
        return pts.copy()
    w, h = size
    c, s = np.array([(w - 1) / 2, (h - 1) / 2]), w / 2
    u = (pts - c) / s
    ru = np.maximum(np.linalg.norm(u, axis=1), 1e-12)
    rd = (1 - np.sqrt(np.maximum(0.0, 1 - 4 * lam * ru**2))) / (2 * lam * ru)
    return np.asarray(c + u * (rd / ru)[:, None] * s)


def _xy(p: np.ndarray) -> tuple[float, float]:
    return (float(p[0]), float(p[1]))


def one(args: tuple[int, float, bool]) -> tuple[bool, float]:
    seed, lam, five = args
    cv2.setNumThreads(1)
    th = synthetic.render_throw(seed, 3, off_axis=(15.0, 50.0))
    rng = np.random.default_rng(seed + 99)
    brd = np.array(known_points())
    ests = []
    for c, cam in enumerate(th.cameras):
        w, h = cam.size
        img = _bend_points(cam.project(np.column_stack([brd, np.zeros(len(brd))])), cam.size, lam)
        img += rng.normal(0.0, 0.3, img.shape)  # a careful click
        seen = (img[:, 0] >= 0) & (img[:, 0] <= w - 1) & (img[:, 1] >= 0) & (img[:, 1] <= h - 1)
        idx = [i for i in (FIVE if five else range(len(brd))) if seen[i]]
        pairs = [PointPair(_xy(img[i]), _xy(brd[i])) for i in idx]
        cal = Calibration.from_points(cam.size, pairs)
        f = find_tip(_bend(th.before[c], lam), _bend(th.after[c], lam), cal)
        if f is not None:
            ests.append(estimate_from(f, cal, c))
    fused = fuse(ests) if ests else None
    if fused is None:
        return False, math.inf
    return fused.dart == th.truth, math.dist(fused.board, th.dart.tip)


def main() -> int:
    a = _rendered.options(__doc__, 100, 760_000)
    seeds = range(a.seed, a.seed + a.n)
    print(f"\nunmodelled lens distortion: {a.n} rendered throws x 3 cameras, 15-50 deg, "
          f"seeds {a.seed}..{a.seed + a.n - 1}\n")  # fmt: skip
    print(f"{'lam':>6s}  {'calibration':11s}  {'exact':>9s}  {'error median / p90':>18s}")
    with ProcessPoolExecutor(a.jobs) as pool:
        for lam in LAMS:
            for five in (False, True):
                rows = list(pool.map(one, [(s, lam, five) for s in seeds]))
                errs = [r[1] for r in rows]
                print(f"{lam:6.2f}  {'five' if five else 'many':11s}  "
                      f"{sum(r[0] for r in rows):4d}/{a.n:<4d}  "
                      f"{np.median(errs):6.2f} / {np.percentile(errs, 90):.2f} mm")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
