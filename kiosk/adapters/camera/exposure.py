"""Lift a dark camera's pictures before the dart is looked for.

An underexposed camera (a dim bar, an exposure fixed too short) gives a board whose
brightest parts are a third of the range: the dart's change is a few grey levels,
under the change threshold and the shadow test's tolerances, which are in grey
levels. Both pictures get one gain, from the before picture (the board as it was),
that brings its bright parts to ``TARGET``: the after picture keeps its difference
from the before, only larger. Pictures bright enough are left as they are.
"""

from __future__ import annotations

import cv2
import numpy as np

TARGET = 230.0  # the before picture's bright parts (99th percentile) are brought to this
MIN_GAIN = 1.5  # a smaller gain is not worth it: the picture is bright enough
MAX_GAIN = 6.0  # a near-black picture: the noise would be all there is to lift


def gain(before: np.ndarray) -> float:
    """The gain for a pair whose before picture is ``before`` (1.0: none)."""
    level = before[::8, ::8]
    if level.ndim == 3:
        level = level.max(axis=2)  # (the brightest channel: none of them is clipped)
    bright = float(np.percentile(level, 99))
    g = TARGET / max(bright, 1.0)
    return min(g, MAX_GAIN) if g >= MIN_GAIN else 1.0


def lifted(before: np.ndarray, after: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``before`` and ``after`` with one gain (``gain``), or themselves."""
    g = gain(before)
    if g == 1.0:
        return before, after
    return _scaled(before, g), _scaled(after, g)


def _scaled(img: np.ndarray, g: float) -> np.ndarray:
    return np.asarray(cv2.convertScaleAbs(img, alpha=g))
