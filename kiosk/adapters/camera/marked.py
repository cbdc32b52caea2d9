"""Points marked by hand on a camera's picture, checked against the board itself.

The marks give a calibration; the board's red and green rings, fitted again from it
(``recheck``), say whether the marks can be trusted:

- marks that fit each other and the rings: their own calibration (``"marks"``);
- marks a few mm off the rings (on the double ring's inner edge, a slip of the hand),
  or marks that disagree with each other (one mis-click: with five points which one is
  off cannot be told from the points alone, but the rings, fitted from all five, tell):
  the rings' fit (``"rings"``), with how far each mark is from it, for the screen to
  name the one that is off (those ``MARKS_OFF_MM`` or more off), or to say that the
  marking began at another wire than the one asked for (``wires_along``); with darts
  over the rings their fit may line up only well enough to weigh (``recheck.
  UNSURE_FIT``): marks ``recheck.UNSURE_OFF_MM`` or more off it are put right by it all
  the same (the double ring's inner edge marked: 8.4-12 mm off; marks on the outer edge
  were 1-4.4 mm off such fits);
- marks that fit no board, go round the wrong way, or that the rings and numbers put
  at another wire: refused (``"no board"``, ``"mirrored"``, ``"moved"``, ``"numbers"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from kiosk.adapters.camera import autocal
from kiosk.adapters.camera.calibration import Calibration, CalibrationError, PointPair
from kiosk.adapters.camera.recheck import COULD_NOT_TELL, recheck

MARKS_OFF_MM = 4.0  # marks this far from the rings' fit: the fit is shown instead


@dataclass(frozen=True, slots=True)
class Marked:
    # "marks", "rings" (the rings' fit instead), or refused: "no board", "mirrored",
    # "moved" (the rings put the board elsewhere), "numbers" (the rings in place, the
    # numbers put 20 elsewhere)
    verdict: str
    calibration: Calibration | None = None  # to review, unless refused
    off_mm: tuple[float, ...] = ()  # each mark's distance (mm) from ``calibration``
    detail: str = ""  # for the log
    # The numbers were read and put 20 where ``calibration`` does. Else only the rings
    # agree, and they repeat every 36 degrees: marks begun two wires along fit them.
    numbers_read: bool = False
    # The marks all lie this many wires round from where they were asked for (+:
    # clockwise, as the 1/18 wire is from the 20/1), on ``calibration``: 0 when not.
    wires_along: int = 0
    # The board's rings were found to check the marks against (else "marks" is the
    # marks as they are: a person in front of the board, a board of other colours).
    checked: bool = True

    @property
    def off_marks(self) -> list[int]:
        """The marks (0-based) at least ``MARKS_OFF_MM`` from the calibration shown."""
        return [i for i, d in enumerate(self.off_mm) if d >= MARKS_OFF_MM]


def check_marks(image: np.ndarray, points: Sequence[PointPair]) -> Marked:
    """The calibration to review for ``points`` marked on ``image`` (see the module)."""
    size = (image.shape[1], image.shape[0])
    disagree = ""
    try:
        cal: Calibration | None = Calibration.from_points(size, list(points))
    except CalibrationError as e:
        disagree, cal = str(e), _least_squares(size, points)
        if cal is None:
            return Marked("no board", detail=disagree)
    assert cal is not None
    if cal.mirrored:
        return Marked("mirrored", detail="the points go round the board the wrong way")
    check = recheck(image, cal)
    if disagree:  # only the rings can put them right
        if check.verdict not in ("same", "refitted"):
            return Marked("no board", detail=f"{disagree}; the rings: {check.detail}")
        rings = check.calibration or cal
        return _rings(rings, points, f"{disagree}; {check.detail}", check.numbers_read)
    if check.verdict in ("moved", "numbers"):  # (the kiosk would not score with it)
        return Marked(check.verdict, detail=f"{check.detail} ({check.drift_mm:.0f} mm off)")
    if check.verdict == "refitted" and check.calibration:  # the rings, sure, over 2 mm
        # off the marks (``recheck.SAME_MM``), or less sure and far off: surer than them
        return _rings(check.calibration, points, check.detail, check.numbers_read)
    return Marked("marks", cal, _off(cal, points), check.detail, check.numbers_read,
                  checked=check.verdict not in COULD_NOT_TELL)  # fmt: skip


def _rings(cal: Calibration, points: Sequence[PointPair], detail: str, read: bool) -> Marked:
    return Marked("rings", cal, _off(cal, points), detail, read, _wires_along(cal, points))


WIRE_DEG = 18.0  # between two wires
ALONG_SPREAD_DEG = 4.0  # marks begun at another wire: all turned alike, to this


def _wires_along(cal: Calibration, points: Sequence[PointPair]) -> int:
    """How many wires round (clockwise +) every mark out on the board lies on ``cal``
    from where it was asked for: the marking begun at another wire. 0 when they are
    not all turned alike by a whole number of wires (a mis-click, marks on an edge)."""
    out = [p for p in points if np.hypot(*p.board) > 50.0]  # (the bull has no angle)
    if len(out) < 3:
        return 0
    img = np.array([p.image for p in out], dtype=np.float64)
    now = cal.image_to_board(img)
    asked = np.array([p.board for p in out], dtype=np.float64)
    # clockwise angles from the top, as the board's numbers go
    turn = np.degrees(np.arctan2(now[:, 0], now[:, 1]) - np.arctan2(asked[:, 0], asked[:, 1]))
    turn = (turn + 180.0) % 360.0 - 180.0
    mid = float(np.median(turn))
    wires = round(mid / WIRE_DEG)
    if wires == 0 or np.abs(turn - wires * WIRE_DEG).max() > ALONG_SPREAD_DEG:
        return 0
    return int(wires)


def _least_squares(size: tuple[int, int], points: Sequence[PointPair]) -> Calibration | None:
    """A calibration through all the points at once, however badly they agree: a
    start for the rings' fit. None when they give no board (on a line, bunched)."""
    img = np.array([p.image for p in points], dtype=np.float64)
    brd = np.array([p.board for p in points], dtype=np.float64)
    if len(points) < 4 or not (np.isfinite(img).all() and np.isfinite(brd).all()):
        return None
    H, _ = cv2.findHomography(img, brd, 0)
    if H is None or not np.isfinite(H).all() or abs(H[2, 2]) < 1e-12:
        return None
    try:
        return Calibration.from_points(size, autocal.point_pairs(H / H[2, 2], size))
    except (CalibrationError, np.linalg.LinAlgError):
        return None


def _off(cal: Calibration, points: Sequence[PointPair]) -> tuple[float, ...]:
    img = np.array([p.image for p in points], dtype=np.float64)
    brd = np.array([p.board for p in points], dtype=np.float64)
    return tuple(float(d) for d in np.linalg.norm(cal.image_to_board(img) - brd, axis=1))
