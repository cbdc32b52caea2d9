"""Camera scoring when something changed between the frame before a dart and the
frame after it: the camera knocked (moved, turned) or its exposure drifted.

    python bench/camera_moved.py [--n 30] [--jobs 2] [--seed 730000]

Prints, per kind of change, how many of ``--n`` rendered three-camera throws (cameras
15-50 degrees off the board's axis, as the README asks) are scored to the exact
segment. Moves are rendered (the camera's picture shifted, ``render_throw(moved=)``);
turns and exposure changes are applied to the after frame. ``bench/camera.py`` has
none of these: its figures are for a camera that holds still.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _rendered
import cv2
import numpy as np

from kiosk.adapters.camera.fusion import estimate_from, fuse
from kiosk.adapters.camera.synthetic import render_throw
from kiosk.adapters.camera.tip import find_tip

Alter = Callable[[np.ndarray], np.ndarray] | None


def _turned(degrees: float) -> Callable[[np.ndarray], np.ndarray]:
    def f(img: np.ndarray) -> np.ndarray:
        h, w = img.shape[:2]
        m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
        return np.asarray(cv2.warpAffine(img, m, (w, h), borderMode=cv2.BORDER_REPLICATE))

    return f


def _exposed(gain: float, gamma: float = 1.0) -> Callable[[np.ndarray], np.ndarray]:
    def f(img: np.ndarray) -> np.ndarray:
        x = 255.0 * (img / 255.0) ** gamma * gain
        return np.clip(np.round(x), 0, 255).astype(np.uint8)

    return f


CASES: list[tuple[str, tuple[float, float], Alter]] = [
    ("nothing", (0.0, 0.0), None),
    ("camera moved 0.3 px", (0.3, 0.0), None),
    ("moved 1 px", (1.0, -0.5), None),
    ("moved 5 px", (5.0, 3.0), None),
    ("turned 0.2 deg", (0.0, 0.0), _turned(0.2)),
    ("turned 0.5 deg", (0.0, 0.0), _turned(0.5)),
    ("exposure x 1.15", (0.0, 0.0), _exposed(1.15)),
    ("gamma 0.8", (0.0, 0.0), _exposed(1.0, 0.8)),
    ("moved 0.7 px, x 1.1", (0.7, -0.4), _exposed(1.1)),
]


def one(seed: int) -> list[bool]:
    cv2.setNumThreads(1)
    exact = []
    for _, moved, alter in CASES:
        th = render_throw(seed, 3, off_axis=(15.0, 50.0), moved=moved)
        ests = []
        for c in range(3):
            after = th.after[c] if alter is None else alter(th.after[c])
            f = find_tip(th.before[c], after, th.calibrations[c])
            if f is not None:
                ests.append(estimate_from(f, th.calibrations[c], c))
        fused = fuse(ests) if ests else None
        exact.append(fused is not None and fused.dart == th.truth)
    return exact


def main() -> int:
    a = _rendered.options(__doc__, 30, 730_000)
    seeds = range(a.seed, a.seed + a.n)
    with ProcessPoolExecutor(a.jobs) as pool:
        rows = np.array(list(pool.map(one, seeds)))
    print(f"\ncamera scoring when the frames differ: {a.n} rendered throws x 3 cameras, "
          f"15-50 deg, seeds {a.seed}..{a.seed + a.n - 1}\n")  # fmt: skip
    print(f"{'between the frames':24s} exact")
    for (name, _, _), col in zip(CASES, rows.T, strict=True):
        print(f"{name:24s} {int(col.sum())}/{a.n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
