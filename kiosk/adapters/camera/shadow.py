"""The dart's shadow as one more line through the tip.

A lamp casts the dart's shadow on the board. The shadow starts where the point enters
the board and lies on the board plane, so its centre line, mapped through the
homography, is a board line through the tip: a line as good as a camera's view of the
dart's axis, seen from where the lamp is. That matters for cameras that look at the
board nearly face-on: they see the dart lean the same way, their axis lines are
nearly parallel and fix the tip poorly along them, while the shadow's line crosses
them at the angle the lamp makes (see ``fusion``).

The shadow is found as darkening (1 - after / before, so a shadow over a black
segment counts as much as over a cream one: leaving black segments out breaks the
shadow into pieces and its line gets worse) in a disc around the tip found along the
axis, away from the dart's own pixels (which hide it where the camera sees the dart
over its shadow). Its direction
comes from the darkening around the tip; then the midpoints of its cross-sections are
fitted with a robust line, as for the dart's axis. The narrow shadow of the steel
point and the wider, softer one of the barrel both centre on the shadow of the axis.

No single lamp (soft light, a ring light) means no usable shadow: nothing is found
and the cameras' own lines are all there is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from kiosk.adapters.camera.axis import (
    image_line,
    px_per_mm,
    robust_line,
    section_edges,
    section_grid,
)
from kiosk.adapters.camera.calibration import Calibration

REACH_MM = 40.0  # the shadow is followed this far from the tip (point and barrel)
MAX_REACH_PX = 300.0  # ... and never further in the image (a calibration gone wrong)
MIN_BRIGHT = 30.0  # sum of B, G, R before: darker than any board (a ratio of noise)
MIN_DARKENING = 0.12  # 1 - after / before: less is noise, not a shadow
HALF_WIDTH_PX = 14.0  # cross-sections are searched this far each side of the line
MIN_SECTIONS = 12
MAX_SCATTER_PX = 1.0  # midpoints scattered more than this: not a clean shadow
# A shadow within this of the dart's own axis is no second line: its board line is the
# axis's, and it is most often the dart's own edge, a faint darkening that kept the
# board's colour, taken for a shadow (seen on throws rendered with no lamp at all).
SAME_LINE_DEG = 2.0
# A shadow's line meets the dart's axis before the tip (``_meets_dart_before_tip``):
# more than this far before it (or 3 sigmas of where they meet), with at least
# MEETS_DART_PX of the dart seen on the axis between, the lines at least
# asin(MEETS_SIN) apart (nearer parallel, where they meet is anyone's guess).
MEETS_PX = 4.0
MEETS_DART_PX = 2.0
MEETS_SIN = 0.05
# Error of the line at the tip, px: the fit's own x ``INFLATION`` (the shadow's soft
# edge, JPEG, the dart's own pixels near it), with a floor.
INFLATION = 3.0
FLOOR_PX = 0.15


@dataclass(frozen=True)
class ShadowLine:
    point: tuple[float, float]  # on the shadow's centre line, near the tip, pixels
    direction: tuple[float, float]  # unit, away from the tip
    sigma_px: float  # the line's error across itself at the tip
    # It meets the dart's axis before the tip, where the dart is still seen: another
    # shadow, or a tip found too far on (``_meets_dart_before_tip``).
    before_tip: bool = False

    def image_line(self) -> np.ndarray:
        """As a homogeneous image line (a, b, c), a x + b y + c = 0."""
        return image_line(self.point, self.direction)


def find_shadow(
    before: np.ndarray,
    after: np.ndarray,
    tip: tuple[float, float],
    dart: np.ndarray,
    cal: Calibration,
    dart_axis: tuple[float, float] | None = None,
    axis_sigma_px: float = math.inf,
) -> ShadowLine | None:
    """The centre line of the shadow that starts at ``tip`` (pixels), or None.
    ``dart``: bool, frame-sized, the dart's own pixels; ``dart_axis``: its direction
    in the image (unit) from the tip towards the flight, when known: a shadow along
    it is None (``SAME_LINE_DEG``), and one that meets it before the tip is marked
    (``ShadowLine.before_tip``; ``axis_sigma_px``: the axis' error at the tip)."""
    t = np.array(tip, np.float64)
    if not np.isfinite(t).all():
        return None
    reach = min(REACH_MM * px_per_mm(cal, t), MAX_REACH_PX)
    if not math.isfinite(reach):
        return None
    h, w = before.shape[:2]
    pad = reach + HALF_WIDTH_PX + 2
    x0, x1 = int(max(0, t[0] - pad)), int(min(w, t[0] + pad))
    y0, y1 = int(max(0, t[1] - pad)), int(min(h, t[1] + pad))
    if x1 - x0 < 8 or y1 - y0 < 8 or before.ndim != 3:
        return None
    b = cv2.blur(before[y0:y1, x0:x1].astype(np.float32), (3, 3)).sum(axis=2)
    a = cv2.blur(after[y0:y1, x0:x1].astype(np.float32), (3, 3)).sum(axis=2)
    dark = np.where(b > MIN_BRIGHT, 1.0 - a / np.maximum(b, 1.0), 0.0).astype(np.float32)
    hidden = cv2.dilate(dart[y0:y1, x0:x1].astype(np.uint8), np.ones((5, 5), np.uint8))
    local = t - np.array([x0, y0])
    first = _first_direction(dark, hidden, local, reach)
    if first is None:
        return None
    axis, strength = first
    fit = None
    for _ in range(2):  # the line on sections, then again along the better line
        fit = _sections(dark, hidden.astype(np.float32), local, axis, reach, 0.5 * strength)
        if fit is None:
            return None
        local, axis = fit[0], fit[1]
    assert fit is not None
    p, d, sigma_px = fit
    if dart_axis is not None:
        sin_apart = abs(d[0] * dart_axis[1] - d[1] * dart_axis[0])
        if sin_apart < math.sin(math.radians(SAME_LINE_DEG)):
            return None
    line = ShadowLine((float(p[0] + x0), float(p[1] + y0)), (float(d[0]), float(d[1])), sigma_px)
    if dart_axis is not None and _meets_dart_before_tip(line, tip, dart_axis, axis_sigma_px, dart):
        return replace(line, before_tip=True)
    return line


def _meets_dart_before_tip(
    shadow: ShadowLine,
    tip: tuple[float, float],
    axis: tuple[float, float],
    axis_sigma_px: float,
    dart: np.ndarray,
) -> bool:
    """Whether ``shadow``'s line meets the dart's axis (through ``tip``, along
    ``axis`` towards the flight) before the tip, where the dart is still seen on the
    way to it (``dart``: its pixels). A shadow starts at the tip, at or past the end
    of the dart in the picture: either it is another shadow (a flight's vane's, cast
    beside the tip, which every camera finds alike) or the tip went on too far along
    something taken for the dart. Seen nearly face-on, on tuning seeds
    210,000..210,799 at 1280x720, 51 of 1,702 shadows: 17 another shadow, 34 a tip
    gone too far (``fusion`` weighs which)."""
    t, u = np.array(tip, np.float64), np.array(axis, np.float64)
    p, d = np.array(shadow.point), np.array(shadow.direction)
    m = np.column_stack([u, -d])
    sin = abs(float(m[0, 0] * m[1, 1] - m[0, 1] * m[1, 0]))
    if not sin >= MEETS_SIN:  # (also not a number)
        return False
    s, _ = np.linalg.solve(m, p - t)  # where it meets the axis, px from the tip
    line = axis_sigma_px if math.isfinite(axis_sigma_px) else 1.0
    margin = max(MEETS_PX, 3.0 * math.hypot(line, shadow.sigma_px) / sin)
    if not math.isfinite(s) or s <= margin:
        return False
    h, w = dart.shape
    ss = np.arange(0.0, min(float(s), float(h + w)) - margin, 0.5)
    nrm = np.array([-u[1], u[0]])
    seen = 0
    for off in (-1.0, 0.0, 1.0):
        q = np.round(t + ss[:, None] * u + off * nrm).astype(np.int64)
        inside = (q[:, 0] >= 0) & (q[:, 0] < w) & (q[:, 1] >= 0) & (q[:, 1] < h)
        seen = max(seen, int(dart[q[inside, 1], q[inside, 0]].sum()))
    return seen * 0.5 >= MEETS_DART_PX


def _first_direction(
    dark: np.ndarray, hidden: np.ndarray, tip: np.ndarray, reach: float
) -> tuple[np.ndarray, float] | None:
    """The direction from the tip with the most darkening (3 degree bins) and the
    darkening's typical strength."""
    ys, xs = np.mgrid[0 : dark.shape[0], 0 : dark.shape[1]]
    rx, ry = xs - tip[0], ys - tip[1]
    r = np.hypot(rx, ry)
    m = (r > 4) & (r < reach) & (dark > MIN_DARKENING) & (hidden == 0)
    if int(m.sum()) < 10:
        return None
    ang = np.degrees(np.arctan2(ry[m], rx[m])) % 360.0
    hist = np.bincount((ang / 3.0).astype(np.int64) % 120, weights=dark[m], minlength=120)
    smooth = hist + np.roll(hist, 1) + np.roll(hist, -1)
    a0 = math.radians(3.0 * int(np.argmax(smooth)) + 1.5)
    return np.array([math.cos(a0), math.sin(a0)]), float(np.median(dark[m]))


def _sections(
    dark: np.ndarray,
    hidden: np.ndarray,
    start: np.ndarray,
    axis: np.ndarray,
    reach: float,
    level: float,
) -> tuple[np.ndarray, np.ndarray, float] | None:
    """Midpoints of the shadow's cross-sections from ``start`` along ``axis``, fitted
    with a robust line: (a point near the tip, the direction, its error at the tip)."""
    ss = np.arange(3.0, max(3.0, reach), 1.0, dtype=np.float32)
    if len(ss) < MIN_SECTIONS:
        return None
    mx, my, os_ = section_grid(start, axis, ss, HALF_WIDTH_PX)
    nrm = np.array([-axis[1], axis[0]])
    prof = cv2.remap(dark, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    occ = cv2.remap(hidden, mx, my, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT,
                    borderValue=1.0)  # fmt: skip
    rows, left, right, lo, hi = section_edges(prof, level, os_)
    # Sections the dart's own pixels reach into (hiding part of the shadow) are out.
    clear = np.array(
        [not occ[k, max(0, a - 3) : b + 4].any() for k, a, b in zip(rows, lo, hi, strict=True)],
        bool,
    )
    got = robust_line(ss[rows[clear]].astype(np.float64), ((left + right) / 2)[clear], MIN_SECTIONS)
    if got is None:
        return None
    beta, sig, inl = got
    n = int(inl.sum())
    if sig > MAX_SCATTER_PX:
        return None
    # At the tip (s = 0) the line is extrapolated from sections spread over its
    # length: its error there is about sqrt(12 / n) of the midpoints' scatter.
    sigma_px = math.hypot(INFLATION * sig * math.sqrt(12.0 / max(n, 1)), FLOOR_PX)
    d = axis + nrm * beta[1]
    d /= np.linalg.norm(d)
    return start + nrm * beta[0], d, sigma_px


__all__ = ["ShadowLine", "find_shadow"]
