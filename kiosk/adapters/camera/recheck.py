"""Is a camera still where it was calibrated? Checked on its first picture each time
it connects. A camera knocked or turned while the kiosk was off (a cleaner, a bar
stool) would otherwise place every dart as far off as it moved, without a word: the
detector lines up moves between frames, but only from its first frame on.

The board's red and green rings are fitted again, starting from the calibration
(``autocal.refit``), and the calibration's known points (the bull, the wire crossings
of the double and treble rings) are compared with the fit, in board mm. When the
rings line up well (``SURE_FIT``):

- within ``SAME_MM``: the camera has not moved (on rendered boards a calibration and
  the fit differ by a few tenths of a mm);
- further: it moved; the fit is used from now on (to a few tenths of a mm on
  rendered boards, after turns of up to 4 degrees: ``bench/camera_recheck.py``); the
  log says how far it had moved, and the file is left as it was.

Else the rings found anew say whether the board is elsewhere, at least ``MOVED_MM``
from where the calibration puts it whichever segment is 20 (the camera moved or
turned further than a fit follows: calibrate it again), or it cannot be seen well
enough to tell (a camera warming up, a person in front of the board, darts hiding
the rings, a board whose colours the automatic calibration does not find): then the
calibration is kept, as before this check, and the scorer tries again later.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kiosk.adapters.camera import autocal
from kiosk.adapters.camera.calibration import Calibration

SAME_MM = 2.0  # the calibration this close to the board's rings now: not moved
SURE_FIT = 0.8  # ECC correlation of the rings' fit to act on it (rendered: 0.95-0.99)
MOVED_MM = 10.0  # no fit, and the board's rings at least this far off: it moved


@dataclass(frozen=True, slots=True)
class Recheck:
    verdict: str  # "same", "refitted", "moved" (calibrate again), "unknown"
    drift_mm: float  # how far off the calibration is now, at worst (NaN: unknown)
    calibration: Calibration | None = None  # "refitted": the one to use now
    detail: str = ""  # for the log


def recheck(frame: np.ndarray, cal: Calibration) -> Recheck:
    """Whether ``cal`` still fits the board in ``frame`` (see the module's doc)."""
    if frame.ndim != 3 or (frame.shape[1], frame.shape[0]) != cal.image_size:
        return Recheck("unknown", math.nan, detail="not a colour picture of the calibrated size")
    fit = autocal.refit(frame, cal.homography)
    if fit.ok and fit.calibration is not None and fit.confidence >= SURE_FIT:
        drift = drift_mm(cal, fit.calibration)
        if drift < SAME_MM:
            return Recheck("same", drift, detail=fit.reason)
        return Recheck("refitted", drift, fit.calibration, fit.reason)
    if fit.twenty_from == "unconfirmed" and fit.homography is not None:
        # The rings line up turned: by a real turn, or one 36 degrees off it; either
        # way the board is not where the calibration puts it.
        drift = autocal.homography_drift(cal.homography, fit.homography, cal.image_size)
        return Recheck("moved", drift, detail=fit.reason)
    least = autocal.least_drift(frame, cal.homography)
    if least is not None and least >= MOVED_MM:
        return Recheck("moved", least, detail=f"{fit.reason}; the board is found elsewhere")
    return Recheck("unknown", math.nan, detail=fit.reason)


def drift_mm(old: Calibration, new: Calibration) -> float:
    """How far (mm, at worst over the known points in view) the board point ``old``
    gives for an image point is from the one ``new`` gives."""
    return autocal.homography_drift(old.homography, new.homography, old.image_size)
