"""The check of a camera's calibration on its first picture (``camera/recheck.py``):
cameras turned about their lens after they were calibrated, as a knock or a cleaner
would leave them, with 0-3 darts in the board.

    python bench/camera_recheck.py [--n 40] [--jobs 2] [--seed 740000]

Prints per turn: the verdicts; how far off the old calibration was (true, median);
how far the measured drift is from the truth (where it was measured: "same",
"refitted"; "moved" gives only a lower bound); how far the refitted calibration is
from one clicked on the new view without error (median, max); the check's time per
camera (median, p90, on one core).
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
from kiosk.adapters.camera.recheck import drift_mm, recheck
from kiosk.adapters.camera.synth_dart import random_dart

# pan, tilt, roll (about the line of sight) degrees
TURNS = [(0.0, 0.0, 0.0), (0.3, 0.0, 0.0), (0.0, 1.0, 0.0), (1.5, -1.0, 0.0), (4.0, 0.0, 0.0),
         (0.0, 0.0, 5.0), (0.5, 0.0, 25.0), (0.0, 0.0, 10.0)]  # fmt: skip


def one(seed: int) -> list[tuple[str, float, float, float, float]]:
    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    cam = synthetic.random_camera(rng)
    cal = cam.calibration(rng)
    scene = synthetic.random_scene(rng)
    darts = tuple(random_dart(rng, synthetic.sample_tip(rng, False)) for _ in range(3))
    out = []
    for k, turn in enumerate(TURNS):
        now = cam.turned(*turn)
        frame = synthetic.render(now, scene, rng, darts[: (seed + k) % 4])
        truth = drift_mm(cal, now.calibration(rng, click_px=0.0))
        t0 = time.perf_counter()
        r = recheck(frame, cal)
        ms = (time.perf_counter() - t0) * 1000
        refit = (
            drift_mm(now.calibration(rng, click_px=0.0), r.calibration) if r.calibration else np.nan
        )
        out.append((r.verdict, truth, abs(r.drift_mm - truth), refit, ms))
    return out


def main() -> int:
    a = _rendered.options(__doc__, 40, 740_000)
    with ProcessPoolExecutor(a.jobs) as pool:
        rows = list(pool.map(one, range(a.seed, a.seed + a.n)))
    print(f"\ncalibration check on the first picture: {a.n} rendered cameras 0-50 deg, "
          f"0-3 darts in the board, seeds {a.seed}..{a.seed + a.n - 1}\n")  # fmt: skip
    print(f"{'turned (pan, tilt, roll)':26s} {'off by (median)':>15s}  {'drift error':>11s}  "
          f"{'refit error median/max':>22s}  verdicts")  # fmt: skip
    times = []
    for k, turn in enumerate(TURNS):
        col = [r[k] for r in rows]
        times += [c[4] for c in col]
        verdicts = Counter(c[0] for c in col)
        err = [c[2] for c in col if c[0] in ("same", "refitted")]
        refit = [c[3] for c in col if np.isfinite(c[3])]
        fit = f"{np.median(refit):.2f} / {max(refit):.2f} mm" if refit else "-"
        off = np.median([c[1] for c in col])
        print(f"{turn[0]:4.1f}, {turn[1]:4.1f}, {turn[2]:4.1f} deg{'':6s}  {off:12.1f} mm"
              f"  {np.median(err) if err else np.nan:8.2f} mm  {fit:>22s}  "
              + ", ".join(f"{v} {n}" for v, n in verdicts.most_common()))  # fmt: skip
    print(f"\ntime per camera: median {np.median(times):.0f} ms, p90 "
          f"{np.percentile(times, 90):.0f} ms")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
