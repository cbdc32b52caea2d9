"""Line up the frame before a dart with the frame after it, to a few hundredths of a
pixel, when the camera moved between them.

A camera whose mount was nudged (a knock on the cabinet, the board shaking after an
impact and not quite settling back, a photo pair taken by hand) shifts the whole
picture by a fraction of a pixel or more, and may turn it a little. Every edge of the
board then shows up as change: a fifth of a pixel already turns the wires into change
lines and breaks the tip search. So before the frames are compared the motion is
measured and the after frame moved back by it (``back``: the before frame is the
one whose pixels the calibration fits, unless the camera crept since it was
calibrated):

- **Locally**, around what changed (``local_motion``): OpenCV's ECC (enhanced
  correlation coefficient, ``cv2.findTransformECC``), a turn and a shift, at half
  resolution (then, if it moved, at full resolution), on the pixels whose change a
  small motion could explain (change no more than a pixel and a half's worth of the
  edge there, plus noise). The dart and its shadow change flat board by far more
  than that, so they do not pull the estimate. The after frame comes in the before
  frame's tones (``tone``): which pixels a motion explains is judged in grey levels.
- **Over the whole frame** first, when most of the picture changed (``whole_motion``):
  phase correlation at a quarter resolution finds a shift of many pixels, which ECC
  then refines.

A motion is a 2x3 matrix ``m``: the pixel p of the before frame is at ``m @ (p, 1)``
in the after frame (a camera knocked turns a little about its lens as well as
shifting). One that moves no pixel of the region by ``MIN_SHIFT_PX`` or more is
left alone (None: the frames are then used as they are, bit for bit); one that
shifts more than ``MAX_SHIFT_PX`` or turns more than ``MAX_TURN_DEG`` is not a
knock (the camera needs calibrating again) and is not lined up. Moving the after
frame back resamples it (Lanczos, the sharpest OpenCV has): the
change that leaves along sharp edges is discounted in ``change``.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

MIN_SHIFT_PX = 0.06  # smaller motions are noise: the frames are compared as they are
MAX_SHIFT_PX = 40.0  # a camera moved further than this was moved, not nudged
MAX_TURN_DEG = 3.0  # ... or turned further than this
SURE_PEAK = 0.5  # a phase correlation peak this strong: the same picture, shifted
EXPLAIN_PX = 1.5  # change a motion this large could make at an edge counts as motion
NOISE_GREY = 6.0  # grey levels of change that flat board shows anyway
BACK_INTERPOLATION = cv2.INTER_LANCZOS4
LANCZOS_REACH = 4  # pixels of the frame's edge a Lanczos resampling spoils
ECC_CRITERIA = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 30, 1e-3)
_HALF = np.diag([2.0, 2.0, 1.0])  # half-resolution pixels (cv2.pyrDown's) -> pixels


def shifted(dx: float, dy: float) -> np.ndarray:
    """The motion of a shift by (dx, dy) pixels."""
    return np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]])


def shift_at(m: np.ndarray | None, p: tuple[float, float]) -> tuple[float, float]:
    """How far the pixel ``p`` moved (0, 0 for None)."""
    if m is None:
        return (0.0, 0.0)
    q = m @ np.array([p[0], p[1], 1.0])
    return (float(q[0] - p[0]), float(q[1] - p[1]))


def _sq(m: np.ndarray) -> np.ndarray:
    return np.vstack([m, [0.0, 0.0, 1.0]])


def _in(m: np.ndarray, frame: np.ndarray) -> np.ndarray:
    """A motion in other pixel coordinates: ``frame`` (3x3) maps them to these."""
    return np.asarray((np.linalg.inv(frame) @ _sq(m) @ frame)[:2])


def _to_half(m: np.ndarray) -> np.ndarray:
    return _in(m, _HALF)


def _to_full(m: np.ndarray) -> np.ndarray:
    return _in(m, np.linalg.inv(_HALF))


def _largest(m: np.ndarray, w: int, h: int) -> float:
    """The furthest any corner of a w x h region moves (pixels)."""
    corners = np.array([[0.0, 0.0, 1.0], [w, 0.0, 1.0], [0.0, h, 1.0], [w, h, 1.0]])
    return float(np.max(np.hypot(*(corners @ m.T - corners[:, :2]).T)))


def _sane(m: np.ndarray, w: int, h: int) -> bool:
    if not np.isfinite(m).all():
        return False
    turn = math.degrees(math.atan2(float(m[1, 0]), float(m[0, 0])))
    return abs(turn) <= MAX_TURN_DEG and _largest(m, w, h) <= MAX_SHIFT_PX


def _grey(img: np.ndarray) -> np.ndarray:
    f = np.asarray(img, np.float32)
    return np.asarray(cv2.cvtColor(f, cv2.COLOR_BGR2GRAY) if f.ndim == 3 else f)


def _warp_back(img: np.ndarray, m: np.ndarray, flags: int = cv2.INTER_LINEAR) -> np.ndarray:
    """``img`` (taken after motion ``m``) resampled at the moved pixels: out(p) =
    img(m p). Edges repeated."""
    h, w = img.shape[:2]
    return np.asarray(cv2.warpAffine(img, m.astype(np.float64), (w, h),
                                     flags=flags | cv2.WARP_INVERSE_MAP,
                                     borderMode=cv2.BORDER_REPLICATE))  # fmt: skip


def edges(img: np.ndarray) -> np.ndarray:
    """Grey levels per pixel of shift at each pixel (the gradient's length; for a
    colour image the largest channel's), float32."""
    f = np.asarray(img, np.float32)
    gx = np.asarray(cv2.Sobel(f, cv2.CV_32F, 1, 0, ksize=3), np.float32) / 8.0
    gy = np.asarray(cv2.Sobel(f, cv2.CV_32F, 0, 1, ksize=3), np.float32) / 8.0
    g = np.sqrt(gx * gx + gy * gy)
    return np.asarray(g.max(axis=2) if g.ndim == 3 else g, np.float32)


def _ecc(
    before: np.ndarray, after: np.ndarray, start: np.ndarray, explain_px: float
) -> np.ndarray | None:
    """ECC motion (turn and shift) from grey ``before`` to grey ``after`` (same size),
    starting at ``start``, on the pixels whose change the motion could explain; None
    if it fails."""
    back = _warp_back(after, start)  # the after frame where start says it was
    mask = (np.abs(back - before) <= explain_px * edges(before) + NOISE_GREY).astype(np.uint8)
    if int(mask.sum()) < 64:
        return None
    try:
        _, got = cv2.findTransformECC(before, after, start.astype(np.float32),
                                      cv2.MOTION_EUCLIDEAN, ECC_CRITERIA, mask, 3)  # fmt: skip
    except cv2.error:  # flat picture, or it did not converge
        return None
    m = np.asarray(got, np.float64)
    h, w = before.shape[:2]
    return m if _sane(m, w, h) else None


def local_motion(
    before: np.ndarray, after: np.ndarray, at: tuple[int, int], start: np.ndarray | None = None
) -> np.ndarray | None:
    """How the picture moved from ``before`` to ``after``: two crops of one size taken
    at ``at`` (x, y) of their frames, around a change (BGR or grey). The motion is in
    the frame's pixels, measured from ``start`` (found over the whole frame); None
    when no pixel of the crops moved by ``MIN_SHIFT_PX``."""
    h, w = before.shape[:2]
    if min(h, w) < 16:
        return start
    crop = np.array([[1.0, 0.0, at[0]], [0.0, 1.0, at[1]], [0.0, 0.0, 1.0]])  # crop -> frame
    m0 = _in(start, crop) if start is not None else shifted(0.0, 0.0)
    b = cv2.pyrDown(_grey(before))
    a = cv2.pyrDown(_grey(after))
    m = _ecc(b, a, _to_half(m0), EXPLAIN_PX / 2)
    if m is not None and _largest(_to_full(m), w, h) > MIN_SHIFT_PX:
        # Moved by more than a hair: once more from there (what the first pass took
        # for unexplained change may be edges the motion moved further than it allows).
        again = _ecc(b, a, m, EXPLAIN_PX / 2)
        m = again if again is not None else m
    if m is None:
        return start
    m = _to_full(m)
    if _largest(m, w, h) < MIN_SHIFT_PX:
        return None
    # It moved: the last hundredths at full resolution (only then: it costs).
    fine = _ecc(_grey(before), _grey(after), m, EXPLAIN_PX)
    return _in(fine if fine is not None else m, np.linalg.inv(crop))


def _phase(before: np.ndarray, after: np.ndarray) -> tuple[tuple[float, float], float] | None:
    """The whole picture's shift (pixels) by phase correlation at a quarter
    resolution, and how sure it is (the peak's response, 0-1)."""
    q = 0.25
    sb = cv2.resize(_grey(before), None, fx=q, fy=q, interpolation=cv2.INTER_AREA)
    sa = cv2.resize(_grey(after), None, fx=q, fy=q, interpolation=cv2.INTER_AREA)
    if min(sb.shape) < 16:
        return None
    win = cv2.createHanningWindow((sb.shape[1], sb.shape[0]), cv2.CV_32F)
    (cx, cy), response = cv2.phaseCorrelate(sb, sa, win)
    return (cx / q, cy / q), float(response)


def whole_motion(before: np.ndarray, after: np.ndarray) -> np.ndarray | None:
    """How the whole picture moved (up to ``MAX_SHIFT_PX``), or None: phase
    correlation at a quarter resolution, refined by ECC at half resolution."""
    got = _phase(before, after)
    if got is None or not math.hypot(*got[0]) <= MAX_SHIFT_PX:
        return None
    coarse = shifted(*got[0])
    b = cv2.pyrDown(_grey(before))
    a = cv2.pyrDown(_grey(after))
    m = _ecc(b, a, _to_half(coarse), EXPLAIN_PX)
    found = _to_full(m) if m is not None else coarse
    h, w = before.shape[:2]
    return found if _largest(found, w, h) >= MIN_SHIFT_PX else None


def jumped(before: np.ndarray, after: np.ndarray) -> float:
    """How far (pixels) the whole picture jumped, when it surely moved further than
    can be lined up (the same scene, shifted more than ``MAX_SHIFT_PX``: the camera
    was moved, and its calibration must be fitted again, ``recheck``); else 0. A
    person in front of the board changes as much of the picture, but it is not the
    same scene shifted: the phase correlation's peak is then weak (rendered: a camera
    moved 60-120 px peaks at 0.93-0.99, a person-sized blob at 0.06-0.16)."""
    got = _phase(before, after)
    if got is None:
        return 0.0
    (dx, dy), response = got
    far = math.hypot(dx, dy)
    return far if far > MAX_SHIFT_PX and response >= SURE_PEAK else 0.0


def back(
    img: np.ndarray, m: np.ndarray | None, before: np.ndarray | None = None, *, quick: bool = False
) -> np.ndarray:
    """``img``, taken after the picture moved by ``m``, moved back onto the frame
    before; itself when ``m`` is None. Where the camera no longer saw the frame before
    (along its edges), ``before`` is taken when given (else the edge is repeated).
    Resampled with ``BACK_INTERPOLATION``; with ``quick``, bilinearly (a sixteenth of
    the time: enough for a look at an eighth of the resolution; ``sharpen`` then
    resamples where the dart is looked for)."""
    if m is None:
        return img
    out = _warp_back(img, m, cv2.INTER_LINEAR if quick else BACK_INTERPOLATION)
    _keep_lost(out, m, before, (0, 0, img.shape[1], img.shape[0]))
    return out


def sharpen(
    out: np.ndarray,
    img: np.ndarray,
    m: np.ndarray,
    before: np.ndarray | None,
    box: tuple[int, int, int, int],
) -> None:
    """``out`` (``back(img, m, before, quick=True)``) resampled in the box (x0, y0,
    x1, y1) as ``back`` without ``quick`` does, in place."""
    x0, y0, x1, y1 = box
    if x1 <= x0 or y1 <= y0:
        return
    out[y0:y1, x0:x1] = _warp_box(img, m, box)
    _keep_lost(out, m, before, box)


def _keep_lost(
    out: np.ndarray, m: np.ndarray, before: np.ndarray | None, box: tuple[int, int, int, int]
) -> None:
    """Where in the box (x0, y0, x1, y1) of ``out`` the camera no longer saw the frame
    before (along its edges, and what a Lanczos resampling spoils there), ``before``."""
    if before is None or before.shape != out.shape:
        return
    h, w = out.shape[:2]
    inner = np.zeros((h, w), np.uint8)
    r = LANCZOS_REACH
    inner[r : h - r, r : w - r] = 1
    seen = cv2.warpAffine(inner, m, (w, h), flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP)
    x0, y0, x1, y1 = box
    lost = np.asarray(seen)[y0:y1, x0:x1] == 0
    if lost.any():
        out[y0:y1, x0:x1][lost] = before[y0:y1, x0:x1][lost]


def _warp_box(img: np.ndarray, m: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """``_warp_back`` with ``BACK_INTERPOLATION`` of the box (x0, y0, x1, y1) only: the
    same pixels, the map shifted to the box's corner."""
    x0, y0, x1, y1 = box
    mb = np.asarray(m, np.float64).copy()
    mb[:, 2] = mb[:, :2] @ np.array([x0, y0], np.float64) + mb[:, 2]
    return np.asarray(cv2.warpAffine(img, mb, (x1 - x0, y1 - y0),
                                     flags=BACK_INTERPOLATION | cv2.WARP_INVERSE_MAP,
                                     borderMode=cv2.BORDER_REPLICATE))  # fmt: skip
