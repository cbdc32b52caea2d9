"""Bring the after frame to the before frame's brightness and colour, per channel.

A camera whose exposure or white balance could not be fixed (or a lamp that warmed
up, a photo pair taken by hand) changes every pixel a little between two frames: a
gain, and often a curve (brighter mid-tones, the highlights clipped). Scaling by the
ratio of the means corrects the gain only, and a mean pulled by the clipped
highlights over-corrects the dark segments.

When a gain per channel leaves the typical pixel of every part of the range within
three grey levels, that is all (the usual case). Else each channel's tone curve is
fitted: before ~ c0 + c1 after + c2 after^2, on
the pixel pairs of small copies of the two frames, by least squares that drops what
does not fit (a dart, its shadow: a few percent of the pixels, far off the curve)
and leaves out clipped pixels. Applied as a lookup table of 256 values. A pixel the
camera clipped in the after frame only says "at least this bright": it is not taken
for darker than the before frame (``apply``).
"""

from __future__ import annotations

import cv2
import numpy as np

CLIPPED = 250  # a channel value this high may have been clipped
MIN_PAIRS = 200  # fewer unclipped pixel pairs: the mean ratio (a gain) is used
MAX_PAIRS = 2000  # more are thinned out evenly
GAIN_TOLERANCE = 3.0  # grey levels: a gain that leaves the typical pixel this close will do
ROUNDS = 3  # fit, drop what does not fit, fit again
OUTLIER_SIGMAS = 3.0
MIN_TOLERANCE = 4.0  # grey levels: a pair this close to the curve always fits


def match(small_before: np.ndarray, small_after: np.ndarray) -> np.ndarray:
    """(channels, 256) float32: the after frame's value v in channel c looks like
    ``lut[c, v]`` in the before frame. Frames: uint8, (h, w, channels), one size."""
    ch = small_before.shape[2] if small_before.ndim == 3 else 1
    b_all = small_before.reshape(-1, ch).astype(np.float64)
    a_all = small_after.reshape(-1, ch).astype(np.float64)
    v = np.arange(256, dtype=np.float64)
    ma, mb = a_all.mean(axis=0), b_all.mean(axis=0)
    gains = np.where(ma > 1, mb / np.maximum(ma, 1), 1.0).astype(np.float32)
    lut = (v[None, :] * gains[:, None]).astype(np.float32)
    if _gain_fits(a_all, b_all, gains):
        return lut  # (the usual case: one camera, its exposure fixed, a lamp's flicker)
    for c in range(ch):
        a, b = a_all[:, c], b_all[:, c]
        ok = (a < CLIPPED) & (b < CLIPPED)
        curve = _fit(a[ok], b[ok]) if int(ok.sum()) >= MIN_PAIRS else None
        if curve is None:
            continue  # (the gain)
        y = np.polyval(curve, v)
        # Monotone (a brighter pixel stays brighter) and within reason outside the
        # fitted range, where a parabola could turn.
        lo, hi = int(a[ok].min()), int(a[ok].max())
        y[:lo] = y[lo] - (lo - v[:lo]) * max(0.0, _slope(curve, lo))
        y[hi + 1 :] = y[hi] + (v[hi + 1 :] - hi) * max(0.0, _slope(curve, hi))
        lut[c] = np.maximum.accumulate(y)
    return lut


def _gain_fits(a: np.ndarray, b: np.ndarray, gains: np.ndarray) -> bool:
    """Whether a gain per channel explains the tones: in each quarter of the range,
    the typical pixel is within ``GAIN_TOLERANCE`` of it (a dart and its shadow, a
    few percent of the pixels, do not move a median)."""
    if len(a) > MAX_PAIRS:
        k = len(a) // MAX_PAIRS + 1
        a, b = a[::k], b[::k]
    res = b - a * gains
    bins = np.minimum(a // 64, 3).astype(np.int64)
    for c in range(a.shape[1]):
        for k in range(4):
            r = res[bins[:, c] == k, c]
            if len(r) >= MIN_PAIRS // 2 and abs(float(np.median(r))) > GAIN_TOLERANCE:
                return False
    return True


def _slope(curve: np.ndarray, x: float) -> float:
    return float(np.polyval(np.polyder(curve), x))


def _fit(a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """Coefficients (highest power first) of before ~ curve(after), or None."""
    if len(a) > MAX_PAIRS:  # every k-th pair: plenty for three coefficients
        k = len(a) // MAX_PAIRS + 1
        a, b = a[::k], b[::k]
    x = a / 255.0  # (scaled: a well-conditioned 3 x 3 system)
    v = np.column_stack([x * x, x, np.ones_like(x)])
    keep = np.ones(len(a), bool)
    curve = None
    for _ in range(ROUNDS):
        if int(keep.sum()) < MIN_PAIRS or np.ptp(a[keep]) < 8:
            break
        vk = v[keep]
        coef = np.linalg.solve(vk.T @ vk + 1e-9 * np.eye(3), vk.T @ b[keep])
        res = np.abs(b - v @ coef)
        spread = 1.4826 * float(np.median(res[keep]))
        keep = res <= max(OUTLIER_SIGMAS * spread, MIN_TOLERANCE)
        curve = coef / np.array([255.0**2, 255.0, 1.0])
    return curve


def apply(lut: np.ndarray, after: np.ndarray, before: np.ndarray) -> np.ndarray:
    """``after`` (uint8 crop) in the before frame's tones, float32; where a channel of
    ``after`` is clipped, no darker than ``before`` there."""
    table = np.ascontiguousarray(lut.T.reshape(1, 256, lut.shape[0]))
    out = np.asarray(cv2.LUT(after, table))
    np.maximum(out, before, out=out, where=after >= CLIPPED)
    return out
