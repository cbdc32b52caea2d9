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

Last, marking begun at another wire (every mark 1-2 wires round from the one asked
for, 1 px off), on the same pictures: refused (the screen says to start at the 20/1
wire), put right with "Mark 1 was not on the 20/1 wire", or kept wrong; a wrong one
kept when the numbers could not be read is shown asking to check the numbers drawn
("asked"), else it is wrong without a word ("silent").

Then the screen's own check, with the picture (``marked.check_marks``: the board's
rings fitted from the marks put a mis-click right and name it), on rendered pictures
(n/5 of them: 0.3-5 s each): how often the marks are refused, put right (the board's
points within 1 mm), with the off mark(s) named, and wrong (kept more than 1 mm off).

And with three darts in the board, over the rings (n/5 pictures): marks as asked, and
marks on the double ring's inner edge (the classic slip): refused, kept as marked, put
right by the rings' fit; how many end with the board's points over 5 mm off (a dart
near a ring scored in the wrong one), and the median of the worst point (mm).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _rendered
import numpy as np

from kiosk.adapters.camera import synthetic
from kiosk.adapters.camera.calibration import Calibration, CalibrationError, PointPair
from kiosk.adapters.camera.marked import check_marks
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
    with_the_picture(a.n // 5, a.seed, grid, brd)
    begun_elsewhere(a.n // 5, a.seed, grid, brd)
    with_darts(a.n // 5, a.seed, grid, brd)
    return 0


def _marked(marks: np.ndarray) -> list[PointPair]:
    """The marks (image px, in ``TARGETS``' order) as the screen gives them."""
    return [PointPair((float(x), float(y)), t.board)
            for (x, y), t in zip(marks, TARGETS, strict=True)]  # fmt: skip


def _worst_mm(cal: Calibration, cam: synthetic.Camera, grid: np.ndarray) -> float:
    """How far (mm, at worst over ``grid``) ``cal`` puts the board's points."""
    seen = cam.project(np.column_stack([grid, np.zeros(len(grid))]))
    return float(np.linalg.norm(cal.image_to_board(seen) - grid, axis=1).max())


def with_the_picture(n: int, seed: int, grid: np.ndarray, brd: np.ndarray) -> None:
    print(f"\nthe screen's check with the picture ({n} rendered pictures, marks 1 px off)")
    print("mis-click        refused   put right   named   wrong   median s")
    for miss, count in ((15.0, 1), (30.0, 1), (60.0, 1), (30.0, 2)):
        refused = right = named = wrong = 0
        took: list[float] = []
        for s in range(n):
            rng = np.random.default_rng(seed + s)
            cam = synthetic.random_camera(rng)
            image = synthetic.render(cam, synthetic.random_scene(rng), rng)
            marks = cam.project(np.column_stack([brd, np.zeros(len(brd))]))
            marks = marks + rng.normal(0.0, 1.0, marks.shape)
            off = sorted(rng.choice(len(brd), count, replace=False).tolist())
            for k in off:
                turn = rng.uniform(0, 2 * np.pi)
                marks[k] += miss * np.array([np.cos(turn), np.sin(turn)])
            t0 = time.perf_counter()
            got = check_marks(image, _marked(marks))
            took.append(time.perf_counter() - t0)
            if got.calibration is None:
                refused += 1
                continue
            worst = _worst_mm(got.calibration, cam, grid)
            right += worst <= 1.0
            wrong += worst > 1.0
            named += got.verdict == "rings" and got.off_marks == off
        print(f"{count} x {miss:3.0f} px     {100 * refused / n:6.1f} %  {100 * right / n:7.1f} %"
              f"  {100 * named / n:5.1f} %  {100 * wrong / n:4.1f} %"
              f"   {np.median(took):6.2f}")  # fmt: skip


def begun_elsewhere(n: int, seed: int, grid: np.ndarray, brd: np.ndarray) -> None:
    print(f"\nmarking begun at another wire ({n} rendered pictures, marks 1 px off)")
    print("begun at          refused   put right   said   asked   silent")
    for wires in (-2, -1, 1, 2):
        refused = right = said = asked = silent = 0
        turn = np.radians(-18.0 * wires)  # (clockwise, board y up)
        rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
        for s in range(n):
            rng = np.random.default_rng(seed + s)
            cam = synthetic.random_camera(rng)
            image = synthetic.render(cam, synthetic.random_scene(rng), rng)
            at = brd @ rot.T
            marks = cam.project(np.column_stack([at, np.zeros(len(at))]))
            marks = marks + rng.normal(0.0, 1.0, marks.shape)
            got = check_marks(image, _marked(marks))
            if got.calibration is None:
                refused += 1
                continue
            worst = _worst_mm(got.calibration, cam, grid)
            right += worst <= 1.0
            said += worst <= 1.0 and got.wires_along == wires
            asked += worst > 1.0 and not got.numbers_read
            silent += worst > 1.0 and got.numbers_read
        where = f"{abs(wires)} wire{'s' if abs(wires) > 1 else ''} " + (
            "clockwise" if wires > 0 else "back"
        )
        print(f"{where:16} {100 * refused / n:6.1f} %  {100 * right / n:7.1f} %"
              f"  {100 * said / n:5.1f} %  {100 * asked / n:4.1f} %"
              f"  {100 * silent / n:5.1f} %")  # fmt: skip


DART_AIMS = (
    (0.0, 103.0),
    (0.0, -103.0),
    (103.0, 0.0),
    (-103.0, 0.0),
    (0.0, 0.0),
)  # T20 T3 T6 T11 bull
DART_SCATTER_MM = 15.0


def with_darts(n: int, seed: int, grid: np.ndarray, brd: np.ndarray) -> None:
    """Marks on a picture with three darts in the board (around one treble or the
    bull): on the double ring's outer edge as asked, or on its inner edge."""
    print(f"\nwith three darts in the board ({n} rendered pictures, marks 1 px off)")
    print("marks on         refused   as marked   put right   over 5 mm off   median mm")
    inner = board.DOUBLE_INNER / board.DOUBLE_OUTER
    for edge in ("outer edge", "inner edge"):
        refused = kept = right = 0
        worst: list[float] = []
        k = np.array([[inner if edge == "inner edge" and any(t.board) else 1.0] for t in TARGETS])
        for s in range(n):
            rng = np.random.default_rng(seed + s)
            cam = synthetic.random_camera(rng)
            scene = synthetic.random_scene(rng)
            aim = np.array(DART_AIMS[s % len(DART_AIMS)])
            tips = aim + rng.normal(0.0, DART_SCATTER_MM, (3, 2))
            darts = tuple(synthetic.random_dart(rng, (float(x), float(y))) for x, y in tips)
            image = synthetic.render(cam, scene, rng, darts)
            at = brd * k
            marks = cam.project(np.column_stack([at, np.zeros(len(at))]))
            got = check_marks(image, _marked(marks + rng.normal(0.0, 1.0, marks.shape)))
            if got.calibration is None:
                refused += 1
                continue
            worst.append(_worst_mm(got.calibration, cam, grid))
            kept += got.verdict == "marks"
            right += got.verdict == "rings"
        over = sum(w > 5.0 for w in worst)
        print(f"{edge:16} {100 * refused / n:6.1f} %  {100 * kept / n:7.1f} %"
              f"  {100 * right / n:7.1f} %  {100 * over / n:11.1f} %"
              f"  {np.median(worst):10.1f}")  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
