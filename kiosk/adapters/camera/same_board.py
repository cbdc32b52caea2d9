"""Do two pictures show the same board? A BEFORE that is black, grey, noise or covered
(a camera still starting, a lens cap, another camera's picture) against an AFTER with
the board in it holds no dart to find: the tip search, comparing them, finds none and
``none`` would be said as if the board were clear.

The pictures' grey levels over the board (within the double ring, through the
calibration) are compared by their correlation, AFTER first moved back onto BEFORE
when the camera was nudged between them (``register.whole_motion``, as the tip search
does): a dart, its shadow and a change of light keep it high, a picture with no board
in it brings it to about 0. Figures: ``bench/camera_same_board.py``."""

from __future__ import annotations

import cv2
import numpy as np

from kiosk.adapters.camera.calibration import Calibration
from kiosk.adapters.camera.reach import disc_mask
from kiosk.adapters.camera.register import back, whole_motion
from kiosk.domain import board

SAME_BOARD = 0.5  # correlation over the board below this: not the same board
FLAT = 2.0  # grey levels: a picture whose board varies less is blank (black, grey)


def board_alike(before: np.ndarray, after: np.ndarray, cal: Calibration) -> float | None:
    """The correlation (-1..1) of the two BGR pictures' grey levels over the board, 0
    when either is blank there; None when the calibration puts no board in the
    picture to compare."""
    h, w = before.shape[:2]
    mask = disc_mask(cal, h, w, board.DOUBLE_OUTER)
    if mask is None or int(mask.sum()) < 100:
        return None
    after = back(after, whole_motion(before, after), before, quick=True)
    b = cv2.cvtColor(before, cv2.COLOR_BGR2GRAY)[mask].astype(np.float32)
    a = cv2.cvtColor(after, cv2.COLOR_BGR2GRAY)[mask].astype(np.float32)
    if float(b.std()) < FLAT or float(a.std()) < FLAT:
        return 0.0
    return float(np.corrcoef(b, a)[0, 1])
