"""The colours of a regulation board's face at board points (mm, as in
``kiosk/domain/board.py``), for arrays of points: what the automatic calibration fits
its rings to (``autocal.ring_model``) and what tells a picture with a dart from one
without (``taken_out``). The renderer (``synth_board``) paints its own, on purpose
apart from what the detector assumes."""

from __future__ import annotations

import numpy as np

from kiosk.domain import board

BLACK, CREAM, RED, GREEN = 0, 1, 2, 3


def colour_at(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """BLACK or CREAM (the singles: 20's is black), RED or GREEN (the trebles, the
    doubles, the bull) at board points; past the double ring, the colour of the single
    the point is in line with (the caller decides what lies there)."""
    r = np.hypot(x, y)
    ang = np.degrees(np.arctan2(x, y)) % 360.0
    dark = (((ang + board.SEGMENT_DEGREES / 2) // board.SEGMENT_DEGREES) % 2) == 0
    ring = ((r >= board.TREBLE_INNER) & (r <= board.TREBLE_OUTER)) | (
        (r >= board.DOUBLE_INNER) & (r <= board.DOUBLE_OUTER)
    )
    out = np.where(ring, np.where(dark, RED, GREEN), np.where(dark, BLACK, CREAM))
    out = np.where(r <= board.OUTER_BULL, GREEN, out)
    return np.asarray(np.where(r <= board.INNER_BULL, RED, out), np.int64)
