"""Camera figures on pictures from a second renderer (``_other_look``), written apart
from the kiosk's own and sharing none of its code: whether the accuracy of
``bench/camera.py`` holds for a board, a dart, a shadow and a camera that the
detector was not tuned on.

    python bench/camera_other_look.py [--n 150] [--jobs 2] [--seed 9000000]

Each throw: one dart, uniform over the board (and a little off it), three cameras in
one angle band (0-15, 15-30, 30-50 degrees off the board's axis, in turn), each scored
alone and the three fused, as ``camera-score`` does. Prints exact segments, darts
flagged for the player to check, darts wrong without a flag, and the error in mm.
"""

from __future__ import annotations

import math
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _other_look
import _rendered
import cv2

from kiosk.adapters.camera.calibration import Calibration
from kiosk.adapters.camera.fusion import Estimate, estimate_from, fuse
from kiosk.adapters.camera.tip import find_tip

BANDS = ((0.0, 15.0), (15.0, 30.0), (30.0, 50.0))
CAMERAS = 3

# cameras, band, exact, error mm (inf: none), flagged
Row = tuple[int, str, bool, float, bool]


def _row(cams: int, band: str, throw: _other_look.Throw, ests: list[Estimate]) -> Row:
    fused = fuse(ests)
    if fused is None:
        return cams, band, throw.truth == "MISS", math.inf, True
    err = math.dist(fused.board, throw.tip)
    return cams, band, str(fused.dart) == throw.truth, err, fused.doubt is not None


def one(args: tuple[int, tuple[float, float]]) -> list[Row]:
    seed, band = args
    cv2.setNumThreads(1)
    throw = _other_look.render(seed, CAMERAS, band)
    name = f"{band[0]:.0f}-{band[1]:.0f} deg"
    ests = []
    rows = []
    for i in range(CAMERAS):
        cal = Calibration.from_dict(throw.calibrations[i])
        found = find_tip(throw.before[i], throw.after[i], cal)
        one_cam = [] if found is None else [estimate_from(found, cal, i)]
        rows.append(_row(1, name, throw, one_cam))
        ests += one_cam
    rows.append(_row(CAMERAS, name, throw, ests))
    return rows


def main() -> None:
    ns = _rendered.options(__doc__ or "", 150, 9_000_000)
    work = [(ns.seed + i, BANDS[i % len(BANDS)]) for i in range(ns.n)]
    with ProcessPoolExecutor(ns.jobs) as pool:
        rows = [r for rs in pool.map(one, work, chunksize=2) for r in rs]
    print(f"\ncamera scoring on {ns.n} throws from a second renderer (bench/_other_look.py), "
          f"seeds {ns.seed}..{ns.seed + ns.n - 1}")  # fmt: skip
    print(
        f"{'':22}{'n':>6} {'exact %':>8} {'check %':>8} {'silent %':>9} {'med mm':>7} {'max mm':>8}"
    )
    for cams in (1, CAMERAS):
        names = [f"{b[0]:.0f}-{b[1]:.0f} deg" for b in BANDS]
        for name in [*names, "15-50 deg", "all angles"]:
            want = {"15-50 deg": names[1:], "all angles": names}.get(name, [name])
            sel = [r for r in rows if r[0] == cams and r[1] in want]
            if not sel:
                continue
            n = len(sel)
            exact = sum(r[2] for r in sel)
            flagged = sum(r[4] for r in sel)
            silent = sum(not r[2] and not r[4] for r in sel)
            errs = [r[3] for r in sel if math.isfinite(r[3])]
            med = statistics.median(errs) if errs else math.nan
            top = max(errs) if errs else math.nan
            label = f"{cams} cam{'s' if cams > 1 else ''}  {name}"
            print(f"{label:22}{n:6d} {100 * exact / n:8.1f} {100 * flagged / n:8.1f} "
                  f"{100 * silent / n:9.2f} {med:7.2f} {top:8.1f}")  # fmt: skip
    print("check %: scored and flagged for the player to check; silent %: wrong, not flagged")


if __name__ == "__main__":
    main()
