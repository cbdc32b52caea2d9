"""Line up the frame before a dart with the frame after it, to a few hundredths of a
pixel, when the camera moved between them.

A camera whose mount was nudged (a knock on the cabinet, the board shaking after an
impact and not quite settling back, a photo pair taken by hand) shifts the whole
picture by a fraction of a pixel or more. Every edge of the board then shows up as
change: a fifth of a pixel already turns the wires into change lines and breaks the
tip search. So before the frames are compared the shift is measured and the after
frame moved back by it (``back``: the before frame is the one whose pixels the
calibration fits, unless the camera has crept since it was calibrated):

- **Locally**, around what changed (``local_shift``): OpenCV's ECC (enhanced
  correlation coefficient, ``cv2.findTransformECC``), translation only, at half
  resolution (then, if it moved, at full resolution), on the pixels whose change a
  small shift could explain (change no more than a pixel and a half's worth of the
  edge there, plus noise). The dart and its shadow change flat board by far more
  than that, so they do not pull the estimate. The after frame comes in the before
  frame's tones (``tone``): which pixels a shift explains is judged in grey levels.
- **Over the whole frame** first, when most of the picture changed (``whole_shift``):
  phase correlation at a quarter resolution finds a shift of many pixels, which ECC
  then refines.

Translation only: over the region around one dart a small turn of the camera is
nearly a shift too (rendered: a camera turned 0.2 degrees about a point off the
picture's centre still gets 16 of 20 darts exact; 0.05 degrees, all). A shift under
``MIN_SHIFT_PX`` is left alone (the frames are then used as they are, bit for bit).
Moving the after frame back resamples it (Lanczos, the sharpest OpenCV has): the
change that leaves along sharp edges is discounted in ``change``.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

MIN_SHIFT_PX = 0.06  # smaller shifts are noise: the frames are compared as they are
MAX_SHIFT_PX = 40.0  # a camera moved further than this was moved, not nudged
EXPLAIN_PX = 1.5  # change a shift this large could make at an edge counts as motion
NOISE_GREY = 6.0  # grey levels of change that flat board shows anyway
BACK_INTERPOLATION = cv2.INTER_LANCZOS4
ECC_CRITERIA = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 30, 1e-3)

Shift = tuple[float, float]


def _grey(img: np.ndarray) -> np.ndarray:
    f = np.asarray(img, np.float32)
    return np.asarray(cv2.cvtColor(f, cv2.COLOR_BGR2GRAY) if f.ndim == 3 else f)


def _moved(img: np.ndarray, s: Shift, flags: int = cv2.INTER_LINEAR) -> np.ndarray:
    """``img`` moved by ``s`` pixels (what was at p is at p + s), edges repeated."""
    m = np.array([[1.0, 0.0, s[0]], [0.0, 1.0, s[1]]], np.float32)
    h, w = img.shape[:2]
    return np.asarray(cv2.warpAffine(img, m, (w, h), flags=flags, borderMode=cv2.BORDER_REPLICATE))


def edges(img: np.ndarray) -> np.ndarray:
    """Grey levels per pixel of shift at each pixel (the gradient's length; for a
    colour image the largest channel's), float32."""
    f = np.asarray(img, np.float32)
    gx = np.asarray(cv2.Sobel(f, cv2.CV_32F, 1, 0, ksize=3), np.float32) / 8.0
    gy = np.asarray(cv2.Sobel(f, cv2.CV_32F, 0, 1, ksize=3), np.float32) / 8.0
    g = np.sqrt(gx * gx + gy * gy)
    return np.asarray(g.max(axis=2) if g.ndim == 3 else g, np.float32)


def _ecc(before: np.ndarray, after: np.ndarray, start: Shift, explain_px: float) -> Shift | None:
    """ECC translation from grey ``before`` to grey ``after`` (same size), starting at
    ``start``, on the pixels whose change the shift could explain; None if it fails."""
    moved = _moved(before, start)
    mask = (np.abs(after - moved) <= explain_px * edges(moved) + NOISE_GREY).astype(np.uint8)
    if int(mask.sum()) < 64:
        return None
    warp = np.array([[1.0, 0.0, start[0]], [0.0, 1.0, start[1]]], np.float32)
    try:
        _, got = cv2.findTransformECC(
            before, after, warp, cv2.MOTION_TRANSLATION, ECC_CRITERIA, mask, 3
        )
    except cv2.error:  # flat picture, or it did not converge
        return None
    s = (float(got[0, 2]), float(got[1, 2]))
    return s if all(map(math.isfinite, s)) and math.hypot(*s) <= MAX_SHIFT_PX else None


def local_shift(before: np.ndarray, after: np.ndarray, start: Shift = (0.0, 0.0)) -> Shift:
    """How far the picture moved from ``before`` to ``after`` (two crops of one size
    around a change, BGR or grey), in pixels, measured from ``start`` (a shift found
    over the whole frame); (0, 0) when less than ``MIN_SHIFT_PX``."""
    if min(before.shape[:2]) < 16:
        return start
    b = cv2.pyrDown(_grey(before))
    a = cv2.pyrDown(_grey(after))
    s = _ecc(b, a, (start[0] / 2, start[1] / 2), EXPLAIN_PX / 2)
    if s is not None and math.hypot(*s) > MIN_SHIFT_PX:
        # Moved by more than a hair: once more from there (what the first pass took
        # for unexplained change may be edges the shift moved further than it allows).
        s = _ecc(b, a, s, EXPLAIN_PX / 2) or s
    if s is None:
        return start
    s = (2 * s[0], 2 * s[1])
    if math.hypot(*s) < MIN_SHIFT_PX:
        return (0.0, 0.0)
    # It moved: the last hundredths at full resolution (only then: it costs).
    return _ecc(_grey(before), _grey(after), s, EXPLAIN_PX) or s


def whole_shift(before: np.ndarray, after: np.ndarray) -> Shift:
    """How far the whole picture moved (pixels, up to ``MAX_SHIFT_PX``): phase
    correlation at a quarter resolution, refined by ECC at half resolution."""
    q = 0.25
    sb = cv2.resize(_grey(before), None, fx=q, fy=q, interpolation=cv2.INTER_AREA)
    sa = cv2.resize(_grey(after), None, fx=q, fy=q, interpolation=cv2.INTER_AREA)
    if min(sb.shape) < 16:
        return (0.0, 0.0)
    win = cv2.createHanningWindow((sb.shape[1], sb.shape[0]), cv2.CV_32F)
    (cx, cy), _ = cv2.phaseCorrelate(sb, sa, win)
    coarse = (cx / q, cy / q)
    if not math.hypot(*coarse) <= MAX_SHIFT_PX:
        return (0.0, 0.0)
    b = cv2.pyrDown(_grey(before))
    a = cv2.pyrDown(_grey(after))
    s = _ecc(b, a, (coarse[0] / 2, coarse[1] / 2), EXPLAIN_PX)
    found = (2 * s[0], 2 * s[1]) if s is not None else coarse
    return found if math.hypot(*found) >= MIN_SHIFT_PX else (0.0, 0.0)


def back(img: np.ndarray, s: Shift, before: np.ndarray | None = None) -> np.ndarray:
    """``img``, taken after the picture moved by ``s``, moved back (onto the frame
    before); itself when ``s`` is (0, 0). The strips along the edges that the camera
    did not see any more are taken from ``before`` when given (else repeated)."""
    if s == (0.0, 0.0):
        return img
    out = _moved(img, (-s[0], -s[1]), BACK_INTERPOLATION)
    if before is not None and before.shape == img.shape:
        h, w = img.shape[:2]
        mx, my = math.ceil(abs(s[0])) + 3, math.ceil(abs(s[1])) + 3  # (+ Lanczos' reach)
        cols = slice(w - mx, w) if s[0] > 0 else slice(0, mx)
        rows = slice(h - my, h) if s[1] > 0 else slice(0, my)
        out[:, cols] = before[:, cols]
        out[rows] = before[rows]
    return out
