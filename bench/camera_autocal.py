"""The automatic calibration (``camera/autocal.py``) on rendered cameras: how often it
finds the board, asks for the 20 to be marked, refuses, or is wrong, with no darts in
the board and with one or three (anywhere on the board, as a player leaves them).

    python bench/camera_autocal.py [--n 80] [--jobs 2] [--seed 810000]

Cameras as the renderer draws them (``synthetic.random_camera``: 0-50 degrees off
the board's axis, 1280x720), then the same number of cameras 40-50 degrees off with
no darts. Per row: "found" within 2 mm of the truth (the worst of the board's known
points: the bull and the rings' wire crossings); "asked": the numbers could not be
read, and the screen asks for the 20/1 wire to be marked; "refused": any other
reason (the screen says it); "wrong": a calibration more than 2 mm off, shown for the
person to accept. Then the error of those found (median, max) and the time per
picture (median, p90, one core).
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _rendered
import cv2
import numpy as np

from kiosk.adapters.camera import synthetic
from kiosk.adapters.camera.autocal import auto_calibrate
from kiosk.adapters.camera.recheck import drift_mm
from kiosk.adapters.camera.synth_dart import random_dart

ROWS = [("no darts", 0, None), ("one dart", 1, None), ("three darts", 3, None),
        ("no darts, 40-50 deg", 0, (40.0, 50.0))]  # fmt: skip
WRONG_MM = 2.0


def one(seed: int) -> list[tuple[str, float, float]]:
    cv2.setNumThreads(1)
    out = []
    for _, darts, band in ROWS:
        rng = np.random.default_rng(seed)
        angle = None if band is None else float(rng.uniform(*band))
        cam = synthetic.random_camera(rng, angle)
        scene = synthetic.random_scene(rng)
        tips = tuple(random_dart(rng, synthetic.sample_tip(rng, False)) for _ in range(darts))
        frame = synthetic.render(cam, scene, rng, tips)
        t0 = time.perf_counter()
        r = auto_calibrate(frame)
        ms = (time.perf_counter() - t0) * 1000
        if r.calibration is not None:
            err = drift_mm(cam.calibration(rng, click_px=0.0), r.calibration)
            out.append(("found" if err <= WRONG_MM else "wrong", err, ms))
        else:
            out.append(("asked" if "segment is 20" in r.template else "refused", np.nan, ms))
    return out


def main() -> int:
    a = _rendered.options(__doc__, 80, 810_000)
    with ProcessPoolExecutor(a.jobs) as pool:
        rows = list(pool.map(one, range(a.seed, a.seed + a.n)))
    print(f"\nautomatic calibration: {a.n} rendered cameras per row, seeds "
          f"{a.seed}..{a.seed + a.n - 1}\n")  # fmt: skip
    print(f"{'':22s} {'found':>6s} {'asked':>6s} {'refused':>8s} {'wrong':>6s}   "
          f"{'error median / max':>18s}   {'time median / p90':>17s}")  # fmt: skip
    for k, (name, _, _) in enumerate(ROWS):
        col = [r[k] for r in rows]
        n = Counter(c[0] for c in col)
        err = [c[1] for c in col if c[0] == "found"]
        ms = [c[2] for c in col]
        fit = f"{np.median(err):.2f} / {max(err):.2f} mm" if err else "-"
        print(f"{name:22s} {n['found']:6d} {n['asked']:6d} {n['refused']:8d} {n['wrong']:6d}"
              f"   {fit:>18s}   {np.median(ms):6.0f} / {np.percentile(ms, 90):.0f} ms")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
