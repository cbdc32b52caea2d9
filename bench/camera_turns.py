"""Camera figures for the second and third darts of a turn: darts hiding darts.

    python bench/camera_turns.py [--n 150] [--jobs 2] [--seed 6800000] [--size WxH]

``bench/camera.py`` throws every dart at an empty board. In a bar Cricket game a
player throws three darts at one target, and they land together: the second and the
third can hide behind the ones already in the board, or hide them, in one camera or
more. Each turn here: three darts aimed at one of ``camera.CRICKET_AIMS`` (scattered as
there), left in the board, seen by three cameras in one angle band (0-15, 15-30, 30-50
degrees off the board's axis, in turn); each dart scored from the picture before it
(the earlier darts in) and after it, by each camera alone and the three fused, as
``camera-score`` does. (The kiosk's detector also keeps where the earlier darts are,
and leaves change lying mostly there out as one of them knocked, when enough is left:
``tip.KNOWN_KEEP``; not modelled here. ``tests/integration/test_camera_detector.py``
runs the detector on such turns.) Prints the columns of ``bench/camera.py`` per dart
of the turn.

Seeds 6,000,000.. and 6,500,000.. were looked at while trying to mend what these turns
showed (neither try held on seeds not looked at: the steel point, which passes for
shadow over a cream segment, added to the dart's pixels that the fusion checks tips
against; the earlier darts' pixels added to them, a tip being free to hide there);
6,700,000.. and 6,900,000.. were measured, and a few misses of them looked at; the
default, 6,800,000, was not.
"""

from __future__ import annotations

import math
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _rendered
import cv2
from camera import BANDS, Tally, band_name, cricket_tips

from kiosk.adapters.camera import synthetic
from kiosk.adapters.camera.fusion import Estimate, estimate_from, fuse
from kiosk.adapters.camera.tip import find_tip

CAMERAS = 3
DARTS = 3

# cameras, band, dart of the turn (1-3), exact, error mm (None: no point), flagged
Row = tuple[str, str, int, bool, float | None, bool]


def _row(cams: str, band: str, k: int, th: synthetic.Throw, ests: list[Estimate]) -> Row:
    fused = fuse(ests)
    if fused is None:
        return cams, band, k, False, None, True
    err = math.dist(fused.board, th.dart.tip)
    return cams, band, k, fused.dart == th.truth, err, fused.doubt is not None


def one(args: tuple[int, tuple[float, float], tuple[int, int]]) -> list[Row]:
    seed, band, size = args
    cv2.setNumThreads(1)
    rows = []
    bn = band_name(band)
    tips = cricket_tips(seed, DARTS)
    throws = synthetic.render_grouped(seed, tips, CAMERAS, off_axis=band, size=size)
    for k, th in enumerate(throws, start=1):
        ests = []
        for c in range(CAMERAS):
            found = find_tip(th.before[c], th.after[c], th.calibrations[c])
            one_cam = [] if found is None else [estimate_from(found, th.calibrations[c], c)]
            rows.append(_row("1 cam", bn, k, th, one_cam))
            ests += one_cam
        rows.append(_row(f"{CAMERAS} cams", bn, k, th, ests))
    return rows


def main() -> None:
    ns = _rendered.options(__doc__ or "", 150, 6_800_000, size=True)
    w, h = ns.size
    work = [(ns.seed + i, BANDS[i % len(BANDS)], ns.size) for i in range(ns.n)]
    tallies: dict[str, Tally] = {}
    with ProcessPoolExecutor(ns.jobs) as pool:
        for rows in pool.map(one, work, chunksize=2):
            for cams, band, k, ok, err, flagged in rows:
                for b in (band, "all angles"):
                    tallies.setdefault(f"{cams:<6} dart {k} {b}", Tally()).add(ok, err, flagged)
    print(f"\ncamera scoring of the darts of {ns.n} turns (three darts at one target, left "
          f"in the board), seeds {ns.seed}..{ns.seed + ns.n - 1}, {w}x{h}\n")  # fmt: skip
    print(Tally.HEAD)
    for key in sorted(tallies, key=lambda k: (k.split()[0] != str(CAMERAS), "all" not in k, k)):
        print(tallies[key].row(key))


if __name__ == "__main__":
    main()
