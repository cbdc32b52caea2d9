"""The dart's axis in one camera's image, to a tenth of a pixel.

The dart's point, barrel and shaft are a thin solid of revolution: across its image
every cross-section has two edges whose midpoint lies on the projected axis. A first
axis comes from the longest 4 px strip of change (``first_axes``), on the thin part
only (an opening with a disc wider than any barrel takes the flight out,
``split_flight``); then midpoints of sections a pixel apart are fitted with a robust
line (``axis_from_sections``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from kiosk.adapters.camera.calibration import Calibration

BARREL_MAX_MM = 10.0  # a barrel is narrower than this; a flight seen other than edge-on wider
SPAN_OK_PX = 60.0  # a thin part this long in the image gives a line that can be trusted
COLOUR_SAT = 90  # HSV saturation (0-255) above which a pixel of the dart is coloured
COLOUR_MIN_V = 25  # darker pixels' saturation is noise (a black shaft is not coloured)
# Whether a dart has a coloured flight at all: a dark pixel's saturation under a tinted
# lamp is no colour either (a black flight at (24, 27, 41) is 105 saturated); a
# coloured flight's pixels are mostly further from grey than this (levels, max - min).
COLOUR_MIN_CHROMA = 30
COLOUR_MIN_FRAC = 0.15  # this much of the dart coloured: it has a coloured flight/shaft
MAX_PX_PER_MM = 50.0  # a board 451 mm across would be 22,000 px: no camera sees it so close


def coloured(after: np.ndarray, pts: np.ndarray, min_chroma: int = 0) -> np.ndarray:
    """Per point (x, y) of the dart, whether the after frame is coloured there (a
    flight, a coloured shaft) rather than grey or black (steel point, tungsten barrel,
    black shaft). Bool (n,); all False for a grey frame. ``min_chroma``: only pixels
    this far from grey (``COLOUR_MIN_CHROMA``: a dark pixel's tint is no colour)."""
    if after.ndim != 3 or not len(pts):
        return np.zeros(len(pts), bool)
    xi = np.round(pts[:, 0]).astype(np.int64)
    yi = np.round(pts[:, 1]).astype(np.int64)
    x0, y0 = int(xi.min()), int(yi.min())
    roi = np.ascontiguousarray(after[y0 : int(yi.max()) + 1, x0 : int(xi.max()) + 1])
    hsv = cv2.cvtColor(roi, cv2.COLOR_BGR2HSV)
    b, g, r = cv2.split(roi)  # (OpenCV: about 20 times faster than numpy over axis 2)
    chroma = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
    col = ((hsv[..., 1] > COLOUR_SAT) & (hsv[..., 2] > COLOUR_MIN_V)
           & (chroma >= min_chroma)).astype(np.uint8)  # fmt: skip
    grown = np.asarray(cv2.dilate(col, np.ones((3, 3), np.uint8)))  # its rim, blended
    return np.asarray(grown[yi - y0, xi - x0] > 0)


def solid_grey(after: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Per point (x, y) of the dart, whether it is grey and not a rim: grey points
    that survive an opening with a 3 x 3 square (where a coloured vane meets the
    board, JPEG blends a line or two of pixels of neither colour). Bool (n,)."""
    grey = ~coloured(after, pts)
    if not grey.any():
        return grey
    m, rows, cols = points_mask(pts, pad=1, keep=grey)
    opened = np.asarray(cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)))
    return np.asarray(opened[rows, cols] > 0)


def points_mask(
    pts: np.ndarray, pad: int = 0, keep: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A mask (uint8) just big enough for the points (x, y) of ``pts`` and ``pad``
    pixels round them, with the points (those ``keep`` says, bool (n,)) set; and each
    point's row and column in it."""
    xi = np.round(pts[:, 0]).astype(np.int64)
    yi = np.round(pts[:, 1]).astype(np.int64)
    x0, y0 = int(xi.min()) - pad, int(yi.min()) - pad
    m = np.zeros((int(yi.max()) - y0 + 1 + pad, int(xi.max()) - x0 + 1 + pad), np.uint8)
    rows, cols = yi - y0, xi - x0
    if keep is None:
        m[rows, cols] = 1
    else:
        m[rows[keep], cols[keep]] = 1
    return m, rows, cols


def split_flight(
    dart: np.ndarray, xs: np.ndarray, ys: np.ndarray, cal: Calibration
) -> tuple[np.ndarray, np.ndarray | None]:
    """The dart's thin part (point, barrel, shaft) and the centre of its flight: what
    survives an opening with a disc wider than any barrel is the flight (seen other
    than edge-on); the rest is thin."""
    x0, x1, y0, y1 = int(xs.min()), int(xs.max()) + 1, int(ys.min()), int(ys.max()) + 1
    ppm = px_per_mm(cal, np.array([(x0 + x1) / 2, (y0 + y1) / 2]))
    r = max(2, round(BARREL_MAX_MM / 2 * ppm) + 1)
    pad = r + 1
    roi = dart[max(0, y0 - pad) : y1 + pad, max(0, x0 - pad) : x1 + pad].astype(np.uint8)
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    blob = cv2.morphologyEx(roi, cv2.MORPH_OPEN, k).astype(bool)
    thin = roi.astype(bool) & ~cv2.dilate(blob.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(
        bool
    )
    ox, oy = max(0, x0 - pad), max(0, y0 - pad)
    ty, tx = np.nonzero(thin)
    thin_pts = np.column_stack([tx + ox, ty + oy]).astype(np.float32)
    if blob.sum() < 4 * r * r:
        return thin_pts, None
    by, bx = np.nonzero(blob)
    return thin_pts, np.array([bx.mean() + ox, by.mean() + oy])


def px_per_mm(cal: Calibration, pt: np.ndarray) -> float:
    """Pixels per board mm at ``pt`` in the board's best-seen direction (an upper bound
    of how long a mm of anything near the board looks), at most ``MAX_PX_PER_MM``: far
    from the points it was fitted on, a poor homography (4 points bunched in one
    sector) can say millions, and sizes built on it would not fit in memory."""
    x, y = float(pt[0]), float(pt[1])
    b = cal.image_to_board(np.array([[x, y], [x + 1, y], [x, y + 1]]))
    sv = np.linalg.svd(np.column_stack([b[1] - b[0], b[2] - b[0]]), compute_uv=False)
    ppm = 1.0 / max(float(sv[1]), 1e-9)
    return min(ppm, MAX_PX_PER_MM) if math.isfinite(ppm) else MAX_PX_PER_MM


def first_axes(pts: np.ndarray, n: int = 1) -> list[tuple[np.ndarray, np.ndarray]]:
    """First axes: the 4 px strips that cover the longest stretch of change. The dart's
    point, barrel, shaft and the middle of its flight lie along one line; a flight,
    however many pixels it has, is shorter along most other lines. Every direction is
    tried (3 degrees, then 1 degree around the best); the best ``n`` at least 10
    degrees apart are fitted to the
    pixels of their strip."""
    if len(pts) > 3000:  # a big change: a sample is enough for a first guess
        pts = pts[:: len(pts) // 3000 + 1]
    per_angle = _coverage(pts, np.arange(0.0, 180.0, 3.0))
    # Coarse (3 degrees) then fine (1 degree) around the best few.
    fine = sorted({(a + d) % 180.0 for _, a, _ in sorted(per_angle, reverse=True)[: 2 * n]
                   for d in (-2.0, -1.0, 1.0, 2.0)})  # fmt: skip
    per_angle += _coverage(pts, np.array(fine))
    out: list[tuple[np.ndarray, np.ndarray]] = []
    taken: list[float] = []
    for _, a, k in sorted(per_angle, reverse=True):
        if any(min(abs(a - t), 180 - abs(a - t)) < 10 for t in taken):
            continue
        taken.append(a)
        th = math.radians(a)
        off = pts @ np.array([-math.sin(th), math.cos(th)])
        ob = ((off - off.min()) / 2.0).astype(np.int64)
        sel = (ob >= k) & (ob <= k + 1)
        out.append(fit_line(pts[sel]) if sel.sum() >= 5 else fit_line(pts))
        if len(out) == n:
            break
    return out


def _coverage(pts: np.ndarray, angles_deg: np.ndarray) -> list[tuple[int, float, int]]:
    """Per direction: (cells covered, angle, offset bin) of its best 4 px strip."""
    th = np.radians(angles_deg)
    off = pts @ np.stack([-np.sin(th), np.cos(th)])  # (N, angles)
    alo = pts @ np.stack([np.cos(th), np.sin(th)])
    ob = ((off - off.min(axis=0)) / 2.0).astype(np.int64)
    ab = ((alo - alo.min(axis=0)) / 2.0).astype(np.int64)
    out = []
    for j in range(len(th)):
        m = int(ab[:, j].max()) + 1
        occ = np.zeros((int(ob[:, j].max()) + 1) * m, bool)
        occ[ob[:, j] * m + ab[:, j]] = True  # occupied 2x2 px cells
        cover = occ.reshape(-1, m).sum(axis=1)  # per 2 px offset bin: cells along it
        pair = cover[:-1] + cover[1:] if len(cover) > 1 else cover
        k = int(np.argmax(pair))
        out.append((int(pair[k]), float(angles_deg[j]), k))
    return out


def fit_line(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    line = cv2.fitLine(pts, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array(line[:2], np.float64), np.array(line[2:], np.float64)


@dataclass(frozen=True)
class AxisFit:
    centre: np.ndarray  # a point on the axis (mean of the sections used)
    axis: np.ndarray  # unit, towards the flight
    s_mid: float  # 0: ``centre``'s position along the axis
    sigma: float  # robust spread of the section midpoints about the line, px
    n: int  # sections used
    sxx: float  # sum of squared positions about their mean
    span: float  # length of the thin part used, px

    def sigma_at(self, s: float) -> float:
        """Error of the line across itself at position ``s`` (midpoints of sections a
        pixel apart are correlated over about 3 px: the effective count is n / 3)."""
        n_eff = max(1.0, self.n / 3.0)
        var = self.sigma**2 * (1.0 / n_eff + 3.0 * (s - self.s_mid) ** 2 / max(self.sxx, 1e-6))
        # A short thin part (a dart pointing at the camera) is easily a vane or a
        # shadow fitted instead: an error that the scatter does not show. (Most short
        # lines are still good: fusion's robust cost, not this, rejects the blunders.)
        short = 0.1 * (SPAN_OK_PX / max(self.span, 1.0)) ** 3
        # x1.5 and a 0.15 px floor: what the scatter does not show (JPEG, the board's
        # edges under the dart), measured on rendered throws.
        return float(math.sqrt(2.25 * var + 0.15**2 + short**2))


def image_line(point: tuple[float, float], direction: tuple[float, float]) -> np.ndarray:
    """The line through ``point`` along ``direction`` as a homogeneous image line
    (a, b, c), a x + b y + c = 0."""
    x, y = point
    dx, dy = direction
    return np.array([-dy, dx, dy * x - dx * y])


def section_grid(
    start: np.ndarray, axis: np.ndarray, along: np.ndarray, half_w: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sample positions (x and y maps for ``cv2.remap``, float32) of cross-sections at
    ``along`` px from ``start`` on ``axis``, every half pixel out to ``half_w`` each
    side; and those offsets across."""
    offsets = np.arange(-half_w, half_w + 1e-6, 0.5, dtype=np.float32)
    S, Off = np.meshgrid(along, offsets, indexing="ij")
    nrm = np.array([-axis[1], axis[0]])
    mx = (start[0] + axis[0] * S + nrm[0] * Off).astype(np.float32)
    my = (start[1] + axis[1] * S + nrm[1] * Off).astype(np.float32)
    return mx, my, offsets


def section_edges(
    prof: np.ndarray, level: float, offsets: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Cross-sections of a thin thing: per row of ``prof`` (values sampled across the
    rough line at ``offsets``, evenly spaced), the run at or above ``level`` that covers
    the rough line (within 3 px of it) and its sub-pixel edges. Rows with no such run,
    or with one as wide as the window, are left out. Returns the rows kept, the left
    and right edges (offsets) and the run's first and last sample. (All rows at once:
    the tip search fits several axes per dart, each on hundreds of sections.)"""
    step = float(offsets[1] - offsets[0])
    above = prof >= level
    width = above.shape[1]
    mid = width // 2
    cols = np.arange(width)
    # The sample above the level nearest the rough line (the left one on a tie).
    win = cols[mid - 6 : mid + 7]
    key = np.where(above[:, mid - 6 : mid + 7], 2 * np.abs(win - mid) + (win > mid), 10**6)
    has = key.min(axis=1) < 10**6
    j = win[np.argmin(key, axis=1)]
    # The run through it: bounded by the nearest samples below the level each side.
    below = ~above
    lo = np.where(below & (cols[None, :] < j[:, None]), cols[None, :], -1).max(axis=1) + 1
    hi = np.where(below & (cols[None, :] > j[:, None]), cols[None, :], width).min(axis=1) - 1
    rows = np.nonzero(has & (lo > 0) & (hi < width - 1))[0]  # else wider than the window
    lo, hi = lo[rows], hi[rows]
    p_lo, p_lo1 = prof[rows, lo], prof[rows, lo - 1]
    p_hi, p_hi1 = prof[rows, hi], prof[rows, hi + 1]
    lefts = offsets[lo] - step * (p_lo - level) / np.maximum(1e-6, p_lo - p_lo1)
    rights = offsets[hi] + step * (p_hi - level) / np.maximum(1e-6, p_hi - p_hi1)
    return (rows.astype(np.int64), lefts.astype(np.float64), rights.astype(np.float64),
            lo.astype(np.int64), hi.astype(np.int64))  # fmt: skip


def robust_line(
    s: np.ndarray, c: np.ndarray, min_n: int
) -> tuple[np.ndarray, float, np.ndarray] | None:
    """c = b0 + b1 s fitted to midpoints, dropping those further than 3 robust sigmas
    (at least 0.3 px) until it settles: (b0, b1), the robust sigma, the inliers."""
    if len(s) < min_n:
        return None
    inl = np.ones(len(s), bool)
    beta = np.zeros(2)
    sig = 1.0
    for _ in range(4):
        A = np.column_stack([np.ones(int(inl.sum())), s[inl]])
        beta, *_ = np.linalg.lstsq(A, c[inl], rcond=None)
        r = c - (beta[0] + beta[1] * s)
        sig = max(0.05, 1.4826 * float(np.median(np.abs(r[inl]))))
        new = np.abs(r) <= max(3.0 * sig, 0.3)
        if new.sum() < min_n or (new == inl).all():
            break
        inl = new
    return beta, sig, inl


def axis_from_sections(
    score: np.ndarray,
    level: float,
    centre: np.ndarray,
    axis: np.ndarray,
    s_tip: float,
    length: float,
    half_w: float = 14.0,
) -> AxisFit | None:
    """Midpoints of the dart's cross-sections from the tip up its body, fitted."""
    ss = np.arange(s_tip + 1.0, s_tip + 1.0 + min(length, 400.0), 1.0, dtype=np.float32)
    if len(ss) < 6:
        return None
    mx, my, os_ = section_grid(centre, axis, ss, half_w)
    nrm = np.array([-axis[1], axis[0]])
    prof = cv2.remap(score, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    keep, left, right, _, _ = section_edges(prof, level, os_)
    if len(keep) < 6:
        return None
    s = ss[keep].astype(np.float64)
    c = (left + right) / 2
    wd = right - left
    # The thin part: sections no wider than the barrel (the first half of what was
    # found is point and barrel); the flight, wider, is left out.
    first = wd[s <= s[0] + 0.5 * (s[-1] - s[0])]
    sel = wd <= max(6.0, 1.6 * float(np.percentile(first, 90)))
    # A gap of more than 6 px between kept sections ends the dart (what lies beyond
    # is another thing in line with it).
    order = np.nonzero(sel)[0]
    if len(order) >= 2:
        gaps = np.nonzero(np.diff(s[order]) > 6.0)[0]
        if len(gaps):
            order = order[: gaps[0] + 1]
    s, c = s[order], c[order]
    got = robust_line(s, c, 6)
    if got is None:
        return None
    beta, sig, inl = got
    s_in = s[inl]
    # The line c = b0 + b1 s in (axis, normal) coordinates, back to the image.
    p0 = centre + axis * 0.0 + nrm * beta[0]
    d = axis + nrm * beta[1]
    d /= np.linalg.norm(d)
    s_mean = float(s_in.mean())
    on_line = p0 + d * (s_mean / float(axis @ d))
    sxx = float(((s_in - s_mean) ** 2).sum())
    return AxisFit(on_line, d, 0.0, sig, int(inl.sum()), sxx, float(np.ptp(s_in)))
