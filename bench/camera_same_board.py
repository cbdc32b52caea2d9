"""camera-score's check that BEFORE and AFTER show the same board
(``same_board.board_alike``): the correlation of their grey levels over the board, on
rendered throws, for pairs it must pass and pairs it must refuse.

    python bench/camera_same_board.py [--n 200] [--seed 790000]

Pairs to pass: a throw as rendered; the camera nudged 5 to 38 px between the pictures
(up to ``register.MAX_SHIFT_PX``, what the tip search lines up); the light changed
(gain 0.45-1.6, a new gradient). Pairs to refuse: BEFORE black, grey or noise. Prints
per case the least, 1st percentile and median correlation, and how many fall below
``SAME_BOARD`` (refused).
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _rendered
import numpy as np

from kiosk.adapters.camera import synthetic
from kiosk.adapters.camera.same_board import SAME_BOARD, board_alike

CASES = ("as rendered", "nudged", "new light", "black before", "grey before", "noise before")


def alike(case: str, seed: int) -> float:
    rng = np.random.default_rng(seed + 99_999)
    kw: dict[str, object] = {}
    if case == "nudged":
        d, turn = rng.uniform(5.0, 38.0), rng.uniform(0.0, 2 * np.pi)
        kw["moved"] = (d * np.cos(turn), d * np.sin(turn))
    elif case == "new light":
        gain, grad = rng.uniform(0.45, 1.6), (rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5))
        kw["lighting"] = lambda s: dataclasses.replace(s, gain=s.gain * gain, gradient=grad)
    t = synthetic.render_throw(seed, 1, **kw)  # type: ignore[arg-type]
    before = t.before[0]
    if case == "black before":
        before = np.zeros_like(before)
    elif case == "grey before":
        before = np.full_like(before, 128)
    elif case == "noise before":
        before = rng.integers(0, 256, before.shape, dtype=np.uint8)
    got = board_alike(before, t.after[0], t.calibrations[0])
    return float("nan") if got is None else got


def main() -> int:
    a = _rendered.options(__doc__ or "", 200, 790_000)
    print(f"{a.n} rendered throws per case (seeds {a.seed}..), refused below {SAME_BOARD}\n")
    print(f"{'case':14} {'least':>7} {'p1':>7} {'median':>7} {'refused':>9}")
    for case in CASES:
        v = np.array([alike(case, a.seed + s) for s in range(a.n)])
        print(f"{case:14} {np.nanmin(v):7.3f} {np.nanpercentile(v, 1):7.3f} "
              f"{np.nanmedian(v):7.3f} {int((v < SAME_BOARD).sum()):5d}/{a.n}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
