"""Camera figures on pictures from a second renderer (``_other_look``), written apart
from the kiosk's own and sharing none of its code: whether the accuracy of
``bench/camera.py`` holds for a board, a dart, a shadow and a camera that the
detector was not tuned on.

    python bench/camera_other_look.py [--n 150] [--jobs 2] [--seed 9000000] [--size WxH]

Each throw: one dart, uniform over the board (and a little off it), three cameras in
one angle band (0-15, 15-30, 30-50 degrees off the board's axis, in turn), each scored
alone and the three fused, as ``camera-score`` does. Prints exact segments, darts
flagged for the player to check, darts wrong without a flag, and the error in mm
(the columns of ``bench/camera.py``).
"""

from __future__ import annotations

import math
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _other_look
import _rendered
import cv2
from camera import BANDS, Tally, band_name

from kiosk.adapters.camera.calibration import Calibration
from kiosk.adapters.camera.fusion import Estimate, estimate_from, fuse
from kiosk.adapters.camera.tip import find_tip

CAMERAS = 3

# cameras, band, exact, error mm (None: no point), flagged
Row = tuple[str, str, bool, float | None, bool]


def _row(cams: str, band: str, throw: _other_look.Throw, ests: list[Estimate]) -> Row:
    fused = fuse(ests)
    if fused is None:  # nothing found: right for a dart off the board, else typed
        return cams, band, throw.truth == "MISS", None, True
    err = math.dist(fused.board, throw.tip)
    return cams, band, str(fused.dart) == throw.truth, err, fused.doubt is not None


def one(args: tuple[int, tuple[float, float], tuple[int, int]]) -> list[Row]:
    seed, band, size = args
    cv2.setNumThreads(1)
    throw = _other_look.render(seed, CAMERAS, band, size)
    ests = []
    rows = []
    for i in range(CAMERAS):
        cal = Calibration.from_dict(throw.calibrations[i])
        found = find_tip(throw.before[i], throw.after[i], cal)
        one_cam = [] if found is None else [estimate_from(found, cal, i)]
        rows.append(_row("1 cam", band_name(band), throw, one_cam))
        ests += one_cam
    rows.append(_row(f"{CAMERAS} cams", band_name(band), throw, ests))
    return rows


def main() -> None:
    ns = _rendered.options(__doc__ or "", 150, 9_000_000, size=True)
    w, h = ns.size
    work = [(ns.seed + i, BANDS[i % len(BANDS)], ns.size) for i in range(ns.n)]
    mounted = band_name((BANDS[1][0], BANDS[-1][1]))  # as the README says: 15 deg or more
    tallies: dict[str, Tally] = {}
    with ProcessPoolExecutor(ns.jobs) as pool:
        for rows in pool.map(one, work, chunksize=2):
            for cams, band, ok, err, flagged in rows:
                keys = [f"{cams:<6} {band}", f"{cams:<6} all angles"]
                if band != band_name(BANDS[0]):
                    keys.append(f"{cams:<6} {mounted}")
                for k in keys:
                    tallies.setdefault(k, Tally()).add(ok, err, flagged)
    print(f"\ncamera scoring on {ns.n} throws from a second renderer (bench/_other_look.py), "
          f"seeds {ns.seed}..{ns.seed + ns.n - 1}, {w}x{h}\n")  # fmt: skip
    print(Tally.HEAD)
    for key in sorted(tallies):
        print(tallies[key].row(key))
    print("check %: scored and flagged for the player to check; silent %: wrong, not flagged")


if __name__ == "__main__":
    main()
